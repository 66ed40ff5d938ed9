"""Questions a running function asks during its work (a task), decided without I/O.

A tool that runs as a task receives a `Work` (see `askback.core.markers.Work`): `await work.confirm(text)`,
`await work.choose(text, options)`, `await work.ask(text, type)`. Each call becomes one `WorkQuestion`, built
here with the same form builders, the same form check (`askback.core.guarding.guard_form`, with the
guard the runner hands in) and the same inert rendering as a parameter's
question, and each answer is read here with the same validation: an invalid answer is asked again with the
reason (never a failure), a decline or cancel is the person's deliberate answer.

Where the question waits for its answer (a task record, a store, a poll) is the runner's business, not this
module's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from askback.core.confirming import plain, unconfirmable
from askback.core.decide import AnswerGuard, no_answer_guard
from askback.core.errors import Declined, MissingCapability, ToolError
from askback.core.forms import AnswerInvalid, FieldForm, bare_form, choice_schema
from askback.core.guarding import Guard, guard_form
from askback.core.jsontypes import type_problem
from askback.core.kinds import form_answer
from askback.core.markers import Option, Secret, Work
from askback.core.marks import MarkRequest, Status, page_message
from askback.core.questions import FormQuestion, UrlQuestion, canonical_json, short_digest
from askback.core.spec import template_fields
from askback.core.text import render, show

WorkKind = Literal["confirm", "choose", "ask", "secret"]
CONFIRM_FIELD = "confirm"
VALUE_FIELD = "value"
CHOICE_FIELD = "choice"


class UnsafeQuestion(Exception):
    """The function asked for a credential in a form; a secret is never asked that way (it goes out of band)."""

    def __init__(self, term: str, message: str | None = None, *, declared: bool = False) -> None:
        fix = "" if declared else "; if it is not a credential, say so with not_secret=True"
        super().__init__(
            message
            or f"the work asked for a {term} in a form, and credentials are never asked that way; "
            f"ask for it on a page (an askback.Secret parameter) before the work starts{fix}"
        )
        self.term = term


class UnconfirmableQuestion(UnsafeQuestion):
    """The function asked to confirm values that cannot be confirmed (one too long to show whole, or one that
    asks the person for a credential): the confirmation is refused rather than given blind."""

    def __init__(self, problem: str) -> None:
        super().__init__("", f"the work asked to confirm what cannot be confirmed: {problem}")
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Accepted:
    value: Any


@dataclass(frozen=True, slots=True)
class Again:
    """The answer was not usable: ask the same question again, saying why."""

    reason: str


@dataclass(frozen=True, slots=True)
class DeclinedAnswer:
    action: Literal["decline", "cancel"]


Reading = Accepted | Again | DeclinedAnswer


@dataclass(frozen=True, slots=True)
class WorkQuestion:
    """One question of a running function: its text, its one form field, and how its answer is checked."""

    kind: WorkKind
    message: str
    field: str
    prop: dict[str, Any]
    form: FieldForm | None = None  # None for a confirmation (a boolean) and for a choice (checked by `options`)
    options: tuple[Option, ...] = ()

    @property
    def schema(self) -> dict[str, Any]:
        return {"type": "object", "properties": {self.field: self.prop}, "required": [self.field]}

    @property
    def fingerprint(self) -> str:
        """The question's identity, independent of the key it is asked under (a re-run asks it again)."""
        return short_digest(canonical_json(["work", self.kind, self.message, self.schema]))

    def question(self, key: str, note: str | None = None) -> FormQuestion:
        return FormQuestion(key=key, message=self.message, schema=self.schema, note=note)

    def read(self, answer: Any, answer_guard: AnswerGuard = no_answer_guard) -> Reading:
        """What an answer means for this question (the same rules as a parameter's answer)."""
        try:
            action, content = form_answer(answer)
        except AnswerInvalid as exc:
            return Again(str(exc))
        if action in ("decline", "cancel"):
            return DeclinedAnswer("cancel" if action == "cancel" else "decline")
        if self.field not in content:
            return Again(f"no value was given for {self.field!r}")
        raw = content[self.field]
        if self.kind == "secret":  # entered on askback's page; read as-is, never checked against the guard
            if not isinstance(raw, str) or not raw:
                return Again("no value was entered")
            return Accepted(Secret(raw))
        if self.kind == "confirm":
            if not isinstance(raw, bool):
                return Again("please answer yes or no")
            return Accepted(raw)
        leak = answer_guard(raw)
        if leak is not None:
            return Again(leak)
        wrong = type_problem(self.prop, raw)  # of the type its form declared, as a parameter's answer is
        if wrong is not None:
            return Again(wrong)
        if self.kind == "choose":
            by_text = {str(o.value): o for o in self.options}
            chosen = by_text.get(str(raw))
            if chosen is None:
                return Again("it is not one of the options")
            return Accepted(chosen.value)
        assert self.form is not None
        try:
            return Accepted(self.form.validate(raw))
        except AnswerInvalid as exc:
            return Again(str(exc))

    def to_json(self, value: Any) -> Any:
        """The accepted value as JSON, for the task record (a re-run reads it back with `from_json`)."""
        if self.kind == "secret":
            raise SecretNotKept()
        if self.form is not None:
            return self.form.to_json(value)
        return value

    def from_json(self, raw: Any) -> Any:
        if self.form is not None:
            return self.form.validate(raw)
        return raw


