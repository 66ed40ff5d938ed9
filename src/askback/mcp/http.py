"""Streamable HTTP for both protocol eras on one endpoint, plus stdio.

Requests whose `MCP-Protocol-Version` header names a 2026-07-28 revision are stateless single exchanges;
they are served with JSON responses (no SSE framing cost). Everything else (a legacy `initialize`, or a
session's later requests) goes to the SDK's session transport with SSE, which keeps the back-channel that
handshake-era elicitation needs. Legacy sessions live in this process's memory: several workers need sticky
routing for them; 2026-07-28 clients never do.
"""

from __future__ import annotations

import codecs
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Sequence
from typing import Any

from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, TransportSecuritySettings
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp_types import PARSE_ERROR
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route
from starlette.types import Message, Receive, Scope, Send

from askback.app import App
from askback.config import ExposureError, HostChecks, env_flag
from askback.mcp.fast import FastPath
from askback.mcp.sdkfacts import Facts
from askback.mcp.server import AppServer
from askback.web.serving import pages_for, warn_if_development_mode

_HEADER = MCP_PROTOCOL_VERSION_HEADER.lower().encode("ascii")
_MAX_BODY = DEFAULT_MAX_REQUEST_BODY_SIZE  # the managers below keep the SDK's default limit
FAST_PATH_ENV = "ASKBACK_FAST_PATH"
fast_logger = logging.getLogger("askback.mcp.fast")


class _EraRouter:
    """ASGI endpoint sending each request to the manager for its protocol era, its body checked as UTF-8 first."""

    def __init__(self, modern: StreamableHTTPSessionManager, legacy: StreamableHTTPSessionManager) -> None:
        self.modern = modern
        self.legacy = legacy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        version = next((v.decode("latin-1") for k, v in scope["headers"] if k == _HEADER), None)
        manager = self.modern if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS else self.legacy
        if scope["method"] == "POST":
            checked = await utf8_body(scope, receive)
            if checked is None:
                await _NOT_UTF8(scope, receive, send)
                return
            receive = checked
        await manager.handle_request(scope, receive, send)


# JSON exchanged between systems is UTF-8 (RFC 8259 §8.1). The SDK's 2026-07-28 path parses the body with
# `json.loads(bytes)`, which detects UTF-16 and UTF-32 (with or without a BOM) and decodes lone surrogates,
# so such a body would be parsed and run. Refused here, for both eras, as the SDK refuses malformed JSON.
_NOT_UTF8 = JSONResponse(
    {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": PARSE_ERROR, "message": "Parse error: the body is not UTF-8; JSON-RPC here is UTF-8 only"},
    },
    status_code=400,
)
_BOM = b"\xef\xbb\xbf"


async def utf8_body(scope: Scope, receive: Receive) -> Receive | None:
    """Read the request body and check it is UTF-8 with no NUL byte; a `receive` replaying it, or None.

    A NUL byte can never be in a UTF-8 JSON text (control characters in strings are escaped), and it is what
    UTF-16 and UTF-32 without a BOM look like. A UTF-8 BOM is dropped: RFC 8259 says a sender must not add
    one and a parser may ignore it, and ignoring it is what the SDK's modern path does already, so both eras
    now agree. A body longer than the SDK's limit is passed on unchecked from that point: the SDK's own
    limit refuses it, and it is never held here beyond that limit. This runs before the SDK's Host and
    Origin checks; it runs nothing, and answers only with a parse error.
    """
    declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
    if declared is not None and declared.isdigit() and int(declared) > _MAX_BODY:
        return receive
    decoder = codecs.getincrementaldecoder("utf-8")()
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break  # a disconnect: the SDK sees it in turn
        chunk: bytes = message.get("body", b"")
        more = bool(message.get("more_body", False))
        if size == 0 and chunk.startswith(_BOM):
            chunk = chunk[len(_BOM) :]
            message["body"] = chunk
        size += len(chunk)
        try:
            decoder.decode(chunk, final=not more)
        except UnicodeDecodeError:
            return None
        if b"\x00" in chunk:
            return None
        if not more or size > _MAX_BODY:
            break
    pending = iter(messages)

    async def replay() -> Message:
        return next(pending, None) or await receive()

    return replay


def _fast_path_on(requested: bool | None) -> bool:
    if requested is not None:
        return requested
    if not os.environ.get(FAST_PATH_ENV, "").strip():
        return True  # on unless turned off
    try:
        return env_flag(FAST_PATH_ENV)
    except ExposureError as exc:
        raise ExposureError(f"{FAST_PATH_ENV}: use 1 (the default) or 0") from exc


