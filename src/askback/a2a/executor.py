"""An askback `App` as an a2a-sdk `AgentExecutor`: a translator from messages to the flow and the task runner.

The first message of a task names the call; each later message on the same task answers what the last round
asked. Every task is kept by askback's task records: its rounds before the function runs in the task-record
holder (`askback.tasks.holder`, in askback's store under the task's id, sealed and bound to its principal), so a
restart does not lose it and any replica sharing the store continues it; the SDK's task store keeps only what
the client is shown.

Every task's final round is single-use (the flow claims it in askback's store before the function runs), so a
function runs once per task even when two replicas receive the same answer.

A tool taking `askback.Work` asks during its work: once its values are known, its function runs on the task
runner MCP tasks use, and the task follows the runner's states (`askback.a2a.work`). A secret it asks is a
page step, as a Secret parameter's is: the task is auth-required with the page's link; the client's next
message declines it, or, once the page is done, lets the task go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, NoReturn

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import a2a_pb2 as pb
from a2a.utils.errors import UnsupportedOperationError

from askback.a2a import proto, reading, wire
from askback.a2a import work as work_tasks
from askback.a2a.ending import Endings, SharedEnd
from askback.a2a.incoming import incoming_of, principal_of_call
from askback.app import App
from askback.core.errors import AskbackError, InvalidRequestState, Rejection, StoreUnavailable
from askback.core.markers import Context
from askback.core.questions import Question, UrlQuestion
from askback.core.spec import Spec
from askback.core.tasks import TaskQuestion, TaskState
from askback.core.text import one_line
from askback.flow import Asking, Finished, Flow, Ready, Refused, Round, Step
from askback.incoming import page_origin
from askback.pagewait import PageWait
from askback.receipts import RECEIPT_META
from askback.tasks.holder import Asked, FlowRecord, Phase, TaskFlows, TaskRecordHolder
from askback.tasks.runner import NO_PAGES, TaskRunner, UnknownTask, failure_text
from askback.toolcontext import status_context
from askback.types import Capabilities

logger = logging.getLogger("askback.a2a")

# An A2A client can be asked forms (the schema data part) and pages (auth-required); sampling and roots are MCP's.
A2A_CAPS = Capabilities(form=True, url=True)
METHOD = "a2a/message"
_TERMINAL = frozenset({pb.TASK_STATE_COMPLETED, pb.TASK_STATE_CANCELED, pb.TASK_STATE_FAILED, pb.TASK_STATE_REJECTED})
_STATES = {name: value for name, value in pb.TaskState.items()}


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
        self._page_wait = PageWait(self.patience_seconds, poll=poll_seconds)
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
        self._flows: TaskFlows | None = None

    @property
    def flows(self) -> TaskFlows:
        """The tasks' rounds in askback's store (built on first use: the runtime is resolved at start-up)."""
        if self._flows is None:
            runtime = self.app.runtime
            self._flows = TaskFlows(runtime.store, runtime.codec.keyring, runtime.audience, runtime.codec.policy,
                                    work_tasks.A2ATaskWire.name)
        return self._flows

    @property
    def runner(self) -> TaskRunner:
        if self._runner is None:  # built on first use: the runtime (keys, store) is resolved at start-up
            # A secret asked during the work is a page step (auth-required), when this server serves the pages.
            served = self.app.pages_served
            self._runner = TaskRunner(self.app.runtime, work_tasks.A2ATaskWire(), ttl=self.app.task_ttl,
                                      lease=self.app.task_lease,
                                      page_request=work_tasks.page_request if served else None,
                                      no_page_step=None if served else NO_PAGES)
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
        return {name: (kind, reading.text_param(spec)) for (kind, name), spec in self._specs.items()}

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
                await self._publish(context, updater, spec, work, None, None)
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
        data_parts, text = reading.parts(message)
        principal = principal_of_call(self.app, context.call_context)
        updater = TaskUpdater(event_queue, task_id, context_id)
        responses: dict[str, Any] | None = None
        problem: str | None = None
        if task is None:
            try:
                invocation = wire.read_invocation(data_parts, text, self.skills)
            except wire.BadMessage as exc:
                reading.redact(message, [])
                await event_queue.enqueue_event(_new_task(task_id, context_id, message))
                await updater.reject(proto.message(wire.error(str(exc)), context))
                return
            spec = self._specs[(invocation.kind, invocation.name)]
            arguments = wire.coerce_all(invocation.arguments, spec.input_schema.get("properties", {}))
            reading.redact(message, sorted(arguments))
            await event_queue.enqueue_event(_new_task(task_id, context_id, message))
            record = FlowRecord(invocation.kind, invocation.name, arguments)
            if invocation.unused_text:
                problem = (f"{spec.name} has no single text parameter, so the text was not used. "
                           "Answer the fields of the schema.")
        else:
            opened = await self._open(context, updater, task, principal)
            if opened is None:
                return
            record = opened
            if record.phase == "running":
                await self._continue_work(context, updater, record, message, data_parts, text, principal)
                return
            responses, problem = reading.answers(data_parts, text, record.questions())
            reading.redact(message, reading.answered_fields(responses))
            spec = self._specs[(record.kind, record.name)]
        holder = TaskRecordHolder(self.flows, task_id, principal, record)
        await self._play(context, updater, spec, holder, responses, problem)

    async def _open(self, context: RequestContext, updater: TaskUpdater, task: pb.Task,
                    principal: str | None) -> FlowRecord | None:
        """The task's record for a message continuing it (None: the task was answered instead)."""
        task_id = task.id
        assert context.message is not None
        try:
            return await self.flows.read(task_id, principal)
        except InvalidRequestState as exc:
            reading.redact(context.message, [])
            if exc.reason is Rejection.REPLAYED:  # its function ran: the message came after (or beside) it
                await self._replayed(task_id, context.call_context)
            logger.warning("rejected the askback record of task %s: %s", one_line(task_id), exc.reason.value)
            await self._rejected(context, updater, exc)
        except StoreUnavailable as exc:
            # Nothing was read, nothing ran: the task keeps waiting as it is, so the same answer can be sent again.
            reading.redact(context.message, [])
            again = wire.with_problem(reading.shown(task.status.message), exc.public_message,
                                      retryable=exc.wire.retryable)
            await updater.update_status(task.status.state, proto.message(again, context))
        return None

    async def _play(self, context: RequestContext, updater: TaskUpdater, spec: Spec, holder: TaskRecordHolder,
                    responses: dict[str, Any] | None, problem: str | None) -> None:
        """The task's rounds: each asks (published as the task's state) until the function runs.

        Over a stream, a round asking only for page steps waits for one to finish (`PageWait`, as a held retry
        waits) and plays the next round, until it asks something else or the stream's patience is spent; the task
        is then left waiting for a message.
        """
        task_id = context.task_id or ""
        record = holder.record
        rnd = Round(METHOD, record.target(task_id), record.arguments, responses, None, A2A_CAPS, holder.principal,
                    page_origin(incoming_of(context.call_context)))
        streaming = context.call_context.state.get("method") == "SendStreamingMessage"
        until = asyncio.get_running_loop().time() + self.patience_seconds
        again = False  # this round follows a page step finished while the stream waited
        while True:
            before = holder.record.asked
            step = await self._round(context, updater, spec, holder, rnd, again)
            if step is None:
                return
            if isinstance(step, Ready):
                await self._start_work(context, updater, spec, holder, step)
                return
            if not isinstance(step, Asking):
                if not self._ends_with_outcome(task_id):
                    return  # a cancellation came first (the function did not stop for it): it ends the task
                await self._finish(context, updater, spec, step)
                return
            only_pages, waiting = _pages_only(step.questions, before)
            if not (again and waiting):  # a page step still pending while the stream waits: nothing new to say
                if only_pages:
                    out = wire.auth_required(step.questions, waiting and responses is not None)
                    await updater.update_status(pb.TASK_STATE_AUTH_REQUIRED, proto.message(out, context))
                else:
                    out = wire.input_required(step.questions)
                    if problem:
                        out = wire.with_problem(out, problem)
                    await updater.update_status(pb.TASK_STATE_INPUT_REQUIRED, proto.message(out, context))
            oob = self.app.runtime.out_of_band
            if not (only_pages and streaming) or oob is None:
                return
            names = tuple(q.key for q in step.questions)
            left = until - asyncio.get_running_loop().time()
            if not await self._page_wait.hold(partial(oob.any_finished, holder.flow_id, names), longest=left):
                return
            again, problem = True, None

    async def _round(self, context: RequestContext, updater: TaskUpdater, spec: Spec, holder: TaskRecordHolder,
                     rnd: Round, again: bool) -> Step | Ready | None:
        """One round on the task's record: its questions kept, or the function run (here, or `Ready` for the
        runner); None when the round ended the task otherwise (published here)."""
        task_id = context.task_id or ""
        first = holder.record.progress is None
        try:
            resolved = await self.flow.resolve(spec, rnd, holder)
            if isinstance(resolved, Asking):
                if not (again and _pages_only(resolved.questions, holder.record.asked)[1]):
                    await holder.keep(resolved.questions)
                return resolved
            if not isinstance(resolved, Ready) or spec.name in self._work_specs:
                return resolved  # a refusal, or the values of a function the runner runs
            try:
                if await self.shared_end.decide(task_id, "outcome") != "outcome":
                    return None  # cancelled (on another replica) before the function ran: it does not run
                return await self.flow.run(spec, resolved, None, self._context(context, updater, spec, rnd))
            finally:
                await self._moved(holder, "done", first)
        except InvalidRequestState as exc:
            if exc.reason is not Rejection.REPLAYED:
                await self._rejected(context, updater, exc)
                return None
            await self._replayed(task_id, context.call_context)
        except StoreUnavailable as exc:
            if first:  # the first message: a new message is the retry, and starts a new task
                await self._rejected(context, updater, exc)
                return None
            # Nothing ran and the questions are still open: the task keeps waiting, so the same answer can be
            # sent again, as the message says (a failed task could take no retry).
            asked = wire.input_required(holder.record.questions())
            out = wire.with_problem(asked, exc.public_message, retryable=exc.wire.retryable)
            await updater.update_status(pb.TASK_STATE_INPUT_REQUIRED, proto.message(out, context))
        except AskbackError as exc:
            await self._rejected(context, updater, exc)
        except Exception as exc:
            logger.exception("a2a %s %s raised", spec.kind, one_line(spec.name))
            out = wire.error(failure_text(spec, exc))
            await updater.failed(proto.message(out, context))
        return None

    def _context(self, context: RequestContext, updater: TaskUpdater, spec: Spec, rnd: Round) -> Context | None:
        """A function's `askback.Context` on A2A: each progress is a working status update with its text."""
        if spec.context_param is None:
            return None

        async def status(text: str) -> None:
            await updater.update_status(pb.TASK_STATE_WORKING, proto.message(wire.progress(text), context))

        return status_context(status, rnd.principal, self.app.runtime.answer_guard, spec.name)

    async def _moved(self, holder: TaskRecordHolder, phase: Phase, first: bool, until: float | None = None) -> None:
        """The rounds are over: the record keeps none of the values (best effort for `done`: the claim already
        refuses a replay, the record only answers it sooner)."""
        if first and phase == "done":
            return  # nothing was ever written: the function ran in the task's first round
        try:
            await holder.moved(phase, until if until is not None else holder.record.deadline)
        except AskbackError:
            if phase != "done":
                raise
            logger.warning("could not close the record of task %s", one_line(holder.task_id))

    async def _replayed(self, task_id: str, call: ServerCallContext) -> NoReturn:
        """Another request (on another replica) claimed this task's final round and is running it: writing a
        state here would race its result. Wait for it to finish, then say this message was not applied."""
        await self._await_finish(task_id, call)
        raise UnsupportedOperationError(
            message=f"Task {task_id} was completed by another request; this message was not applied."
        ) from None

    # -- a function that asks during its work, on the task runner -------------------------------------------
    async def _start_work(self, context: RequestContext, updater: TaskUpdater, spec: Spec,
                          holder: TaskRecordHolder, ready: Ready) -> None:
        task_id = context.task_id or ""
        try:
            # Every A2A client can be sent to a page; its link's base is where this request reached the server.
            origin = page_origin(incoming_of(context.call_context))
            _, state = await self.runner.create(self._work_specs[spec.name], ready, holder.principal, task_id=task_id,
                                                caps=A2A_CAPS, origin=origin)
            # The runner's record holds the values from now on; the task's own record only says where to look.
            await self._moved(holder, "running", False, state.expires_at())
        except AskbackError as exc:
            await self._rejected(context, updater, exc)
            return
        await updater.update_status(pb.TASK_STATE_WORKING)
        await self._follow(context, updater, spec, holder.principal, None)

    async def _continue_work(self, context: RequestContext, updater: TaskUpdater, record: FlowRecord,
                             message: pb.Message, data_parts: Sequence[Any], text: str,
                             principal: str | None) -> None:
        """A message on a task whose function runs: the answers to its outstanding questions, read as for
        every A2A question, delivered to the runner (which validates them and asks again, saying why)."""
        task_id = context.task_id or ""
        spec = self._specs[(record.kind, record.name)]
        try:
            state = await self.runner.get(task_id, principal, self._work_specs)
        except UnknownTask:
            reading.redact(message, [])
            out = wire.error(f"The work of {spec.name} on this task is no longer kept (it expired). "
                             "Call the tool again.")
            await updater.update_status(pb.TASK_STATE_FAILED, proto.message(out, context))
            return
        pages = work_tasks.pages_only(state) if state.status == "input_required" else ()
        if pages:
            await self._page_message(context, updater, spec, state, pages, data_parts, principal)
            return
        asked = work_tasks.questions(state) if state.status == "input_required" else []
        responses: dict[str, Any] = {}
        if asked:
            responses, problem = reading.answers(data_parts, text, asked)
        else:
            problem = "The task was not waiting for an answer, so this message was not used."
        reading.redact(message, reading.answered_fields(responses))
        if responses:
            with contextlib.suppress(UnknownTask):  # expired meanwhile: the follow below says how it ended
                await self.runner.update(task_id, principal, responses, self._work_specs)
        await self._follow(context, updater, spec, principal, problem)

    async def _page_message(self, context: RequestContext, updater: TaskUpdater, spec: Spec, state: TaskState,
                            pages: Sequence[TaskQuestion], data_parts: Sequence[Any], principal: str | None) -> None:
        """A message on a task waiting for the page step of a secret its function asked, read as a Secret
        parameter's page step reads one: a decline or cancel is the link's answer (`askback.Declined` in the
        function); any other message asks whether the page is done, and the task goes on once it is (the link
        answered accepted, so a task whose runner is gone resumes), or still waits, saying so.

        The message is never kept: nothing it carries answers a page, whose value is entered on the page only.
        """
        task_id = context.task_id or ""
        assert context.message is not None
        reading.redact(context.message, [])
        asked = [work_tasks.question_of(a) for a in pages]
        try:
            responses = wire.read_answers(data_parts, asked)  # a page link takes a decline or cancel, nothing else
        except wire.BadMessage:
            responses = {}
        if not responses:
            if not all([await self.runner.page_step(task_id, state, a.ordinal).finished() for a in pages]):
                out = wire.auth_required(asked, True)
                await updater.update_status(pb.TASK_STATE_AUTH_REQUIRED, proto.message(out, context))
                return
            responses = {a.key: {"action": "accept"} for a in pages}
        with contextlib.suppress(UnknownTask):  # expired meanwhile: the follow below says how it ended
            await self.runner.update(task_id, principal, responses, self._work_specs)
        await self._follow(context, updater, spec, principal, None)

    async def _follow(self, context: RequestContext, updater: TaskUpdater, spec: Spec, principal: str | None,
                      problem: str | None) -> None:
        """Publish the runner's states until the function asks (input required) or the task settles.

        Over a stream, a page step of the work is waited on as a Secret parameter's is: the stream goes on
        following the runner, which notices the page itself, until the stream's patience is spent; the task
        is then left auth-required, waiting for a message.
        """
        task_id = context.task_id or ""
        streaming = context.call_context.state.get("method") == "SendStreamingMessage"
        said: str | None = None
        try:
            async with asyncio.timeout(None) as patience:
                async with contextlib.aclosing(self.runner.follow(task_id, principal, self._work_specs)) as states:
                    async for state in states:
                        if await self._publish(context, updater, spec, state, problem, said):
                            if not (streaming and work_tasks.pages_only(state)):
                                return
                            if patience.when() is None:
                                patience.reschedule(asyncio.get_running_loop().time() + self.patience_seconds)
                        said = state.status_message or said
        except TimeoutError:
            if not patience.expired():
                raise
            return  # the page was not done within the stream's patience: the next message continues the task
        except UnknownTask:
            out = wire.error(f"The work of {spec.name} on this task is no longer kept (it expired).")
            await updater.update_status(pb.TASK_STATE_FAILED, proto.message(out, context))

    async def _publish(self, context: RequestContext, updater: TaskUpdater, spec: Spec, state: TaskState,
                       problem: str | None, said: str | None) -> bool:
        """One state of the runner as A2A shows it; True once the task waits for the client or settled."""
        if state.terminal:
            self._ends_with_outcome(context.task_id or "")
            final, out, parts = work_tasks.outcome(state)
            if parts:
                await updater.add_artifact([proto.part(p) for p in parts], name=spec.name,
                                           metadata=work_tasks.artifact_metadata(state))
            shown = proto.message(out, context) if out is not None else None
            await updater.update_status(_STATES.get(final, pb.TASK_STATE_FAILED), shown)
            return True
        if state.status == "input_required" and work_tasks.pages_only(state):
            out = wire.auth_required(work_tasks.questions(state), False)
            await updater.update_status(pb.TASK_STATE_AUTH_REQUIRED, proto.message(out, context))
            return True
        if state.status == "input_required" and state.outstanding:
            out = wire.input_required(work_tasks.questions(state))
            if problem:
                out = wire.with_problem(out, problem)
            await updater.update_status(pb.TASK_STATE_INPUT_REQUIRED, proto.message(out, context))
            return True
        if state.status_message and state.status_message != said:
            out = wire.progress(state.status_message)
            await updater.update_status(pb.TASK_STATE_WORKING, proto.message(out, context))
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
        await updater.update_status(_STATES[state], proto.message(out, context))

    async def _await_finish(self, task_id: str, call: ServerCallContext, seconds: float = 30.0) -> None:
        waited = 0.0
        while self.task_finished is not None and waited < seconds and not await self.task_finished(task_id, call):
            await asyncio.sleep(0.1)
            waited += 0.1

    async def _finish(self, context: RequestContext, updater: TaskUpdater, spec: Spec, step: Step) -> None:
        if isinstance(step, Finished):
            parts = wire.prompt_parts(step.value) if spec.kind == "prompt" else wire.result_parts(step.value)
            metadata = {RECEIPT_META: step.receipt} if step.receipt is not None else None
            await updater.add_artifact([proto.part(p) for p in parts], name=spec.name, metadata=metadata)
            await updater.update_status(pb.TASK_STATE_COMPLETED)
            return
        assert isinstance(step, Refused)
        out = wire.refusal(step.refusal)
        if step.receipt is not None:
            out = replace(out, metadata={**out.metadata, RECEIPT_META: step.receipt})
        state = pb.TASK_STATE_REJECTED if step.refusal.is_error else pb.TASK_STATE_CANCELED
        await updater.update_status(state, proto.message(out, context))


def _pages_only(questions: Sequence[Question], before: Sequence[Asked]) -> tuple[bool, bool]:
    """Whether a round asks only for page steps, and whether they are all ones asked before (still pending)."""
    pages = {(q.key, q.url) for q in questions if isinstance(q, UrlQuestion)}
    only = len(pages) == len(questions)
    return only, only and pages <= {(a.key, a.url) for a in before if a.url}


def _new_task(task_id: str, context_id: str, message: pb.Message) -> pb.Task:
    """The task, enqueued before any status (the SDK requires it), its history the redacted first message."""
    return pb.Task(
        id=task_id,
        context_id=context_id,
        status=pb.TaskStatus(state=pb.TASK_STATE_SUBMITTED),
        history=[message],
    )
