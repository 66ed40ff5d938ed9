"""Running tasks: create one, run its function outside the request, park it on questions, settle it.

`TaskRunner` is wire-neutral: a wire adapter (`askback.mcp.tasks`, `askback.a2a.work`) gives it a `TaskWire`
that spells a function's outcome and a question in that wire's shapes, and translates its requests to these
methods. A wire that pushes states to its client (A2A) follows a task with `follow`, which hands on each state
the local runner writes and polls the store for a task running elsewhere; a polled wire (MCP) uses `get`.

Who runs a task: the process that created it, holding a lease in the store it renews while it runs. Any
replica sharing the store can read the task, deliver answers and ask for cancellation (store keys the runner
polls). When a lease lapses (the process stopped), the first process that needs the task takes it over
(exactly one wins, `TaskRecords.take_over`):

- a task that was working settles `failed`, saying the server stopped under it (its work may be partly done);
- a task parked on a question stays parked; once answered, it runs again from the start, each question it
  asked before answered from the record in order (so the work before the questions runs again), or, for a
  tool registered with `resume="fail"` (or one that read a secret, which can be read only once), settles
  `failed` saying so. A secret the function asked during its work (`work.ask(secret=True)`, a step on
  askback's page: `TaskWork._page_step`) is never in the record, so a re-run asks the page again.

A graceful shutdown does the same at once: working tasks settle `failed`, parked ones are released.

What a task reads is what its function did. A cancellation stops the function only (`_Running.call`), never
the settling of an outcome it already has: a function that returned settles `completed` whatever arrives
meanwhile, and `cancelled` means it did not finish. A running task's writes are never cut short by a
cancellation (`_save`), so an older state cannot land after a newer one. And a process that takes a task over
decides on the record as it is once the claim is won (`_taken_over`), never on the one read before: the runner
that finished the task meanwhile wrote its outcome before it let go of the lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from askback.core import tasks as lifecycle
from askback.core.decide import AnswerGuard
from askback.core.errors import AskbackError, Declined
from askback.core.kinds import DEFERRED, CallerParam, WorkParam
from askback.core.markers import Caller, Work
from askback.core.questions import FormQuestion, UrlQuestion
from askback.core.spec import Spec
from askback.core.tasks import TaskState
from askback.core.text import one_line, render
from askback.core.work import (
    Accepted,
    Again,
    DeclinedAnswer,
    QuestioningWork,
    UnsafeQuestion,
    WorkQuestion,
    link_answer,
    secret_page_question,
)
from askback.flow import Ready, Runtime, declined_refusal, run_function
from askback.pagestep import PageStep, flow_of
from askback.tasks.record import MISSING, TaskRecords
from askback.telemetry.flows import FlowTelemetry, Outcome
from askback.telemetry.providers import metering
from askback.toolcontext import ReportingContext, status_context
from askback.types import Capabilities

logger = logging.getLogger("askback.tasks")

POLL_SECONDS = 0.2  # how often a parked function looks for its answer in the store (a local update wakes it)
POLL_INTERVAL_MS = 500  # what clients are told to poll at
PAGES = "pages"  # `TaskState.extra`: whether the client can open a page link, and the base URL of one
RECEIPT = "receipt"  # `TaskState.extra`: the id of the flow's receipt (`askback.receipts`), if it keeps one
STOPPED_WHILE_WORKING = (
    "The server stopped while this task was running, so it did not finish; part of its work may have been done. "
    "Call the tool again to start over."
)


class TaskWire(Protocol):
    """How one wire spells a task's outcome and questions."""

    name: str  # the wire's records are its own: `TaskRecords` keys and binds them under this name

    def result(self, spec: Spec, value: Any) -> dict[str, Any]: ...
    def refusal(self, spec: Spec, exc: Declined) -> dict[str, Any]:
        """A declined question (spelled from `askback.flow.declined_refusal`, as a call without a task is)."""
        ...
    def tool_error(self, spec: Spec, exc: AskbackError) -> dict[str, Any] | None:
        """The result for a deliberate error (None: it is a protocol error, see `error`)."""
        ...
    def error(self, spec: Spec, exc: BaseException) -> dict[str, Any]:
        """A function that raised (its text from `failure_text`, unless the wire keeps a protocol error's own)."""
        ...
    def request(self, question: FormQuestion) -> dict[str, Any]: ...
    def with_receipt(self, result: dict[str, Any], receipt: str) -> dict[str, Any]:
        """The outcome carrying its flow's receipt id where the wire's results carry metadata."""
        ...


