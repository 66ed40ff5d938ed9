"""Streamable HTTP for both protocol eras on one endpoint, and A2A beside it.

The endpoint is the 2026-07-28 fast route (`askback.mcp.fast`, on the SDK's public checks, so the MCP SDK's
modules load with it) in front of the SDK path (`askback.mcp.sdkpath`). The SDK path and the A2A agent are built
on first need (`askback.web.ondemand`), never in the background: the server listens, and the fast route answers,
before either is built, and a server whose clients never need them never builds them.
Legacy sessions live in this process's memory: several workers need sticky routing for them; 2026-07-28 clients
never do.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from askback.a2a.paths import A2A_PATH, AGENT_CARD_PATH
from askback.app import App
from askback.config import ExposureError, HostChecks, env_flag
from askback.core.errors import INTERNAL_ERROR
from askback.mcp.body import Body
from askback.mcp.calls import Calls, ResourceLookup
from askback.mcp.checks import header_schemas, max_answers
from askback.mcp.fast import FastRoute
from askback.mcp.tasks import McpTasks
from askback.web.hostcheck import HostCheck
from askback.web.logs import guard_logs
from askback.web.ondemand import OnDemand, Unavailable
from askback.web.serving import pages_for, warn_if_development_mode

if TYPE_CHECKING:
    from mcp.server.lowlevel.server import Server

    from askback.mcp.sdkpath import SdkPath

FAST_ROUTE_ENV = "ASKBACK_FAST_ROUTE"
OLD_FAST_ROUTE_ENV = "ASKBACK_FAST_PATH"  # its earlier name, still read so a deployment that set it keeps its setting
fast_logger = logging.getLogger("askback.mcp.fast")
logger = logging.getLogger("askback.serve")


def _fast_route_on(requested: bool | None) -> bool:
    if requested is not None:
        return requested
    name = next((n for n in (FAST_ROUTE_ENV, OLD_FAST_ROUTE_ENV) if os.environ.get(n, "").strip()), None)
    if name is None:
        return True  # on unless turned off
    try:
        return env_flag(name)
    except ExposureError as exc:
        raise ExposureError(f"{name}: use 1 (the default) or 0") from exc


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
    fast_route: bool | None = None,
) -> Starlette:
    """A Starlette app serving `app` over streamable HTTP at `path` (both eras), and as an A2A agent.

    `a2a`: True serves A2A (JSON-RPC at `/a2a`, the card at `/.well-known/agent-card.json`) when `a2a-sdk` is
    installed; False not at all; or an `askback.a2a.A2AServer` built with other settings.

    Every request must carry an allowed `Host` and, if it sends one, an allowed `Origin` (`askback.config.
    HostChecks`): by default the loopback names when `host` is a loopback address; off loopback, `allowed_hosts`
    (and `allowed_origins`, which default to those hosts over http and https) or an explicit
    `allow_any_origin=True`, else `ExposureError`.

    `fast_route` (default on; `ASKBACK_FAST_ROUTE=0` turns it off) answers well-formed 2026-07-28 `tools/call`,
    `prompts/get` and `resources/read` requests without the SDK's per-request machinery and hands everything
    else to the SDK (`askback.mcp.fast`); off, every request takes the SDK path. A `server` of your own is
    always served by the SDK path alone.
    """
    checks = HostChecks.resolve(host, allowed_hosts, allowed_origins, allow_any_origin)
    guard_logs()  # in every process that builds a server: no ticket or payload in its log (`askback.web.logs`)
    calls = Calls(app) if server is None else None
    tasks = McpTasks(app) if server is None else None  # one task runner for both entries
    sdk: OnDemand[SdkPath] = OnDemand("the MCP SDK path", lambda: _sdk_path(app, server, calls, tasks, checks),
                                      running=lambda built: built.running())
    a2a_part = _a2a(app, a2a, checks)
    fast = calls is not None and _fast_route_on(fast_route)
    router: Any = _SdkEndpoint(sdk)
    if fast:
        assert calls is not None
        router = FastRoute(
            app,
            router,
            checks=checks,
            calls=calls,
            tasks=tasks if tasks is not None and tasks.enabled else None,
            header_tools=frozenset(header_schemas(app)),
            resource_lookup=_resource_lookup(sdk),
            max_answers=max_answers(app),
        )

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        await app.start()  # keys and store at start-up, not on the first request
        warn_if_development_mode(app)
        try:
            async with sdk.lifespan(), _lifespan_of(a2a_part):
                yield
        finally:
            if isinstance(router, FastRoute):
                counts = router.counts
                fast_logger.info("fast route answered %d requests and handed %d to the SDK path (%s)",
                                 counts.answered, counts.handed_on,
                                 ", ".join(f"{r}: {n}" for r, n in sorted(counts.reasons.items())) or "none")
            await app.stop()

    routes: list[BaseRoute] = [
        Route(path, endpoint=router, methods=["GET", "POST", "DELETE"]),
        *pages_for(app, host, checks),
        *extra_routes,
        # Last: A2A's routes (JSON-RPC binding only; the SDK's REST binding would shadow what follows it).
        *(_a2a_routes(a2a_part, _a2a_path(a2a)) if a2a_part is not None else []),
    ]
    return _McpStarlette(path, router, HostCheck(checks), routes=routes, lifespan=lifespan)


def _sdk_path(app: App, server: Server[Any] | None, calls: Calls | None, tasks: McpTasks | None,
              checks: HostChecks) -> SdkPath:
    from askback.mcp.sdkpath import SdkPath

    return SdkPath(app, server, calls, checks, tasks)


def _lifespan_of(part: OnDemand[Any] | None) -> contextlib.AbstractAsyncContextManager[None]:
    return part.lifespan() if part is not None else contextlib.nullcontext()


def _resource_lookup(sdk: OnDemand[SdkPath]) -> Callable[[], Awaitable[ResourceLookup | None]]:
    """The SDK path's resource-template lookup, for the fast route: it waits for the SDK path on first use."""

    async def lookup() -> ResourceLookup | None:
        try:
            return (await sdk.get()).resource_for
        except Unavailable:
            return None

    return lookup


