"""What a server asks, as typed values: forms and their fields, URL steps, sampling, roots; and the answers.

A server's `inputRequests` (or a handshake-era server's back-channel request) is parsed once into these
shapes. Answerers read them; `Field.check` and `Field.parse` validate a value locally with the rules the form's
schema states, so a person is asked again at once instead of after a round trip.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from askback.client.errors import InvalidAnswer, ProtocolError

_MISSING: Any = object()
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
# The words that mean yes and no, typed in a terminal or written as text in an answers file: one table for both.
_TRUE = frozenset({"y", "yes", "true", "1", "on"})
_FALSE = frozenset({"n", "no", "false", "0", "off"})


def _truth(text: str) -> bool | None:
    """True or False for a word of `_TRUE` / `_FALSE` (any case, spaces around), else None."""
    word = text.strip().lower()
    return True if word in _TRUE else False if word in _FALSE else None


@dataclass(frozen=True)
class Choice:
    """One option of a single- or multi-select field."""

    value: Any
    title: str | None = None

    @property
    def label(self) -> str:
        return self.title if self.title is not None else str(self.value)


@dataclass(frozen=True)
class Field:
    """One property of a form's `requestedSchema` (MCP forms are flat: primitives and choices only)."""

    name: str
    type: str
    required: bool = False
    title: str | None = None
    description: str | None = None
    default: Any = _MISSING
    choices: tuple[Choice, ...] = ()
    multiple: bool = False
    format: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    min_items: int | None = None
    max_items: int | None = None

    @property
    def label(self) -> str:
        return self.title or self.name

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING

    @classmethod
    def from_schema(cls, name: str, schema: Mapping[str, Any], *, required: bool) -> Field:
        if not isinstance(schema, Mapping):
            raise ProtocolError(f"form field {name!r} has no schema object")
        kind = schema.get("type")
        multiple = kind == "array"
        source = schema.get("items", {}) if multiple else schema
        choices = _choices(source if isinstance(source, Mapping) else {})
        if not multiple:
            choices = choices or _choices(schema)
        return cls(
            name=name,
            type=kind if isinstance(kind, str) else "string",
            required=required,
            title=_text(schema.get("title")),
            description=_text(schema.get("description")),
            default=schema.get("default", _MISSING),
            choices=choices,
            multiple=multiple,
            format=_text(schema.get("format")),
            min_length=_int(schema.get("minLength")),
            max_length=_int(schema.get("maxLength")),
            minimum=_number(schema.get("minimum")),
            maximum=_number(schema.get("maximum")),
            min_items=_int(schema.get("minItems")),
            max_items=_int(schema.get("maxItems")),
        )

    # -- what a person is told ---------------------------------------------------------------------------
    def constraints(self) -> list[str]:
        """The rules a value must meet, in words (empty when anything of the type goes)."""
        rules: list[str] = []
        if self.choices:
            if self.multiple:
                rules.append(
                    "choose any number"
                    if self.min_items is None and self.max_items is None
                    else "choose " + _range_words(self.min_items, self.max_items, "option")
                )
            else:
                rules.append("choose one")
            return rules
        if self.type == "boolean":
            return ["yes or no"]
        if self.type in ("integer", "number"):
            rules.append("a whole number" if self.type == "integer" else "a number")
            if self.minimum is not None:
                rules.append(f"at least {_show_number(self.minimum)}")
            if self.maximum is not None:
                rules.append(f"at most {_show_number(self.maximum)}")
            return rules
        rules.append(
            {
                "email": "an email address",
                "uri": "a URL",
                "date": "a date (YYYY-MM-DD)",
                "date-time": "a date and time (YYYY-MM-DDTHH:MM[:SS][+HH:MM])",
            }.get(self.format or "", "text")
        )
        if self.min_length is not None or self.max_length is not None:
            rules.append(_range_words(self.min_length, self.max_length, "character"))
        return rules

    # -- validation -------------------------------------------------------------------------------------
    def check(self, value: Any) -> Any:
        """Validate a JSON value for this field; return it normalised (a choice named by title becomes its value).

        Raises ValueError with a reason a person can act on.
        """
        if self.multiple:
            if not isinstance(value, list | tuple):
                raise ValueError("expected a list of options")
            picked = [self._choice(v) for v in value]
            if len(set(map(_key, picked))) != len(picked):
                raise ValueError("an option is chosen twice")
            if self.min_items is not None and len(picked) < self.min_items:
                raise ValueError(f"choose at least {self.min_items}")
            if self.max_items is not None and len(picked) > self.max_items:
                raise ValueError(f"choose at most {self.max_items}")
            return picked
        if self.choices:
            return self._choice(value)
        if self.type == "boolean":
            # A person's word is taken as the terminal takes it; what is sent is always the JSON boolean.
            truth = _truth(value) if isinstance(value, str) else value if isinstance(value, bool) else None
            if truth is None:
                raise ValueError("expected yes or no (true or false)")
            return truth
        if self.type in ("integer", "number"):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"expected {'a whole number' if self.type == 'integer' else 'a number'}")
            if self.type == "integer":
                if isinstance(value, float) and not value.is_integer():
                    raise ValueError("expected a whole number")
                value = int(value)
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"must be at least {_show_number(self.minimum)}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"must be at most {_show_number(self.maximum)}")
            return value
        if not isinstance(value, str):
            raise ValueError("expected text")
        if self.min_length is not None and len(value) < self.min_length:
            raise ValueError(f"must be at least {self.min_length} characters long (this one is {len(value)})")
        if self.max_length is not None and len(value) > self.max_length:
            raise ValueError(f"must be at most {self.max_length} characters long (this one is {len(value)})")
        _check_format(self.format, value)
        return value

    def parse(self, text: str) -> Any:
        """A value typed by a person, as this field's JSON value (validated). Raises ValueError."""
        text = text.strip()
        if self.multiple:
            parts = [p.strip() for p in re.split(r"[,\s]+", text) if p.strip()] if text else []
            return self.check([self._typed_choice(p) for p in parts])
        if self.choices:
            return self.check(self._typed_choice(text))
        if self.type == "boolean":
            truth = _truth(text)
            if truth is None:
                raise ValueError("answer yes or no")
            return truth
        if self.type in ("integer", "number"):
            try:
                number: int | float = int(text)
            except ValueError:
                try:
                    number = float(text)
                except ValueError:
                    raise ValueError(f"{text!r} is not a number") from None
            return self.check(number)
        return self.check(text)

    def show(self, value: Any) -> str:
        """A value as a person reads it (choices by their titles)."""
        if self.multiple and isinstance(value, list):
            return ", ".join(self.show_one(v) for v in value) or "(none)"
        return self.show_one(value)

    def show_one(self, value: Any) -> str:
        for choice in self.choices:
            if _key(choice.value) == _key(value):
                return choice.label
        if isinstance(value, bool):
            return "yes" if value else "no"
        return value if isinstance(value, str) else json.dumps(value)

    def _typed_choice(self, text: str) -> Any:
        """A typed choice: its number in the list, its value or title, or the start of one (case-insensitive)."""
        if text.isdigit() and 1 <= int(text) <= len(self.choices):
            return self.choices[int(text) - 1].value
        return text

    def _choice(self, value: Any) -> Any:
        for choice in self.choices:
            if _key(choice.value) == _key(value):
                return choice.value
        if isinstance(value, str) and value.strip():
            folded = value.strip().casefold()
            names = [(c, str(c.value).casefold(), (c.title or "").casefold()) for c in self.choices]
            exact = [c for c, v, t in names if folded in (v, t)]
            prefixed = [c for c, v, t in names if v.startswith(folded) or t.startswith(folded)]
            for matches in (exact, prefixed):  # the name, else the start of just one name
                if len(matches) == 1:
                    return matches[0].value
        options = ", ".join(c.label for c in self.choices)
        raise ValueError(f"{value!r} is not one of the options ({options})")


