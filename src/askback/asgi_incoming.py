"""An HTTP request's ASGI scope read into an `Incoming`: the one reading every HTTP wire shares.

The MCP SDK path, the fast route and A2A each hand their request's scope here, with the principal their own
authentication named, so the headers, the user and the URL the request came to are read the same on each.
"""

from __future__ import annotations

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import principal_components
from mcp.server.request_state import compact_json
from starlette.datastructures import URL
from starlette.types import Scope

from askback.incoming import Incoming, Reached


def incoming_of_scope(scope: Scope, *, protocol: str, authenticated: str | None) -> Incoming:
    """The request of an HTTP `scope`: headers by lower-case name (the last of repeated ones), `scope["user"]`,
    and the URL it came to (scheme from the scope, so https when it came over TLS; host from `Host`)."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
    url = URL(scope=scope)
    reached = Reached(url.scheme, (url.hostname or "").lower(), url.port, url.path)
    return Incoming(protocol, headers, scope.get("user"), reached, authenticated)


def token_principal() -> str | None:
    """The principal of the MCP SDK's authentication (`AuthContextMiddleware`), where there is no SDK request
    context to hand `mcp.server.request_state.authenticated_principal`: the same (client, issuer, subject)."""
    token = get_access_token()
    return compact_json(principal_components(token)) if token is not None else None
