"""The SDK's side of the MCP endpoint: the low-level `Server`, its two session managers, the era router.

Importing this module imports the SDK's server stack, so `askback.mcp.http` imports it only when the SDK path is
built (`askback.web.ondemand`): on the first request that needs it, or in the background once the server
listens. 2026-07-28 requests are stateless single exchanges served with JSON responses (no SSE framing cost);
everything else (a legacy `initialize`, or a session's later requests) goes to the SDK's session transport with
SSE, which keeps the back-channel that handshake-era elicitation needs.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.types import Receive, Scope, Send

from askback.app import App
from askback.config import HostChecks
from askback.mcp.body import NOT_UTF8, Body, Verdict, read_body
from askback.mcp.calls import Calls, ResourceLookup
from askback.mcp.context import wants_notifications
from askback.mcp.events import RETRY_MS, SessionEvents
from askback.mcp.server import AppServer
from askback.mcp.tasks import McpTasks
from askback.web.hostcheck import security

_HEADER = MCP_PROTOCOL_VERSION_HEADER.lower().encode("ascii")


class SdkPath:
    """ASGI endpoint sending each request to the session manager for its era, its body checked as UTF-8 once."""

    def __init__(self, app: App, server: Server[Any] | None, calls: Calls | None, checks: HostChecks,
                 tasks: McpTasks | None = None) -> None:
        self.entry = AppServer(app, calls=calls, tasks=tasks) if server is None else None
        sdk_server = server or self.entry.server  # type: ignore[union-attr]
        settings = security(checks)
        self.modern = StreamableHTTPSessionManager(
            app=sdk_server, json_response=True, stateless=True, security_settings=settings
        )
        # Sessions' SSE streams open with a priming event and a `retry`, and a stream a client lost is resumed
        # from its session's events (`askback.mcp.events`).
        self.events = SessionEvents()
        self.legacy = StreamableHTTPSessionManager(
            app=sdk_server, json_response=False, stateless=False, security_settings=settings,
            event_store=self.events, retry_interval=RETRY_MS,
        )
        # A 2026-07-28 call whose tool reports (`askback.Context`) and whose request can receive notifications
        # is answered with an SSE response: its progress and logs ride it before the result.
        self._reporting = frozenset(n for n, s in app.tools.items() if s.context_param is not None)
        # A `subscriptions/listen` request's response is its stream of notifications: SSE too.
        self._listens = self.entry is not None and self.entry.subscriptions is not None
        self.streaming = StreamableHTTPSessionManager(
            app=sdk_server, json_response=False, stateless=True, security_settings=settings
        ) if self._reporting or self._listens else None

    @property
    def resource_for(self) -> ResourceLookup | None:
        """The SDK path's own resource-template lookup (for the fast route), None for a server of the user's."""
        return self.entry.resource_for if self.entry is not None else None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            for manager in (self.modern, self.legacy, self.streaming):
                if manager is not None:
                    await stack.enter_async_context(manager.run())
            yield

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await read_body(scope, receive) if scope["method"] == "POST" else None
        await self.handle(scope, receive, send, body)

    async def handle(self, scope: Scope, receive: Receive, send: Send, body: Body | None) -> None:
        """Serve a request whose body was already read (by the fast route, or `__call__`): it is not read again."""
        if body is not None:
            if body.verdict is Verdict.NOT_UTF8:
                await NOT_UTF8(scope, receive, send)
                return
            receive = body.replay(receive)
        version = next((v.decode("latin-1") for k, v in scope["headers"] if k == _HEADER), None)
        manager = self.modern if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS else self.legacy
        if manager is self.modern and self.streaming is not None and body is not None and self._reports(body):
            manager = self.streaming
        if manager is self.legacy:
            await self.events.scoped(scope, receive, send, manager.handle_request)
            return
        await manager.handle_request(scope, receive, send)

    def _reports(self, body: Body) -> bool:
        """Whether this is a `tools/call` of a reporting tool whose request can receive its notifications, or a
        `subscriptions/listen` (whose response is a stream)."""
        if body.verdict is not Verdict.COMPLETE:
            return False
        try:
            message = json.loads(body.data)
        except (ValueError, RecursionError):
            return False  # the SDK writes the parse error, from either manager
        if not isinstance(message, dict):
            return False  # a batch or a bare value: the SDK refuses it, from either manager
        params = message.get("params")
        if self._listens and message.get("method") == "subscriptions/listen":
            return True
        return (message.get("method") == "tools/call" and isinstance(params, dict)
                and params.get("name") in self._reporting and wants_notifications(params))
