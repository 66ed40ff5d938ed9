"""One round of an adopted tool call, decided without I/O: go on, ask, leave it to the SDK, or refuse.

Every field the arguments lack or that the schema does not accept is asked in ONE form, each field with its
schema and, for a value that was not accepted, the reason. A field that is a credential (named in `secret=`,
declared `writeOnly` or `format: password`, or read as one by the secret guard) is never asked in a form: it
is entered on askback's page (a URL question), once the form's fields are accepted, where the server serves
those pages; elsewhere it is refused with what the caller can do. A choice (`choices=`) is asked among the
options its provider gave, once the values the provider needs are accepted. Once every value is accepted, a
tool with a `confirm=` text asks a person to confirm those exact values: in a form, or approved on askback's
page (`out_of_band=`). A page step's outcome is the page's to record: the decision reads it from the step's
mark (`NeedMark` first asks the adopter to look it up, minting its link the first time).

When asking cannot be done, the SDK answers as it would without askback: a client that declared no form
elicitation, or a field no flat form can carry (a nested object), reaches the SDK's own validation error
unchanged. A refusal of its own is only made where nothing but asking could complete the call (`-32021`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from string import Formatter
from typing import Any

from askback.adoption.options import ToolOptions
from askback.core.confirming import unconfirmable
from askback.core.errors import MissingCapability
from askback.core.forms import choice_schema, schema_field
from askback.core.guarding import declared_secret, guard_form
from askback.core.markers import Option
from askback.core.marks import Mark, MarkRequest, page_message
from askback.core.outcomes import Refusal
from askback.core.questions import FormQuestion, MissingValue, UrlQuestion, canonical_json, short_digest
from askback.core.schemacheck import MISSING, problems
from askback.core.text import render, show
from askback.guard import GUARD
from askback.types import Capabilities

PREFIX = "askback/adopt/"  # the keys of this module's questions; any other input response is the SDK's own
VALUES_KEY = PREFIX + "values"
CONFIRM_KEY = PREFIX + "confirm"
APPROVAL_KEY = PREFIX + "approval"
APPROVAL_STEP = "approve/"  # the page steps of approvals: one per set of values (`approve/DIGEST`)


def approval_asked(marks: Mapping[str, Mark]) -> bool:
    """Whether these marks (a round's, as `decide` looked them up) include an approval's page step: its page
    then proposed the action on the flow's receipt."""
    return any(name.startswith(APPROVAL_STEP) for name in marks)


def ours(key: str) -> bool:
    """Whether an input response answers a question of this module (else a question of the server's own)."""
    return key.startswith(PREFIX)


def secret_step(name: str) -> str:
    """The name of the page step that takes the credential `name`."""
    return f"secret/{name}"


@dataclass(frozen=True, slots=True)
class Go:
    """Every value is accepted (and confirmed, where asked): the call goes on with these arguments, and the
    credentials `secrets` entered on the page (taken from the store, once, as the call goes on)."""

    arguments: dict[str, Any]
    secrets: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AskValues:
    question: FormQuestion
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AskConfirm:
    question: FormQuestion
    digest: str  # of the values shown


@dataclass(frozen=True, slots=True)
class NeedMark:
    """A page step whose mark is not known yet: look it up (minting its link the first time), decide again."""

    request: MarkRequest


@dataclass(frozen=True, slots=True)
class AskPage:
    """A page step not done yet: the URL question that sends the person there (the same link every round)."""

    question: UrlQuestion
    step: str


@dataclass(frozen=True, slots=True)
class ToSdk:
    """Asking cannot help here: the SDK handles the call exactly as the client sent it."""


@dataclass(frozen=True, slots=True)
class Refuse:
    refusal: Refusal

    @property
    def capability(self) -> MissingCapability | None:
        return self.refusal.capability


Decision = Go | AskValues | AskConfirm | AskPage | NeedMark | ToSdk | Refuse


@dataclass(frozen=True, slots=True)
class Tool:
    """What the adopter knows of one tool: its name, its input schema as listed, and its options."""

    name: str
    schema: Mapping[str, Any]
    options: ToolOptions = field(default_factory=ToolOptions)
    has_output_schema: bool = False

    def property(self, name: str) -> dict[str, Any] | None:
        props = self.schema.get("properties")
        node = props.get(name) if isinstance(props, Mapping) else None
        return node if isinstance(node, dict) else None

    def form_field(self, name: str) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """The flat form field of a parameter (or None), and the choices that map back to numbers."""
        node = self.property(name)
        if node is None:
            return None, {}
        defs = self.schema.get("$defs")
        flat, _, choices = schema_field(node, defs if isinstance(defs, dict) else {})
        return flat, choices


def values_digest(tool: str, arguments: Mapping[str, Any]) -> str:
    return short_digest(canonical_json(["confirm", tool, dict(arguments)]), 16)


def decide(
    tool: Tool,
    arguments: Mapping[str, Any],
    caps: Capabilities,
    *,
    confirmed: str | None = None,
    notes: Mapping[str, str] | None = None,
    options: Mapping[str, Sequence[Option]] | None = None,
    marks: Mapping[str, Mark] | None = None,
    pages: bool = False,
) -> Decision:
    """The next step of the call, given the arguments merged with the answers so far.

    `notes`: why an answer of the last round was refused (a credential pasted into a field), by field; shown
    with the field when it is asked again. `options`: the options of each choice looked up so far (a choice
    not in it waits for the values its provider needs, which are then still being asked). `marks`: the page
    steps looked up so far, by step name; `pages`: whether this server serves askback's pages.
    """
    options = options or {}
    marks = marks or {}
    found = problems(tool.schema, arguments)
    # A credential entered on the page stands in for the argument: it is taken from the store as the call goes on.
    entered = tuple(n for n in found if _status(marks, secret_step(n)) == "done")
    found = {n: why for n, why in found.items() if n not in entered}
    for name, offered in options.items():
        if not offered:
            return Refuse(Refusal("no_options", f"{tool.name} was not run: there is nothing to choose from for "
                                                f"{name}."))
        if name not in found and name in arguments and arguments[name] not in [o.value for o in offered]:
            found[name] = "it must be one of the choices offered"
    waiting = [n for n in tool.options.choices if n not in options]
    if any(n not in waiting for n in found):
        found = {n: why for n, why in found.items() if n not in waiting}
    if found:
        # LastRound in the order the tool declares its parameters, not the order the validator met them.
        order = {name: i for i, name in enumerate(tool.schema.get("properties") or ())}
        found = dict(sorted(found.items(), key=lambda item: order.get(item[0], len(order))))
        return _ask_values(tool, found, caps, {n: why for n, why in (notes or {}).items() if n in found}, options,
                           marks, pages)
    template = tool.options.confirm
    if template is not None:
        if tool.options.approved_on_page(arguments):
            step = _approval(tool, template, arguments, caps, options, marks, pages)
            if step is not None:
                return step
        elif confirmed != values_digest(tool.name, arguments):
            return _ask_confirm(tool, template, arguments, caps, options)
    return Go(dict(arguments), entered)


def _status(marks: Mapping[str, Mark], step: str) -> str | None:
    mark = marks.get(step)
    return mark.status if mark is not None else None


def _ask_values(
    tool: Tool,
    found: Mapping[str, str],
    caps: Capabilities,
    notes: Mapping[str, str],
    options: Mapping[str, Sequence[Option]],
    marks: Mapping[str, Mark],
    pages: bool,
) -> Decision:
    secrets: list[str] = []
    fields: dict[str, dict[str, Any]] = {}
    for name in found:
        flat, _ = tool.form_field(name)
        node = tool.property(name) or {}
        if name in options:
            title, description = node.get("title"), node.get("description")
            flat = choice_schema([(o.value, o.title) for o in options[name]],
                                 title=title if isinstance(title, str) else None,
                                 description=description if isinstance(description, str) else None)
        if name in tool.options.secret or declared_secret(node) or (flat is not None and declared_secret(flat)):
            secrets.append(name)
            continue
        if flat is None:
            return ToSdk()  # no flat form carries it: the SDK's own error names it
        if guard_form(GUARD, {"properties": {name: flat}}, names=(name,)) is not None:
            secrets.append(name)  # it reads as a credential: the guard's word stands, it is not asked in a form
            continue
        fields[name] = flat
    while True:
        if secrets and not (pages and caps.url):
            return _refuse_secrets(tool, secrets, [n for n in found if n not in secrets], caps, pages)
        if not fields:
            return _secret_step(tool, secrets[0], marks)  # the form's fields first, then each credential's page
        if not caps.form:
            return ToSdk()
        message = _values_message(tool.name, fields, {n: why for n, why in found.items() if n in fields})
        schema = {"type": "object", "properties": fields, "required": list(fields)}
        finding = guard_form(GUARD, schema, message=message)
        if finding is None:
            break
        # The form as a whole reads as asking for a credential: that field is one, entered on the page if at all.
        secrets.append(finding.field)
        fields = {n: f for n, f in fields.items() if n != finding.field}
    # Why an answer was not taken is askback's own word (it may name the credential it saw), so it rides as the
    # question's note: shown with the message, never read by the guard as the form asking for one.
    note = " ".join(f"The answer for {n} was not taken: {why}." for n, why in notes.items()) or None
    question = FormQuestion(VALUES_KEY, message, schema, note=note)
    return AskValues(question, tuple(fields))


def _secret_step(tool: Tool, name: str, marks: Mapping[str, Mark]) -> Decision:
    """The page step that takes the credential `name`: looked up, asked (a URL question), or refused there."""
    step = secret_step(name)
    node = tool.property(name) or {}
    title = node.get("title") if isinstance(node.get("title"), str) else name
    description = node.get("description")
    why = description if isinstance(description, str) and description else f"the {title} for {tool.name}"
    mark = marks.get(step)
    if mark is None:
        return NeedMark(MarkRequest(step, "secret", str(title), why))
    if mark.status == "rejected":
        return Refuse(Refusal("declined", f"{tool.name} was not run: nothing was entered for {name} on the page."))
    return AskPage(UrlQuestion(PREFIX + step, page_message(tool.name, f"enter {why}"), mark.url), step)


def _values_message(tool: str, fields: Mapping[str, Mapping[str, Any]], found: Mapping[str, str]) -> str:
    def title(name: str) -> str:
        text = fields[name].get("title")
        # pydantic titles every field after its name ("Replicas"); only a title of the author's own says more
        if not isinstance(text, str) or text.lower().replace(" ", "_") == name.lower():
            return name
        return f"{text} ({name})"

    missing = [title(n) for n, why in found.items() if why == MISSING]
    refused = [(title(n), why) for n, why in found.items() if why != MISSING]
    lines = [f"{tool} needs these values before it can run:"]
    if missing:
        lines.append(f"Not given: {', '.join(missing)}.")
    for name, why in refused:
        lines.append(f"The value given for {name} was not accepted: {why}.")
    return "\n".join(lines)


def _refuse_secrets(tool: Tool, secrets: list[str], others: list[str], caps: Capabilities, pages: bool) -> Refuse:
    missing = tuple(
        MissingValue(n, tool.property(n) or {}, "a credential is entered out of band only", as_argument=False)
        for n in secrets
    )
    if not caps.url:
        error = MissingCapability(
            tool.name,
            [(f"the credential {n}", "url") for n in secrets],
            arguments=others,
            missing=[m.describe() for m in missing],
        )
        return Refuse(Refusal.missing_capability(error, missing))
    assert not pages, "a server with pages asks a credential there"
    names = ", ".join(secrets)
    message = (
        f"{tool.name} needs {names}, a credential, and a credential is never asked in a form (it would pass "
        "through the client and the model's context). It is entered out of band only, on a page the server "
        "serves, and this server has no such page set up, so nothing was done."
    )
    return Refuse(Refusal("cannot_ask", message, missing))


def _ask_confirm(
    tool: Tool,
    template: str,
    arguments: Mapping[str, Any],
    caps: Capabilities,
    options: Mapping[str, Sequence[Option]],
) -> Decision:
    digest = values_digest(tool.name, arguments)
    if not caps.form:
        error = MissingCapability(tool.name, [("its confirmation", "form")])
        return Refuse(Refusal.missing_capability(error, ()))
    shown = _shown(tool, template, arguments, options)
    if isinstance(shown, Refuse):
        return shown
    schema = {
        "type": "object",
        "properties": {"confirm": {"type": "boolean", "title": "Confirm", "description": "Go ahead with these values"}},
        "required": ["confirm"],
    }
    return AskConfirm(FormQuestion(CONFIRM_KEY, shown[0], schema, binding=digest), digest)


def _approval(
    tool: Tool,
    template: str,
    arguments: Mapping[str, Any],
    caps: Capabilities,
    options: Mapping[str, Sequence[Option]],
    marks: Mapping[str, Mark],
    pages: bool,
) -> Decision | None:
    """The approval of these final values on askback's page: None once it is given, else the step to take."""
    if not pages:
        return Refuse(Refusal("cannot_ask", f"{tool.name} needs an approval given on a page the server serves, and "
                                            "this server serves no such page, so nothing was done."))
    if not caps.url:
        error = MissingCapability(tool.name, [("its approval on a page", "url")])
        return Refuse(Refusal.missing_capability(error, ()))
    # One step per set of values: an approval holds for exactly the values the page showed.
    step = APPROVAL_STEP + values_digest(tool.name, arguments)
    mark = marks.get(step)
    if mark is None:
        shown = _shown(tool, template, arguments, options)
        if isinstance(shown, Refuse):
            return shown
        text, summary = shown
        return NeedMark(MarkRequest(step, "approval", "Approval", text, summary,
                                    approve_with=tool.options.approve_with))
    if mark.status == "done":
        return None
    if mark.status == "rejected":
        return Refuse(Refusal("declined", f"{tool.name} was rejected on the approval page. Nothing was done."))
    return AskPage(UrlQuestion(APPROVAL_KEY, page_message(tool.name, "approve or reject this action"), mark.url),
                   step)


def _shown(
    tool: Tool, template: str, arguments: Mapping[str, Any], options: Mapping[str, Sequence[Option]]
) -> tuple[str, tuple[tuple[str, str], ...]] | Refuse:
    """The confirmation's text with the values whole and inert, and the values it shows; or why it cannot be."""
    named = {part[1].split(".")[0].split("[")[0] for part in Formatter().parse(template) if part[1]}
    shown = {n: show(arguments[n]) for n in named if n in arguments}
    why = unconfirmable(GUARD, arguments, shown)
    if why is not None:
        return Refuse(Refusal("unconfirmable", f"{tool.name} was not run: {why}."))
    titles = {n: {str(o.value): o.title for o in offered if o.title} for n, offered in options.items()}
    order = list(tool.schema.get("properties") or ())
    summary = tuple(sorted(shown.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order)))
    return render(template, arguments, titles, whole=True), summary
