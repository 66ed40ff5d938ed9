"""One round of a flow, for any wire: load the progress, let the engine decide, await what it asked for.

Adapters (MCP, A2A) turn their wire into a `Round` and the returned `Step` back into their wire. The decisions
are the core's; this module only awaits what the core asked for (option providers, out-of-band marks, the
single-use claim, the function) against a `Runtime`, and hands the progress to a `Holder` between rounds:

- `SealedToken`: progress travels with the client as a sealed `requestState` (MCP 2026-07-28);
- `LiveSession`: progress stays in this process while one request asks over a back-channel (MCP 2025-11-25);
- a task record (A2A, MCP tasks) keeps it in the store under the task's id.

`Flow.converse` plays a whole flow over a back-channel: ask each round's questions, await the answers, step
again, until the flow ends.
"""

from __future__ import annotations

import inspect
import logging
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Literal, Protocol

import anyio
from opentelemetry.trace import Span

from askback.callwork import AskOne, ConversedWork, InlineWork, SessionPages, Status
from askback.core.decide import CallInput, CheckedForms, decide
from askback.core.errors import Declined, InvalidRequestState, Rejection
from askback.core.forms import AnswerInvalid
from askback.core.kinds import DEFERRED, ApprovalParam, ChoiceParam
from askback.core.markers import Caller, Context, Option, Secret, Work
from askback.core.marks import Mark, MarkRequest
from askback.core.outcomes import AskRound, LookUp, Refusal, Run
from askback.core.progress import Progress
from askback.core.questions import Question, UrlQuestion
from askback.core.spec import Spec
from askback.core.state import Envelope
from askback.core.text import one_line
from askback.pagewait import until
from askback.receipts import Proposal, receipt_id, run_started, run_values
from askback.runtime import Round as Round  # re-exported: where the flow's callers have always found them
from askback.runtime import Runtime as Runtime
from askback.singleuse import claim_run
from askback.telemetry.flows import FlowTelemetry, Outcome, current_link, current_span
from askback.telemetry.providers import metering
from askback.toolcontext import QuietContext

logger = logging.getLogger("askback")


@dataclass(frozen=True, slots=True)
class Finished:
    """The function ran; `value` is what it returned, `receipt` the id of the flow's receipt, if it keeps one."""

    value: Any
    receipt: str | None = None


@dataclass(frozen=True, slots=True)
class Asking:
    """Questions for the client, and the sealed state to echo (None when the holder keeps progress itself)."""

    questions: tuple[Question, ...]
    state: str | None
    progress: Progress


@dataclass(frozen=True, slots=True)
class Refused:
    refusal: Refusal
    receipt: str | None = None  # a refused flow that has a receipt (an approval rejected on its page)


Step = Finished | Asking | Refused


@dataclass(frozen=True, slots=True)
class Ready:
    """Every value is known and checked: the function may run with `kwargs`.

    `values` are the resolved parameter values (Python), for a holder that keeps them (a task record);
    `read_secrets`: a secret entered on a page was read (once) into `kwargs`, so it cannot be read again;
    `receipt`: the id of the flow's receipt (a single-use run, an approval given on a page), its run recorded.
    """

    kwargs: dict[str, Any]
    values: dict[str, Any]
    read_secrets: bool = False
    rounds: int = 1  # the round that found it ready, counted from one (telemetry: rounds per flow)
    receipt: str | None = None


@dataclass(frozen=True, slots=True)
class Loaded:
    """What a holder knows at the start of a round: the progress so far, the flow's id and when it ends."""

    progress: Progress | None
    flow_id: bytes
    deadline: float
    store_id: str | None = None
    link: bytes | None = None  # the span context of the round before, when it was traced (`askback.telemetry`)


class Holder(Protocol):
    """Where a flow's progress lives between rounds."""

    async def load(self, runtime: Runtime, rnd: Round) -> Loaded: ...

    async def save(self, runtime: Runtime, rnd: Round, loaded: Loaded, progress: Progress, once: bool) -> str | None:
        """Keep `progress` for the next round; return the token the client must echo, if any."""
        ...


