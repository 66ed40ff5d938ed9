"""Parameter kinds: one small class each, owning how a value resolves, what is asked and how an answer is checked.

A kind never awaits and never touches I/O. It reads the round through `RoundView` (the call's arguments, the
values known so far, the answers tied to their questions) and returns a `Resolution`: the value is known now
(`KNOWN`), the flow must look something up first (`NEED_OPTIONS`, `OptionsFor`, a `MarkRequest`), it cannot be
asked in any form (`UNASKABLE`), a question to ask, or a refusal.

The kinds are slotted dataclasses, so a kind calls its base as `super(Kind, self)`: the zero-argument form fails
in a slotted dataclass before Python 3.14 (the decorator builds a new class the method's `__class__` does not name).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol

from askback.core.capabilities import CAPABILITIES
from askback.core.confirming import unconfirmable
from askback.core.forms import NO_DEFAULT, AnswerInvalid, FieldForm, choice_schema, multi_choice_schema
from askback.core.guarding import Guard
from askback.core.jsontypes import type_problem
from askback.core.markers import Answer, Caller, Option, Root, Sample
from askback.core.marks import ApproveWith, Mark, MarkRequest, page_message
from askback.core.outcomes import Refusal
from askback.core.questions import FormQuestion, Question, RootsQuestion, SamplingQuestion, UrlQuestion
from askback.types import Capabilities


@dataclass(frozen=True, slots=True)
class OptionsFor:
    """The flow must look up these choices' options first: a confirmation shows each chosen option's title."""

    names: tuple[str, ...]


KNOWN: Literal["known"] = "known"
NEED_OPTIONS: Literal["need_options"] = "need_options"
UNASKABLE: Literal["unaskable"] = "unaskable"
Resolution = Question | Refusal | MarkRequest | OptionsFor | Literal["known", "need_options", "unaskable"]

MISSING: Any = object()
DEFERRED: Any = type("Deferred", (), {"__repr__": lambda self: "DEFERRED"})()  # read by the flow, at run time


def can_ask(caps: Capabilities, needs: str) -> bool:
    return bool(getattr(caps, needs))


class RoundView(Protocol):
    """What a kind sees of the round being decided."""

    spec_name: str
    arguments: Mapping[str, Any]
    values: dict[str, Any]
    options: Mapping[str, Sequence[Option]]
    marks: Mapping[str, Any]
    caps: Capabilities
    guard: Guard

    def answer_for(self, p: Param, q: Question) -> Any: ...
    def again(self, p: Param, q: FormQuestion, reason: str) -> FormQuestion: ...
    def problem(self, p: Param) -> str | None: ...
    def note_problem(self, p: Param, reason: str) -> None: ...
    def accept(self, p: Param, value: Any, q: Question) -> Literal["known"]: ...
    def render(self, template: str, *, whole: bool = False) -> str: ...
    def shown(self, name: str) -> str: ...
    def untitled(self, names: Sequence[str]) -> tuple[str, ...]: ...
    def values_json(self, names: Sequence[str]) -> dict[str, Any]: ...
    def check_answer(self, value: Any) -> str | None: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Param:
    """What every kind has: a name, its type, how a person sees it, and what it waits for."""

    name: str
    annotation: Any
    title: str
    description: str | None
    default: Any
    field: str
    deps: tuple[str, ...]
    message: str | None = None
    not_secret: bool = False  # the author's word: the word check passes this question (never a declaration)

    kind: ClassVar[str] = "value"
    from_arguments: ClassVar[bool] = False  # a caller may send it directly as an argument
    injected: ClassVar[bool] = False  # askback fills it in; never asked, never carried
    needs: ClassVar[str] = "form"  # the client capability this kind is asked with

    @property
    def required(self) -> bool:
        return self.default is NO_DEFAULT

    def resolve(self, r: RoundView) -> Resolution:
        raise NotImplementedError

    def to_json(self, value: Any) -> Any:
        return value

    def from_json(self, raw: Any) -> Any:
        return raw

    def why_unaskable(self, r: RoundView) -> str:
        """Why it cannot be asked on this round: the capability it is asked with on it, not declared."""
        return f"the client did not declare {CAPABILITIES[self.needs_now(r)].text}"

    def needs_now(self, r: RoundView | None) -> str:
        """The capability (a key of `CAPABILITIES`) this parameter is asked with on this round (some kinds
        decide per call)."""
        return self.needs

    def may_need(self, r: RoundView) -> tuple[str, ...]:
        """Every capability it may be asked with once the values still missing are known (one, but for a kind
        whose way of asking depends on them)."""
        return (self.needs_now(r),)


@dataclass(frozen=True, slots=True, kw_only=True)
class ValueParam(Param):
    """A value the caller can send as an argument; asked in a form field when missing or invalid."""

    form: FieldForm
    question: FormQuestion | None = None  # built at registration when its text never changes
    # A declared input schema's check of this field's JSON value (`askback.core.declared`): the reason, or None.
    declared: Callable[[Any], str | None] | None = None
    from_arguments: ClassVar[bool] = True

    def to_json(self, value: Any) -> Any:
        return self.form.to_json(value)

    def from_json(self, raw: Any) -> Any:
        return self.form.validate(raw)

    def why_unaskable(self, r: RoundView) -> str:
        if self.form.schema is None:
            return f"cannot be asked in a form: {self.form.unaskable}"
        return super(ValueParam, self).why_unaskable(r)

    def resolve(self, r: RoundView) -> Resolution:
        supplied = r.arguments.get(self.name, MISSING)
        if supplied is not MISSING and supplied is not None:
            try:
                r.values[self.name] = self.check(r, self.form.validate(supplied))
                return KNOWN
            except AnswerInvalid as exc:
                r.note_problem(self, str(exc))
        elif (early := self.without_asking(r)) is not None:
            return early
        question = self.build_question(r)
        if question is None:
            return UNASKABLE
        note = r.problem(self)
        if note:
            question = question.with_note(f"The previous value was not accepted: {note}.")
        answer = r.answer_for(self, question)
        if answer is MISSING:
            return question
        return self.accept_form(r, question, answer)

    def without_asking(self, r: RoundView) -> Resolution | None:
        """Known without a question (a default), or None to ask."""
        if not self.required and r.problem(self) is None:
            r.values[self.name] = self.default
            return KNOWN
        return None

    def check(self, r: RoundView, value: Any) -> Any:
        """Further checks on a validated value (a choice must be one of the options, a declared schema's field
        must satisfy its property)."""
        if self.declared is not None and (why := self.declared(self.to_json(value))) is not None:
            raise AnswerInvalid(why)
        return value

    def build_question(self, r: RoundView) -> FormQuestion | None:
        if self.question is not None:
            return self.question
        if self.form.schema is None:
            return None
        prop = dict(self.form.schema)
        if self.required:
            prop.pop("default", None)
        return self.form_question(r, prop, f'{r.spec_name} needs a value for "{self.description or self.title}".')

    def form_question(self, r: RoundView, prop: dict[str, Any], default_message: str) -> FormQuestion:
        message = r.render(self.message) if self.message else default_message
        schema = {"type": "object", "properties": {self.field: prop}, "required": [self.field]}
        return FormQuestion(key=self.name, message=message, schema=schema)

    def accepted(self, r: RoundView, q: FormQuestion, answer: Any) -> dict[str, Any] | FormQuestion | Refusal:
        """A form's answer: its content when the person accepted it, else the question again (an answer that is
        no form answer) or the refusal a decline is."""
        try:
            action, content = form_answer(answer)
        except AnswerInvalid as exc:
            return r.again(self, q, str(exc))
        if action != "accept":
            return declined(r.spec_name, self, action)
        return dict(content)

    def accept_form(self, r: RoundView, q: FormQuestion, answer: Any) -> Resolution:
        content = self.accepted(r, q, answer)
        if not isinstance(content, dict):
            return content
        if self.field not in content:
            return r.again(self, q, f"no value was given for {self.field!r}")
        leak = r.check_answer(content[self.field])
        if leak is not None:
            return r.again(self, q, leak)
        # An answer is of the type its form declared (`true` is no integer); only then is it converted.
        wrong = type_problem(q.schema["properties"][self.field], content[self.field])
        if wrong is not None:
            return r.again(self, q, wrong)
        try:
            value = self.check(r, self.form.validate(content[self.field]))
        except AnswerInvalid as exc:
            return r.again(self, q, str(exc))
        return r.accept(self, value, q)


@dataclass(frozen=True, slots=True, kw_only=True)
class FormParam(ValueParam):
    """A pydantic model asked as one form: a field per model field, each default pre-filled (SEP-1034).

    A caller may send the whole object as an argument; when it is missing (or invalid) the person fills one form
    and the function receives the model built from it. `form.schema` is the whole form's schema.
    """

    kind: ClassVar[str] = "form"

    def build_question(self, r: RoundView) -> FormQuestion | None:
        if self.question is not None:
            return self.question
        message = r.render(self.message) if self.message else f'{r.spec_name} needs "{self.description or self.title}".'
        return FormQuestion(key=self.name, message=message, schema=dict(self.form.schema or {}))

    def accept_form(self, r: RoundView, q: FormQuestion, answer: Any) -> Resolution:
        content = self.accepted(r, q, answer)
        if not isinstance(content, dict):
            return content
        properties = q.schema.get("properties", {})
        given = {k: v for k, v in content.items() if k in properties}  # a field the form did not ask is not read
        for name, value in given.items():
            leak = r.check_answer(value)
            if leak is not None:
                return r.again(self, q, f"{name}: {leak}")
            wrong = type_problem(properties[name], value)
            if wrong is not None:
                return r.again(self, q, f"{name}: {wrong}")
        try:
            value = self.check(r, self.form.validate(given))
        except AnswerInvalid as exc:
            return r.again(self, q, str(exc))
        return r.accept(self, value, q)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChoiceParam(ValueParam):
    """A value that must be one of the options a provider gives for this caller (or several, for a list)."""

    marker: Any = None  # the `OneOf`
    provider_params: tuple[str, ...] = ()
    option_form: FieldForm | None = None  # how one option is checked: the item type of a list, else `form`
    multiple: bool = False
    min_items: int | None = None
    max_items: int | None = None
    kind: ClassVar[str] = "choice"

    def resolve(self, r: RoundView) -> Resolution:
        if self.name not in r.options:
            return NEED_OPTIONS
        if not r.options[self.name]:
            return Refusal(
                "no_options",
                f"{r.spec_name}: there is no {self.title.lower()} to choose from for this caller, so nothing was done.",
            )
        return super(ChoiceParam, self).resolve(r)

    def validate_option(self, value: Any) -> Any:
        """Raise `AnswerInvalid` if a provider's option does not fit the parameter's (item) type."""
        return (self.option_form or self.form).validate(value)

    def without_asking(self, r: RoundView) -> Resolution | None:
        options = r.options[self.name]
        if len(options) == 1 and not self.multiple:
            r.values[self.name] = self.form.validate(options[0].value)
            return KNOWN
        return super(ChoiceParam, self).without_asking(r)

    def check(self, r: RoundView, value: Any) -> Any:
        options = r.options[self.name]
        by_text = {str(o.value): o for o in options}
        if not self.multiple:
            option = by_text.get(str(value))
            if option is None:
                raise AnswerInvalid(f"it is not one of the options ({_listing(options)})")
            return self.form.validate(option.value)
        chosen = list(value)
        unknown = [v for v in chosen if str(v) not in by_text]
        if unknown:
            raise AnswerInvalid(f"{len(unknown)} of the choices are not among the options ({_listing(options)})")
        return self.form.validate([by_text[str(v)].value for v in chosen])

    def build_question(self, r: RoundView) -> FormQuestion | None:
        pairs = [(o.value, o.title) for o in r.options[self.name]]
        if self.multiple:
            prop = multi_choice_schema(
                pairs,
                title=self.title,
                description=self.description,
                min_items=self.min_items,
                max_items=self.max_items,
            )
        else:
            prop = choice_schema(pairs, title=self.title, description=self.description)
        return self.form_question(r, prop, f'{r.spec_name}: choose "{self.description or self.title}".')


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfirmParam(Param):
    """A yes/no asked last, bound to the rendered text and every value the function receives."""

    wants_answer: bool = False
    shows: tuple[str, ...] = ()  # the parameters its text names: what a person reads in band
    kind: ClassVar[str] = "confirm"

    def to_json(self, value: Any) -> Any:
        return {"action": value.action, "content": value.content} if isinstance(value, Answer) else bool(value)

    def from_json(self, raw: Any) -> Any:
        return Answer(action=raw["action"], content=raw.get("content", {})) if self.wants_answer else bool(raw)

    def question(self, r: RoundView, values_json: dict[str, Any]) -> FormQuestion:
        text = r.render(self.message or "Confirm?", whole=True)
        schema = {
            "type": "object",
            "properties": {self.field: {"type": "boolean", "title": "Confirm", "description": text}},
            "required": [self.field],
        }
        return FormQuestion(key=self.name, message=text, schema=schema, binding=values_json)

    def before_asking(self, r: RoundView, names: Sequence[str]) -> OptionsFor | Refusal | None:
        """What must happen before the values `names` are shown for confirmation: look up the options whose titles
        they are shown with, or refuse when one cannot be shown whole (too long) or asks for a credential."""
        names = [n for n in names if n in r.values and r.values[n] is not DEFERRED]
        lookups = r.untitled(names)
        if lookups:
            return OptionsFor(lookups)
        problem = unconfirmable(r.guard, {n: r.values[n] for n in names}, {n: r.shown(n) for n in names})
        if problem:
            return Refusal("unconfirmable", f"{r.spec_name} cannot be confirmed: {problem}. Nothing was done.")
        return None

    def resolve(self, r: RoundView) -> Resolution:
        first = self.before_asking(r, self.shows)
        if first is not None:
            return first
        q = self.question(r, r.values_json(self.deps))
        answer = r.answer_for(self, q)
        if answer is MISSING:
            return q
        try:
            action, content = form_answer(answer)
        except AnswerInvalid as exc:
            return r.again(self, q, str(exc))
        if action == "accept":
            confirmed = content.get(self.field)
            if not isinstance(confirmed, bool):
                return r.again(self, q, "please answer yes or no")
            if not confirmed:
                action = "decline"
        if action != "accept" and not self.wants_answer:
            return declined(r.spec_name, self, action)
        outcome: Literal["accept", "decline", "cancel"] = (
            "accept" if action == "accept" else ("cancel" if action == "cancel" else "decline")
        )
        return r.accept(self, Answer(action=outcome, content=dict(content)) if self.wants_answer else True, q)


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalParam(ConfirmParam):
    """A confirmation given on an askback page (URL mode), where no agent answering forms can reach.

    `condition` (with the parameters it names) decides per call; when it says no, this is an ordinary
    in-band confirmation.
    """

    condition: Any = None  # None: always out of band; else a callable over `condition_params`
    condition_params: tuple[str, ...] = ()
    approve_with: ApproveWith | None = None  # None: the app's default
    approvers: Any = None  # who may approve instead of the caller (a second person); read by the page
    kind: ClassVar[str] = "approval"
    needs: ClassVar[str] = "url"

    def out_of_band(self, r: RoundView | None) -> bool:
        if self.condition is None:
            return True
        if r is None or not self.decided(r):
            return True  # not decided yet (its values are still missing): the stricter way, a page
        return bool(self.condition(**{n: r.values[n] for n in self.condition_params}))

    def needs_now(self, r: RoundView | None) -> str:
        return "url" if self.out_of_band(r) else "form"

    def decided(self, r: RoundView) -> bool:
        """Whether the values its condition reads are known, so `needs_now` says how it is asked this call."""
        return self.condition is None or all(n in r.values for n in self.condition_params)

    def may_need(self, r: RoundView) -> tuple[str, ...]:
        return (self.needs_now(r),) if self.decided(r) else ("form", "url")

    def resolve(self, r: RoundView) -> Resolution:
        if not self.out_of_band(r):
            return super(ApprovalParam, self).resolve(r)
        if not r.caps.url:
            return UNASKABLE
        first = self.before_asking(r, [*self.shows, *(d for d in self.deps if d not in self.shows)])
        if first is not None:
            return first
        mark = r.marks.get(self.name)
        if not isinstance(mark, Mark):
            text = r.render(self.message or "Approve?", whole=True)
            summary = tuple((n, r.shown(n)) for n in self.deps if r.values[n] is not DEFERRED)
            return MarkRequest(self.name, "approval", self.title, text, summary, approve_with=self.approve_with,
                               second_person=self.approvers is not None)
        # a second person's approval: the caller's own sign-in is refused there, so the caller is told to pass it on
        what = ("have this action approved or rejected by another person who may approve it (send them this link)"
                if self.approvers is not None else "approve or reject this action")
        q = UrlQuestion(key=self.name, message=_page_message(r, what), url=mark.url)
        refused = _refused_at_the_link(r, self, q)
        if refused is not None:
            return refused
        if mark.status == "pending":
            return q
        action: Literal["accept", "decline"] = "accept" if mark.status == "done" else "decline"
        if action == "decline" and not self.wants_answer:
            return Refusal("declined", f"{r.spec_name} was rejected on the approval page. Nothing was done.")
        r.values[self.name] = Answer(action=action) if self.wants_answer else True
        return KNOWN


@dataclass(frozen=True, slots=True, kw_only=True)
class SecretParam(Param):
    """A credential entered on an askback page (URL mode); the function receives it as `askback.Secret`.

    The value never passes through the client or any state: the flow reads it from the store, once, when the
    function runs.
    """

    kind: ClassVar[str] = "secret"
    needs: ClassVar[str] = "url"

    def resolve(self, r: RoundView) -> Resolution:
        if not r.caps.url:
            return UNASKABLE
        mark = r.marks.get(self.name)
        # shown on the page as well: whole, so a long bank name cannot hide whose key is asked for
        why = r.render(self.message, whole=True) if self.message else (self.description or f"your {self.title.lower()}")
        if not isinstance(mark, Mark):
            return MarkRequest(self.name, "secret", self.title, why)
        q = UrlQuestion(key=self.name, message=_page_message(r, f"enter {why}"), url=mark.url)
        refused = _refused_at_the_link(r, self, q)
        if refused is not None:
            return refused
        if mark.status == "done":
            r.values[self.name] = DEFERRED
            return KNOWN
        if mark.status == "rejected":
            return declined(r.spec_name, self, "decline")
        return q


def _page_message(r: RoundView, what: str) -> str:
    return page_message(r.spec_name, what)


def _refused_at_the_link(r: RoundView, p: Param, q: UrlQuestion) -> Refusal | None:
    """A decline or cancel of the URL question itself (the person would not go to the page)."""
    answer = r.answer_for(p, q)
    if isinstance(answer, Mapping) and answer.get("action") in ("decline", "cancel"):
        return declined(r.spec_name, p, str(answer["action"]))
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class SampleParam(Param):
    """A value from the client's model: a `sampling/createMessage` question."""

    marker: Sample
    wants_full_result: bool = False
    kind: ClassVar[str] = "sample"
    needs: ClassVar[str] = "sampling"

    def resolve(self, r: RoundView) -> Resolution:
        q = SamplingQuestion(
            key=self.name,
            prompt=r.render(self.marker.prompt),
            max_tokens=self.marker.max_tokens,
            system_prompt=self.marker.system_prompt,
            temperature=self.marker.temperature,
        )
        answer = r.answer_for(self, q)
        if answer is MISSING or not isinstance(answer, Mapping):
            return q
        text = _sample_text(answer)
        if text is None:
            return q
        return r.accept(self, dict(answer) if self.wants_full_result else text, q)


