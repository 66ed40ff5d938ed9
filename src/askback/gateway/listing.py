"""The upstream's list changes, passed on: when its tools (prompts, resources) change, the gateway's clients hear.

The gateway keeps no list a client could not see change. When the upstream says a list changed
(`notifications/tools/list_changed` on a 2025-11-25 session, the same notification on a `subscriptions/listen`
stream at 2026-07-28), the gateway lists the tools again (the schemas it checks calls against are the new ones)
and tells its own clients in their own era:

- a 2026-07-28 client has no session: it opens a `subscriptions/listen` stream of its own, and the change is
  published there (the SDK's `ListenHandler` acknowledges, stamps and filters each stream);
- a 2025-11-25 client that listed has a session: the notification goes on that session's standalone stream.

A change is a level trigger ("list again if you care"), so nothing is replayed: a client that missed one lists
again when it reconnects, as the spec says.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

import anyio
from mcp.server.context import ServerRequestContext
from mcp.server.session import ServerSession
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    PromptsListChanged,
    ResourcesListChanged,
    ServerEvent,
    ToolsListChanged,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

logger = logging.getLogger("askback.gateway")

KINDS = ("tools", "prompts", "resources")
_EVENTS: dict[str, ServerEvent] = {
    "tools": ToolsListChanged(), "prompts": PromptsListChanged(), "resources": ResourcesListChanged(),
}
_SESSION_HEADER = "mcp-session-id"
# Sessions kept to be told of a change; past this many the oldest is forgotten (it lists again when it asks).
MAX_SESSIONS = 10_000
SEND_SECONDS = 5.0  # a session's standalone stream that takes no notification in this long is forgotten


def kind_of(method: str) -> str | None:
    """`tools` for `notifications/tools/list_changed` (and so on), None for any other notification."""
    head, _, tail = method.removeprefix("notifications/").partition("/")
    return head if tail == "list_changed" and head in KINDS else None


class ListChanges:
    """Who hears of a list change: the 2026-07-28 listen streams and the 2025-11-25 sessions that listed."""

    def __init__(self) -> None:
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus)  # served as `subscriptions/listen`
        self._sessions: OrderedDict[str, ServerSession] = OrderedDict()

    def listed(self, ctx: ServerRequestContext[Any]) -> None:
        """Note a 2025-11-25 session that listed: its list may go stale, so it is told when it does."""
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return  # no session to tell: such a client listens with `subscriptions/listen`
        headers = getattr(ctx.request, "headers", None)
        key = headers.get(_SESSION_HEADER) if headers is not None else None
        key = key or "stdio"  # over stdio the one client is the session
        self._sessions[key] = ctx.session
        self._sessions.move_to_end(key)
        while len(self._sessions) > MAX_SESSIONS:
            self._sessions.popitem(last=False)

    async def changed(self, kind: str) -> None:
        """Tell every client that the `kind` list changed."""
        await self.bus.publish(_EVENTS[kind])
        async with anyio.create_task_group() as group:  # at once: one slow session holds up no other
            for key, session in list(self._sessions.items()):
                group.start_soon(self._tell, key, session, kind)

    async def _tell(self, key: str, session: ServerSession, kind: str) -> None:
        try:
            with anyio.fail_after(SEND_SECONDS):
                await _notify(session, kind)
        except Exception as exc:  # a session that ended, or that takes nothing: forget it
            logger.debug("dropped the session %s from list changes: %s", key[:8], exc)
            self._sessions.pop(key, None)

    def close(self) -> None:
        """End the listen streams gracefully (the SDK sends each its final result)."""
        self.listen.close()


async def _notify(session: ServerSession, kind: str) -> None:
    send = {"tools": session.send_tool_list_changed, "prompts": session.send_prompt_list_changed,
            "resources": session.send_resource_list_changed}[kind]
    await send()


def kind_of_event(event: ServerEvent) -> str | None:
    """`tools` for a `ToolsListChanged` event of a listen stream (and so on); None for a resource update."""
    return next((kind for kind, known in _EVENTS.items() if known == event), None)