class SealedToken:
    """Progress sealed into the `requestState` the client echoes (MCP 2026-07-28)."""

    def __init__(self) -> None:
        self._envelope: Envelope | None = None

    async def load(self, runtime: Runtime, rnd: Round) -> Loaded:
        if rnd.state is None:
            return Loaded(None, os.urandom(12), runtime.clock() + runtime.codec.policy.flow_ttl)
        try:
            envelope = runtime.codec.open(rnd.state, runtime.binding(rnd))
        except InvalidRequestState as exc:
            logger.warning(
                "rejected requestState for %s %s: %s (%s)", rnd.method, one_line(rnd.target), exc.reason.value, exc
            )
            raise
        self._envelope = envelope
        return Loaded(envelope.progress, envelope.flow_id, envelope.deadline, envelope.store_id, envelope.link)

    async def save(self, runtime: Runtime, rnd: Round, loaded: Loaded, progress: Progress, once: bool) -> str | None:
        store_id = runtime.store.identity if once else None
        envelope = runtime.codec.new_envelope(progress, self._envelope, flow_id=loaded.flow_id, store_id=store_id,
                                              link=current_link())
        return runtime.codec.seal(envelope, runtime.binding(rnd))


class LiveSession:
    """Progress kept in this process for the length of one request that asks over a back-channel."""

    def __init__(self) -> None:
        self._flow_id = os.urandom(12)
        self._progress: Progress | None = None
        self._deadline: float | None = None

    async def load(self, runtime: Runtime, rnd: Round) -> Loaded:
        if self._deadline is None:
            self._deadline = runtime.clock() + runtime.codec.policy.flow_ttl
        return Loaded(self._progress, self._flow_id, self._deadline, runtime.store.identity)

    async def save(self, runtime: Runtime, rnd: Round, loaded: Loaded, progress: Progress, once: bool) -> str | None:
        self._progress = progress
        return None


Notify = Callable[[UrlQuestion], Awaitable[None]]


