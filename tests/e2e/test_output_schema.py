"""Every tool result conforms to the tool's `outputSchema`, refusals included.

The spec: a tool with an output schema MUST return conforming `structuredContent`; clients validate it unless
the result is an error (`isError: true`). So for such a tool a refusal (a declined or cancelled confirmation,
a value that cannot be asked, no options, too many rounds) is a tool error whose message is the text content,
with no `structuredContent`; tools without an output schema keep `structuredContent {outcome, message,
missing}`. Both carry the same refusal under `_meta["askback/refusal"]` for programs that want the outcome.

Shown three ways: a raw client checking each result with a real JSON Schema validator against the schema
`tools/list` advertised, the official Python SDK `Client`, and the TypeScript SDK v2 client (which raised
-32602 "Structured content does not match the tool's output schema" on a decline before).
"""

from collections.abc import Callable
from typing import Annotated, Any

import jsonschema
import mcp_types as types
import pytest
from mcp.client.client import Client
from pydantic import BaseModel, Field

import askback
from askback.demo import app as demo_app
from tests.support import tsclient
from tests.support.rawclient import RawClient, accept

Serve = Callable[[askback.App], str]
TO = "DE44500105175407324931"
SAVINGS = "DE02120300000000202051"
REFUSAL = "askback/refusal"


class Ticket(BaseModel):
    number: int
    title: str


def ticket_app() -> tuple[askback.App, list[str]]:
    """Tools with an output schema for each refusal `decide` can make, and one tool without a schema."""
    app = askback.App("tickets", max_rounds=1)
    ran: list[str] = []

    def no_queues(caller: askback.Caller) -> list[askback.Option]:
        return []

    @app.tool()
    def close_ticket(number: int, ok: Annotated[bool, askback.Confirm("Close ticket {number}?")]) -> Ticket:
        ran.append("close_ticket")
        return Ticket(number=number, title="closed")

    @app.tool()
    def file_ticket(title: str, queue: Annotated[str, askback.OneOf(no_queues)]) -> Ticket:
        ran.append("file_ticket")
        return Ticket(number=1, title=title)

    @app.tool()
    def rename_ticket(number: Annotated[int, Field(gt=0)], title: str) -> Ticket:
        ran.append("rename_ticket")
        return Ticket(number=number, title=title)

    @app.tool()
    def close_plain(number: int, ok: Annotated[bool, askback.Confirm("Close ticket {number}?")]) -> str:
        ran.append("close_plain")
        return "closed"

    return app, ran


def listed_schemas(client: RawClient) -> dict[str, Any]:
    tools = client.send("tools/list")["result"]["tools"]
    return {t["name"]: t.get("outputSchema") for t in tools}


def assert_conforms(result: dict[str, Any], schema: dict[str, Any] | None) -> None:
    """What a validating client requires: conforming structured content, or an error result."""
    assert result["resultType"] == "complete", result
    if schema is None:
        return
    if result.get("isError") is True:
        # Errors skip validation in the clients, but the spec still says MUST conform: carry none.
        assert "structuredContent" not in result, result
        return
    assert "structuredContent" in result, result
    jsonschema.validate(result["structuredContent"], schema, cls=jsonschema.Draft202012Validator)


def text(result: dict[str, Any]) -> str:
    return "".join(c["text"] for c in result["content"] if c["type"] == "text")


# -- the raw wire, each refusal, checked against the advertised schema ---------------------------------------------
@pytest.mark.parametrize(("answer", "outcome"), [
    ({"action": "decline"}, "declined"),
    ({"action": "cancel"}, "cancelled"),
    (accept(confirm=False), "declined"),
])
def test_demo_transfer_refusals_conform_to_its_output_schema(serve: Serve, answer: dict[str, Any],
                                                            outcome: str) -> None:
    url = serve(demo_app)
    with RawClient(url) as client:
        schema = listed_schemas(client)["transfer"]
        assert schema is not None
        asked = client.call("transfer", {"amount": 50, "to": TO, "from_account": SAVINGS})["result"]
        assert list(asked["inputRequests"]) == ["confirm"], asked
        result = client.call("transfer", {"amount": 50, "to": TO, "from_account": SAVINGS},
                             state=asked["requestState"], responses={"confirm": answer})["result"]
    assert_conforms(result, schema)
    assert result["isError"] is True
    assert f"transfer was {outcome}" in text(result) and "Nothing was done" in text(result)
    assert result["_meta"][REFUSAL] == {"outcome": outcome, "message": text(result)}


def test_demo_transfer_without_forms_is_a_missing_capability_naming_what_is_missing(serve: Serve) -> None:
    url = serve(demo_app)
    with RawClient(url, capabilities={}) as client:
        error = client.call("transfer", {"amount": 50})["error"]
    assert error["code"] == -32021 and error["data"]["requiredCapabilities"] == {"elicitation": {"form": {}}}
    assert [m["name"] for m in error["data"]["missing"]] == ["to", "from_account", "confirm"]
    assert error["data"]["missing"][0]["schema"]["description"] == "Recipient IBAN"