@dataclass(frozen=True, slots=True, kw_only=True)
class RootsParam(Param):
    """The client's roots: a `roots/list` question."""

    wants_full_result: bool = False
    kind: ClassVar[str] = "roots"
    needs: ClassVar[str] = "roots"

    def to_json(self, value: Any) -> Any:
        return [{"uri": r.uri, "name": r.name} if isinstance(r, Root) else {"uri": r, "name": None} for r in value]

    def from_json(self, raw: Any) -> Any:
        return [Root(uri=r["uri"], name=r.get("name")) if self.wants_full_result else r["uri"] for r in raw]

    def resolve(self, r: RoundView) -> Resolution:
        q = RootsQuestion(key=self.name)
        answer = r.answer_for(self, q)
        if answer is MISSING or not isinstance(answer, Mapping):
            return q
        roots = _roots(answer)
        if roots is None:
            return q
        return r.accept(self, self.from_json([{"uri": x.uri, "name": x.name} for x in roots]), q)


@dataclass(frozen=True, slots=True, kw_only=True)
class CallerParam(Param):
    """Who is calling: filled in by askback when the function runs."""

    kind: ClassVar[str] = "caller"
    injected: ClassVar[bool] = True

    def inject(self, principal: str | None, values: Mapping[str, Any]) -> Caller:
        return Caller(principal=principal, values=dict(values))