def _message(text: str, values: Mapping[str, Any] | None, *, whole: bool = False) -> str:
    """The author's text, with `{name}` parts filled by values shown inert (caller data never reads as text);
    whole for a confirmation, which a person approves."""
    return render(text, values, whole=whole) if values else text


def _guarded(
    question: WorkQuestion, guard: Guard, text: str, values: Mapping[str, Any] | None, not_secret: bool
) -> WorkQuestion:
    """The one form check (`askback.core.guarding.guard_form`): declared not secret, the author's `text` is
    passed and only the values it shows are read; else the question as it is sent."""
    shown = [plain(values[n]) for n in template_fields(text) if n in values] if values and not_secret else []
    found = guard_form(
        guard, question.schema, message=question.message, not_secret=not_secret, caller_values=shown
    )
    if found:
        raise UnsafeQuestion(found.term, declared=found.declared)
    return question


def confirm_question(
    text: str, values: Mapping[str, Any] | None = None, *, guard: Guard, not_secret: bool = False
) -> WorkQuestion:
    """A yes/no on `text`; raises `UnconfirmableQuestion` when a value it shows cannot be confirmed.

    Its own words are never refused (a yes/no carries no credential), so `not_secret` changes nothing here;
    the values it shows are a caller's and always read."""
    named = {n: values[n] for n in template_fields(text) if n in values} if values else {}
    problem = unconfirmable(guard, named, {n: show(v) for n, v in named.items()})
    if problem:
        raise UnconfirmableQuestion(problem)
    message = _message(text, values, whole=True)
    prop = {"type": "boolean", "title": "Confirm", "description": message}
    return WorkQuestion("confirm", message, CONFIRM_FIELD, prop)


def choice_question(
    text: str,
    options: Sequence[Option | str | int | float | bool],
    values: Mapping[str, Any] | None = None,
    *,
    field: str = CHOICE_FIELD,
    guard: Guard,
    not_secret: bool = False,
) -> WorkQuestion:
    listed = tuple(o if isinstance(o, Option) else Option(value=o) for o in options)
    if not listed:
        raise ValueError("choose() needs at least one option")
    message = _message(text, values)
    prop = choice_schema([(o.value, o.title) for o in listed], title=None, description=None)
    return _guarded(WorkQuestion("choose", message, field, prop, options=listed), guard, text, values, not_secret)


def value_question(
    text: str,
    kind: Any = str,
    values: Mapping[str, Any] | None = None,
    *,
    field: str = VALUE_FIELD,
    guard: Guard,
    not_secret: bool = False,
) -> WorkQuestion:
    """A question for one value of type `kind` (a Python type, `Annotated` with pydantic constraints)."""
    form = bare_form(kind)
    if form.schema is None:
        raise TypeError(f"ask() cannot put this type in a form: {form.unaskable}")
    prop = dict(form.schema)
    prop.pop("default", None)
    question = WorkQuestion("ask", _message(text, values), field, prop, form=form)
    return _guarded(question, guard, text, values, not_secret)


class SecretNotKept(Exception):
    """A secret a function asked for is never written to a record: it cannot be answered again on a re-run."""


def secret_question(text: str, values: Mapping[str, Any] | None = None, *, field: str = VALUE_FIELD) -> WorkQuestion:
    """A question for a credential, declared so by the author (`secret=True`): asked on askback's page only.

    The word check does not apply (the author said it is a secret, which is what the check looks for); the text
    is still the author's, with the values it shows rendered inert. The page collects a string, returned to the
    function as an `askback.Secret`, the same holder a Secret parameter gives it."""
    prop = {"type": "string", "writeOnly": True}  # never sent as a form: a wire asks for it with a page link
    return WorkQuestion("secret", _message(text, values), field, prop)


class SecretsUnavailable(ToolError):
    """The function asked for a secret during its work, and this call cannot reach askback's page for it."""


PAGE_FIELD_TITLE = "Secret"  # the page's field for a secret asked during the work (its text says what it is)


