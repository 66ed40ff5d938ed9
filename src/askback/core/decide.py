"""The engine: given a call, its answers so far and what the client can be asked, decide what happens next.

`decide` is a pure function. It returns one of:

- `Complete(values)`: every value is known and checked; run the function with them.
- `Ask(questions, progress)`: ask these now (everything that can be asked this round); seal `progress`.
- `NeedOptions(names)`: the caller must run these choice providers and call `decide` again with their options.
- `Refuse(reason, message, missing)`: end the call without running the function, saying why.

Rules it keeps: a value comes from the sealed progress first, then the call's arguments, then an answer, then
its default. An answer counts only when it is tied to a question: with a state, the question asked under that
key must have the same fingerprint now; without one, only plain value questions of a tool that is not
single-use can be answered afresh, and never a confirmation. Invalid values are asked again with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from askback.core.forms import AnswerInvalid
from askback.core.markers import Answer, Caller, Option, Root
from askback.core.questions import (
    FormQuestion,
    MissingValue,
    Problems,
    Question,
    RootsQuestion,
    SamplingQuestion,
    canonical_json,
)
from askback.core.spec import ParamSpec, Spec
from askback.types import Capabilities

RefuseReason = Literal["declined", "cancelled", "no_options", "cannot_ask", "too_many_rounds"]
DEFAULT_MAX_ROUNDS = 16


def can_ask(caps: Capabilities, question: Question) -> bool:
    if isinstance(question, FormQuestion):
        return caps.form
    if isinstance(question, SamplingQuestion):
        return caps.sampling
    return caps.roots


@dataclass(frozen=True, slots=True)
class Progress:
    """What a flow has gathered so far; the sealed state carries it between rounds."""

    values: dict[str, Any] = field(default_factory=dict)  # parameter -> JSON value, from answers
    answered: dict[str, str] = field(default_factory=dict)  # parameter -> fingerprint of the question answered
    asked: dict[str, str] = field(default_factory=dict)  # key -> fingerprint of the question asked last round
    rounds: int = 0


@dataclass(frozen=True)
class Complete:
    values: dict[str, Any]


@dataclass(frozen=True)
class Ask:
    questions: tuple[Question, ...]
    progress: Progress


@dataclass(frozen=True)
class NeedOptions:
    names: tuple[str, ...]
    caller: Caller


@dataclass(frozen=True)
class Refuse:
    reason: RefuseReason
    message: str
    missing: tuple[MissingValue, ...] = ()


Outcome = Complete | Ask | NeedOptions | Refuse


@dataclass(frozen=True)
class CallInput:
    """Everything `decide` looks at for one round of one call."""

    arguments: Mapping[str, Any]
    responses: Mapping[str, Any] | None = None
    progress: Progress | None = None
    caps: Capabilities = field(default_factory=Capabilities)
    principal: str | None = None
    options: Mapping[str, Sequence[Option]] = field(default_factory=dict)
    max_rounds: int = DEFAULT_MAX_ROUNDS


def decide(spec: Spec, call: CallInput) -> Outcome:
    return _Round(spec, call).run()


class _Round:
    def __init__(self, spec: Spec, call: CallInput) -> None:
        self.spec = spec
        self.call = call
        self.responses: Mapping[str, Any] = call.responses if isinstance(call.responses, Mapping) else {}
        self.values: dict[str, Any] = {}  # parameter -> Python value
        self.answered: dict[str, str] = {}
        self.problems = Problems()

    # -- the round ---------------------------------------------------------------------------------------
    def run(self) -> Outcome:
        self._restore_progress()
        asks: list[Question] = []
        unaskable: list[ParamSpec] = []
        need_options: list[str] = []
        for p in self.spec.params:
            if p.name in self.values or p.kind == "caller":
                continue
            if any(dep not in self.values for dep in p.deps):
                continue  # waits for a later round
            outcome = self._resolve(p)
            if isinstance(outcome, Refuse):
                return outcome
            if outcome == "need_options":
                need_options.append(p.name)
            elif isinstance(outcome, FormQuestion | SamplingQuestion | RootsQuestion):
                if can_ask(self.call.caps, outcome):
                    asks.append(outcome)
                elif p.kind in ("sample", "roots") and not p.required:
                    self.values[p.name] = p.default  # the default stands in when the client cannot be asked
                else:
                    unaskable.append(p)
            elif outcome == "unaskable":
                unaskable.append(p)
        if need_options:
            return NeedOptions(tuple(need_options), self._caller())
        if unaskable:
            return self._cannot_ask(unaskable)
        if asks:
            rounds = (self.call.progress.rounds if self.call.progress else 0) + 1
            if rounds > self.call.max_rounds:
                return Refuse(
                    "too_many_rounds",
                    f"{self.spec.name}: gave up after {self.call.max_rounds} rounds of "
                    "questions without getting every value. Nothing was done.",
                )
            return Ask(tuple(asks), self._progress(asks, rounds))
        missing = [p.name for p in self.spec.params if p.kind != "caller" and p.name not in self.values]
        if missing:  # only possible when a value waits on something that can never be known
            return self._cannot_ask([self.spec.param(n) for n in missing])
        return Complete(dict(self.values))

    def _restore_progress(self) -> None:
        progress = self.call.progress
        if progress is None:
            return
        for name, raw in progress.values.items():
            try:
                p = self.spec.param(name)
            except KeyError:
                continue
            try:
                self.values[name] = self._from_json(p, raw)
            except (AnswerInvalid, ValueError, TypeError, KeyError):
                continue  # cannot happen for a state we sealed; ask again rather than trust it
            if name in progress.answered:
                self.answered[name] = progress.answered[name]

    def _progress(self, asks: Sequence[Question], rounds: int) -> Progress:
        carried = {name: self._to_json(self.spec.param(name), self.values[name]) for name in self.answered}
        return Progress(
            values=carried, answered=dict(self.answered), asked={q.key: q.fingerprint for q in asks}, rounds=rounds
        )

    # -- one parameter -----------------------------------------------------------------------------------
    def _resolve(self, p: ParamSpec) -> Question | Refuse | Literal["need_options", "unaskable", "known"]:
        if p.kind in ("value", "choice"):
            return self._resolve_value(p)
        if p.kind == "confirm":
            return self._resolve_confirm(p)
        if p.kind == "sample":
            return self._resolve_sample(p)
        return self._resolve_roots(p)

    def _resolve_value(self, p: ParamSpec) -> Question | Refuse | Literal["need_options", "unaskable", "known"]:
        assert p.form is not None
        options: Sequence[Option] | None = None
        if p.kind == "choice":
            if p.name not in self.call.options:
                return "need_options"
            options = self.call.options[p.name]
            if not options:
                return Refuse(
                    "no_options",
                    f"{self.spec.name}: there is no {p.title.lower()} to choose from for "
                    "this caller, so nothing was done.",
                )
        supplied = self.call.arguments.get(p.name, _MISSING) if p.from_arguments else _MISSING
        if supplied is not _MISSING and supplied is not None:
            try:
                value = p.form.validate(supplied)
                if options is not None:
                    value = self._pick(p, options, value)
                self.values[p.name] = value
                return "known"
            except AnswerInvalid as exc:
                self.problems.by_name[p.name] = str(exc)
        elif options is not None and len(options) == 1:
            self.values[p.name] = p.form.validate(options[0].value)
            return "known"
        elif not p.required and p.name not in self.problems.by_name:
            self.values[p.name] = p.default
            return "known"
        question = self._value_question(p, options)
        if question is None:
            return "unaskable"
        answer = self._answer_for(p, question)
        if answer is not _MISSING:
            return self._accept_form(p, question, answer, options)
        return question

    def _accept_form(
        self, p: ParamSpec, q: FormQuestion, answer: Any, options: Sequence[Option] | None
    ) -> Question | Refuse | Literal["known"]:
        assert p.form is not None
        try:
            action, content = _form_answer(answer)
        except AnswerInvalid as exc:
            return self._again(p, q, str(exc))
        if action != "accept":
            return _declined(self.spec, p, action)
        if p.field not in content:
            return self._again(p, q, f"no value was given for {p.field!r}")
        try:
            value = p.form.validate(content[p.field])
            if options is not None:
                value = self._pick(p, options, value)
        except AnswerInvalid as exc:
            return self._again(p, q, str(exc))
        self.values[p.name] = value
        self.answered[p.name] = q.fingerprint
        return "known"

    def _resolve_confirm(self, p: ParamSpec) -> Question | Refuse | Literal["known"]:
        text = self._render(p.message or "Confirm?")
        binding = {n: self._to_json(self.spec.param(n), self.values[n]) for n in p.deps}
        schema = {
            "type": "object",
            "properties": {p.field: {"type": "boolean", "title": "Confirm", "description": text}},
            "required": [p.field],
        }
        q = FormQuestion(key=p.name, message=text, schema=schema, binding=binding)
        answer = self._answer_for(p, q)
        if answer is _MISSING:
            return q
        try:
            action, content = _form_answer(answer)
        except AnswerInvalid as exc:
            return self._again(p, q, str(exc))
        if action == "accept":
            confirmed = content.get(p.field)
            if not isinstance(confirmed, bool):
                return self._again(p, q, "please answer yes or no")
            if not confirmed:
                action = "decline"
        if action != "accept" and not p.wants_answer:
            return _declined(self.spec, p, action)
        outcome: Literal["accept", "decline", "cancel"] = (
            "accept" if action == "accept" else ("cancel" if action == "cancel" else "decline")
        )
        self.values[p.name] = Answer(action=outcome, content=dict(content)) if p.wants_answer else True
        self.answered[p.name] = q.fingerprint
        return "known"

    def _resolve_sample(self, p: ParamSpec) -> Question | Literal["known"]:
        from askback.core.markers import Sample

        marker = p.marker
        assert isinstance(marker, Sample)
        q = SamplingQuestion(
            key=p.name,
            prompt=self._render(marker.prompt),
            max_tokens=marker.max_tokens,
            system_prompt=marker.system_prompt,
            temperature=marker.temperature,
        )
        answer = self._answer_for(p, q)
        if answer is _MISSING:
            return q
        if not isinstance(answer, Mapping):
            return q
        text = _sample_text(answer)
        if text is None:
            return q
        self.values[p.name] = dict(answer) if p.wants_full_result else text
        self.answered[p.name] = q.fingerprint
        return "known"

    def _resolve_roots(self, p: ParamSpec) -> Question | Literal["known"]:
        q = RootsQuestion(key=p.name)
        answer = self._answer_for(p, q)
        if answer is _MISSING or not isinstance(answer, Mapping):
            return q
        roots = _roots(answer)
        if roots is None:
            return q
        self.values[p.name] = self._from_json(p, [{"uri": r.uri, "name": r.name} for r in roots])
        self.answered[p.name] = q.fingerprint
        return "known"

    # -- helpers -----------------------------------------------------------------------------------------
    def _answer_for(self, p: ParamSpec, q: Question) -> Any:
        """The answer under this question's key, if it can be tied to the question; else `_MISSING`."""
        if q.key not in self.responses:
            return _MISSING
        progress = self.call.progress
        if progress is None:
            if self.spec.once or p.kind == "confirm":
                return _MISSING  # never trusted without the state that proves the question was asked
            return self.responses[q.key]
        if progress.asked.get(q.key) != q.fingerprint:
            return _MISSING
        return self.responses[q.key]

    def _again(self, p: ParamSpec, q: FormQuestion, reason: str) -> FormQuestion:
        self.problems.by_name[p.name] = reason
        return q.with_note(self.problems.note(p.name))

    def _value_question(self, p: ParamSpec, options: Sequence[Option] | None) -> FormQuestion | None:
        assert p.form is not None
        static = options is None and not p.deps
        question = self.spec.cache.get(("question", p.name)) if static else None
        if question is None:
            question = self._build_value_question(p, options)
            if question is None:
                return None
            if static:  # same text and schema every round: build (and fingerprint) it once per tool
                self.spec.cache[("question", p.name)] = question
        note = self.problems.note(p.name)
        return question.with_note(note) if note else question

    def _build_value_question(self, p: ParamSpec, options: Sequence[Option] | None) -> FormQuestion | None:
        assert p.form is not None
        if options is not None:
            from askback.core.forms import choice_schema

            prop = choice_schema([(o.value, o.title) for o in options], title=p.title, description=p.description)
            default_message = f'{self.spec.name}: choose "{p.description or p.title}".'
        else:
            if p.form.schema is None:
                return None
            prop = dict(p.form.schema)
            if p.required:
                prop.pop("default", None)
            default_message = f'{self.spec.name} needs a value for "{p.description or p.title}".'
        message = self._render(p.message) if p.message else default_message
        schema = {"type": "object", "properties": {p.field: prop}, "required": [p.field]}
        return FormQuestion(key=p.name, message=message, schema=schema)

    def _pick(self, p: ParamSpec, options: Sequence[Option], value: Any) -> Any:
        for option in options:
            if str(option.value) == str(value):
                assert p.form is not None
                return p.form.validate(option.value)
        allowed = ", ".join(str(o.title or o.value) for o in options)
        raise AnswerInvalid(f"it is not one of the options ({allowed})")

    def _render(self, template: str) -> str:
        try:
            return template.format_map(self.values)
        except (KeyError, IndexError, AttributeError, ValueError):
            return template

    def _caller(self) -> Caller:
        return Caller(principal=self.call.principal, values=dict(self.values))

    def _from_json(self, p: ParamSpec, raw: Any) -> Any:
        if p.kind == "confirm":
            return Answer(action=raw["action"], content=raw.get("content", {})) if p.wants_answer else bool(raw)
        if p.kind == "sample":
            return raw
        if p.kind == "roots":
            return [Root(uri=r["uri"], name=r.get("name")) if p.wants_full_result else r["uri"] for r in raw]
        assert p.form is not None
        return p.form.validate(raw)

    def _to_json(self, p: ParamSpec, value: Any) -> Any:
        if p.kind == "confirm":
            return {"action": value.action, "content": value.content} if isinstance(value, Answer) else bool(value)
        if p.kind == "sample":
            return value
        if p.kind == "roots":
            return [{"uri": r.uri, "name": r.name} if isinstance(r, Root) else {"uri": r, "name": None} for r in value]
        if p.form is None:
            return value
        return p.form.to_json(value)

    def _argument_schema(self, name: str, props: Mapping[str, Any]) -> dict[str, Any]:
        """The argument's schema from the tool's input schema, self-contained (with the `$defs` it refers to)."""
        schema = dict(props.get(name, {}))
        defs = self.spec.input_schema.get("$defs")
        if defs and "$ref" in canonical_json(schema).decode():
            schema["$defs"] = defs
        return schema

    def _cannot_ask(self, unaskable: Sequence[ParamSpec]) -> Refuse:
        props = self.spec.input_schema.get("properties", {})
        missing: list[MissingValue] = []
        # Values only the client can give (confirmations, samples, roots) that it cannot give on this request:
        # while any remain, retrying with arguments cannot complete the call, so the message must not say so.
        blocked = [p for p in unaskable if not p.from_arguments]
        for p in self.spec.params:
            if p.kind == "caller" or p.name in self.values:
                continue
            if p.from_arguments:
                reason = self.problems.by_name.get(p.name, "missing")
                missing.append(MissingValue(p.name, self._argument_schema(p.name, props), reason, True))
                continue
            missing.append(MissingValue(p.name, {}, f"needs a {p.kind} answer from the client", False))
            if p not in blocked and not _kind_askable(p, self.call.caps):
                blocked.append(p)
        shown = list({p.name: p for p in [*unaskable, *blocked]}.values())
        why = ", ".join(f"{p.name} ({_why_unaskable(p)})" for p in shown)
        names = ", ".join(m.name for m in missing if m.as_argument)
        if blocked:
            after = " This client cannot complete the call: it would have to declare what is needed above."
        elif names:
            after = f" Call {self.spec.name} again with these arguments: {names}."
        else:
            after = ""
        message = f"{self.spec.name} is missing values it cannot ask for here: {why}. Nothing was done.{after}"
        return Refuse("cannot_ask", message, tuple(missing))


