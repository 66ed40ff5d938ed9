"""A message that names a task continues it in the task's own context, with or without a `contextId`.

A2A lets a client leave `contextId` out of a message that names a task: the agent infers it from the task. The
SDK's request handler (a2a-sdk 1.3) checks a `contextId` that is given against the stored task, but when none
is given its request context makes up a fresh one; the task's events then carry a context the task does not
have, and the SDK refuses them when it saves them, after the executor ran the round. A final round would run
its function and the client be told -32602 with the task stored FAILED: a retry would run it again.

`TaskContextBuilder` is the SDK's own seam for this (`request_context_builder=`): before the request context
exists, a message naming a task and no context gets the stored task's context, so every event of the round
carries it. It reads the task as the SDK's own handler does (owner-scoped, through the same store).
"""

from __future__ import annotations

from typing import Any

from a2a.server.agent_execution import RequestContext
from a2a.server.agent_execution.simple_request_context_builder import SimpleRequestContextBuilder
from a2a.server.context import ServerCallContext
from a2a.types import a2a_pb2 as pb


class TaskContextBuilder(SimpleRequestContextBuilder):
    """The SDK's request context builder, with a missing `contextId` taken from the task the message names."""

    def __init__(self, task_store: Any) -> None:  # TaskStore | VersionedTaskStore: both have `get(id, context)`
        super().__init__()
        self._tasks = task_store

    async def build(
        self,
        context: ServerCallContext,
        params: pb.SendMessageRequest | None = None,
        task_id: str | None = None,
        context_id: str | None = None,
        task: pb.Task | None = None,
    ) -> RequestContext:
        if task_id and not context_id:
            found: Any = task if task is not None else await self._tasks.get(task_id, context)
            found = getattr(found, "task", found)  # a versioned store answers a StoredTask
            if found is not None and found.context_id:
                context_id = str(found.context_id)
        return await super().build(context, params, task_id, context_id, task)
