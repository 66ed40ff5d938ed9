"""Resource subscriptions: who is told when `App.resource_updated(uri)` says a resource changed.

Each era has its own way to subscribe, and one app call reaches both:
- 2025-11-25 sessions send `resources/subscribe` / `resources/unsubscribe`; each subscribed session is sent
  `notifications/resources/updated` on its standalone stream. A session is held weakly (by its SDK connection,
  the one thing every request of a session shares): one that ended is simply forgotten.
- 2026-07-28 clients open a `subscriptions/listen` stream naming the URIs (`resourceSubscriptions`); the SDK's
  `ListenHandler` serves it over its in-process bus, and the same event is published there.

Subscriptions live in this process's memory, as legacy sessions and listen streams do.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated

logger = logging.getLogger("askback.mcp")


class ResourceSubscriptions:
    """The subscribe/unsubscribe handlers of 2025-11-25, the listen handler of 2026-07-28, and the fan-out."""

    def __init__(self) -> None:
        self._sessions: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus)

    async def subscribe(self, ctx: ServerRequestContext[Any], params: types.SubscribeRequestParams) -> dict[str, Any]:
        # Any URI is honoured, as the SDK's listen handler honours any: a resource that does not exist yet may,
        # and a subscription that never fires costs one set entry for the session's life.
        self._sessions.setdefault(_connection(ctx), set()).add(str(params.uri))
        return {}

    async def unsubscribe(
        self, ctx: ServerRequestContext[Any], params: types.UnsubscribeRequestParams
    ) -> dict[str, Any]:
        # Unsubscribing from what was never subscribed leaves nothing subscribed: the same outcome, so no error.
        self._sessions.get(_connection(ctx), set()).discard(str(params.uri))
        return {}

    def subscribed(self, uri: str) -> int:
        """How many sessions are subscribed to `uri` (listen streams not counted)."""
        return sum(1 for uris in list(self._sessions.values()) if uri in uris)

    async def updated(self, uri: str) -> None:
        """Tell every session subscribed to `uri`, and every listen stream that named it, that it changed."""
        await self.bus.publish(ResourceUpdated(uri=uri))
        for connection, uris in list(self._sessions.items()):
            if uri not in uris:
                continue
            try:
                await connection.send_resource_updated(uri)
            except Exception:  # a session whose client went away: it is told nothing more
                logger.info("a session subscribed to a resource could not be told it changed; forgetting it")
                self._sessions.pop(connection, None)


def _connection(ctx: ServerRequestContext[Any]) -> Any:
    """The SDK connection of a request's session: a new `ServerSession` is built for every request, and only the
    connection it wraps lives as long as the client's session. The SDK's request context names no connection,
    so this reads the session's private `_connection` (docs/upstream.md: a connection on the request context)."""
    return ctx.session._connection