# How a wire spells a URL question (a page link), for a wire that can put one to its client.
PageRequest = Callable[[UrlQuestion], dict[str, Any]]
NO_PAGES = ("this server does not serve askback's pages (they are served over HTTP, on loopback or with "
            "page_auth)")
def failure_text(spec: Spec, exc: BaseException) -> str:
    """What every wire tells a client of a function that raised: a question it must not ask (its own bug, safe
    to name: it asked for a credential) by name; anything else only by the tool's name (details in the log)."""
    if isinstance(exc, UnsafeQuestion):
        return f"{spec.name} failed: {exc}. Nothing more was done."
    return f"{spec.name} failed with an internal error. The server log has the details."


class UnknownTask(Exception):
    """No task with this id for this principal (never created, expired, or another principal's)."""


@dataclass
class _Running:
    task_id: str
    principal: str | None
    spec: Spec
    state: TaskState
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    job: asyncio.Task[None] | None = None  # runs the function, then settles the task with its outcome
    call: asyncio.Future[Any] | None = None  # the function alone: what a cancellation stops
    lease: asyncio.Task[None] | None = None
    stopping: bool = False  # the server is shutting down: the function is stopped, not cancelled by a client
    cancel_asked: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    followers: list[asyncio.Queue[TaskState]] = field(default_factory=list)  # `follow`: each state written
    # The working states written before anyone followed (a status text the function set at once), handed to the
    # first follower; None once one has followed.
    unfollowed: list[TaskState] | None = field(default_factory=list)


