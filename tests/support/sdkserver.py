"""A server built with the official MCP SDK (`MCPServer`) whose tool elicits through a resolver."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.resolve import Elicit, Resolve
from pydantic import BaseModel, Field
from starlette.applications import Starlette
from starlette.types import Receive, Scope, Send


class Palette(BaseModel):
    colour: str = Field(default="blue", description="The base colour")
    shades: int = Field(ge=1, le=5, description="How many shades")
    style: str = Field(default="flat", json_schema_extra={"enum": ["flat", "gradient"]})


def ask_palette() -> Elicit[Palette]:
    return Elicit("Which palette should the banner use?", Palette)


def build() -> MCPServer:
    mcp = MCPServer("palette-shop")

    @mcp.tool()
    def banner(text: str, palette: Annotated[Palette, Resolve(ask_palette)]) -> str:
        """Render a banner in a palette it asks for."""
        return f"{text}: {palette.shades} {palette.style} shades of {palette.colour}"

    return mcp


def app(*, handshake_only: bool = False) -> Starlette | HandshakeOnly:
    """The SDK's streamable HTTP app; with `handshake_only`, one that refuses 2026-07-28 like an older server."""
    starlette = build().streamable_http_app()
    return HandshakeOnly(starlette) if handshake_only else starlette


class HandshakeOnly:
    """ASGI wrapper: a 2026-07-28 request gets the HTTP 400 an older server answers with."""

    def __init__(self, inner: Starlette) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and (b"mcp-protocol-version", b"2026-07-28") in scope["headers"]:
            body = (b'{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"Unsupported protocol version",'
                    b'"data":{"supported":["2025-11-25"],"requested":"2026-07-28"}}}')
            await send({"type": "http.response.start", "status": 400,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.inner(scope, receive, send)


__all__ = ["app", "build"]