_MISSING: Any = object()


def _kind_askable(p: ParamSpec, caps: Capabilities) -> bool:
    return {"sample": caps.sampling, "roots": caps.roots}.get(p.kind, caps.form)


def _why_unaskable(p: ParamSpec) -> str:
    if p.kind == "value" and p.form is not None and p.form.schema is None:
        return f"cannot be asked in a form: {p.form.unaskable}"
    needed = {"sample": "sampling", "roots": "roots"}.get(p.kind, "form elicitation")
    return f"the client did not declare {needed}"


def _declined(spec: Spec, p: ParamSpec, action: str) -> Refuse:
    if action == "cancel":
        return Refuse("cancelled", f"{spec.name} was cancelled when asked for {p.title.lower()}. Nothing was done.")
    return Refuse("declined", f"{spec.name} was declined when asked for {p.title.lower()}. Nothing was done.")


def _form_answer(answer: Any) -> tuple[str, Mapping[str, Any]]:
    if not isinstance(answer, Mapping):
        raise AnswerInvalid("the answer was not an elicitation result object")
    action = answer.get("action")
    if action not in ("accept", "decline", "cancel"):
        raise AnswerInvalid("the answer had no valid action (accept, decline or cancel)")
    content = answer.get("content") or {}
    if not isinstance(content, Mapping):
        raise AnswerInvalid("the answer's content was not an object")
    return str(action), content


def _sample_text(answer: Mapping[str, Any]) -> str | None:
    content = answer.get("content")
    blocks = content if isinstance(content, list) else [content]
    texts = [
        t for b in blocks if isinstance(b, Mapping) and b.get("type") == "text" and isinstance(t := b.get("text"), str)
    ]
    return "".join(texts) if texts else None


def _roots(answer: Mapping[str, Any]) -> list[Root] | None:
    raw = answer.get("roots")
    if not isinstance(raw, list):
        return None
    out: list[Root] = []
    for item in raw:
        if not isinstance(item, Mapping) or not isinstance(item.get("uri"), str):
            return None
        name = item.get("name")
        out.append(Root(uri=item["uri"], name=name if isinstance(name, str) else None))
    return out
