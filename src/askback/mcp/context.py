"""A tool's `askback.Context` on the SDK path: progress and log notifications for the request being served.

Both go out through the SDK's session, tied to the request (`related_request_id`), so on streamable HTTP they
ride the request's own SSE response: on 2026-07-28 that is the only stream they may use, and on a 2025-11-25
session it is the stream the client reads while it waits. The SDK applies the 2026-07-28 log opt-in itself (the
request's `io.modelcontextprotocol/logLevel` `_meta`); a 2025-11-25 session's `logging/setLevel` is kept here,
per session, and honoured before anything is sent.

The fast route answers with one JSON body and cannot send notifications, so a call whose notifications could
be delivered goes to the SDK path instead (`wants_notifications`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER
from mcp_types import LOG_LEVEL_META_KEY
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from askback.core.decide import AnswerGuard
from askback.core.markers import LOG_LEVELS
from askback.core.spec import Spec
from askback.toolcontext import LogSink, ProgressSink, ReportingContext

_MAX_SESSIONS = 10_000


def progress_token(params: Mapping[str, Any] | None) -> str | int | None:
    """The request's `_meta.progressToken`, if it has a usable one."""
    meta = (params or {}).get("_meta")
    token = meta.get("progressToken") if isinstance(meta, Mapping) else None
    if not isinstance(token, str | int) or isinstance(token, bool):
        return None
    return token


def wants_notifications(params: Mapping[str, Any] | None) -> bool:
    """Whether a 2026-07-28 request could receive a progress or log notification: it carries a progress token,
    or it opted in to logs (without either, the spec allows neither, and one JSON response is the whole answer)."""
    meta = (params or {}).get("_meta")
    return isinstance(meta, Mapping) and (progress_token(params) is not None or LOG_LEVEL_META_KEY in meta)


class SessionLevels:
    """Each 2025-11-25 session's `logging/setLevel`: the lowest level its client wants (all, until it says).

    Kept by the session's `Mcp-Session-Id` (the SDK builds a session object per request, so the id is what
    the requests of one session share), the most recent `_MAX_SESSIONS` only: a session forgotten here is
    sent every level again, as before it set one.
    """

    def __init__(self) -> None:
        self._levels: OrderedDict[str, str] = OrderedDict()

    async def set_level(self, ctx: ServerRequestContext[Any], params: Any) -> dict[str, Any]:
        session = _session_id(ctx)
        if session is not None:
            self._levels[session] = str(params.level)
            self._levels.move_to_end(session)
            while len(self._levels) > _MAX_SESSIONS:
                self._levels.popitem(last=False)
        return {}

    def allows(self, ctx: ServerRequestContext[Any], level: str) -> bool:
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return True  # the SDK applies the request's own opt-in
        session = _session_id(ctx)
        lowest = self._levels.get(session, LOG_LEVELS[0]) if session is not None else LOG_LEVELS[0]
        return LOG_LEVELS.index(level) >= LOG_LEVELS.index(lowest)


def _session_id(ctx: ServerRequestContext[Any]) -> str | None:
    headers = getattr(ctx.request, "headers", None)
    value = headers.get(MCP_SESSION_ID_HEADER) if headers is not None else None
    return value if isinstance(value, str) else None


def request_context(
    ctx: ServerRequestContext[Any], spec: Spec, principal: str | None, answer_guard: AnswerGuard,
    levels: SessionLevels,
) -> ReportingContext:
    """The `askback.Context` of one `tools/call` on the SDK path."""
    token = progress_token(ctx.params)
    related = None if ctx.request_id is None else str(ctx.request_id)
    progress: ProgressSink | None = None
    if token is not None:
        progress_for: str | int = token

        async def send_progress(done: float, total: float | None, message: str | None) -> None:
            await ctx.session.send_progress_notification(progress_for, done, total, message=message,
                                                         related_request_id=related)

        progress = send_progress

    async def send_log(level: str, data: Any) -> None:
        if levels.allows(ctx, level):
            await ctx.session.send_log_message(level, data, logger=spec.name,  # type: ignore[arg-type]
                                               related_request_id=ctx.request_id)

    log: LogSink = send_log
    return ReportingContext(principal, answer_guard=answer_guard, progress=progress, log=log, tool=spec.name)