def test_every_refusal_of_a_tool_with_an_output_schema_conforms(serve: Serve) -> None:
    app, ran = ticket_app()
    url = serve(app)
    with RawClient(url) as client, RawClient(url, capabilities={}) as formless:
        schemas = listed_schemas(client)
        assert all(schemas[name] is not None for name in ("close_ticket", "file_ticket", "rename_ticket"))
        asked = client.call("close_ticket", {"number": 7})["result"]
        results = {
            "declined": client.call("close_ticket", {"number": 7}, state=asked["requestState"],
                                    responses={"ok": {"action": "decline"}})["result"],
            "no_options": client.call("file_ticket", {"title": "broken"})["result"],
            "cannot_ask": formless.call("rename_ticket", {})["result"],
        }
        first = client.call("rename_ticket", {"title": "x"})["result"]  # asks for number: round 1 of 1
        results["too_many_rounds"] = client.call("rename_ticket", {"title": "x"}, state=first["requestState"],
                                                 responses={"number": accept(number=-1)})["result"]
    for outcome, result in results.items():
        tool = {"declined": "close_ticket", "no_options": "file_ticket"}.get(outcome, "rename_ticket")
        assert_conforms(result, schemas[tool])
        assert result["isError"] is True, (outcome, result)
        assert result["_meta"][REFUSAL]["outcome"] == outcome, (outcome, result)
    assert ran == []


def test_a_tool_without_an_output_schema_keeps_the_structured_refusal(serve: Serve) -> None:
    app, ran = ticket_app()
    url = serve(app)
    with RawClient(url) as client:
        assert listed_schemas(client)["close_plain"] is None
        asked = client.call("close_plain", {"number": 7})["result"]
        result = client.call("close_plain", {"number": 7}, state=asked["requestState"],
                             responses={"ok": {"action": "decline"}})["result"]
    assert result["isError"] is False  # a deliberate outcome, not a failure, where no schema forbids it
    assert result["structuredContent"] == {"outcome": "declined", "message": text(result)}
    assert result["_meta"][REFUSAL] == result["structuredContent"]
    assert ran == []


# -- the official Python SDK client --------------------------------------------------------------------------------
@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
async def test_python_sdk_client_gets_the_decline_message(serve: Serve, mode: str) -> None:
    url = serve(demo_app)
    asked: list[str] = []

    async def person(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestFormParams)
        field = next(iter(params.requested_schema["properties"]))
        asked.append(field)
        if field == "confirm":
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content={field: {"to": TO, "from_account": SAVINGS}[field]})

    async with Client(url, mode=mode, elicitation_callback=person) as client:
        await client.list_tools()  # the client now knows transfer's outputSchema and validates against it
        result = await client.call_tool("transfer", {"amount": 50})
    assert asked == ["to", "from_account", "confirm"]
    assert result.is_error is True
    assert result.structured_content is None
    (block,) = result.content
    assert isinstance(block, types.TextContent)
    assert block.text == "transfer was declined when asked for confirm. Nothing was done."


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
async def test_python_sdk_client_gets_the_cannot_ask_message(serve: Serve, mode: str) -> None:
    app, ran = ticket_app()
    async with Client(serve(app), mode=mode) as client:  # no elicitation callback: no elicitation capability
        await client.list_tools()  # rename_ticket has an outputSchema the client validates against
        result = await client.call_tool("rename_ticket", {})
    assert result.is_error is True
    assert result.structured_content is None
    (block,) = result.content
    assert isinstance(block, types.TextContent)
    assert "rename_ticket is missing values it cannot ask for here: number (" in block.text
    assert "Call rename_ticket again with these arguments: number, title." in block.text
    assert ran == []


# -- the TypeScript SDK v2 client ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_typescript_sdk_client_gets_the_decline_message(serve: Serve, mode: str) -> None:
    output = tsclient.run("transfer.mjs", serve(demo_app), mode, "decline")
    assert output["ok"] is True, output  # before: -32602 "Structured content does not match ..."
    assert output["asked"] == ["to", "from_account", "confirm"]
    result = output["result"]
    assert result["isError"] is True and "structuredContent" not in result, result
    assert result["content"] == [{"type": "text",
                                  "text": "transfer was declined when asked for confirm. Nothing was done."}]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_typescript_sdk_client_gets_the_missing_capability_message(serve: Serve, mode: str) -> None:
    # A confirmation only a person can give, and a client that declared no forms: MCP's -32021, whose message
    # (naming each missing value) reaches the application instead of an output-schema mismatch.
    output = tsclient.run("transfer.mjs", serve(demo_app), mode, "cannot_ask")
    assert output["ok"] is False and output["code"] == -32021, output
    assert output["asked"] == []
    assert "transfer needs what this client did not declare: confirm (form elicitation)." in output["error"]
    assert "send these missing values as arguments: to, from_account." in output["error"]