@dataclass(frozen=True)
class FormQuestion:
    """`elicitation/create` in form mode: a message and a flat form."""

    key: str
    message: str
    fields: tuple[Field, ...]
    request: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    kind: Literal["form"] = "form"

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    def content(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Validate a whole form's values; defaults fill omitted fields. Raises InvalidAnswer naming the field."""
        unknown = [name for name in values if self.field(name) is None]
        if unknown:
            known = ", ".join(f.name for f in self.fields)
            raise InvalidAnswer(self.key, unknown[0], f"this form has no such field (its fields: {known})")
        content: dict[str, Any] = {}
        for f in self.fields:
            if f.name in values and values[f.name] is not None:
                try:
                    content[f.name] = f.check(values[f.name])
                except ValueError as exc:
                    raise InvalidAnswer(self.key, f.name, str(exc)) from None
            elif f.has_default:
                content[f.name] = f.default
            elif f.required:
                raise InvalidAnswer(self.key, f.name, "a value is required")
        return content


@dataclass(frozen=True)
class UrlQuestion:
    """`elicitation/create` in URL mode: the person is sent to a page; the answer only says they agreed to go."""

    key: str
    message: str
    url: str
    elicitation_id: str | None = None
    request: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    kind: Literal["url"] = "url"

    @property
    def host(self) -> str:
        return urlsplit(self.url).hostname or "(no host)"


@dataclass(frozen=True)
class SamplingQuestion:
    """`sampling/createMessage`: the server asks the client's model."""

    key: str
    messages: tuple[tuple[str, str], ...]
    max_tokens: int | None = None
    system_prompt: str | None = None
    request: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    kind: Literal["sampling"] = "sampling"

    @property
    def prompt(self) -> str:
        """The messages' text, one per paragraph (the last user message is usually the question)."""
        return "\n\n".join(text for _, text in self.messages)


@dataclass(frozen=True)
class RootsQuestion:
    """`roots/list`: the server asks which directories or files the client exposes."""

    key: str
    request: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    kind: Literal["roots"] = "roots"


Question = FormQuestion | UrlQuestion | SamplingQuestion | RootsQuestion


def parse_question(key: str, request: Any) -> Question:
    """One entry of `inputRequests` (`{"method": ..., "params": ...}`) as a typed question."""
    if not isinstance(request, Mapping):
        raise ProtocolError(f"inputRequests[{key!r}] is not an object")
    method = request.get("method")
    params = request.get("params") or {}
    if not isinstance(params, Mapping):
        raise ProtocolError(f"inputRequests[{key!r}].params is not an object")
    if method == "elicitation/create":
        message = _text(params.get("message")) or ""
        if params.get("mode", "form") == "url":
            url = params.get("url")
            if not isinstance(url, str) or not url:
                raise ProtocolError(f"inputRequests[{key!r}] is a URL elicitation without a URL")
            return UrlQuestion(key, message, url, _text(params.get("elicitationId")), request)
        schema = params.get("requestedSchema") or {}
        if not isinstance(schema, Mapping) or not isinstance(schema.get("properties", {}), Mapping):
            raise ProtocolError(f"inputRequests[{key!r}] has no usable requestedSchema")
        required = schema.get("required") or []
        fields = tuple(
            Field.from_schema(str(name), prop, required=name in required)
            for name, prop in schema.get("properties", {}).items()
        )
        return FormQuestion(key, message, fields, request)
    if method == "sampling/createMessage":
        messages = []
        for m in params.get("messages") or []:
            if isinstance(m, Mapping):
                messages.append((str(m.get("role", "user")), _content_text(m.get("content"))))
        return SamplingQuestion(
            key, tuple(messages), _int(params.get("maxTokens")), _text(params.get("systemPrompt")), request
        )
    if method == "roots/list":
        return RootsQuestion(key, request)
    raise ProtocolError(f"inputRequests[{key!r}] asks for {method!r}, which this client does not know")


def parse_questions(input_requests: Mapping[str, Any]) -> tuple[Question, ...]:
    return tuple(parse_question(str(key), request) for key, request in input_requests.items())


# -- answers on the wire -------------------------------------------------------------------------------------
def accept(content: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """An elicitation accepted (with the form's content; none for a URL step)."""
    return {"action": "accept"} if content is None else {"action": "accept", "content": dict(content)}


def decline() -> dict[str, Any]:
    """The person said no."""
    return {"action": "decline"}


def cancel() -> dict[str, Any]:
    """The person dismissed the question without choosing."""
    return {"action": "cancel"}


def sampled(text: str, *, model: str = "askback-client") -> dict[str, Any]:
    """A sampling answer: the model's (or person's) reply text."""
    return {"role": "assistant", "content": {"type": "text", "text": text}, "model": model, "stopReason": "endTurn"}


def roots(items: Sequence[str | Path | Mapping[str, Any]]) -> dict[str, Any]:
    """A roots answer from URIs, paths (made `file://` URIs) or ready `{"uri": ..., "name": ...}` objects."""
    out: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, Mapping):
            out.append(dict(item))
        elif isinstance(item, Path) or "://" not in item:
            out.append({"uri": Path(item).expanduser().resolve().as_uri()})
        else:
            out.append({"uri": item})
    return {"roots": out}


def response_for(question: Question, value: Any) -> dict[str, Any]:
    """Turn a value an answerer produced into the wire answer for `question`, validating it locally.

    - form: a mapping of field → value, a bare value for a one-field form, or a whole answer
      (`{"action": "accept", "content": {...}}`, `{"action": "decline"}`, `{"action": "cancel"}`);
    - URL: `True`/`"accept"` (the person agreed and did the step), `False` (declined), or a whole answer;
    - sampling: the reply text, or a whole `CreateMessageResult` object;
    - roots: a list of URIs or paths, or a whole `{"roots": [...]}` object.
    Raises InvalidAnswer naming the question (and field).
    """
    if isinstance(question, FormQuestion):
        if isinstance(value, Mapping) and "action" in value:
            action = value["action"]
            if action in ("decline", "cancel"):
                return {"action": action}
            if action != "accept":
                raise InvalidAnswer(question.key, None, f"unknown action {action!r} (accept, decline or cancel)")
            return accept(question.content(value.get("content") or {}))
        if isinstance(value, Mapping):
            return accept(question.content(value))
        if len(question.fields) != 1:
            names = ", ".join(f.name for f in question.fields)
            raise InvalidAnswer(question.key, None, f"this form has several fields ({names}): give an object")
        return accept(question.content({question.fields[0].name: value}))
    if isinstance(question, UrlQuestion):
        if isinstance(value, Mapping) and value.get("action") in ("accept", "decline", "cancel"):
            return {"action": value["action"]}
        if value is True or value == "accept":
            return accept()
        if value is False or value == "decline":
            return decline()
        if value == "cancel":
            return cancel()
        raise InvalidAnswer(question.key, None, "a URL step is answered with true (done), false or 'cancel'")
    if isinstance(question, SamplingQuestion):
        if isinstance(value, str):
            return sampled(value)
        if isinstance(value, Mapping) and "content" in value:
            return {"role": "assistant", "model": "askback-client", **value}
        raise InvalidAnswer(question.key, None, "a sampling question is answered with text")
    if isinstance(value, Mapping) and isinstance(value.get("roots"), list):
        return {"roots": list(value["roots"])}
    if isinstance(value, list | tuple):
        return roots(value)
    raise InvalidAnswer(question.key, None, "a roots question is answered with a list of URIs or paths")


# -- helpers -----------------------------------------------------------------------------------------------
def _choices(schema: Mapping[str, Any]) -> tuple[Choice, ...]:
    for key in ("oneOf", "anyOf"):
        options = schema.get(key)
        if isinstance(options, list) and all(isinstance(o, Mapping) and "const" in o for o in options):
            return tuple(Choice(o["const"], _text(o.get("title"))) for o in options)
    enum = schema.get("enum")
    if isinstance(enum, list):
        names = schema.get("enumNames")
        titles = names if isinstance(names, list) and len(names) == len(enum) else [None] * len(enum)
        return tuple(Choice(v, _text(t)) for v, t in zip(enum, titles, strict=True))
    return ()


def _check_format(fmt: str | None, value: str) -> None:
    if fmt == "email" and not _EMAIL.match(value):
        raise ValueError("is not an email address")
    if fmt == "uri":
        parts = urlsplit(value)
        if not parts.scheme or not (parts.netloc or parts.path):
            raise ValueError("is not a URL (it needs a scheme, such as https://)")
    if fmt == "date":
        try:
            date.fromisoformat(value)
        except ValueError:
            raise ValueError("is not a date in the form YYYY-MM-DD") from None
    if fmt == "date-time":
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise ValueError("is not a date and time in the form YYYY-MM-DDTHH:MM:SS") from None


def _range_words(low: int | None, high: int | None, unit: str) -> str:
    if low is not None and high is not None:
        return f"{low}–{high} {unit}s" if low != high else f"exactly {low} {unit}{'s' if low != 1 else ''}"
    if low is not None:
        return f"at least {low} {unit}{'s' if low != 1 else ''}"
    return f"at most {high} {unit}{'s' if high != 1 else ''}"


def _show_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _content_text(content: Any) -> str:
    if isinstance(content, Mapping):
        return str(content.get("text", "")) if content.get("type", "text") == "text" else f"[{content.get('type')}]"
    if isinstance(content, list):
        return "\n".join(_content_text(c) for c in content)
    return ""


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _number(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None