def secret_mark(question: WorkQuestion, name: str) -> MarkRequest:
    """The page step of a secret asked during the work: the same kind of step a Secret parameter's is."""
    return MarkRequest(name, "secret", PAGE_FIELD_TITLE, question.message)


def secret_page_question(tool: str, question: WorkQuestion, key: str, url: str) -> UrlQuestion:
    """The URL question that sends the person to the page (never the value itself, which is entered there)."""
    return UrlQuestion(key=key, message=page_message(tool, f"enter {question.message}"), url=url)


def link_answer(answer: Any) -> DeclinedAnswer | None:
    """What an answer to the URL question says: a decline or cancel (the person will not go to the page), or
    None (accepted, or unreadable: the page alone says whether the value was entered)."""
    try:
        action, _ = form_answer(answer)
    except AnswerInvalid:
        return None
    if action in ("decline", "cancel"):
        return DeclinedAnswer("cancel" if action == "cancel" else "decline")
    return None


def page_reading(status: Status, value: str | None) -> Accepted | DeclinedAnswer:
    """A finished page step read: the value entered (taken from the store once), or the person's refusal.

    `value` None for a step marked done means the entry is gone (expired, or already taken): never a replay."""
    if status == "rejected":
        return DeclinedAnswer("decline")
    if value is None:
        raise SecretGone()
    return Accepted(Secret(value))


class SecretGone(ToolError):
    """The page step was done, but the value entered is no longer in the store (expired or already taken)."""

    def __init__(self) -> None:
        super().__init__("The secret entered on the page is no longer available (it expired or was already "
                         "used). The function had already started; nothing more was done. Call the tool again.")


class QuestioningWork(Work):
    """A `Work` whose questions are built and read by this module's rules; where each is asked is the
    subclass's (a task record, a request's back-channel). One spelling of confirm, choose and ask for both.

    A `secret=True` question is asked on askback's page by a runner that can (`asks_secrets`), in its `_ask`
    like any other; the decisions before it are made here, the same for every runner: no page step on this
    runner is `SecretsUnavailable` (why: `no_page_step`), a client that cannot open a page link (it did not
    declare URL elicitation, `asks_urls`) is `MissingCapability` (-32021), and never a form either way.
    """

    tool: str
    guard: Guard
    asks_secrets: bool = False  # whether this runner asks a `secret=True` question on askback's page
    asks_urls: bool = False  # whether this call's client declared URL elicitation (a page link can be put to it)
    no_page_step: str = "this kind of call cannot ask a page step while its function runs"

    async def _ask(self, build: Callable[[], WorkQuestion]) -> Accepted | DeclinedAnswer:
        """Ask the question `build` makes (it raises `UnsafeQuestion` for one that must not be asked) and wait
        for a usable answer."""
        raise NotImplementedError

    async def confirm(self, text: str, *, not_secret: bool = False, **values: Any) -> bool:
        reading = await self._ask(lambda: confirm_question(text, values, guard=self.guard, not_secret=not_secret))
        return isinstance(reading, Accepted) and bool(reading.value)

    async def choose(
        self,
        text: str,
        options: Sequence[Option | str | int | float | bool],
        *,
        not_secret: bool = False,
        **values: Any,
    ) -> Any:
        return self._value(
            await self._ask(lambda: choice_question(text, options, values, guard=self.guard, not_secret=not_secret))
        )

    async def ask(
        self,
        text: str,
        kind: Any = str,
        *,
        field: str = "value",
        not_secret: bool = False,
        secret: bool = False,
        **values: Any,
    ) -> Any:
        if secret:
            if kind is not str:
                raise TypeError("ask(secret=True) collects a string; the function receives it as askback.Secret")
            if not self.asks_secrets:
                raise SecretsUnavailable(
                    f"{self.tool} asked for a secret during its work, which this server asks only on its own "
                    f"page, and {self.no_page_step}. The function had already started; nothing more was done. "
                    "Declaring the value as an askback.Secret parameter asks for it before the work starts."
                )
            if not self.asks_urls:
                raise MissingCapability(self.tool, [("the secret it asks during its work", "url")], started=True)
            return self._value(await self._ask(lambda: secret_question(text, values, field=field)))
        return self._value(await self._ask(
            lambda: value_question(text, kind, values, field=field, guard=self.guard, not_secret=not_secret)
        ))

    def _value(self, reading: Accepted | DeclinedAnswer) -> Any:
        if isinstance(reading, Accepted):
            return reading.value
        what = "cancelled" if reading.action == "cancel" else "declined"
        raise Declined(f"{self.tool} was {what} when asked a question. Nothing more was done.", reading.action)
