"""One round of a flow, protocol-neutral: open the state, let the engine decide, run providers and the function.

Adapters (MCP, later A2A) turn their wire into a `Round` and the returned `Step` back into their wire. The
decisions are the core's; this module only awaits what the core asked for (option providers, the function,
the single-use store) and seals what it returned.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from askback.core.decide import Ask, CallInput, Complete, NeedOptions, Progress, Refuse, decide
from askback.core.markers import Caller, Option
from askback.core.questions import FormQuestion, Question
from askback.core.secrets import guard_form
from askback.core.spec import Spec
from askback.core.state import Binding, Envelope, StateRejected, arguments_digest
from askback.errors import InvalidRequestState
from askback.types import Capabilities

if TYPE_CHECKING:
    from askback.app import App

logger = logging.getLogger("askback")


@dataclass(frozen=True)
class Round:
    """One request of a flow, as the adapter received it."""

    method: str
    target: str
    arguments: Mapping[str, Any]
    responses: Mapping[str, Any] | None = None
    state: str | None = None
    caps: Capabilities = field(default_factory=Capabilities)
    principal: str | None = None


@dataclass(frozen=True)
class Finished:
    """The function ran; `value` is what it returned."""

    value: Any


@dataclass(frozen=True)
class Asking:
    """Questions for the client, and the sealed state to echo (None on a back-channel flow)."""

    questions: tuple[Question, ...]
    state: str | None
    progress: Progress


@dataclass(frozen=True)
class Refused:
    refusal: Refuse


Step = Finished | Asking | Refused


class Flow:
    """Runs rounds for one app."""

    def __init__(self, app: App) -> None:
        self.app = app
        # Forms already checked by the secret guard, by fingerprint (same fingerprint, same fields).
        self._guarded: set[str] = set()

    def _remember_guarded(self, fingerprint: str) -> None:
        if len(self._guarded) >= 4096:
            self._guarded.clear()
        self._guarded.add(fingerprint)

    def binding(self, rnd: Round) -> Binding:
        return Binding(self.app.name, rnd.method, rnd.target, arguments_digest(rnd.arguments), rnd.principal)

    async def step(self, spec: Spec, rnd: Round, *, progress: Progress | None = None, sealed: bool = True) -> Step:
        """Play one round. With `sealed`, progress comes from (and goes back into) the requestState."""
        runtime = self.app.runtime
        envelope: Envelope | None = None
        binding = self.binding(rnd)
        if sealed and rnd.state is not None:
            try:
                envelope = runtime.codec.open(rnd.state, binding)
            except StateRejected as exc:
                logger.warning("rejected requestState for %s %s: %s", rnd.method, rnd.target, exc.reason)
                raise InvalidRequestState(exc.reason) from None
            progress = envelope.progress
        options: dict[str, Sequence[Option]] = {}
        for _ in range(len(spec.params) + 1):
            outcome = decide(
                spec,
                CallInput(
                    arguments=rnd.arguments,
                    responses=rnd.responses,
                    progress=progress,
                    caps=rnd.caps,
                    principal=rnd.principal,
                    options=options,
                    max_rounds=self.app.max_rounds,
                ),
            )
            if not isinstance(outcome, NeedOptions):
                break
            for name in outcome.names:
                options[name] = await self._options(spec, name, outcome.caller)
        else:  # pragma: no cover - each pass resolves at least one provider
            raise RuntimeError("option providers did not settle")
        if isinstance(outcome, Refuse):
            return Refused(outcome)
        if isinstance(outcome, Ask):
            for q in outcome.questions:
                if isinstance(q, FormQuestion) and q.fingerprint not in self._guarded:
                    guard_form(f"{spec.kind} {spec.name!r}", q.schema)
                    self._remember_guarded(q.fingerprint)
            token = None
            if sealed:
                token = runtime.codec.seal(runtime.codec.new_envelope(outcome.progress, envelope), binding)
            return Asking(outcome.questions, token, outcome.progress)
        assert isinstance(outcome, Complete)
        if spec.once and envelope is not None:
            claimed = await runtime.used.claim(envelope.flow_id_text, envelope.deadline)
            if not claimed:
                logger.warning("replayed final round of single-use %s %s refused", rnd.method, rnd.target)
                raise InvalidRequestState("single-use flow already completed (replay)")
        return Finished(await self._run(spec, outcome.values, rnd))

    async def _options(self, spec: Spec, name: str, caller: Caller) -> list[Option]:
        p = spec.param(name)
        provider = p.marker.provider  # type: ignore[union-attr]
        kwargs = {n: (caller if n == "caller" else caller.values[n]) for n in p.provider_params}
        raw = provider(**kwargs)
        if inspect.isawaitable(raw):
            raw = await raw
        options: list[Option] = []
        assert p.form is not None
        for item in raw or ():
            option = item if isinstance(item, Option) else Option(value=item)
            try:
                p.form.validate(option.value)
            except ValueError:
                logger.error(
                    "option %r from the provider of %s.%s does not fit its type; left out",
                    option.value,
                    spec.name,
                    name,
                )
                continue
            options.append(option)
        return options

    async def _run(self, spec: Spec, values: dict[str, Any], rnd: Round) -> Any:
        kwargs = dict(values)
        for p in spec.params:
            if p.kind == "caller":
                kwargs[p.name] = Caller(principal=rnd.principal, values=dict(values))
        result = spec.fn(**kwargs)
        if inspect.isawaitable(result):
            result = await result
        return result