def _security(checks: HostChecks) -> TransportSecuritySettings:
    """The SDK transport's Host/Origin checks for `checks` (`HostChecks` decides them; ExposureError)."""
    if checks.hosts is None:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    origins = list(checks.origins or ())
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=list(checks.hosts), allowed_origins=origins
    )


def http_app(
    app: App,
    *,
    host: str = "127.0.0.1",
    path: str = "/mcp",
    server: Server[Any] | None = None,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    allow_any_origin: bool = False,
    extra_routes: Sequence[BaseRoute] = (),
    a2a: Any = True,
    fast_path: bool | None = None,
) -> Starlette:
    """A Starlette app serving `app` over streamable HTTP at `path` (both eras), and as an A2A agent.

    `a2a`: True serves A2A (JSON-RPC at `/a2a`, the card at `/.well-known/agent-card.json`) when `a2a-sdk` is
    installed; False not at all; or an `askback.a2a.A2AServer` built with other settings.

    Every request must carry an allowed `Host` and, if it sends one, an allowed `Origin` (`askback.config.
    HostChecks`): by default the loopback names when `host` is a loopback address; off loopback, `allowed_hosts`
    (and `allowed_origins`, which default to those hosts over http and https) or an explicit
    `allow_any_origin=True`, else `ExposureError`.

    `fast_path` (default on; `ASKBACK_FAST_PATH=0` turns it off) answers well-formed 2026-07-28 `tools/call`,
    `prompts/get` and `resources/read` requests without the SDK's per-request machinery and hands everything
    else to the SDK (`askback.mcp.fast`); off, every request takes the SDK path. A `server` of your own is
    always served by the SDK path alone.
    """
    entry = AppServer(app) if server is None else None
    sdk_server = server or entry.server  # type: ignore[union-attr]
    checks = HostChecks.resolve(host, allowed_hosts, allowed_origins, allow_any_origin)
    security = _security(checks)
    modern = StreamableHTTPSessionManager(
        app=sdk_server, json_response=True, stateless=True, security_settings=security
    )
    legacy = StreamableHTTPSessionManager(
        app=sdk_server, json_response=False, stateless=False, security_settings=security
    )
    router: Any = _EraRouter(modern, legacy)
    facts = Facts(app.name, app.version)
    if entry is not None and _fast_path_on(fast_path):
        router = FastPath(
            app,
            router,
            checks=checks,
            calls=entry.calls,
            facts=facts,
            header_tools=frozenset(entry.header_schemas),
            resource_for=entry.resource_for,
            max_body=_MAX_BODY,
            max_answers=entry.guard.max_answers,
        )
    a2a_server = _a2a_server(app, a2a, security)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        await app.start()  # keys and store at start-up, not on the first request
        if isinstance(router, FastPath):
            await facts.get()  # the SDK's request models built now, not on the first request
        warn_if_development_mode(app)
        try:
            async with modern.run(), legacy.run():
                if a2a_server is None:
                    yield
                else:
                    async with a2a_server.running():
                        yield
        finally:
            if isinstance(router, FastPath):
                counts = router.counts
                fast_logger.info("lean path answered %d requests and handed %d to the SDK path (%s)",
                                 counts.answered, counts.handed_on,
                                 ", ".join(f"{r}: {n}" for r, n in sorted(counts.reasons.items())) or "none")
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
    """Starlette, with a shortcut for MCP requests while the app has no middleware of the user's.

    Without user middleware, a request for the MCP path at the app's root goes straight to the era router:
    Starlette's own error and exception middleware and its route matching are a measurable share of a small
    request, and the SDK's transport answers errors itself. Once a user adds middleware (authentication, CORS,
    tracing, rate limits), every request takes Starlette's ordinary path so that middleware sees it; so do
    other routes, lifespan and a mounted app's requests. Starlette refuses `add_middleware` once the app has
    started, so the choice cannot change under a running server.
    """

    def __init__(self, mcp_path: str, router: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._mcp_path = mcp_path
        self._router = router

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            not self.user_middleware
            and scope["type"] == "http"
            and scope["path"] == self._mcp_path
            and not scope.get("root_path")
            and scope["method"] in ("GET", "POST", "DELETE")
        ):
            scope["app"] = self
            await self._router(scope, receive, send)
            return
        await super().__call__(scope, receive, send)
