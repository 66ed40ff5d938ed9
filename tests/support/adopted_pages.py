"""An `MCPServer` app written without askback whose tools need askback's pages once adopted: a credential by
argument name, an approval on a page above an amount, a single-use final call."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from pydantic import Field

import askback

CANARY = "sk_live_CANARY_51f0c9e2d7a84b36"  # the credential a test enters on the page: it must appear nowhere else
OPTIONS = {
    "connect": askback.ToolOptions(secret=("api_key",)),
    "transfer": askback.ToolOptions(confirm="Send {amount} EUR to {to}?", out_of_band=askback.Above("amount", 1000),
                                    once=True),
}


def build(runs: list[tuple[str, dict[str, Any]]]) -> MCPServer:
    """The app as its author wrote it; `runs` records each run of a tool (the key's length, never the key)."""
    mcp = MCPServer("pages-shop")

    @mcp.tool()
    def connect(bank: str, api_key: Annotated[str, Field(description="the API key from the bank's developer settings",
                                                         min_length=8)]) -> str:
        """Connect a bank account."""
        runs.append(("connect", {"bank": bank, "key_ok": api_key == CANARY}))
        return f"connected {bank} with a key of {len(api_key)} characters"

    @mcp.tool()
    def transfer(amount: float, to: str) -> str:
        """Send money."""
        runs.append(("transfer", {"amount": amount, "to": to}))
        return f"sent {amount:g} EUR to {to}"

    return mcp


def adopted(runs: list[tuple[str, dict[str, Any]]]) -> Any:
    """The adopted app's ASGI app, served with askback's pages beside the SDK's."""
    return askback.adopt(build(runs), tools=OPTIONS).streamable_http_app()
