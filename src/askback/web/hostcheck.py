"""The Host and Origin check of every route beside the MCP endpoint: the MCP SDK transport's own check.

`/mcp` is checked by the SDK's transport (`TransportSecurityMiddleware`, with the settings `HostChecks` decides:
421 for a Host and 403 for an Origin it does not accept). Every other route `http_app` serves (askback's pages,
the A2A agent and its card, an app's extra routes, and the 404 of a path that is none of them) is checked here,
by that same middleware with the same settings, once, before any route is matched: a request the policy refuses
reaches no page and no redirect. The SDK is imported on the first such request, off the event loop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Scope

from askback.config import HostChecks
from askback.web.ondemand import SDK_IMPORTS

if TYPE_CHECKING:
    from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings


def security(checks: HostChecks) -> TransportSecuritySettings:
    """The SDK transport's Host/Origin settings for `checks` (`HostChecks` decides them), for every route."""
    from mcp.server.transport_security import TransportSecuritySettings

    if checks.hosts is None:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    origins = list(checks.origins or ())
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=list(checks.hosts), allowed_origins=origins
    )


def content_type_only() -> TransportSecuritySettings:
    """The settings for an endpoint behind `HostCheck`: the SDK's Content-Type check of a POST, and no more."""
    from mcp.server.transport_security import TransportSecuritySettings

    return TransportSecuritySettings(enable_dns_rebinding_protection=False)


class HostCheck:
    """`refusal(scope)`: the SDK's answer to a request whose Host or Origin `checks` refuse, else None."""

    def __init__(self, checks: HostChecks) -> None:
        self.checks = checks
        self._middleware: TransportSecurityMiddleware | None = None

    async def refusal(self, scope: Scope) -> Response | None:
        if self.checks.hosts is None:
            return None  # --allow-any-origin: nothing is checked, so the SDK need not be loaded for it
        middleware = self._middleware
        if middleware is None:
            middleware = await anyio.to_thread.run_sync(self._load)
        # is_post=False: only Host and Origin here; an endpoint checks the Content-Type it reads (A2A's JSON)
        return await middleware.validate_request(Request(scope), is_post=False)

    def _load(self) -> TransportSecurityMiddleware:
        with SDK_IMPORTS:  # the SDK imports itself circularly: one importing thread at a time
            from mcp.server.transport_security import TransportSecurityMiddleware

            self._middleware = TransportSecurityMiddleware(security(self.checks))
            return self._middleware

