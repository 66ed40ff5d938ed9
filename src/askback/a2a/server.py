"""The A2A side of `askback serve`: JSON-RPC at `/a2a`, the agent card at `/.well-known/agent-card.json`.

Only the JSON-RPC binding is mounted: the SDK's REST routes add a catch-all `/{tenant}` that would shadow every
route mounted after them (askback's pages among them).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from a2a.server.context import ServerCallContext
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.request_handlers.response_helpers import agent_card_to_dict
from a2a.server.routes import create_jsonrpc_routes
from a2a.types import a2a_pb2 as pb
from a2a.utils.constants import AGENT_CARD_WELL_KNOWN_PATH
from a2a.utils.errors import TaskNotCancelableError, UnsupportedOperationError
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from askback.a2a.card import agent_card
from askback.a2a.continuation import TaskContextBuilder
from askback.a2a.executor import AskbackExecutor, owner_resolver
from askback.a2a.incoming import IncomingContextBuilder
from askback.a2a.paths import A2A_PATH
from askback.a2a.tasks import TaskStoreSetup, open_task_store
from askback.app import App
from askback.core.tasks import TaskState
from askback.datadir import default_data_dir
from askback.web.logs import guard_logs

_TERMINAL = frozenset({pb.TASK_STATE_COMPLETED, pb.TASK_STATE_CANCELED, pb.TASK_STATE_FAILED, pb.TASK_STATE_REJECTED})


class _Handler(DefaultRequestHandler):
    """The SDK's handler, except that a message never vanishes silently.

    The SDK runs one message per task at a time. A message that arrives while a stream waits on a page step is
    queued; if that step finishes the task, the SDK drops the queued message and answers its sender with the
    finished task, as if the message had been applied. Here that sender gets a clear error instead.
    """

    def __init__(self, executor: AskbackExecutor, **kwargs: Any) -> None:
        super().__init__(agent_executor=executor, **kwargs)
        self._askback = executor

    async def on_cancel_task(self, params: pb.CancelTaskRequest, context: ServerCallContext) -> Any:
        """Cancel a task, unless its function finished (or started, on another replica) first: then answer the
        task as that outcome left it.

        The SDK cancels a task no message runs for on this replica by writing CANCELED itself, without the
        executor, even while a message runs it on another replica. So what ends the task is decided first,
        as every replica decides it: for a task on the runner by the runner (whichever replica runs it), for
        any other in askback's shared store (`SharedEnd`) before the function runs.
        """
        stored = await self._stored(params.id, context)
        if stored is None or stored.status.state in _TERMINAL:
            return await super().on_cancel_task(params, context)  # the SDK's own answer (not found, finished)
        work = await self._askback.cancel_work(params.id, context)
        if work is not None:
            work = await self._runner_settled(params.id, context, work)
            if work is None or work.status != "cancelled":
                return await self._outcome(params.id, context, "its function is still running")
        elif await self._askback.shared_end.decide(params.id, "cancel") != "cancel":
            return await self._outcome(params.id, context, "its function has started")
        for _ in range(3):  # bounded: a message saving the task meanwhile makes the SDK's write conflict
            try:
                return await super().on_cancel_task(params, context)
            except TaskNotCancelableError:
                settled = await self._stored(params.id, context)
                if settled is not None and settled.status.state == pb.TASK_STATE_CANCELED:
                    return settled
        return await super().on_cancel_task(params, context)

    async def _stored(self, task_id: str, context: ServerCallContext) -> pb.Task | None:
        stored: Any = await self.task_store.get(task_id, context)
        task: pb.Task | None = getattr(stored, "task", stored)  # a versioned store answers a StoredTask
        return task

    async def _runner_settled(self, task_id: str, context: ServerCallContext,
                              state: TaskState | None) -> TaskState | None:
        """The runner's task once it settled (a replica running it notices a cancellation within a third of
        its lease), or None when it did not within that bound."""
        for _ in range(int(self._askback.runner.lease / 3 / 0.1) + 20):  # bounded
            if state is None or state.terminal:
                return state
            await asyncio.sleep(0.1)
            state = await self._askback.work_state(task_id, context)
        return None

    async def _outcome(self, task_id: str, context: ServerCallContext, why: str) -> pb.Task:
        """The task once its function's outcome is saved (bounded); it was not cancelled."""
        for _ in range(300):  # bounded: 30 s
            task = await self._stored(task_id, context)
            if task is not None and task.status.state in _TERMINAL:
                return task
            await asyncio.sleep(0.1)
        raise TaskNotCancelableError(message=f"Task {task_id} was not cancelled: {why}. Read it with GetTask.")

    async def on_message_send(self, params: pb.SendMessageRequest, context: ServerCallContext) -> Any:
        result = await super().on_message_send(params, context)
        sent = params.message
        if (
            isinstance(result, pb.Task)
            and sent.task_id
            and result.status.state in _TERMINAL
            and not params.configuration.return_immediately
            and not params.configuration.HasField("history_length")
            and all(m.message_id != sent.message_id for m in result.history)
        ):
            raise UnsupportedOperationError(
                message=f"Task {result.id} finished ({pb.TaskState.Name(result.status.state)}) while this message "
                "waited behind it; the message was not applied."
            )
        return result


