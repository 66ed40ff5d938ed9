"""The app both paths serve in the differential test: one tool per kind of round, a prompt, a resource."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

import askback

KEY = "diff-key-0123456789abcdefghijklmnopqrstuvwxyz-0123"  # >= 32 bytes once decoded; the same for both servers


class Receipt(BaseModel):
    amount: int
    to: str


def make_app(*, principal: Any = None) -> askback.App:
    import base64

    keys = base64.urlsafe_b64encode(KEY.encode()).decode().rstrip("=")
    app = askback.App("diff", keys=keys, store="memory://", principal=principal)

    @app.tool()
    def greet(name: Annotated[str, askback.Ask("What is your name?")]) -> str:
        """Asks a value, then greets."""
        return f"Hello, {name}!"

    @app.tool()
    def pick(colour: Annotated[str, askback.OneOf(lambda: ["red", "green", "blue"])]) -> str:
        return f"picked {colour}"

    @app.tool()
    def delete(path: str, sure: Annotated[bool, askback.Confirm("Delete {path}?")]) -> str:
        return f"deleted {path}"

    @app.tool()
    def trip(
        origin: Annotated[str, askback.Ask("From where?")],
        destination: Annotated[str, askback.Ask("To where?")],
        seats: Annotated[int, Field(ge=1, le=9, description="How many seats")],
        ok: Annotated[bool, askback.Confirm("Book {seats} seats from {origin} to {destination}?")],
    ) -> dict[str, Any]:
        """Several values, then a confirmation that needs them: several rounds."""
        return {"origin": origin, "destination": destination, "seats": seats}

    @app.tool()
    def pay(amount: Annotated[int, Field(gt=0)], to: str) -> Receipt:
        """A tool with an output schema."""
        return Receipt(amount=amount, to=to)

    @app.tool()
    def shaped() -> dict[str, Any]:
        """A result shaped by the author (unknown keys are the SDK's sieve's to drop)."""
        return {"content": [{"type": "text", "text": "shaped"}], "extraKey": 1}

    @app.tool()
    def listing() -> list[str]:
        return ["a", "b"]

    @app.tool()
    def nothing() -> None:
        return None

    @app.tool()
    def refuses(reason: str) -> str:
        raise askback.ToolError(f"cannot: {reason}")

    @app.tool()
    def crashes() -> str:
        raise RuntimeError("boom")

    @app.tool()
    def model_says(answer: Annotated[str, askback.Sample("Name a colour", max_tokens=10)]) -> str:
        return f"the model said {answer}"

    @app.tool()
    def where(roots: Annotated[list[askback.Root], askback.Roots()]) -> str:
        return ", ".join(r.uri for r in roots)

    @app.tool()
    def who(caller: askback.Caller, ok: Annotated[bool, askback.Confirm("Go?")]) -> str:
        return f"principal={caller.principal}"

    @app.tool(once=True)
    def once(ok: Annotated[bool, askback.Confirm("Once?")]) -> str:
        return "ran once"

    @app.tool()
    def regional(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
        return f"region {region}"

    @app.prompt()
    def haiku(topic: Annotated[str, askback.Ask("A haiku about what?")]) -> str:
        return f"Write a haiku about {topic}."

    @app.resource("notes://{topic}")
    def note(topic: str, depth: Annotated[str, askback.OneOf(lambda: ["short", "long"])]) -> str:
        return f"{depth} note on {topic}"

    @app.resource("blob://{name}")
    def blob(name: str) -> bytes:
        return name.encode()

    @app.resource("data://{name}")
    def data(name: str) -> dict[str, str]:
        return {"name": name}

    return app
