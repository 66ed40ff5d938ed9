"""A FastMCP 4 app written without askback, served plain or adopted with `askback.adopt`.

Its tools are typical ones: required and bounded arguments, an action worth confirming, a credential by name,
a transfer approved on a page above an amount and run once, and a tool that already asks on its own, the
FastMCP way (2026-07-28: it returns an `InputRequiredResult` and reads `ctx.input_responses` and its own
`ctx.request_state` on the retry; 2025-11-25: `ctx.elicit`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import mcp_types as mt
from fastmcp import Context, FastMCP
from pydantic import BaseModel, Field

import askback
from tests.support.adopted_pages import CANARY  # the credential entered on the page: it must appear nowhere else

BANNER_STATE = "banner:asked-palette"  # the tool's own round state: it must come back to the tool, unchanged
Runs = list[tuple[str, dict[str, Any]]]


class Palette(BaseModel):
    colour: str = Field(default="blue", description="The base colour")
    shades: int = Field(ge=1, le=5, description="How many shades")


def build(runs: Runs | None = None) -> FastMCP:
    """The app as its author wrote it; `runs` records every time a tool's body runs (never a credential)."""
    ran = runs if runs is not None else []
    mcp = FastMCP("adopted-fastmcp-shop")

    @mcp.tool
    def deploy(
        service: Annotated[str, Field(description="Service to deploy")],
        env: Literal["staging", "production"],
        replicas: Annotated[int, Field(ge=1, le=5)] = 1,
    ) -> str:
        """Deploy a service."""
        ran.append(("deploy", {"service": service, "env": env, "replicas": replicas}))
        return f"Deployed {service} to {env} with {replicas} replicas."

    @mcp.tool
    def order(item: str, quantity: int) -> str:
        """Order something."""
        ran.append(("order", {"item": item, "quantity": quantity}))
        return f"Ordered {quantity} x {item}."

    @mcp.tool
    def connect(bank: str, api_key: Annotated[str, Field(description="the API key from the bank's developer settings",
                                                         min_length=8)]) -> str:
        """Connect a bank account."""
        ran.append(("connect", {"bank": bank, "key_ok": api_key == CANARY}))
        return f"connected {bank} with a key of {len(api_key)} characters"

    @mcp.tool
    def transfer(amount: float, to: str) -> str:
        """Send money."""
        ran.append(("transfer", {"amount": amount, "to": to}))
        return f"sent {amount:g} EUR to {to}"

    @mcp.tool
    async def banner(text: str, ctx: Context) -> str | mt.InputRequiredResult:
        """Render a banner in a palette the tool asks for itself."""
        request = ctx.request_context
        if request is not None and request.protocol_version == "2026-07-28":
            answer = (ctx.input_responses or {}).get("palette")
            if not isinstance(answer, mt.ElicitResult) or ctx.request_state != BANNER_STATE:
                schema = Palette.model_json_schema()
                return mt.InputRequiredResult(input_requests={"palette": mt.ElicitRequest(
                    params=mt.ElicitRequestFormParams(message="Which palette should the banner use?",
                                                      requested_schema=schema))}, request_state=BANNER_STATE)
            palette = Palette.model_validate(answer.content or {})
        else:
            asked = await ctx.elicit("Which palette should the banner use?", Palette)
            if asked.action != "accept":
                return "no banner"
            palette = asked.data
        ran.append(("banner", {"text": text, "shades": palette.shades}))
        return f"{text}: {palette.shades} shades of {palette.colour}"

    @mcp.tool
    async def relay(service: str, ctx: Context) -> str:
        """Deploy through another tool, in code, leaving out its environment."""
        try:
            await ctx.fastmcp.call_tool("deploy", {"service": service})
        except Exception as exc:  # the app's own handling of its own call
            return f"in code: {type(exc).__name__}"
        return "in code: ran"

    return mcp


OPTIONS = {
    "order": askback.ToolOptions(confirm="Order {quantity} x {item}?"),
    "connect": askback.ToolOptions(secret=("api_key",)),
    "transfer": askback.ToolOptions(confirm="Send {amount} EUR to {to}?", out_of_band=askback.Above("amount", 1000),
                                    once=True),
}


def adopted(runs: Runs | None = None) -> Any:
    """The same app with the two lines, served with askback's pages beside FastMCP's own HTTP app."""
    return askback.adopt(build(runs), tools=OPTIONS).streamable_http_app()