class _SdkEndpoint:
    """ASGI endpoint: the SDK path, once built; until then the request waits (a clear error if it cannot be)."""

    def __init__(self, sdk: OnDemand[SdkPath]) -> None:
        self.sdk = sdk

    async def __call__(self, scope: Scope, receive: Receive, send: Send, body: Body | None = None) -> None:
        """`body`: what the fast route already read of this request (the SDK path replays it, never rereads)."""
        try:
            sdk_path = await self.sdk.get()
        except Unavailable as exc:
            await _unavailable(str(exc))(scope, receive, send)
            return
        if body is None:
            await sdk_path(scope, receive, send)
        else:
            await sdk_path.handle(scope, receive, send, body)


def _unavailable(reason: str) -> Response:
    """A JSON-RPC internal error for a request whose handler could not be loaded (the log has the traceback)."""
    error = {"code": INTERNAL_ERROR, "message": f"Internal error: {reason}"}
    return JSONResponse({"jsonrpc": "2.0", "id": None, "error": error}, status_code=500)


# -- A2A: its routes are known without the SDK; the agent behind them is built on first need -------------------
def _a2a(app: App, a2a: Any, checks: HostChecks) -> OnDemand[Any] | None:
    if a2a is False or a2a is None:
        return None
    if a2a is True and find_spec("a2a") is None:
        return None  # a2a-sdk is an optional extra: without it the app serves MCP only
    return OnDemand("the A2A agent", lambda: _a2a_server(app, a2a, checks), running=lambda built: built.running())


def _a2a_path(a2a: Any) -> str:
    return A2A_PATH if a2a is True else str(a2a.path)


def _a2a_server(app: App, a2a: Any, checks: HostChecks) -> Any:
    from askback.a2a import A2AServer
    from askback.web.hostcheck import content_type_only

    server = A2AServer(app) if a2a is True else a2a
    if server.security is None:
        # Host and Origin were checked before routing (`HostCheck`, the same check as MCP's endpoint); the
        # endpoint keeps the SDK's Content-Type check of its JSON-RPC POST.
        server.security = content_type_only()
    return server


def _a2a_routes(part: OnDemand[Any], path: str) -> list[BaseRoute]:
    """The agent card (GET) and the JSON-RPC binding (POST), each waiting for the agent on first use."""

    def endpoint(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def call(request: Request) -> Response:
            try:
                server = await part.get()
            except Unavailable as exc:
                return _unavailable(str(exc))
            handler: Callable[[Request], Awaitable[Response]] = server.endpoints[name]
            return await handler(request)

        return call

    return [
        Route(AGENT_CARD_PATH, endpoint=endpoint("card"), methods=["GET"]),
        Route(path, endpoint=endpoint("jsonrpc"), methods=["POST"]),
    ]


_OWS = (b" ", b"\t")  # space and horizontal tab


def trim_header_whitespace(scope: Scope) -> None:
    """Drop the optional whitespace after each header value, as RFC 9110 §5.5 has a parser do.

    h11 does; httptools (the default parser) keeps trailing spaces and tabs, so `Mcp-Name: tool  ` would not
    match the body's `tool` and a valid request would be refused with -32020. Done once, before any
    middleware, the fast route or the SDK reads a header; a request without such a value is left untouched.
    """
    headers = scope["headers"]
    for _, value in headers:
        if value.endswith(_OWS):
            scope["headers"] = [(name, value.rstrip(b" \t")) for name, value in headers]
            return


class _McpStarlette(Starlette):
    """Starlette, with a shortcut for MCP requests while the app has no middleware of the user's.

    Without user middleware, a request for the MCP path at the app's root goes straight to the era router:
    Starlette's own error and exception middleware and its route matching are a measurable share of a small
    request, and the SDK's transport answers errors itself. Once a user adds middleware (authentication, CORS,
    tracing, rate limits), every request takes Starlette's ordinary path so that middleware sees it; so do
    other routes, lifespan and a mounted app's requests. Starlette refuses `add_middleware` once the app has
    started, so the choice cannot change under a running server.

    Every request for another path is first held to the same Host and Origin check as the MCP endpoint
    (`askback.web.hostcheck`), before any middleware or route sees it.
    """

    def __init__(self, mcp_path: str, router: Any, hosts: HostCheck, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # No redirects: Starlette's trailing-slash redirect builds its Location from the request's Host, which
        # nothing has checked when the checks are off (--allow-any-origin). A path is served as routed, or is 404.
        self.router.redirect_slashes = False
        self._mcp_path = mcp_path
        self._router = router
        self._hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            trim_header_whitespace(scope)
            root = scope.get("root_path", "")
            if scope["path"].removeprefix(root) != self._mcp_path:  # the MCP endpoint: the SDK's transport checks
                refused = await self._hosts.refusal(scope)
                if refused is not None:
                    await refused(scope, receive, send)
                    return
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