class A2AServer:
    """Everything A2A needs for one app: executor, task store, request handler and routes."""

    def __init__(
        self,
        app: App,
        *,
        tasks_url: str | None = None,
        path: str = A2A_PATH,
        poll_seconds: float = 0.5,
    ) -> None:
        guard_logs()  # the SDK logs each request body and task below WARNING (`askback.web.logs`)
        self.app = app
        self.path = path
        self.security: TransportSecuritySettings | None = None  # set by `http_app` to MCP's settings
        data_dir = getattr(app, "_data_dir", None) or default_data_dir()
        self.tasks: TaskStoreSetup = open_task_store(
            tasks_url, Path(data_dir), owner_resolver(app),
            store=lambda: app.runtime.store, clock=app.policy.now, ttl=app.task_ttl,
        )
        self.executor = AskbackExecutor(app, poll_seconds=poll_seconds, task_finished=self._finished)
        self._card = agent_card(app, self._url(None))
        self.handler = _Handler(
            executor=self.executor,
            task_store=self.tasks.store,
            agent_card=self._card,
            event_stream=self.tasks.event_stream,
            request_context_builder=TaskContextBuilder(self.tasks.store),  # a message naming a task: its context
            # A parked task's in-memory runner is released after a while; its next message rebuilds it from the
            # store (as after a restart), so tasks waiting on people do not pile up in memory.
            interrupted_task_timeout=120.0,
        )

    async def _finished(self, task_id: str, call: ServerCallContext) -> bool:
        """Whether the stored task has reached a terminal state (read fresh from the store)."""
        stored = await self.tasks.store.get(task_id, call)
        task = getattr(stored, "task", stored)  # a versioned store answers a StoredTask
        return task is None or task.status.state in _TERMINAL

    def _url(self, request: Request | None) -> str:
        public = self.app.runtime.public_url
        if public:
            return public.rstrip("/") + self.path
        if request is not None:
            return str(request.base_url).rstrip("/") + self.path
        return "http://127.0.0.1" + self.path

    async def card(self, request: Request) -> Response:
        card = agent_card(self.app, self._url(request))
        return JSONResponse(agent_card_to_dict(card))

    @property
    def endpoints(self) -> dict[str, Callable[[Request], Awaitable[Response]]]:
        """The agent card (`card`, GET) and the JSON-RPC binding (`jsonrpc`, POST at `path`), behind the checks."""
        jsonrpc = next(r.endpoint for r in self._jsonrpc_routes() if isinstance(r, Route))
        return {"card": self._guarded(self.card, post=False), "jsonrpc": self._guarded(jsonrpc, post=True)}

    @property
    def routes(self) -> list[BaseRoute]:
        jsonrpc = self._jsonrpc_routes()
        return [
            Route(AGENT_CARD_WELL_KNOWN_PATH, endpoint=self._guarded(self.card, post=False), methods=["GET"]),
            *(Route(r.path, endpoint=self._guarded(r.endpoint, post=True), methods=["POST"])
              for r in jsonrpc if isinstance(r, Route)),
        ]

    def _jsonrpc_routes(self) -> list[Route]:
        """The SDK's JSON-RPC binding, each call's context carrying its request (`askback.a2a.incoming`)."""
        return create_jsonrpc_routes(self.handler, self.path, context_builder=IncomingContextBuilder())

    def _guarded(self, endpoint: Callable[[Request], Awaitable[Response]], *, post: bool) -> Any:
        """The endpoint behind the same Host, Origin and Content-Type checks as MCP's (DNS-rebinding protection
        on a loopback server; `allowed_hosts` elsewhere)."""

        async def guarded(request: Request) -> Response:
            if self.security is not None:
                refused = await TransportSecurityMiddleware(self.security).validate_request(request, is_post=post)
                if refused is not None:
                    return refused
            return await endpoint(request)

        return guarded

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Open the task store at start-up; drain active tasks and close the store at shutdown."""
        await self.tasks.open()
        try:
            yield
        finally:
            await self.executor.stop_work()  # before the handler closes: followers still publish how tasks ended
            await self.handler.aclose()
            await self.tasks.close()