class TaskRunner:
    def __init__(self, runtime: Runtime, wire: TaskWire, *, ttl: int, lease: float,
                 page_request: PageRequest | None = None, no_page_step: str | None = None) -> None:
        """`page_request`: how the wire spells a page link, when a secret asked during the work can be entered
        on askback's page (the wire can put a URL question, and the server serves the pages); None: it cannot
        (`askback.core.work.SecretsUnavailable`), for the reason `no_page_step` gives, if the wire knows it."""
        self.runtime = runtime
        self.wire = wire
        self.page_request = page_request
        self.no_page_step = no_page_step
        self.ttl = ttl
        self.lease = lease
        self.records = TaskRecords(runtime.store, runtime.codec.keyring, runtime.audience, runtime.clock,
                                   wire.name)
        self.owner = "run-" + os.urandom(6).hex()  # this process, in the leases it holds
        self._running: dict[str, _Running] = {}

    # -- creating ------------------------------------------------------------------------------------------
    async def create(self, spec: Spec, ready: Ready, principal: str | None,
                     task_id: str | None = None, *, caps: Capabilities | None = None,
                     origin: str | None = None) -> tuple[str, TaskState]:
        """Write the task, then start it: the id is returned only once the record can be read back anywhere.

        `task_id`: the id the wire already gave the task (A2A's); by default a fresh one. `caps`: what the
        creating request's client declared, and `origin`: where it reached this server (a page link's base
        when no public URL is set); both kept in the record for the questions the work asks, a re-run's too.
        """
        task_id = task_id or secrets.token_urlsafe(24)  # 192 bits: a task id may act as a bearer handle
        now = self.runtime.clock()
        values = {
            name: spec.param(name).to_json(value)
            for name, value in ready.values.items()
            if value is not DEFERRED and not spec.param(name).injected
        }
        state = TaskState(
            tool=spec.name,
            values=values,
            created_at=now,
            updated_at=now,
            ttl_seconds=self.ttl,
            poll_ms=POLL_INTERVAL_MS,
            resumable=spec.resume == "rerun" and not ready.read_secrets,
            extra={PAGES: {"url": bool(caps is not None and caps.url), "origin": origin},
                   **({RECEIPT: ready.receipt} if ready.receipt is not None else {})},
        )
        await self.records.hold_lease(task_id, self.owner, self.lease)
        await self.records.write(task_id, principal, state)
        self._start(task_id, principal, spec, state, ready.kwargs)
        return task_id, state

    def _start(self, task_id: str, principal: str | None, spec: Spec, state: TaskState,
               kwargs: dict[str, Any]) -> None:
        run = _Running(task_id, principal, spec, state)
        self._running[task_id] = run
        run.job = asyncio.create_task(self._run(run, kwargs), name=f"askback task {spec.name}")
        run.lease = asyncio.create_task(self._keep_lease(run), name=f"askback task lease {spec.name}")

    # -- reading -------------------------------------------------------------------------------------------
    async def get(self, task_id: str, principal: str | None, specs: Mapping[str, Spec]) -> TaskState:
        """The task as a client sees it now: outstanding questions only, a lapsed runner noticed."""
        state = await self.records.read(task_id, principal)
        if state is None:
            raise UnknownTask(task_id)
        if not state.terminal and task_id not in self._running and await self.records.lease_holder(task_id) is None:
            if state.status == "working":
                # Its process stopped without settling it (killed): it will never finish.
                state = await self._settle_orphan(task_id, principal, state, STOPPED_WHILE_WORKING)
            elif await self._answers_waiting(task_id, state):
                # Answered while its process was going away: whoever reads it next resumes it.
                await self._resume(task_id, principal, state, specs)
                state = await self.records.read(task_id, principal) or state
        return await self._visible(task_id, state)

    async def follow(self, task_id: str, principal: str | None,
                     specs: Mapping[str, Spec]) -> AsyncGenerator[TaskState, None]:
        """Each state of the task as a client sees it, from now until it settles (the caller stops when it has
        what it waits for, e.g. a question).

        A task this process runs hands its followers every state it writes, so none is missed (a status text
        shown just before a question); one running elsewhere, or nowhere after a restart, is read from the
        store every `POLL_SECONDS`, as `get` reads it (resuming or settling it by the same rules).
        """
        seen: TaskState | None = None
        while True:
            run = self._running.get(task_id)
            if run is None:
                state = await self.get(task_id, principal, specs)
                if state != seen:
                    seen = state
                    yield state
                if state.terminal:
                    return
                await asyncio.sleep(POLL_SECONDS)
                continue
            written: asyncio.Queue[TaskState] = asyncio.Queue()
            run.followers.append(written)  # before reading its state, so nothing written meanwhile is missed
            earlier, run.unfollowed = run.unfollowed or [], None
            try:
                for old in earlier:  # a status shown before the first follower came, not a question since answered
                    if old.status == "working" and old.status_message and old is not run.state:
                        shown = await self._visible(task_id, old)
                        if shown != seen:
                            seen = shown
                            yield shown
                state = run.state
                while True:
                    shown = await self._visible(task_id, state)
                    if shown.outstanding and run.state is not state:
                        # The runner moved on while the store was asked: an answer it has taken in meanwhile
                        # is no longer in the store, so this older state would show its question again.
                        state = run.state
                        continue
                    if shown != seen:
                        seen = shown
                        yield shown
                    if shown.terminal:
                        return
                    try:
                        state = await asyncio.wait_for(written.get(), POLL_SECONDS * 5)
                    except TimeoutError:
                        if self._running.get(task_id) is not run:
                            break  # it stopped here without settling (a shutdown): read it from the store
                        state = run.state
            finally:
                run.followers.remove(written)

    async def _answers_waiting(self, task_id: str, state: TaskState) -> bool:
        return any([await self.records.has_answer(task_id, a.key) for a in state.outstanding])

    async def _visible(self, task_id: str, state: TaskState) -> TaskState:
        """Questions already answered but not yet taken in by the runner are not outstanding any more."""
        if state.status != "input_required":
            return state
        pending = [a for a in state.outstanding if await self.records.has_answer(task_id, a.key)]
        if not pending:
            return state
        asked = tuple(replace(a, answered=True) if a in pending else a for a in state.asked)
        shown = replace(state, asked=asked)
        return shown if shown.outstanding else replace(shown, status="working", status_message=None)

    # -- answering -----------------------------------------------------------------------------------------
    async def update(self, task_id: str, principal: str | None, responses: Mapping[str, Any],
                     specs: Mapping[str, Spec]) -> None:
        """Deliver answers to outstanding questions; every other key is ignored. Resumes a task nobody runs."""
        state = await self.records.read(task_id, principal)
        if state is None:
            raise UnknownTask(task_id)
        if state.terminal:
            return
        keys = lifecycle.accepted_keys(state, list(responses))
        for key in keys:
            await self.records.put_answer(task_id, principal, key, responses[key], state.expires_at())
        if not keys:
            return
        run = self._running.get(task_id)
        if run is not None:
            run.wake.set()
            await self._settled_or_waiting(run)
            return
        if await self.records.lease_holder(task_id) is None:
            await self._resume(task_id, principal, state, specs)

    async def _settled_or_waiting(self, run: _Running, seconds: float = 1.0) -> None:
        """Give a local runner a moment to take the answers in, so the next read usually shows their effect."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while loop.time() < deadline and run.job is not None and not run.job.done():
            if not any([await self.records.has_answer(run.task_id, a.key) for a in run.state.outstanding]):
                return
            await asyncio.sleep(0.02)

    async def _resume(self, task_id: str, principal: str | None, state: TaskState,
                      specs: Mapping[str, Spec]) -> None:
        """A parked task whose process is gone got its answers: run it again from the start, or fail it."""
        taken = await self._taken_over(task_id, principal, state)
        if taken is None:
            return  # another process took it over, or it settled meanwhile
        state = taken
        spec = specs.get(state.tool)
        if spec is None or spec.task is None or not state.resumable:
            why = (f"The server restarted while this task waited for an answer, and {state.tool} does not resume "
                   "after a restart: nothing more was done after the question. Call the tool again.")
            await self._settle_orphan(task_id, principal, state, why, taken=True)
            return
        state = replace(state, runs=state.runs + 1).moved("working", self.runtime.clock(),
                                                          "Resumed after a restart: running again from the start.")
        await self.records.hold_lease(task_id, self.owner, self.lease)
        await self.records.write(task_id, principal, state)
        kwargs = _kwargs(spec, state, principal)
        logger.info("task %s of %s resumed (run %d)", one_line(task_id), one_line(spec.name), state.runs)
        self._start(task_id, principal, spec, state, kwargs)

    # -- cancelling ----------------------------------------------------------------------------------------
    async def cancel(self, task_id: str, principal: str | None) -> None:
        state = await self.records.read(task_id, principal)
        if state is None:
            raise UnknownTask(task_id)
        if state.terminal:
            return
        run = self._running.get(task_id)
        if run is not None:
            _stop_function(run)
            if run.job is not None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(asyncio.shield(run.job), 5)
            return
        await self.records.ask_cancel(task_id, state.expires_at())
        if await self.records.lease_holder(task_id) is None:
            taken = await self._taken_over(task_id, principal, state)
            if taken is not None:
                await self.records.write(task_id, principal, lifecycle.cancelled(taken, self.runtime.clock()))

    # -- running -------------------------------------------------------------------------------------------
    async def _run(self, run: _Running, kwargs: dict[str, Any]) -> None:
        spec = run.spec
        work = TaskWork(self, run)
        if spec.work_param is not None:
            kwargs = {**kwargs, spec.work_param: work}
        if spec.context_param is not None:
            kwargs = {**kwargs, spec.context_param: task_context(work, run.principal, self.runtime.answer_guard,
                                                                 spec.name)}
        try:
            if run.cancel_asked:  # cancelled before it started: nothing ran
                await self._write(run, lambda s: lifecycle.cancelled(s, self.runtime.clock()))
                _ended("cancelled")
                return
            run.call = asyncio.ensure_future(run_function(spec, kwargs))
            try:
                value = await run.call
            except asyncio.CancelledError:
                if run.stopping or _cancelling():
                    raise  # the server stops (`stop` settles it), not the client
                await self._write(run, lambda s: lifecycle.cancelled(s, self.runtime.clock()))
                _ended("cancelled")
                return
            except Declined as exc:
                result = self.wire.refusal(spec, exc)
                await self._returned(run, declined_refusal(exc).reason)
                how: Outcome = "cancelled" if exc.action == "cancel" else "declined"
            except AskbackError as exc:
                shown = self.wire.tool_error(spec, exc)
                await self._returned(run, "failed")
                if shown is None:
                    await self._fail(run, self.wire.error(spec, exc))
                    _ended("failed")
                    return
                result, how = shown, "failed"
            except Exception as exc:
                logger.exception("task %s of %s raised", one_line(run.task_id), one_line(spec.name))
                await self._returned(run, "failed")
                await self._fail(run, self.wire.error(spec, exc))
                _ended("failed")
                return
            else:
                try:
                    result, how = self.wire.result(spec, value), "completed"
                except Exception as exc:
                    logger.exception("the result of task %s of %s cannot be sent", one_line(run.task_id),
                                     one_line(spec.name))
                    await self._returned(run, "failed")
                    await self._fail(run, self.wire.error(spec, exc))
                    _ended("failed")
                    return
                await self._returned(run, "complete", value)
            receipt = run.state.extra.get(RECEIPT)
            if isinstance(receipt, str):
                result = self.wire.with_receipt(result, receipt)
            await self._write(run, lambda s: lifecycle.completed(s, result, self.runtime.clock()))
            _ended(how)
        finally:
            if not run.stopping:
                self._running.pop(run.task_id, None)
                if run.lease is not None:
                    run.lease.cancel()
                with contextlib.suppress(Exception):
                    await self.records.release_lease(run.task_id)

    async def _returned(self, run: _Running, outcome: str, *value: Any) -> None:
        """Record on the flow's receipt (if it keeps one) what the task's function came back with."""
        receipt, receipts = run.state.extra.get(RECEIPT), self.runtime.receipts
        if isinstance(receipt, str) and receipts is not None:
            await receipts.returned(receipt, outcome, *value, has_value=bool(value))

    async def _fail(self, run: _Running, error: dict[str, Any]) -> None:
        await self._write(run, lambda s: lifecycle.failed(s, error, self.runtime.clock()))

    async def _write(self, run: _Running, change: Any) -> None:
        async with run.lock:
            if run.state.terminal:
                return
            run.state = change(run.state)
            await self._save(run)

    async def _save(self, run: _Running) -> None:
        """Write the running task's state, and wake whoever follows it.

        The write is finished before a cancellation of the function goes on: a store may go on writing after
        its caller was cancelled (SQLite writes in a worker thread), and the `cancelled` written next must not
        be overtaken by this older state (a task left `working` with nobody running it reads "the server
        stopped").
        """
        state = run.state
        await _whole(self.records.write(run.task_id, run.principal, state))
        for follower in run.followers:
            follower.put_nowait(state)
        if not run.followers and run.unfollowed is not None and len(run.unfollowed) < 32:
            run.unfollowed.append(state)

    async def _keep_lease(self, run: _Running) -> None:
        """Renew the lease while the task runs, and notice a cancellation asked through another replica."""
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self.records.hold_lease(run.task_id, self.owner, self.lease)
                if not run.cancel_asked and await self.records.cancel_asked(run.task_id):
                    _stop_function(run)
            except AskbackError:
                logger.warning("could not renew the lease of task %s", one_line(run.task_id))

    async def _taken_over(self, task_id: str, principal: str | None, seen: TaskState) -> TaskState | None:
        """Take over run `seen.runs` of a task nobody runs: the record as it is now, or None when another
        process won the claim or the task moved on since `seen` was read (it settled, or was resumed)."""
        if not await self.records.take_over(task_id, seen.runs, seen.expires_at()):
            return None
        now = await self.records.read(task_id, principal)
        if now is None or now.terminal or now.runs != seen.runs:
            return None
        return now

    async def _settle_orphan(self, task_id: str, principal: str | None, state: TaskState, message: str,
                             *, taken: bool = False) -> TaskState:
        """Settle `failed` a task whose process is gone (if this process wins the take-over)."""
        if not taken:
            fresh = await self._taken_over(task_id, principal, state)
            if fresh is None:
                return await self.records.read(task_id, principal) or state
            state = fresh
        error = {"code": -32603, "message": message}
        settled = lifecycle.failed(state, error, self.runtime.clock(), message)
        await self.records.write(task_id, principal, settled)
        logger.warning("task %s of %s settled failed: %s", one_line(task_id), one_line(state.tool), message)
        return settled

    # -- shutdown ------------------------------------------------------------------------------------------
    async def stop(self) -> None:
        """Working tasks settle `failed` now; parked ones are released for whoever answers them next."""
        for run in list(self._running.values()):
            run.stopping = True
            if run.lease is not None:
                run.lease.cancel()
            if run.call is not None:
                run.call.cancel()  # the function stops; an outcome it already has is still written
            elif run.job is not None:
                run.job.cancel()  # not started: nothing ran
            if run.job is not None:
                with contextlib.suppress(BaseException):
                    await run.job
            try:
                if run.state.status == "working":
                    await self._write(run, lambda s: lifecycle.failed(
                        s, {"code": -32603, "message": STOPPED_WHILE_WORKING}, self.runtime.clock()))
                await self.records.release_lease(run.task_id)
            except AskbackError:
                logger.warning("could not record the stop of task %s", one_line(run.task_id))
        self._running.clear()

    def running(self, task_id: str) -> bool:
        return task_id in self._running

    def page_step(self, task_id: str, state: TaskState, ordinal: int) -> PageStep:
        """The page step of the function's question `ordinal` in the run `state.runs`: the one its work opens,
        so a wire can tell whether the page is done before the runner notices (it looks every poll)."""
        return PageStep(self.runtime, flow_of(task_id, str(state.runs)), f"work{ordinal}", state.expires_at())


def _ended(outcome: Outcome) -> None:
    """A task's flow ended when its function did, outside any request: counted in the flow metrics (its rounds
    were counted on the request that created it, whose span says `task`)."""
    if metering():
        FlowTelemetry.ended(None, outcome, 0)


def _stop_function(run: _Running) -> None:
    """A cancellation asked for: stop the function (before it starts, or at its next `await`). A function that
    already returned is not touched: its outcome is what the task settles with."""
    run.cancel_asked = True
    if run.call is not None:
        run.call.cancel()


def _cancelling() -> bool:
    """Whether the current asyncio task itself is being cancelled (not just something it awaited)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def _whole(write: Awaitable[None]) -> None:
    """Await `write` to its end even when the caller is cancelled meanwhile; the cancellation is raised after."""
    job = asyncio.ensure_future(write)
    interrupted = False
    while not job.done():
        try:
            await asyncio.shield(job)
        except asyncio.CancelledError:
            if not job.cancelled():  # the caller was cancelled, not the write: finish it, then say so
                interrupted = True
    if interrupted:
        raise asyncio.CancelledError
    job.result()


