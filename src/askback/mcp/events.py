"""The events of 2025-11-25 sessions' SSE streams, kept so a client that lost a stream can resume it.

With an event store, the SDK's session transport opens every SSE response with a priming event (an id and
empty data) and a `retry` field (how long a client waits before it reconnects), and answers a `GET` carrying
`Last-Event-ID` by replaying the events of that stream after it (SEP-1699). The SDK shares one store among all
sessions and names a stream by its request id, which every session reuses (`1`, `2`, ...), so events are kept
per session here: `SessionEvents.scoped` runs each request of a session with that session's `Scope` in a context
variable (the session's own tasks inherit it from its opening request), and a stream is only ever replayed
from its own session's events. An event stored with no session in scope is kept nowhere (nothing to replay).

Memory is bounded: each session keeps its last `per_session` events, and the last `sessions` sessions are
kept (a session dropped from here can no longer resume a stream; it still works). 2026-07-28 has no
resumption (a stream dropped is a request lost; the client sends it again), so only the session transport has a
store.
"""

from __future__ import annotations

import contextvars
import itertools
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.streamable_http import (
    MCP_SESSION_ID_HEADER,
    EventCallback,
    EventId,
    EventMessage,
    EventStore,
    StreamId,
)
from mcp_types import JSONRPCMessage
from starlette.types import Message, Receive, Scope, Send

RETRY_MS = 1000  # the `retry` a priming event carries: how long a client waits before it reconnects

_SESSION_HEADER = MCP_SESSION_ID_HEADER.lower().encode("ascii")


class SessionScope:
    """One session's events, in the order they were sent, by event id."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.events: OrderedDict[str, tuple[StreamId, JSONRPCMessage | None]] = OrderedDict()
        self._ids = itertools.count(1)

    def add(self, stream_id: StreamId, message: JSONRPCMessage | None) -> str:
        event_id = str(next(self._ids))
        self.events[event_id] = (stream_id, message)
        while len(self.events) > self.limit:
            self.events.popitem(last=False)
        return event_id


_SCOPE: contextvars.ContextVar[SessionScope | None] = contextvars.ContextVar("askback_sse_scope", default=None)


class SessionEvents(EventStore):
    """An `EventStore` for the SDK's session manager that keeps each session's events apart."""

    def __init__(self, *, sessions: int = 10_000, per_session: int = 512) -> None:
        self._sessions: OrderedDict[str, SessionScope] = OrderedDict()
        self._max_sessions = sessions
        self._per_session = per_session
        self._unnamed = itertools.count()  # a dropped-out id for an event stored with no session in scope

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        scope = _SCOPE.get()
        if scope is None:
            return f"x{next(self._unnamed)}"  # not kept: nothing can replay it, so nothing can leak through it
        return scope.add(stream_id, message)

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        scope = _SCOPE.get()
        if scope is None or last_event_id not in scope.events:
            return None
        stream_id = scope.events[last_event_id][0]
        after = False
        for event_id, (sid, message) in list(scope.events.items()):
            if after and sid == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
            after = after or event_id == last_event_id
        return stream_id

    async def scoped(self, scope: Scope, receive: Receive, send: Send,
                     handle: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        """Run `handle` for one HTTP request with its session's scope (a new one for a request opening a session,
        named once the response says the session's id)."""
        session_id = next((v.decode("latin-1") for k, v in scope["headers"] if k == _SESSION_HEADER), None)
        if session_id is not None:
            found = self._sessions.get(session_id)
            if found is not None:
                self._sessions.move_to_end(session_id)
            token = _SCOPE.set(found)  # an unknown session id gets none: the SDK answers it 404 anyway
            try:
                await handle(scope, receive, send)
            finally:
                _SCOPE.reset(token)
            return
        opened = SessionScope(self._per_session)

        async def naming(message: Message) -> None:
            if message["type"] == "http.response.start":
                named = next((v.decode("latin-1") for k, v in message.get("headers", ()) if k == _SESSION_HEADER),
                             None)
                if named is not None:
                    self._keep(named, opened)
            await send(message)

        token = _SCOPE.set(opened)
        try:
            await handle(scope, receive, naming)
        finally:
            _SCOPE.reset(token)

    def _keep(self, session_id: str, scope: SessionScope) -> None:
        self._sessions[session_id] = scope
        while len(self._sessions) > self._max_sessions:
            self._sessions.popitem(last=False)

    def kept(self) -> dict[str, Any]:
        """How much is kept (for tests and operators): sessions, and events across them."""
        return {"sessions": len(self._sessions), "events": sum(len(s.events) for s in self._sessions.values())}
