"""Streamable HTTP for both protocol eras on one endpoint, plus stdio.

Requests whose `MCP-Protocol-Version` header names a 2026-07-28 revision are stateless single exchanges;
they are served with JSON responses (no SSE framing cost). Everything else (a legacy `initialize`, or a
session's later requests) goes to the SDK's session transport with SSE, which keeps the back-channel that
handshake-era elicitation needs. Legacy sessions live in this process's memory: several workers need sticky
routing for them; 2026-07-28 clients never do.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from askback.app import App
from askback.mcp.server import build_server
from askback.web.serving import pages_for

_HEADER = MCP_PROTOCOL_VERSION_HEADER.lower().encode("ascii")


class _EraRouter:
    """ASGI endpoint sending each request to the manager for its protocol era."""

    def __init__(self, modern: StreamableHTTPSessionManager, legacy: StreamableHTTPSessionManager) -> None:
        self.modern = modern
        self.legacy = legacy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        version = next((v.decode("latin-1") for k, v in scope["headers"] if k == _HEADER), None)
        manager = self.modern if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS else self.legacy
        await manager.handle_request(scope, receive, send)


def _security(host: str, allowed_hosts: Sequence[str] | None) -> TransportSecuritySettings | None:
    if allowed_hosts is not None:
        origins = [f"{scheme}://{h}" for h in allowed_hosts for scheme in ("https", "http")]
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True, allowed_hosts=list(allowed_hosts), allowed_origins=origins
        )
    if host in ("127.0.0.1", "localhost", "::1"):
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
    return None


def http_app(
    app: App,
    *,
    host: str = "127.0.0.1",
    path: str = "/mcp",
    server: Server[Any] | None = None,
    allowed_hosts: Sequence[str] | None = None,
    extra_routes: Sequence[BaseRoute] = (),
    a2a: Any = True,
) -> Starlette:
    """A Starlette app serving `app` over streamable HTTP at `path` (both eras), and as an A2A agent.

    `a2a`: True serves A2A (JSON-RPC at `/a2a`, the card at `/.well-known/agent-card.json`) when `a2a-sdk` is
    installed; False not at all; or an `askback.a2a.A2AServer` built with other settings.
    """
    sdk_server = server or build_server(app)
    security = _security(host, allowed_hosts)
    modern = StreamableHTTPSessionManager(
        app=sdk_server, json_response=True, stateless=True, security_settings=security
    )
    legacy = StreamableHTTPSessionManager(
        app=sdk_server, json_response=False, stateless=False, security_settings=security
    )
    router = _EraRouter(modern, legacy)
    a2a_server = _a2a_server(app, a2a, security)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        await app.start()  # keys and store at start-up, not on the first request
        try:
            async with modern.run(), legacy.run():
                if a2a_server is None:
                    yield
                else:
                    async with a2a_server.running():
                        yield
        finally:
            await app.stop()

    routes: list[BaseRoute] = [
        Route(path, endpoint=router, methods=["GET", "POST", "DELETE"]),
        *pages_for(app, host),
        *extra_routes,
        # Last: A2A's routes (JSON-RPC binding only; the SDK's REST binding would shadow what follows it).
        *(a2a_server.routes if a2a_server is not None else []),
    ]
    return _McpStarlette(path, router, routes=routes, lifespan=lifespan)


def _a2a_server(app: App, a2a: Any, security: TransportSecuritySettings | None) -> Any:
    if a2a is False or a2a is None:
        return None
    if a2a is True:
        try:
            from askback.a2a import A2AServer
        except ImportError:  # a2a-sdk is an optional extra: without it the app serves MCP only
            return None
        a2a = A2AServer(app)
    if a2a.security is None:
        a2a.security = security  # the same Host/Origin checks as MCP's endpoint
    return a2a


class _McpStarlette(Starlette):
    """Starlette, except that a request for the MCP path at the app's root goes straight to the era router.

    Every MCP request would otherwise pass Starlette's error and exception middleware and its route matching,
    a measurable share of a small request; the SDK's transport answers errors itself. Anything else (other
    routes, lifespan, a mounted app's requests) takes Starlette's ordinary path.
    """

    def __init__(self, mcp_path: str, router: _EraRouter, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._mcp_path = mcp_path
        self._router = router

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["path"] == self._mcp_path
            and not scope.get("root_path")
            and scope["method"] in ("GET", "POST", "DELETE")
        ):
            scope["app"] = self
            await self._router(scope, receive, send)
            return
        await super().__call__(scope, receive, send)