def _kwargs(spec: Spec, state: TaskState, principal: str | None) -> dict[str, Any]:
    """The function's arguments again, from the record (for a re-run after a restart)."""
    values = {name: spec.param(name).from_json(raw) for name, raw in state.values.items()}
    kwargs = dict(values)
    for p in spec.params:
        if isinstance(p, CallerParam):
            kwargs[p.name] = Caller(principal=principal, values=dict(values))
    return {k: v for k, v in kwargs.items() if not isinstance(spec.param(k), WorkParam)}


def task_context(work: Work, principal: str | None, answer_guard: AnswerGuard, tool: str) -> ReportingContext:
    """A task's `askback.Context`: its progress becomes the task's status message (whoever follows the task
    reads it there); a log has no request to ride on once the call returned, so it is not sent."""
    return status_context(work.status, principal, answer_guard, tool)


class TaskWork(QuestioningWork):
    """The `askback.Work` of a running task: its questions park the task until their answers arrive."""

    def __init__(self, runner: TaskRunner, run: _Running) -> None:
        self._runner = runner
        self._run = run
        self.tool = run.spec.name
        self.guard = runner.runtime.guard
        self._ordinal = 0
        pages = run.state.extra.get(PAGES) or {}
        self.asks_secrets = runner.page_request is not None
        self.asks_urls = bool(pages.get("url"))
        if runner.no_page_step is not None:
            self.no_page_step = runner.no_page_step
        self._origin: str | None = pages.get("origin")

    async def status(self, text: str, **values: Any) -> None:
        message = render(text, values) if values else text
        await self._runner._write(self._run, lambda s: replace(s, status_message=message,
                                                               updated_at=self._runner.runtime.clock()))

    async def _ask(self, build: Callable[[], WorkQuestion]) -> Any:
        question = build()
        if question.kind == "secret":
            return await self._page_step(question)
        runner, run = self._runner, self._run
        ordinal = self._ordinal
        self._ordinal += 1
        clock = runner.runtime.clock
        async with run.lock:
            run.state, before = lifecycle.recorded(run.state, ordinal, question.fingerprint)
            if before is not None and before.answered:
                return _reading_of(question, before.answer)
            if before is not None:
                key = before.key
                if run.state.status != "input_required":
                    run.state = run.state.moved("input_required", clock())
            else:
                request = runner.wire.request(question.question("_"))
                run.state, key = lifecycle.ask(run.state, question.fingerprint, request, clock(), ordinal)
            await runner._save(run)
        while True:
            answer = await self._answer(key)
            reading = question.read(answer, runner.runtime.answer_guard)
            async with run.lock:
                if isinstance(reading, Again):
                    run.state = lifecycle.superseded(run.state, key, clock())
                    note = f"The previous answer was not accepted: {reading.reason}."
                    request = runner.wire.request(question.question("_", note))
                    run.state, key_again = lifecycle.ask(run.state, question.fingerprint, request, clock(), ordinal)
                    await runner._save(run)
                    await runner.records.drop_answer(run.task_id, key)
                    key = key_again
                    continue
                kept = _kept(question, reading)
                run.state = lifecycle.answered(run.state, key, kept, clock())
                await runner._save(run)
                await runner.records.drop_answer(run.task_id, key)
            return reading

    async def _page_step(self, question: WorkQuestion) -> Accepted | DeclinedAnswer:
        """A secret asked during the work: its page link is the task's question; the page is its answer.

        The record keeps that the question was asked and how the link was answered, never the value; a re-run
        of the function asks the page again (a new step: an earlier run's entry is never replayed). A decline
        or cancel of the link ends the wait as the person's answer; an accepted link only says the person is
        on the page, so the task goes on waiting for it (`working`, nothing outstanding to answer again).
        """
        runner, run = self._runner, self._run
        assert runner.page_request is not None
        ordinal = self._ordinal
        self._ordinal += 1
        clock = runner.runtime.clock
        step = runner.page_step(run.task_id, run.state, ordinal)
        mark = await step.open(question, tool=self.tool, principal=run.principal, base_url=self._origin)
        request = runner.page_request(secret_page_question(self.tool, question, "_", mark.url))
        async with run.lock:
            run.state, before = lifecycle.recorded(run.state, ordinal, question.fingerprint)
            if before is not None:  # an earlier run's step: superseded, never read again
                run.state = lifecycle.superseded(run.state, before.key, clock())
            run.state, key = lifecycle.ask(run.state, question.fingerprint, request, clock(), ordinal)
            await runner._save(run)

        async def link_answered() -> bool:
            return await runner.records.has_answer(run.task_id, key)

        link_open = True
        while not await step.wait(also=link_answered if link_open else None):
            answer = await runner.records.answer(run.task_id, run.principal, key) if link_open else MISSING
            if answer is MISSING:  # the task's time ran out before the page was done
                await self._settle_link(key, {"page": "not finished"}, None)
                return DeclinedAnswer("cancel")
            refused = link_answer(answer)
            await self._settle_link(key, {"page": refused.action if refused else "opened"},
                                    None if refused else "Waiting for the secret to be entered on the page.")
            if refused is not None:
                return refused
            link_open = False
        if link_open:  # the page was done before the client answered the link: nothing left to answer
            await self._settle_link(key, {"page": "finished"}, None)
        else:
            await runner._write(run, lambda s: replace(s, status_message=None, updated_at=clock()))
        return await step.outcome()

    async def _settle_link(self, key: str, kept: dict[str, str], message: str | None) -> None:
        """The link question under `key` is answered (what the record keeps says how, never a value)."""
        runner, run = self._runner, self._run
        async with run.lock:
            run.state = lifecycle.answered(run.state, key, kept, runner.runtime.clock())
            if message is not None:
                run.state = replace(run.state, status_message=message)
            await runner._save(run)
            await runner.records.drop_answer(run.task_id, key)

    async def _answer(self, key: str) -> Any:
        """Wait for the answer under `key` (delivered through any replica); cancellation interrupts the wait."""
        run = self._run
        while True:
            answer = await self._runner.records.answer(run.task_id, run.principal, key)
            if answer is not MISSING:
                return answer
            run.wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(run.wake.wait(), POLL_SECONDS)


def _kept(question: WorkQuestion, reading: Any) -> Any:
    """What the record keeps of an answer, to answer the same question again on a re-run."""
    if isinstance(reading, Accepted):
        return {"accepted": question.to_json(reading.value)}
    return {"declined": reading.action}


def _reading_of(question: WorkQuestion, kept: Any) -> Any:
    if isinstance(kept, dict) and "accepted" in kept:
        return Accepted(question.from_json(kept["accepted"]))
    action = kept.get("declined", "decline") if isinstance(kept, dict) else "decline"
    return DeclinedAnswer("cancel" if action == "cancel" else "decline")