@dataclass(frozen=True, slots=True, kw_only=True)
class ContextParam(Param):
    """The running function's `askback.Context`: filled in by whoever runs the function (the entry's own)."""

    kind: ClassVar[str] = "context"
    injected: ClassVar[bool] = True


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkParam(Param):
    """The running function's `askback.Work`: filled in by whoever runs the function (a task's runner)."""

    kind: ClassVar[str] = "work"
    injected: ClassVar[bool] = True


def declined(spec_name: str, p: Param, action: str) -> Refusal:
    if action == "cancel":
        return Refusal("cancelled", f"{spec_name} was cancelled when asked for {p.title.lower()}. Nothing was done.")
    return Refusal("declined", f"{spec_name} was declined when asked for {p.title.lower()}. Nothing was done.")


def form_answer(answer: Any) -> tuple[str, Mapping[str, Any]]:
    if type(answer) is not dict and not isinstance(answer, Mapping):
        raise AnswerInvalid("the answer was not an elicitation result object")
    action = answer.get("action")
    if action not in ("accept", "decline", "cancel"):
        raise AnswerInvalid("the answer had no valid action (accept, decline or cancel)")
    content = answer.get("content") or {}
    if type(content) is not dict and not isinstance(content, Mapping):
        raise AnswerInvalid("the answer's content was not an object")
    return str(action), content


def _listing(options: Sequence[Option]) -> str:
    shown = [str(o.title or o.value) for o in options[:10]]
    return ", ".join(shown) + (", …" if len(options) > 10 else "")


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
