"""What an A2A request is (`askback.incoming.Incoming`), read once from its HTTP request.

The SDK builds a `ServerCallContext` per HTTP request through a `ServerCallContextBuilder` (its seam for this);
`IncomingContextBuilder` is the SDK's default one that also keeps the request's `Incoming` in the context's
state, so the executor and the task store's owner read the principal and the page origin from the same record.

The server's own authentication is the MCP SDK's when its `AuthContextMiddleware` runs in front (the same
(client, issuer, subject) principal as on MCP), else the A2A SDK's reading of an authenticated `scope["user"]`.
"""

from __future__ import annotations

from a2a.server.context import ServerCallContext
from a2a.server.routes import DefaultServerCallContextBuilder
from starlette.requests import Request

from askback.app import App
from askback.asgi_incoming import incoming_of_scope, token_principal
from askback.incoming import Incoming, principal_of

_KEY = "askback.incoming"


class IncomingContextBuilder(DefaultServerCallContextBuilder):
    def build(self, request: Request) -> ServerCallContext:
        call = super().build(request)
        call.state[_KEY] = incoming_of_scope(request.scope, protocol="a2a", authenticated=_authenticated(call))
        return call


def incoming_of(call: ServerCallContext) -> Incoming:
    """The call's request; a context this builder did not make (the SDK's default one) still has its headers."""
    found = call.state.get(_KEY)
    if isinstance(found, Incoming):
        return found
    headers = {str(k).lower(): str(v) for k, v in (call.state.get("headers") or {}).items()}
    return Incoming("a2a", headers, authenticated=_authenticated(call))


def principal_of_call(app: App, call: ServerCallContext) -> str | None:
    """Who is calling: the server's authentication, else the app's principal hook, else nobody."""
    return principal_of(incoming_of(call), app.principal_hook)


def _authenticated(call: ServerCallContext) -> str | None:
    token = token_principal()
    if token is not None:
        return token
    user = call.user
    return str(user.user_name) if user.is_authenticated and user.user_name else None