class Flow:
    """Plays rounds against one runtime."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        # Forms already checked by the secret guard, by fingerprint (same fingerprint, same fields and text).
        self._guarded: CheckedForms = {}
        self._telemetry: FlowTelemetry | None = None

    @property
    def telemetry(self) -> FlowTelemetry:
        """What this runtime's rounds tell OpenTelemetry (made on first use: the key ring is known by then)."""
        if self._telemetry is None:
            self._telemetry = FlowTelemetry(self.runtime.codec.keyring.derive_bytes("flow ids in telemetry"))
        return self._telemetry

    async def step(self, spec: Spec, rnd: Round, holder: Holder | None = None, work: Work | None = None) -> Step:
        """Play one round; progress comes from (and goes back to) `holder` (a sealed token by default).

        The function runs within the call: if it takes an `askback.Work`, `work` asks its questions (a
        back-channel's), else a question ends the call. A question it asked and the person declined ends the
        call as that refusal, as it ends a task.
        """
        resolved = await self.resolve(spec, rnd, holder)
        if not isinstance(resolved, Ready):
            return resolved
        return await self.run(spec, resolved, work, rnd.context or QuietContext(rnd.principal))

    async def run(self, spec: Spec, ready: Ready, work: Work | None = None,
                  context: Context | None = None) -> Finished | Refused:
        """Run the function of a round that `resolve` found ready, within the call.

        A function that takes an `askback.Work` asks through `work` (a back-channel's) or, without one, cannot
        ask: a question ends the call. A question it asked and the person declined ends the call as that
        refusal, as it ends a task. A function that takes an `askback.Context` reports through `context` (one
        that sends nothing when the entry gave none).
        """
        kwargs = ready.kwargs
        if spec.work_param is not None:
            kwargs = {**kwargs, spec.work_param: work or InlineWork(spec.name)}
        if spec.context_param is not None:
            kwargs = {**kwargs, spec.context_param: context or QuietContext(None)}
        receipts, rid = self.runtime.receipts, ready.receipt
        try:
            value = await run_function(spec, kwargs)
        except Declined as exc:
            refusal = declined_refusal(exc)
            if receipts is not None and rid is not None:
                await receipts.returned(rid, refusal.reason)
            self._ended(refusal, ready.rounds)
            return Refused(refusal, rid)
        except Exception:  # a cancelled call (the client left) is no flow's ending
            if receipts is not None and rid is not None:
                await receipts.returned(rid, "failed")
            self._ended("failed", ready.rounds)
            raise
        if receipts is not None and rid is not None:
            await receipts.returned(rid, "complete", value, has_value=True)
        self._ended("completed", ready.rounds)
        return Finished(value, rid)

    def _ended(self, how: Outcome | Refusal, rounds: int, span: Span | Literal[False] | None = False) -> None:
        """The flow ended in this round: its span (`span`, or the current one) and the flow metrics say how."""
        if span is False:
            span = current_span()
        if span is None and not metering():
            return
        if isinstance(how, Refusal):
            outcome: Outcome = how.reason if how.reason in ("declined", "cancelled") else "refused"
            self.telemetry.ended(span, outcome, rounds, None if outcome != "refused" else how.reason)
        else:
            self.telemetry.ended(span, how, rounds)

    async def resolve(self, spec: Spec, rnd: Round, holder: Holder | None = None) -> Ready | Asking | Refused:
        """Play one round up to the point the function would run: its arguments (`Ready`), questions or a refusal.

        A task is created from `Ready`: its function then runs outside this request (the MRTR questions all
        come first, so the task starts with every value it needs).
        """
        holder = holder or SealedToken()
        try:
            return await self._resolve(spec, rnd, holder)
        except InvalidRequestState as exc:
            if current_span() is not None or metering():
                expired = exc.reason in (Rejection.FLOW_EXPIRED, Rejection.ROUND_EXPIRED)
                self.telemetry.ended(current_span(), "expired" if expired else "rejected", 0, exc.reason.value)
            raise

    async def _resolve(self, spec: Spec, rnd: Round, holder: Holder) -> Ready | Asking | Refused:
        runtime = self.runtime
        loaded = await holder.load(runtime, rnd)
        number = (loaded.progress.rounds if loaded.progress is not None else 0) + 1
        span = current_span()
        if span is not None:
            self.telemetry.round(span, loaded.flow_id, number, loaded.link)
        # The lookups fill these between decisions; the engine only reads them.
        options: dict[str, Sequence[Option]] = {}
        marks: dict[str, Mark] = {}
        call = CallInput(
            arguments=rnd.arguments,
            responses=rnd.responses,
            progress=loaded.progress,
            caps=rnd.caps,
            principal=rnd.principal,
            options=options,
            marks=marks,
            max_rounds=runtime.max_rounds,
            answer_guard=runtime.answer_guard,
            guard=runtime.guard,
            checked=self._guarded,
        )
        outcome = await self._decide(spec, rnd, loaded, call, options, marks)
        if isinstance(outcome, AskRound) and _held_back(rnd, loaded, outcome, holder):
            # The client accepted these page steps and is back before they are done: hold the answer until
            # a page finishes one (on any replica: the mark is in the store) or the bound passes.
            assert runtime.out_of_band is not None
            oob, names = runtime.out_of_band, tuple(q.key for q in outcome.questions)
            if await runtime.page_wait.hold(lambda: oob.any_finished(loaded.flow_id, names),
                                            longest=loaded.deadline - runtime.clock(), gone=rnd.gone):
                marks.clear()  # decide again with the marks as they are now
                outcome = await self._decide(spec, rnd, loaded, call, options, marks)
        if isinstance(outcome, Refusal):
            rid = await self._approval_receipt(spec, loaded)
            if rid is not None:
                assert runtime.receipts is not None
                await runtime.receipts.returned(rid, outcome.reason)
            self._ended(outcome, number, span)
            return Refused(outcome, rid)
        if isinstance(outcome, AskRound):
            token = await holder.save(runtime, rnd, loaded, outcome.progress, spec.once)
            if span is not None:
                self.telemetry.asked(span, [q.key for q in outcome.questions])
            return Asking(outcome.questions, token, outcome.progress)
        assert isinstance(outcome, Run)
        if spec.arguments_check is not None:
            broken = spec.arguments_check({n: spec.param(n).to_json(v) for n, v in outcome.values.items()
                                           if spec.param(n).from_arguments})
            if broken is not None:
                refusal = Refusal("invalid_arguments", f"{spec.name} was not run: {broken}.")
                self._ended(refusal, number, span)
                return Refused(refusal)
        kwargs = outcome.kwargs
        # Whose receipt the run goes on, read before the claim: a store failing here stops a run not yet started.
        on_page = await self._approval_receipt(spec, loaded)
        if outcome.claim:
            await self._claim(rnd, loaded)
        if outcome.deferred:
            kwargs = {**kwargs, **await self._secrets(rnd, loaded, outcome.deferred)}
        rid = await self._started(spec, rnd, loaded, outcome, on_page)
        return Ready(kwargs, outcome.values, bool(outcome.deferred), rounds=number, receipt=rid)

    async def _approval_receipt(self, spec: Spec, loaded: Loaded) -> str | None:
        """The receipt of a flow whose approval was asked on a page (the page proposed it), else None."""
        oob = self.runtime.out_of_band
        if self.runtime.receipts is None or oob is None:
            return None
        for p in spec.params:
            if isinstance(p, ApprovalParam) and await oob.step_status(loaded.flow_id, p.name) is not None:
                return receipt_id(loaded.flow_id)
        return None

    async def _started(self, spec: Spec, rnd: Round, loaded: Loaded, outcome: Run, on_page: str | None) -> str | None:
        """Record that the run starts (`askback.receipts.run_started`); the receipt's id, or None."""

        def proposal() -> Proposal:
            return spec.name, rnd.principal, run_values((n, spec.param(n).to_json(v)) for n, v in outcome.values.items()
                                                        if v is not DEFERRED and not spec.param(n).injected)

        return await run_started(self.runtime.receipts, loaded.flow_id, on_page=on_page is not None, once=spec.once,
                                 proposal=proposal)

    async def _decide(self, spec: Spec, rnd: Round, loaded: Loaded, call: CallInput,
                      options: dict[str, Sequence[Option]], marks: dict[str, Mark]) -> Run | AskRound | Refusal:
        """Decide, looking up what the engine needs (options, marks) until it can decide without more."""
        for _ in range(len(spec.params) + 1):
            outcome = decide(spec, call)
            if not isinstance(outcome, LookUp):
                return outcome
            for name in outcome.options:
                options[name] = await self.options(spec, name, outcome.caller)
            for request in outcome.marks:
                marks[request.name] = await self._mark(spec, rnd, loaded, request)
        raise RuntimeError("lookups did not settle")  # pragma: no cover - each pass resolves at least one lookup

    async def converse(
        self,
        spec: Spec,
        rnd: Round,
        ask: AskOne,
        notify: Notify | None = None,
        *,
        status: Status | None = None,
        poll_seconds: float | None = None,
        patience_seconds: float = 900.0,
        pages: bool = False,
    ) -> Step:
        """Play a whole flow within one request, asking each round's questions through `ask`.

        A URL question the person accepted is not asked again while its page step is pending: the flow waits
        in the one page-wait loop (`askback.pagewait.until`, looking at the step's mark every `poll_seconds`,
        on any replica's page) and calls `notify` with the question once the step is finished; a client that
        goes away, or `patience_seconds` passing, ends the call with nothing done. Once the function
        runs, the questions it asks during its work (`askback.Work`) go through the same `ask`, and its
        `work.status` texts through `status`; `pages`: whether this server serves askback's pages, where a
        secret it asks during its work is entered (`work.ask(secret=True)`).
        """
        holder = LiveSession()
        poll = self.runtime.page_wait.poll if poll_seconds is None else poll_seconds  # as a held retry looks
        work: ConversedWork | None = None
        if spec.work_param is not None:
            loaded = await holder.load(self.runtime, rnd)
            steps = SessionPages(self.runtime, loaded.flow_id, loaded.deadline, rnd.principal, rnd.origin,
                                 notify, rnd.gone) if pages and self.runtime.out_of_band is not None else None
            work = ConversedWork(spec.name, ask, can_ask=rnd.caps.form, answer_guard=self.runtime.answer_guard,
                                 guard=self.runtime.guard, max_asks=self.runtime.max_rounds, status=status,
                                 pages=steps, asks_urls=rnd.caps.url)
        responses: dict[str, Any] | None = None
        accepted: dict[str, tuple[UrlQuestion, Any]] = {}  # fingerprint -> (question, its answer)
        waited = 0.0
        while True:
            step = await self.step(spec, _answered(rnd, responses), holder, work)
            asked = {q.fingerprint for q in step.questions} if isinstance(step, Asking) else set()
            for fingerprint, (finished, _) in list(accepted.items()):
                if fingerprint not in asked:  # its page step finished
                    del accepted[fingerprint]
                    if notify is not None:
                        await notify(finished)
            if not isinstance(step, Asking):
                return step
            responses = {}
            for question in step.questions:
                if question.fingerprint in accepted:
                    responses[question.key] = accepted[question.fingerprint][1]
                    continue
                answer = await ask(question)
                responses[question.key] = answer
                accepted_url = isinstance(answer, Mapping) and answer.get("action") == "accept"
                if isinstance(question, UrlQuestion) and accepted_url:
                    accepted[question.fingerprint] = (question, answer)
            if all(q.fingerprint in accepted for q in step.questions):
                # The person is on the page: wait in the one page-wait loop (the retry of 2026-07-28 is held in
                # it too) until a page finishes one of these steps, the client goes away, or patience runs out.
                oob = self.runtime.out_of_band
                assert oob is not None  # a URL question is only asked by a runtime with pages
                flow_id = (await holder.load(self.runtime, rnd)).flow_id
                names = tuple(q.key for q in step.questions)
                began = anyio.current_time()
                if not await until(partial(oob.any_finished, flow_id, names), bound=patience_seconds - waited,
                                   poll=poll, gone=rnd.gone):
                    return Refused(Refusal("cancelled", f"{spec.name}: the page step was not finished in time. "
                                                       "Nothing was done."))
                waited += anyio.current_time() - began

    async def _mark(self, spec: Spec, rnd: Round, loaded: Loaded, request: MarkRequest) -> Mark:
        return await self.runtime.mark(flow_id=loaded.flow_id, deadline=loaded.deadline, request=request,
                                       principal=rnd.principal, tool=spec.name, origin=rnd.origin)

    async def _secrets(self, rnd: Round, loaded: Loaded, names: Sequence[str]) -> dict[str, Secret]:
        """Read each secret the page stored, once; inside the claim, so no replay can read it again."""
        oob = self.runtime.out_of_band
        assert oob is not None
        values: dict[str, Secret] = {}
        for name in names:
            value = await oob.take_secret(loaded.flow_id, name)
            if value is None:
                logger.warning("the secret for %s %s was already used", rnd.method, one_line(rnd.target))
                raise InvalidRequestState(Rejection.REPLAYED)
            values[name] = Secret(value)
        return values

    async def _claim(self, rnd: Round, loaded: Loaded) -> None:
        """The single-use decision (`askback.singleuse`): the function runs only if this round holds the flow's
        run and starts it."""
        if loaded.progress is None:
            return  # completed in its first round: there is no earlier round a replay could repeat
        await claim_run(self.runtime.store, loaded.flow_id, loaded.deadline, loaded.store_id,
                        f"{rnd.method} {one_line(rnd.target)}")

    async def options(self, spec: Spec, name: str, caller: Caller) -> list[Option]:
        """The options a choice's provider gives for this caller, each checked against the parameter's type."""
        p = spec.param(name)
        assert isinstance(p, ChoiceParam)
        kwargs = {n: (caller if n == "caller" else caller.values[n]) for n in p.provider_params}
        raw = p.marker.provider(**kwargs)
        if inspect.isawaitable(raw):
            raw = await raw
        options: list[Option] = []
        for item in raw or ():
            option = item if isinstance(item, Option) else Option(value=item)
            try:
                p.validate_option(option.value)
            except AnswerInvalid:
                logger.error(
                    "option %s from the provider of %s.%s does not fit its type; left out",
                    one_line(repr(option.value)),
                    spec.name,
                    name,
                )
                continue
            options.append(option)
        return options


def _answered(rnd: Round, responses: Mapping[str, Any] | None) -> Round:
    return replace(rnd, responses=responses, state=None)


def _held_back(rnd: Round, loaded: Loaded, outcome: AskRound, holder: Holder) -> bool:
    """Whether this retry only repeats page steps the client accepted when they were asked (the same questions):
    the answer would be "not done yet" again, so it is worth holding. A session's conversation waits itself."""
    if isinstance(holder, LiveSession) or loaded.progress is None or not isinstance(rnd.responses, Mapping):
        return False
    asked = loaded.progress.asked
    for q in outcome.questions:
        if not isinstance(q, UrlQuestion) or asked.get(q.key) != q.fingerprint:
            return False
        answer = rnd.responses.get(q.key)
        if not isinstance(answer, Mapping) or answer.get("action") != "accept":
            return False
    return True


def declined_refusal(exc: Declined) -> Refusal:
    """A question the function asked, declined or cancelled by the person: the refusal every wire shows."""
    return Refusal("cancelled" if exc.action == "cancel" else "declined", exc.public_message)


async def run_function(spec: Spec, kwargs: dict[str, Any]) -> Any:
    result = spec.fn(**kwargs)
    if inspect.isawaitable(result):
        result = await result
    return result
