"""The MCP tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on the SDK's low-level `Server`.

What this adapter does, and nothing more: decide per request whether a `tools/call` becomes a task (the tool
supports tasks and THIS request declared the extension), spell tasks in the extension's wire shapes
(`CreateTaskResult`, `DetailedTask`), and serve `tasks/get`, `tasks/update` and `tasks/cancel` over the
wire-neutral `askback.tasks.runner.TaskRunner`. The removed `tasks/result` and `tasks/list` are simply not
served (the SDK answers -32601); a legacy `params.task` on `tools/call` is ignored.

Every task request must name its task in the `Mcp-Name` header (the extension's routing header, so a load
balancer can route by task): a missing or different value is the SDK's header-mismatch error (-32020), checked
with the SDK's own header decoding.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import MCP_NAME_HEADER, decode_header_value
from mcp_types.jsonrpc import HEADER_MISMATCH
from pydantic import BaseModel, ConfigDict

from askback.core.capabilities import TASKS_EXTENSION
from askback.core.errors import AskbackError, Declined, MissingCapability
from askback.core.questions import FormQuestion
from askback.core.spec import Spec
from askback.core.tasks import TaskState
from askback.flow import Asking, Flow, Ready, Refused, Round, declined_refusal
from askback.incoming import principal_of
from askback.mcp import wire
from askback.mcp.calls import rpc_error, sdk_error, tool_error_of
from askback.mcp.incoming import incoming_of
from askback.tasks.runner import NO_PAGES, TaskRunner, UnknownTask, failure_text
from askback.telemetry.flows import FlowTelemetry, current_span

if TYPE_CHECKING:
    from mcp.server.lowlevel.server import Server

    from askback.app import App

logger = logging.getLogger("askback.mcp")

EXTENSION = TASKS_EXTENSION
TOOL_MARKER = EXTENSION  # `_meta` key of a tools/list entry: {"taskSupport": "optional" | "required"}
TASK_METHODS = ("tasks/get", "tasks/update", "tasks/cancel")
_UNKNOWN = "Unknown task: no task with this id exists for this caller (it may have expired)."


def declared(ctx: ServerRequestContext[Any]) -> bool:
    """Whether THIS request declared the tasks extension in its client capabilities."""
    caps = ctx.session.client_capabilities
    return bool(caps is not None and caps.extensions is not None and EXTENSION in caps.extensions)


def missing_extension(what: str) -> MCPError:
    """`what` (a method, or "NAME runs only as a task: it") needs the extension this request did not declare."""
    return mcp_error(MissingCapability(what, [(None, "tasks")]))


def mcp_error(exc: AskbackError) -> MCPError:
    """An askback error as the SDK's JSON-RPC error, by its wire mapping (the SDK writes it, with its status)."""
    return sdk_error(rpc_error(exc))


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def task_fields(task_id: str, state: TaskState) -> dict[str, Any]:
    """The `Task` every task-bearing result carries."""
    fields: dict[str, Any] = {
        "taskId": task_id,
        "status": state.status,
        "createdAt": _iso(state.created_at),
        "lastUpdatedAt": _iso(state.updated_at),
        "ttlMs": int(state.ttl_seconds * 1000),
        "pollIntervalMs": int(state.poll_ms),
    }
    if state.status_message:
        fields["statusMessage"] = state.status_message
    return fields


def created(task_id: str, state: TaskState) -> dict[str, Any]:
    """`CreateTaskResult`: the task's seed state; never its result, error or questions."""
    return {"resultType": "task", **task_fields(task_id, state)}


def detailed(task_id: str, state: TaskState) -> dict[str, Any]:
    """`tasks/get`'s `DetailedTask`: every outstanding question, or the outcome, inlined."""
    out: dict[str, Any] = {"resultType": "complete", **task_fields(task_id, state)}
    if state.status == "input_required":
        out["inputRequests"] = {a.key: a.request for a in state.outstanding}
    elif state.status == "completed" and state.result is not None:
        # The `CallToolResult` the call would have returned, which 2026-07-28 requires to say `resultType`
        # (the extension's own client rejects a result without it); a record kept from before says it here too.
        out["result"] = {"resultType": "complete", **state.result}
    elif state.status == "failed":
        out["error"] = state.error or {"code": types.INTERNAL_ERROR, "message": "The task failed."}
    return out


class McpTaskWire:
    """How a task's outcome and questions are spelled on MCP."""

    name = "mcp"

    def result(self, spec: Spec, value: Any) -> dict[str, Any]:
        return wire.tool_result(value, has_output_schema=spec.output_schema is not None)

    def refusal(self, spec: Spec, exc: Declined) -> dict[str, Any]:
        return wire.tool_refusal(declined_refusal(exc), has_output_schema=spec.output_schema is not None)

    def with_receipt(self, result: dict[str, Any], receipt: str) -> dict[str, Any]:
        return wire.with_receipt(result, receipt)

    def tool_error(self, spec: Spec, exc: AskbackError) -> dict[str, Any] | None:
        return tool_error_of(exc)

    def error(self, spec: Spec, exc: BaseException) -> dict[str, Any]:
        """A JSON-RPC error object for a failed task: a protocol error the function raised keeps its code and
        message (the author chose them); anything else is a generic internal error (details in the log only)."""
        if isinstance(exc, AskbackError) and exc.wire.jsonrpc_code is not None:
            exc = mcp_error(exc)  # spelled by its wire mapping, data included, as a call would have been
        if isinstance(exc, MCPError):
            error: dict[str, Any] = {"code": exc.error.code, "message": exc.error.message}
            if exc.error.data is not None:
                error["data"] = exc.error.data
            return error
        return {"code": types.INTERNAL_ERROR, "message": failure_text(spec, exc)}

    def request(self, question: FormQuestion) -> dict[str, Any]:
        return wire.input_request(question)


