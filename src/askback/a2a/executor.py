"""An askback `App` as an a2a-sdk `AgentExecutor`: one message, one round of the flow.

The first message of a task names the call; each later message on the same task answers what the last round
asked. Between messages the task's progress is its sealed record in the task's metadata (`record.py`), so the
SDK's task store keeps it, a restart does not lose it, and any replica sharing the store can continue it.

Every task's final round is single-use (the flow claims it in askback's store before the function runs), so a
function runs once per task even when two replicas receive the same answer.

A tool taking `askback.Work` asks during its work: once its values are known, its function runs on the task
runner MCP tasks use, and the task follows the runner's states (`askback.a2a.work`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import UnsupportedOperationError
from google.protobuf import json_format

from askback.a2a import proto, wire
from askback.a2a import record as records
from askback.a2a import work as work_tasks
from askback.a2a.ending import Endings, SharedEnd
from askback.a2a.incoming import incoming_of, principal_of_call
from askback.app import App
from askback.core.errors import AskbackError, InvalidRequestState, Rejection, StoreUnavailable
from askback.core.kinds import ValueParam
from askback.core.questions import Question, UrlQuestion
from askback.core.spec import Spec
from askback.core.tasks import TaskState
from askback.core.text import one_line
from askback.flow import Asking, Finished, Flow, Ready, Refused, Round, Step
from askback.incoming import page_origin
from askback.tasks.runner import TaskRunner, UnknownTask
from askback.types import Capabilities

logger = logging.getLogger("askback.a2a")

# An A2A client can be asked forms (the schema data part) and pages (auth-required); sampling and roots are MCP's.
A2A_CAPS = Capabilities(form=True, url=True)
METHOD = "a2a/message"
_TERMINAL = frozenset({pb.TASK_STATE_COMPLETED, pb.TASK_STATE_CANCELED, pb.TASK_STATE_FAILED, pb.TASK_STATE_REJECTED})
_STATES = {name: value for name, value in pb.TaskState.items()}
_SEALED_NOTE = "answers sealed in the task record"


def owner_resolver(app: App) -> Callable[[ServerCallContext], str]:
    """The task store's owner of a request: its principal, so a task is only ever seen by whoever started it."""

    def resolve(call: ServerCallContext) -> str:
        return principal_of_call(app, call) or ""

    return resolve


