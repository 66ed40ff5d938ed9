"""What an MCP request on the SDK path is (`askback.incoming.Incoming`), read once from its request context.

The SDK's authentication (`authenticated_principal`) is its `authenticated`; over stdio there is no HTTP
request, so no headers, user or URL. The SDK path's calls and its tasks (`askback.mcp.server`,
`askback.mcp.tasks`) read the principal and the page origin from it.
"""

from __future__ import annotations

from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.request_state import authenticated_principal

from askback.asgi_incoming import incoming_of_scope
from askback.incoming import Incoming


def incoming_of(ctx: ServerRequestContext[Any]) -> Incoming:
    authenticated = authenticated_principal(ctx)
    scope = getattr(ctx.request, "scope", None)
    if scope is None:
        return Incoming(ctx.protocol_version, authenticated=authenticated)
    return incoming_of_scope(scope, protocol=ctx.protocol_version, authenticated=authenticated)
