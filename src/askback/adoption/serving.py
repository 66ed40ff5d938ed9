"""An adopted server served with askback's pages: its own streamable-HTTP app, the pages beside it.

    adopter = askback.adopt(server, tools={"pay": askback.ToolOptions(confirm="Pay {amount}?", out_of_band=True)})
    app = adopter.streamable_http_app()     # serve with uvicorn, as `server.streamable_http_app()` was

One Starlette app: the pages' routes under `/askback/` (the routes `askback serve` has, with the same Host and
Origin checks and the same rule that a page reached from elsewhere needs page authentication), and everything
else mounted to the SDK's app unchanged. Its lifespan opens the store before serving and runs the SDK's own.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.types import ASGIApp, Receive, Scope, Send

from askback.config import HostChecks
from askback.web.hostcheck import HostCheck
from askback.web.logs import guard_logs
from askback.web.serving import pages_for, warn_if_development_mode

if TYPE_CHECKING:
    from askback.adoption.pagesteps import PageSteps

_PAGES = "/askback/"


def with_pages(
    steps: PageSteps | None,
    serves: Callable[..., Starlette],
    *,
    host: str = "127.0.0.1",
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    allow_any_origin: bool = False,
    **sdk: Any,
) -> ASGIApp:
    """`serves(**sdk)` (the server's own app: `MCPServer.streamable_http_app`, `FastMCP.http_app`), with askback's
    pages when a tool's options need them.

    `host` is where it is served and, with `allowed_hosts`, `allowed_origins` and `allow_any_origin`, decides the
    pages' Host and Origin checks and whether they may run without page authentication (`askback serve`'s rules,
    docs/out-of-band.md); the SDK's endpoint keeps its own checks.
    """
    sdk_app = serves(**sdk)
    if steps is None:
        return sdk_app  # no tool needs a page or a single-use run: the SDK's app as it was
    app = steps.app
    checks = HostChecks.resolve(host, allowed_hosts, allowed_origins, allow_any_origin)
    guard_logs()  # no ticket in a log line (`askback.web.logs`)
    routes = pages_for(app, host, checks)
    served = sdk_app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        await app.start()  # keys and store at start-up, not on the first call
        steps.mark_started()
        warn_if_development_mode(app)
        try:
            async with served(sdk_app):
                yield
        finally:
            await app.stop()

    both = Starlette(routes=[*routes, Mount("/", app=sdk_app)], lifespan=lifespan)
    both.router.redirect_slashes = False  # as askback's own server: no redirect built from an unchecked Host
    return _PagesChecked(both, HostCheck(checks))


class _PagesChecked:
    """The pages' requests held to the Host and Origin checks first; the rest goes as it came."""

    def __init__(self, app: Starlette, hosts: HostCheck) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(_PAGES):
            refused = await self.hosts.refusal(scope)
            if refused is not None:
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)
