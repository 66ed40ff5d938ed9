"""The engine: given a call, its answers so far and what the client can be asked, decide what happens next.

`decide` is a pure function of its inputs (it writes nothing it was given). It returns one of the outcomes in
`askback.core.outcomes`: `Run`, `AskRound`, `LookUp` (look up options or out-of-band marks, then decide again),
or `Refusal`.

Rules it keeps: a value comes from the progress first, then the call's arguments, then an answer, then its
default. An answer counts only when it is tied to a question: with progress, the question asked under that key
must have the same fingerprint now; without it, only plain value questions of a tool that is not single-use can
be answered afresh, and never a confirmation. Invalid values are asked again with the reason. Every form is
checked by the secret guard as it will be sent (`askback.core.guarding.guard_form`, with the guard the
call carries); every accepted answer by the answer guard.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from askback.core import kinds
from askback.core.capabilities import CAPABILITIES
from askback.core.confirming import plain
from askback.core.errors import MissingCapability
from askback.core.forms import AnswerInvalid
from askback.core.guarding import Finding, Guard, guard_form
from askback.core.kinds import MISSING, ConfirmParam, Param, can_ask
from askback.core.markers import Caller, Option
from askback.core.marks import MarkRequest
from askback.core.outcomes import AskRound, LookUp, Outcome, Refusal, Run
from askback.core.progress import Progress
from askback.core.questions import FormQuestion, MissingValue, Problems, Question, canonical_json
from askback.core.spec import Spec, template_fields
from askback.core.text import render, show_chosen
from askback.types import Capabilities

DEFAULT_MAX_ROUNDS = 16

AnswerGuard = Callable[[Any], "str | None"]
# Forms already checked, by (fingerprint, declared not secret): the same question reads the same every time.
CheckedForms = dict[tuple[str, bool], "Finding | None"]


def no_answer_guard(value: Any) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class CallInput:
    """Everything `decide` looks at for one round of one call."""

    arguments: Mapping[str, Any]
    responses: Mapping[str, Any] | None = None
    progress: Progress | None = None
    caps: Capabilities = field(default_factory=Capabilities)
    principal: str | None = None
    options: Mapping[str, Sequence[Option]] = field(default_factory=dict)
    marks: Mapping[str, Any] = field(default_factory=dict)
    max_rounds: int = DEFAULT_MAX_ROUNDS
    answer_guard: AnswerGuard = no_answer_guard
    guard: Guard = field(kw_only=True)  # reads every form built at call time (`askback.core.guarding`)
    checked: CheckedForms | None = None  # a memo of those checks, kept by the caller across rounds


def decide(spec: Spec, call: CallInput) -> Outcome:
    return _Round(spec, call).run()


class _Round:
    """One decision; implements `kinds.RoundView` for the parameter kinds."""

    def __init__(self, spec: Spec, call: CallInput) -> None:
        self.spec = spec
        self.spec_name = spec.name
        self.call = call
        self.arguments = call.arguments
        self.options = call.options
        self.marks = call.marks
        self.caps = call.caps
        self.guard = call.guard
        responses = call.responses
        self.responses: Mapping[str, Any] = (
            responses if type(responses) is dict or isinstance(responses, Mapping) else {}
        )
        self.values: dict[str, Any] = {}  # parameter -> Python value
        self.answered: dict[str, str] = {}
        self.problems = Problems()

    # -- the round ---------------------------------------------------------------------------------------
    def run(self) -> Outcome:
        self._restore_progress()
        asks: list[Question] = []
        unaskable: list[Param] = []
        need_options: list[str] = []
        need_marks: list[MarkRequest] = []
        for p in self.spec.params:
            if p.name in self.values or p.injected:
                continue
            if any(dep not in self.values for dep in p.deps):
                continue  # waits for a later round
            outcome = p.resolve(self)
            if outcome is kinds.KNOWN:
                continue
            if isinstance(outcome, Refusal):
                return outcome
            # The kinds return these very constants (as `KNOWN` above), so identity tells them apart.
            if outcome is kinds.NEED_OPTIONS:
                need_options.append(p.name)
            elif isinstance(outcome, kinds.OptionsFor):
                need_options.extend(n for n in outcome.names if n not in need_options)
            elif isinstance(outcome, MarkRequest):
                need_marks.append(outcome)
            elif outcome is kinds.UNASKABLE:
                unaskable.append(p)
            elif not isinstance(outcome, str):
                if can_ask(self.caps, p.needs_now(self)):
                    asks.append(outcome)
                elif p.needs_now(self) in ("sampling", "roots") and not p.required:
                    self.values[p.name] = p.default  # the default stands in when the client cannot be asked
                else:
                    unaskable.append(p)
        unaskable.extend(self._out_of_reach(unaskable))
        if unaskable:  # before any lookup or question: nothing is asked for a call that cannot complete
            return self._cannot_ask(unaskable)
        if need_options or need_marks:
            return LookUp(tuple(need_options), tuple(need_marks), self._caller())
        if asks:
            return self._ask(asks)
        missing = [p for p in self.spec.params if not p.injected and p.name not in self.values]
        if missing:  # only possible when a value waits on something that can never be known
            return self._cannot_ask(missing)
        kwargs = dict(self.values)
        for p in self.spec.params:
            if isinstance(p, kinds.CallerParam):
                kwargs[p.name] = p.inject(self.call.principal, self.values)
        deferred = tuple(name for name, value in self.values.items() if value is kinds.DEFERRED)
        # A value entered out of band is read once, inside the claim: the flow must claim it first.
        return Run(dict(self.values), kwargs, claim=self.spec.once or bool(deferred), deferred=deferred)

    def _out_of_reach(self, unaskable: Sequence[Param]) -> list[Param]:
        """Steps still waiting on other values that no way this client declared can take (a confirmation
        after a secret, for a client without forms). Found now, they are refused before the client enters a
        secret or answers a question for a call that could never complete."""
        seen = {p.name for p in unaskable}
        found: list[Param] = []
        for p in self.spec.params:
            if p.injected or p.name in self.values or p.name in seen or self.spec.resendable(p):
                continue
            ways = p.may_need(self)
            if any(can_ask(self.caps, way) for way in ways):
                continue
            if not p.required and all(way in ("sampling", "roots") for way in ways):
                continue  # its default stands in (as in `run`)
            found.append(p)
        return found

    def _ask(self, asks: Sequence[Question]) -> Outcome:
        rounds = (self.call.progress.rounds if self.call.progress else 0) + 1
        if rounds > self.call.max_rounds:
            return Refusal(
                "too_many_rounds",
                f"{self.spec.name}: gave up after {self.call.max_rounds} rounds of "
                "questions without getting every value. Nothing was done.",
            )
        for q in asks:
            if isinstance(q, FormQuestion) and not self._static(q):
                found = self._check(q)
                if found:
                    return Refusal(
                        "unsafe_question",
                        f"{self.spec.name} would have asked for a {found.term} in a form, and credentials are "
                        "never asked that way. Nothing was done.",
                    )
        carried = {name: self.spec.param(name).to_json(self.values[name]) for name in self.answered}
        progress = Progress(
            values=carried, answered=dict(self.answered), asked={q.key: q.fingerprint for q in asks}, rounds=rounds
        )
        return AskRound(tuple(asks), progress)

    def _check(self, q: FormQuestion) -> Finding | None:
        """The one form check, on a question built this round. Declared not secret, only the caller's values
        its text shows are read (the author's words are the author's); else the whole text as it is sent."""
        p = self.spec.param(q.key)
        memo = self.call.checked
        key = (q.fingerprint, p.not_secret)
        if memo is not None and key in memo:
            return memo[key]
        named = template_fields(p.message) if p.not_secret else ()
        shown = [plain(self.values[d]) for d in named if d in self.values]
        found = guard_form(self.guard, q.schema, message=q.message, not_secret=p.not_secret, caller_values=shown)
        if memo is not None:
            if len(memo) >= 4096:
                memo.clear()
            memo[key] = found
        return found

    def _static(self, q: FormQuestion) -> bool:
        """A question built at registration, already checked by the secret guard there."""
        p = self.spec.param(q.key)
        return isinstance(p, kinds.ValueParam) and p.question is not None and p.question.fingerprint == q.fingerprint

    def _restore_progress(self) -> None:
        progress = self.call.progress
        if progress is None:
            return
        for name, raw in progress.values.items():
            p = self.spec.params_by_name.get(name)
            if p is None or p.injected:
                continue
            try:
                self.values[name] = p.from_json(raw)
            except (AnswerInvalid, ValueError, TypeError, KeyError):
                continue  # cannot happen for progress askback kept; ask again rather than trust it
            if name in progress.answered:
                self.answered[name] = progress.answered[name]

    # -- what the kinds call -----------------------------------------------------------------------------
    def answer_for(self, p: Param, q: Question) -> Any:
        """The answer under this question's key, if it can be tied to the question; else `MISSING`."""
        if q.key not in self.responses:
            return MISSING
        progress = self.call.progress
        if progress is None:
            if self.spec.once or isinstance(p, ConfirmParam):
                return MISSING  # never trusted without the progress that proves the question was asked
            return self.responses[q.key]
        if progress.asked.get(q.key) != q.fingerprint:
            return MISSING
        return self.responses[q.key]

    def again(self, p: Param, q: FormQuestion, reason: str) -> FormQuestion:
        self.problems.by_name[p.name] = reason
        return q.with_note(self.problems.note(p.name))

    def problem(self, p: Param) -> str | None:
        return self.problems.by_name.get(p.name)

    def note_problem(self, p: Param, reason: str) -> None:
        self.problems.by_name[p.name] = reason

    def accept(self, p: Param, value: Any, q: Question) -> Literal["known"]:
        self.values[p.name] = value
        self.answered[p.name] = q.fingerprint
        return kinds.KNOWN

    def render(self, template: str, *, whole: bool = False) -> str:
        return render(template, self.values, self._titles(), whole=whole)

    def shown(self, name: str) -> str:
        """A value as a confirmation shows it: whole, inert, a choice with its option's title."""
        return show_chosen(self.values[name], self._titles().get(name))

    def untitled(self, names: Sequence[str]) -> tuple[str, ...]:
        """The choices among `names` whose options (and so titles) this round has not looked up."""
        return tuple(n for n in names if isinstance(self.spec.param(n), kinds.ChoiceParam) and n not in self.options)

    def _titles(self) -> dict[str, dict[str, str]]:
        return {
            name: {str(o.value): o.title for o in options if o.title}
            for name, options in self.options.items()
            if any(o.title for o in options)
        }

    def values_json(self, names: Sequence[str]) -> dict[str, Any]:
        """The values a confirmation binds: a secret entered out of band is never among them."""
        return {n: self.spec.param(n).to_json(self.values[n]) for n in names if self.values[n] is not kinds.DEFERRED}

    def check_answer(self, value: Any) -> str | None:
        return self.call.answer_guard(value)

    def _caller(self) -> Caller:
        return Caller(principal=self.call.principal, values=dict(self.values))

    # -- when something cannot be asked ------------------------------------------------------------------
    def _argument_schema(self, name: str, props: Mapping[str, Any]) -> dict[str, Any]:
        """The argument's schema from the tool's input schema, self-contained (with the `$defs` it refers to)."""
        schema = dict(props.get(name, {}))
        defs = self.spec.input_schema.get("$defs")
        if defs and "$ref" in canonical_json(schema).decode():
            schema["$defs"] = defs
        return schema

    def _why(self, p: Param) -> str:
        problem = self.problems.by_name.get(p.name)
        if problem:
            return f"the value given was not accepted: {problem}; {p.why_unaskable(self)}"
        return p.why_unaskable(self)

    def _cannot_ask(self, unaskable: Sequence[Param]) -> Refusal:
        """Name every missing value. Values no other request can send (a confirmation, a sample, roots, a
        resource's value outside its URI) make it a missing capability when a capability would let them be
        asked: only the client declaring it can complete the call, so a retry is never told to send them."""
        props = self.spec.input_schema.get("properties", {})
        missing: list[MissingValue] = []
        resend: list[Param] = []  # a retry can send these
        needs: list[tuple[str, str]] = []  # what only a capability can bring: (name, the capability's key)
        impossible: list[Param] = []  # neither sent nor asked (a type that is no form field), whatever is declared
        for p in self.spec.params:
            if p.injected or p.name in self.values:
                continue
            if self.spec.resendable(p):
                reason = self.problems.by_name.get(p.name, "missing")
                missing.append(MissingValue(p.name, self._argument_schema(p.name, props), reason, True))
                resend.append(p)
                continue
            if isinstance(p, kinds.ValueParam) and p.form.schema is None:
                impossible.append(p)
                missing.append(MissingValue(p.name, {}, self._why(p), False))
                continue
            ways = p.may_need(self)
            missing.append(MissingValue(p.name, {}, _client_step(p, ways), False))
            if not any(can_ask(self.caps, way) for way in ways):
                needs.extend((p.name, way) for way in ways)  # (declaring every way it may take certainly does)
        if needs and not impossible:
            problems = self.problems.by_name
            arguments = [
                f"{p.name} (the value given was not accepted: {problems[p.name]})" if p.name in problems else p.name
                for p in resend
            ]
            error = MissingCapability(
                self.spec.name,
                needs,
                arguments=arguments,
                missing=[m.describe() for m in missing],
            )
            return Refusal.missing_capability(error, tuple(missing))
        named = {p.name for p in unaskable} | {p.name for p in impossible} | {name for name, _ in needs}
        shown = [p for p in self.spec.params if p.name in named]
        why = ", ".join(f"{p.name} ({self._why(p)})" for p in shown)
        names = ", ".join(m.name for m in missing if m.as_argument)
        after = ""
        if names and not impossible:
            if self.spec.kind == "resource":
                after = f" Read a URI of {self.spec.uri_template} with other values for: {names}."
            else:
                after = f" Call {self.spec.name} again with these arguments: {names}."
        message = f"{self.spec.name} is missing values it cannot ask for here: {why}. Nothing was done.{after}"
        return Refusal("cannot_ask", message, tuple(missing))


def _client_step(p: Param, ways: Sequence[str]) -> str:
    """What only the client can give for `p`, and the capabilities it is asked with (the same as the data's)."""
    if len(ways) > 1:  # an approval whose condition reads values still missing
        texts = " or ".join(CAPABILITIES[way].text for way in ways)
        return f"needs a confirmation in a form or an approval on a page, depending on values still missing ({texts})"
    need = ways[0]
    what = {
        "secret": "a value entered on a page",
        "approval": "an approval given on a page" if need == "url" else "a confirmation answered in a form",
        "confirm": "a confirmation answered in a form",
        "sample": "a reply from the client's model",
        "roots": "the client's roots",
        "value": "a value asked in a form, as it is not part of the URI",
        "choice": "a choice asked in a form, as it is not part of the URI",
    }.get(p.kind, f"a {p.kind} answer from the client")
    return f"needs {what} ({CAPABILITIES[need].text})"