class AskbackExecutor(AgentExecutor):
    def __init__(
        self,
        app: App,
        *,
        poll_seconds: float = 0.5,
        patience_seconds: float | None = None,
        task_finished: Callable[[str, ServerCallContext], Awaitable[bool]] | None = None,
    ) -> None:
        self.app = app
        self.task_finished = task_finished
        self.flow = Flow(app.runtime)
        self.poll_seconds = poll_seconds
        # A stream waits on a page for most of a round's lifetime, then leaves the task parked for a message.
        self.patience_seconds = patience_seconds if patience_seconds is not None else app.policy.round_ttl * 0.9
        # Every task runs its function at most once: the final round is claimed as for a `once=True` tool.
        self._specs: dict[tuple[str, str], Spec] = {}
        for kind, registry in (("tool", app.tools), ("prompt", app.prompts)):
            for name, spec in registry.items():
                self._specs[(kind, name)] = replace(spec, once=True)
        # Tools that ask during their work: they run on the task runner, as MCP tasks do.
        self._work_specs = {name: spec for name, spec in app.tools.items() if spec.work_param is not None}
        self._runner: TaskRunner | None = None
        self._endings = Endings()  # a cancellation racing a message: which ends the task, decided once
        self._shared_end: SharedEnd | None = None

    @property
    def runner(self) -> TaskRunner:
        if self._runner is None:  # built on first use: the runtime (keys, store) is resolved at start-up
            self._runner = TaskRunner(self.app.runtime, work_tasks.A2ATaskWire(), ttl=self.app.task_ttl,
                                      lease=self.app.task_lease)
            self.app.on_stop(self._runner.stop)
        return self._runner

    @property
    def shared_end(self) -> SharedEnd:
        """The same decision across replicas (built on first use: the store is resolved at start-up)."""
        if self._shared_end is None:
            runtime = self.app.runtime
            self._shared_end = SharedEnd(runtime.store, runtime.clock, self.app.task_ttl)
        return self._shared_end

    async def stop_work(self) -> None:
        """At shutdown: working functions settle failed (their followers say so), parked ones are released."""
        if self._runner is not None:
            await self._runner.stop()

    async def cancel_work(self, task_id: str, call: ServerCallContext) -> TaskState | None:
        """Stop the function of a task that runs on the runner (cooperatively); nothing for any other task.

        The runner's state once the cancellation was handled (None for a task that is not the runner's): a
        function that returned before the cancellation reached it has settled with its own outcome.
        """
        if not self._work_specs:
            return None
        try:
            await self.runner.cancel(task_id, principal_of_call(self.app, call))
        except UnknownTask:
            return None
        return await self.work_state(task_id, call)

    async def work_state(self, task_id: str, call: ServerCallContext) -> TaskState | None:
        """The runner's state of a task (None for a task that is not the runner's)."""
        if not self._work_specs:
            return None
        try:
            return await self.runner.get(task_id, principal_of_call(self.app, call), self._work_specs)
        except UnknownTask:
            return None

    @property
    def skills(self) -> dict[str, tuple[str, str | None]]:
        """Skill id -> (kind, the one required string parameter a plain text message fills, if any)."""
        return {name: (kind, _text_param(spec)) for (kind, name), spec in self._specs.items()}

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Cancel the task, unless its function already finished: then the task ends with that outcome."""
        task_id = context.task_id or ""
        updater = TaskUpdater(event_queue, task_id, context.context_id or "")
        inflight = self._endings.running(task_id)
        work = await self.cancel_work(task_id, context.call_context)
        if work is not None and work.terminal and work.status != "cancelled":
            # The function on the runner returned before the cancellation reached it: its outcome stands,
            # published by the message following the runner, or here when no message did.
            if inflight is not None:
                await inflight.finished(10)
            if self._endings.ended_by(task_id) != "outcome":
                spec = self._specs[("tool", work.tool)]
                await self._publish(context, updater, spec, work, {}, None, None)
            return
        if work is None and not self._endings.cancel(task_id):
            running = self._endings.running(task_id)
            if running is not None:
                await running.finished(10)  # the function returned first: its outcome is being published
            return
        await updater.cancel(proto.message(wire.error("Cancelled by the client. Nothing more is done."), context))

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task_id = context.task_id or ""
        inflight = self._endings.begin(task_id)
        if inflight is None:
            return  # cancelled before this message ran: nothing of it is applied (the task reads CANCELED)
        try:
            await self._execute(context, event_queue)
        finally:
            self._endings.finish(task_id, inflight)

    async def _execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task_id, context_id = context.task_id or "", context.context_id or ""
        task = context.current_task
        if task is not None and task.status.state in _TERMINAL:
            # A message that waited behind a step which finished the task: it never reopens it.
            raise UnsupportedOperationError(
                message=f"Task {task_id} is already {pb.TaskState.Name(task.status.state)}; "
                "this message was not applied."
            )
        message = context.message
        assert message is not None
        data_parts, text = _read_parts(message)
        principal = principal_of_call(self.app, context.call_context)
        updater = TaskUpdater(event_queue, task_id, context_id)
        keyring = self.app.runtime.codec.keyring
        audience = self.app.runtime.audience
        if task is None:
            try:
                invocation = wire.read_invocation(data_parts, text, self.skills)
            except wire.BadMessage as exc:
                _redact(message, [])
                await event_queue.enqueue_event(_new_task(task_id, context_id, message))
                await updater.reject(proto.message(wire.error(str(exc)), context))
                return
            spec = self._specs[(invocation.kind, invocation.name)]
            props = spec.input_schema.get("properties", {})
            arguments = wire.coerce_all(invocation.arguments, props)
            _redact(message, sorted(arguments))
            await event_queue.enqueue_event(_new_task(task_id, context_id, message))
            current = records.Record(invocation.kind, invocation.name, arguments)
            responses: dict[str, Any] | None = None
            problem = (
                f"{spec.name} has no single text parameter, so the text was not used. Answer the fields of the schema."
                if invocation.unused_text
                else None
            )
        else:
            token = json_format.MessageToDict(task.metadata).get(records.RECORD_KEY, {}).get("record")
            try:
                current = records.open_record(keyring, token, audience=audience, task_id=task_id, principal=principal)
            except InvalidRequestState as exc:
                logger.warning("rejected the askback record of task %s: %s", one_line(task_id), exc.reason.value)
                _redact(message, [])
                await self._rejected(context, updater, exc)
                return
            if current.running:
                await self._continue_work(context, updater, current, message, data_parts, text, principal)
                return
            asked = [a.question() for a in current.asked]
            problem = None
            try:
                responses = wire.read_answers(data_parts, asked)
            except wire.BadMessage as exc:
                responses, problem = {}, str(exc)
            if not data_parts and text.strip():
                responses, problem = _text_answer(text, asked)
            unknown = _unasked(data_parts, asked)
            if unknown and problem is None:
                problem = f"Not asked, so not used: {', '.join(unknown)}. Answer the fields of the schema."
            _redact(message, sorted({f for r in responses.values() for f in r.get("content", {})}))
            spec = self._specs[(current.kind, current.name)]
        await self._play(context, updater, spec, current, responses, principal, problem)

    async def _play(
        self,
        context: RequestContext,
        updater: TaskUpdater,
        spec: Spec,
        current: records.Record,
        responses: dict[str, Any] | None,
        principal: str | None,
        problem: str | None,
    ) -> None:
        task_id = context.task_id or ""
        waited = 0.0
        while True:
            step = await self._step(context, updater, spec, current, responses, principal)
            if step is None:
                return
            if isinstance(step, Ready):
                await self._start_work(context, updater, spec, current, step, principal)
                return
            if not isinstance(step, Asking):
                if not self._ends_with_outcome(task_id):
                    return  # a cancellation came first (the function did not stop for it): it ends the task
                await self._finish(context, updater, spec, step)
                return
            previous = {(a.key, a.url) for a in current.asked if a.url}
            pages = {(q.key, q.url) for q in step.questions if isinstance(q, UrlQuestion)}
            only_pages = len(pages) == len(step.questions)
            still_waiting = only_pages and pages <= previous
            asked = tuple(records.LastAsked.of(q) for q in step.questions)
            streaming = context.call_context.state.get("method") == "SendStreamingMessage"
            if still_waiting and waited > 0:
                # Polling a page over a stream: nothing changed, so nothing is published or saved.
                pass
            else:
                current = replace(current, state=step.state, asked=asked)
                meta = self._record_meta(current, task_id, principal)
                if only_pages:
                    out = wire.auth_required(step.questions, still_waiting and responses is not None)
                    await updater.update_status(pb.TASK_STATE_AUTH_REQUIRED, proto.message(out, context), metadata=meta)
                else:
                    out = wire.input_required(step.questions)
                    if problem:
                        out = _with_problem(out, problem)
                    shown = proto.message(out, context)
                    await updater.update_status(pb.TASK_STATE_INPUT_REQUIRED, shown, metadata=meta)
            if not (only_pages and streaming) or waited >= self.patience_seconds:
                return
            # Over a stream the task continues on its own once the page is done: look again shortly.
            await asyncio.sleep(self.poll_seconds)
            waited += self.poll_seconds
            responses, problem = None, None

    async def _step(
        self,
        context: RequestContext,
        updater: TaskUpdater,
        spec: Spec,
        current: records.Record,
        responses: Mapping[str, Any] | None,
        principal: str | None,
    ) -> Step | Ready | None:
        task_id = context.task_id or ""
        rnd = Round(
            METHOD,
            current.target(task_id),
            current.arguments,
            responses,
            current.state,
            A2A_CAPS,
            principal,
            page_origin(incoming_of(context.call_context)),
        )
        try:
            if spec.name in self._work_specs and spec.kind == "tool":
                return await self.flow.resolve(spec, rnd)  # Ready: the runner runs the function
            resolved = await self.flow.resolve(spec, rnd)
            if not isinstance(resolved, Ready):
                return resolved
            if await self.shared_end.decide(task_id, "outcome") != "outcome":
                return None  # cancelled (on another replica) before the function ran: it does not run
            return await self.flow.run(spec, resolved)
        except InvalidRequestState as exc:
            if exc.reason is not Rejection.REPLAYED:
                await self._rejected(context, updater, exc)
                return None
            # Another request (on another replica) claimed this task's final round and is running it: writing
            # a state here would race its result. Wait for it to finish, then say this message was not applied.
            await self._await_finish(task_id, context.call_context)
            raise UnsupportedOperationError(
                message=f"Task {task_id} was completed by another request; this message was not applied."
            ) from None
        except StoreUnavailable as exc:
            if not current.asked:  # the first message: a new message is the retry, and starts a new task
                await self._rejected(context, updater, exc)
                return None
            # Nothing ran and the questions are still open: the task keeps waiting, so the same answer can be
            # sent again, as the message says (a failed task could take no retry).
            asked = wire.input_required([a.question() for a in current.asked])
            out = _with_problem(asked, exc.public_message, retryable=exc.wire.retryable)
            meta = self._record_meta(current, task_id, principal)
            await updater.update_status(pb.TASK_STATE_INPUT_REQUIRED, proto.message(out, context), metadata=meta)
        except AskbackError as exc:
            await self._rejected(context, updater, exc)
        except Exception:
            logger.exception("a2a %s %s raised", spec.kind, one_line(spec.name))
            out = wire.error(f"{spec.name} failed with an internal error. The server log has the details.")
            await updater.failed(proto.message(out, context))
        return None

    # -- a function that asks during its work, on the task runner -------------------------------------------
    async def _start_work(self, context: RequestContext, updater: TaskUpdater, spec: Spec,
                          current: records.Record, ready: Ready, principal: str | None) -> None:
        task_id = context.task_id or ""
        try:
            await self.runner.create(self._work_specs[spec.name], ready, principal, task_id=task_id)
        except AskbackError as exc:
            await self._rejected(context, updater, exc)
            return
        # The runner's record holds the values from now on; the task's own record only says where to look.
        running = replace(current, arguments={}, state=None, asked=(), running=True)
        await updater.update_status(pb.TASK_STATE_WORKING, metadata=self._record_meta(running, task_id, principal))
        await self._follow(context, updater, spec, running, principal, None)

    async def _continue_work(self, context: RequestContext, updater: TaskUpdater, current: records.Record,
                             message: pb.Message, data_parts: Sequence[Any], text: str,
                             principal: str | None) -> None:
        """A message on a task whose function runs: the answers to its outstanding questions, read as for
        every A2A question, delivered to the runner (which validates them and asks again, saying why)."""
        task_id = context.task_id or ""
        spec = self._specs[(current.kind, current.name)]
        try:
            state = await self.runner.get(task_id, principal, self._work_specs)
        except UnknownTask:
            _redact(message, [])
            out = wire.error(f"The work of {spec.name} on this task is no longer kept (it expired). "
                             "Call the tool again.")
            await updater.update_status(pb.TASK_STATE_FAILED, proto.message(out, context), metadata=_done())
            return
        asked = work_tasks.questions(state) if state.status == "input_required" else []
        problem = None
        responses: dict[str, Any] = {}
        if not asked:
            problem = "The task was not waiting for an answer, so this message was not used."
        else:
            try:
                responses = wire.read_answers(data_parts, asked)
            except wire.BadMessage as exc:
                problem = str(exc)
            if not data_parts and text.strip():
                responses, problem = _text_answer(text, asked)
            unknown = _unasked(data_parts, asked)
            if unknown and problem is None:
                problem = f"Not asked, so not used: {', '.join(unknown)}. Answer the fields of the schema."
        _redact(message, sorted({f for r in responses.values() for f in r.get("content", {})}))
        if responses:
            with contextlib.suppress(UnknownTask):  # expired meanwhile: the follow below says how it ended
                await self.runner.update(task_id, principal, responses, self._work_specs)
        await self._follow(context, updater, spec, current, principal, problem)

    async def _follow(self, context: RequestContext, updater: TaskUpdater, spec: Spec, current: records.Record,
                      principal: str | None, problem: str | None) -> None:
        """Publish the runner's states until the function asks (input required) or the task settles."""
        task_id = context.task_id or ""
        meta = self._record_meta(current, task_id, principal)
        said: str | None = None
        try:
            async with contextlib.aclosing(self.runner.follow(task_id, principal, self._work_specs)) as states:
                async for state in states:
                    if await self._publish(context, updater, spec, state, meta, problem, said):
                        return
                    said = state.status_message or said
        except UnknownTask:
            out = wire.error(f"The work of {spec.name} on this task is no longer kept (it expired).")
            await updater.update_status(pb.TASK_STATE_FAILED, proto.message(out, context), metadata=_done())

    async def _publish(self, context: RequestContext, updater: TaskUpdater, spec: Spec, state: TaskState,
                       meta: dict[str, Any], problem: str | None, said: str | None) -> bool:
        """One state of the runner as A2A shows it; True once the task waits for the client or settled."""
        if state.terminal:
            self._ends_with_outcome(context.task_id or "")
            final, out, parts = work_tasks.outcome(state)
            if parts:
                await updater.add_artifact([proto.part(p) for p in parts], name=spec.name)
            shown = proto.message(out, context) if out is not None else None
            await updater.update_status(_STATES.get(final, pb.TASK_STATE_FAILED), shown, metadata=_done())
            return True
        if state.status == "input_required" and state.outstanding:
            out = wire.input_required(work_tasks.questions(state))
            if problem:
                out = _with_problem(out, problem)
            await updater.update_status(pb.TASK_STATE_INPUT_REQUIRED, proto.message(out, context), metadata=meta)
            return True
        if state.status_message and state.status_message != said:
            out = wire.progress(state.status_message)
            await updater.update_status(pb.TASK_STATE_WORKING, proto.message(out, context), metadata=meta)
        return False

    def _ends_with_outcome(self, task_id: str) -> bool:
        """Called as the function's outcome is known, before any `await`: whether it ends the task (it does
        unless a cancellation was decided first)."""
        if self._endings.outcome(task_id):
            return True
        logger.warning("task %s: its function returned after the cancellation that ended it", one_line(task_id))
        return False

    async def _rejected(self, context: RequestContext, updater: TaskUpdater, exc: AskbackError) -> None:
        state, out = wire.failure(exc)
        await updater.update_status(_STATES[state], proto.message(out, context), metadata=_done())

    async def _await_finish(self, task_id: str, call: ServerCallContext, seconds: float = 30.0) -> None:
        waited = 0.0
        while self.task_finished is not None and waited < seconds and not await self.task_finished(task_id, call):
            await asyncio.sleep(0.1)
            waited += 0.1

    async def _finish(self, context: RequestContext, updater: TaskUpdater, spec: Spec, step: Step) -> None:
        if isinstance(step, Finished):
            parts = wire.prompt_parts(step.value) if spec.kind == "prompt" else wire.result_parts(step.value)
            await updater.add_artifact([proto.part(p) for p in parts], name=spec.name)
            await updater.update_status(pb.TASK_STATE_COMPLETED, metadata=_done())
            return
        assert isinstance(step, Refused)
        out = wire.refusal(step.refusal)
        state = pb.TASK_STATE_REJECTED if step.refusal.is_error else pb.TASK_STATE_CANCELED
        await updater.update_status(state, proto.message(out, context), metadata=_done())

    def _record_meta(self, current: records.Record, task_id: str, principal: str | None) -> dict[str, Any]:
        runtime = self.app.runtime
        token = records.seal(
            runtime.codec.keyring, current, audience=runtime.audience, task_id=task_id, principal=principal
        )
        return {records.RECORD_KEY: {"record": token}}