class TaskParams(BaseModel):
    """`tasks/get` and `tasks/cancel` params: the SDK path validates a request with it, and so does the fast route."""

    model_config = ConfigDict(extra="ignore")
    taskId: str


class UpdateParams(TaskParams):
    inputResponses: dict[str, Any] | None = None


PARAMS: dict[str, type[TaskParams]] = {"tasks/get": TaskParams, "tasks/update": UpdateParams,
                                       "tasks/cancel": TaskParams}


class McpTasks:
    """`tasks/*` handlers and the task path of `tools/call`, for one app on one SDK server."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.specs = {name: spec for name, spec in app.tools.items() if spec.task is not None}
        self._runner: TaskRunner | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.specs)

    @property
    def runner(self) -> TaskRunner:
        if self._runner is None:  # built on first use: the runtime (keys, store) is resolved at start-up
            # A secret asked during the work is a URL question on MCP, when this server serves the pages.
            served = self.app.pages_served
            self._runner = TaskRunner(self.app.runtime, McpTaskWire(), ttl=self.app.task_ttl,
                                      lease=self.app.task_lease, page_request=wire.input_request if served else None,
                                      no_page_step=None if served else NO_PAGES)
            self.app.on_stop(self._runner.stop)
        return self._runner

    def install(self, server: Server[Any]) -> None:
        if not self.enabled:
            return
        server.extensions[EXTENSION] = {}
        for method, params in PARAMS.items():
            server.add_request_handler(method, params, self._handler(method))

    def tool_entry(self, spec: Spec, entry: dict[str, Any]) -> dict[str, Any]:
        """A tools/list entry with the extension's per-tool marker, when the tool can run as a task."""
        if spec.task is None:
            return entry
        return {**entry, "_meta": {**entry.get("_meta", {}), TOOL_MARKER: {"taskSupport": spec.task}}}

    # -- the handlers ------------------------------------------------------------------------------------
    def _handler(self, method: str) -> Callable[[ServerRequestContext[Any], TaskParams], Awaitable[dict[str, Any]]]:
        async def handle(ctx: ServerRequestContext[Any], params: TaskParams) -> dict[str, Any]:
            _check_name_header(ctx, params.taskId)
            if not declared(ctx):
                raise missing_extension(method)
            return await self.serve(method, params, _principal(self.app, ctx))

        return handle

    async def call(self, spec: Spec, rnd: Round, flow: Flow) -> dict[str, Any]:
        """A `tools/call` of a task tool from a client declaring the extension, on either entry: MRTR first,
        within this request; only once every value is known does a task start (its id returned)."""
        try:
            step = await flow.resolve(spec, rnd)
        except AskbackError as exc:
            shown = tool_error_of(exc)
            if shown is None:
                raise mcp_error(exc) from None
            return shown
        if isinstance(step, Ready):
            task_id, state = await self.runner.create(spec, step, rnd.principal, caps=rnd.caps, origin=rnd.origin)
            FlowTelemetry.task(current_span())
            return created(task_id, state)
        if isinstance(step, Refused):
            if step.refusal.capability is not None:
                raise mcp_error(step.refusal.capability)
            return wire.tool_refusal(step.refusal, has_output_schema=spec.output_schema is not None)
        assert isinstance(step, Asking)
        return wire.input_required(step.questions, step.state)

    async def serve(self, method: str, params: TaskParams, principal: str | None) -> dict[str, Any]:
        """One checked `tasks/*` request (its `Mcp-Name` agrees, the extension is declared) for `principal`:
        what both entries answer, the SDK path's handlers and the fast route (`askback.mcp.fast`)."""
        try:
            if method == "tasks/get":
                return detailed(params.taskId, await self.runner.get(params.taskId, principal, self.specs))
            if method == "tasks/update":
                answers = params.inputResponses if isinstance(params, UpdateParams) else None
                await self.runner.update(params.taskId, principal, answers or {}, self.specs)
            else:
                await self.runner.cancel(params.taskId, principal)
        except UnknownTask:
            raise MCPError(code=types.INVALID_PARAMS, message=_UNKNOWN) from None
        return {"resultType": "complete"}


def _check_name_header(ctx: ServerRequestContext[Any], task_id: str) -> None:
    """Over HTTP, `Mcp-Name` must carry the task's id (a missing or different value: -32020)."""
    http = ctx.request
    headers = getattr(http, "headers", None)
    if headers is None:
        return  # stdio: no headers to check
    if decode_header_value(headers.get(MCP_NAME_HEADER)) != task_id:
        raise MCPError(code=HEADER_MISMATCH, message=f"{MCP_NAME_HEADER} header does not match the request body's "
                       "'taskId' parameter")


def _principal(app: App, ctx: ServerRequestContext[Any]) -> str | None:
    return principal_of(incoming_of(ctx), app.principal_hook)
