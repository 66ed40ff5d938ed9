"""Who an MCP request is from: the SDK's authentication when the server uses it, else the app's own hook.

One reading for the SDK path's calls and its tasks (`askback.mcp.server`, `askback.mcp.tasks`).
"""

from __future__ import annotations

from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.request_state import authenticated_principal

from askback.app import App, Request


def principal_of(app: App, ctx: ServerRequestContext[Any]) -> str | None:
    """The SDK's authentication names the principal when the server uses it; the app's hook covers the rest."""
    principal = authenticated_principal(ctx)
    if principal is None and app.principal_hook is not None:
        principal = app.principal_hook(_request_of(ctx))
    return principal


def _request_of(ctx: ServerRequestContext[Any]) -> Request:
    http = ctx.request
    headers: dict[str, str] = {}
    user = None
    if http is not None and hasattr(http, "headers"):
        headers = {k.lower(): v for k, v in http.headers.items()}
        user = http.scope.get("user") if hasattr(http, "scope") else None
    return Request(protocol=ctx.protocol_version, headers=headers, user=user)