def _done() -> dict[str, Any]:
    """The record of a finished task: nothing left to continue, nothing kept."""
    return {records.RECORD_KEY: {"record": None}}


def _text_param(spec: Spec) -> str | None:
    """The parameter a plain text fills: the one required string argument, if there is exactly one."""
    strings = [
        p
        for p in spec.argument_params
        if isinstance(p, ValueParam) and p.required and (p.form.schema or {}).get("type") == "string"
    ]
    return strings[0].name if len(strings) == 1 else None


def _text_answer(text: str, asked: Sequence[Question]) -> tuple[dict[str, Any], str | None]:
    """A plain text reply answers the one string field asked, if exactly one was; else it explains."""
    fields = [(q, f, s) for q in asked for f, s in (getattr(q, "schema", None) or {}).get("properties", {}).items()]
    if len(fields) == 1 and fields[0][2].get("type") == "string":
        q, name, _ = fields[0]
        return {q.key: {"action": "accept", "content": {name: text.strip()}}}, None
    return {}, ('A text reply cannot answer these fields; send a data part mapping field names to values, '
                'or {"action": "decline"}.')


def _unasked(data_parts: Sequence[Any], asked: Sequence[Question]) -> list[str]:
    """Names in an answer that no asked field has (a typo would otherwise be dropped without a word)."""
    fields = {f for q in asked for f in (getattr(q, "schema", None) or {}).get("properties", {})}
    given: set[str] = set()
    for data in data_parts:
        if isinstance(data, Mapping):
            content = data.get("content") if data.get("action") == "accept" else data
            if isinstance(content, Mapping):
                given.update(str(k) for k in content if k != "action")
    return sorted(given - fields)


def _with_problem(out: wire.MessageOut, problem: str, *, retryable: bool = False) -> wire.MessageOut:
    """The questions again, saying what went wrong first; `retryable`: the same answer may be sent again."""
    first, *rest = out.parts
    said: dict[str, Any] = {"problem": problem, "retryable": True} if retryable else {"problem": problem}
    meta = {k: {**v, **said} for k, v in out.metadata.items()}
    return wire.MessageOut((wire.PartOut(text=f"{problem}\n\n{first.text}"), *rest), meta)


def _read_parts(message: pb.Message) -> tuple[list[Any], str]:
    data = [json_format.MessageToDict(p.data) for p in message.parts if p.HasField("data")]
    text = "\n".join(p.text for p in message.parts if p.HasField("text"))
    return data, text


def _redact(message: pb.Message, fields: Sequence[str]) -> None:
    """Replace the user's message with a note naming the fields it carried, before the SDK stores it in history.

    The values live only in the sealed record: the task's row at rest shows which fields were answered, not what.
    """
    note = {records.RECORD_KEY: _SEALED_NOTE, "fields": list(fields)}
    del message.parts[:]
    message.parts.append(proto.part(wire.PartOut(data=note, media_type=wire.JSON_MEDIA_TYPE)))


def _new_task(task_id: str, context_id: str, message: pb.Message) -> pb.Task:
    """The task, enqueued before any status (the SDK requires it), its history the redacted first message."""
    return pb.Task(
        id=task_id,
        context_id=context_id,
        status=pb.TaskStatus(state=pb.TASK_STATE_SUBMITTED),
        history=[message],
    )
