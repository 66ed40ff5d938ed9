"""Forms from a foreign server that ask for a credential, and answers that look like one: the client's guard.

A server should ask for a secret out of band, on a page of its own; a password typed into a form passes
through this client and may reach the model. So the client runs askback's guard (`askback.guard`, the same one
an askback server runs over its own forms) over every form it is sent, whoever sent it: a form whose field or
message asks for a credential is named (`secret_asks`), and an answer that looks like one (`looks_secret`) is
found. The terminal warns and asks the person; an answers file or a program is refused (`screen`) unless the
caller consented explicitly.

The guard is imported at the first form, not with the client: `import askback.client` stays light.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from askback.client.errors import SecretForm
from askback.client.questions import Field, FormQuestion, Question, cancel, decline


@dataclass(frozen=True)
class SecretAsk:
    """One form field a server asks a credential in: by the field's own words, or by the form's message."""

    key: str
    field: str
    term: str  # what is asked for, with its article: "a password", "an API key"
    by: Literal["field", "message"]


def secret_asks(question: FormQuestion) -> tuple[SecretAsk, ...]:
    """The fields of `question` that ask for a credential (empty for an ordinary form)."""
    from askback.guard import credential_term, field_credential

    schema = _requested_schema(question)
    properties: Mapping[str, Any] = schema.get("properties") or {}
    found: list[SecretAsk] = []
    for name, prop in properties.items():
        term = field_credential(str(name), prop if isinstance(prop, Mapping) else {})
        if term:
            found.append(SecretAsk(question.key, str(name), _article(term), "field"))
    # The message counts only above a field that could carry a credential: a yes/no cannot.
    carriers = [str(n) for n, p in properties.items() if not (isinstance(p, Mapping) and p.get("type") == "boolean")]
    term = credential_term(question.message) if not found and carriers and question.message else None
    if term:
        found.append(SecretAsk(question.key, carriers[0], _article(term), "message"))
    return tuple(found)


def looks_secret(f: Field, value: Any) -> str | None:
    """What `value`, typed or given for the field `f`, looks like ("an access token"), or None.

    A choice or a yes/no is the server's own value, and its default is what it sent: neither can carry a
    secret of the client's.
    """
    if f.choices or f.type == "boolean" or (f.has_default and value == f.default):
        return None
    from askback.guard import credential_value

    return credential_value(value)


def screen(asked_questions: tuple[Question, ...], answers: Mapping[str, Mapping[str, Any]], *, allowed: bool) -> None:
    """Raise `SecretForm` for the first answer that fills a credential field, or sends what looks like one,
    unless `allowed`. Its `responses` decline that form and cancel the round's other questions."""
    if allowed:
        return
    for question in asked_questions:
        answer = answers.get(question.key) or {}
        content = answer.get("content") if answer.get("action") == "accept" else None
        if not isinstance(question, FormQuestion) or not isinstance(content, Mapping) or not content:
            continue
        secret = {ask.field: ask for ask in secret_asks(question)}
        for f in question.fields:
            if f.name not in content or (f.has_default and content[f.name] == f.default):
                continue
            ask = secret.get(f.name)
            if ask is not None:
                raise SecretForm(question.key, f.name, ask.term, ask.by, _declined(asked_questions, question.key))
            label = looks_secret(f, content[f.name])
            if label:
                raise SecretForm(question.key, f.name, label, "value", _declined(asked_questions, question.key))


def warning_lines(asks: tuple[SecretAsk, ...]) -> list[str]:
    """What the terminal says before a person types into such a form: each field, and why it matters."""
    lines = [
        f"⚠ this server asks{' in its message' if ask.by == 'message' else ''} for {ask.term} in a form: "
        f"field {ask.field!r}."
        for ask in asks
    ]
    term = asks[0].term
    lines.append(
        f"  {term[0].upper()}{term[1:]} typed here passes through this client and may reach the model; "
        "a server should ask for it on its own page."
    )
    return lines


def _declined(questions: tuple[Question, ...], key: str) -> dict[str, dict[str, Any]]:
    """What the server is told instead: no to that form; the round's other questions dismissed (the call stops)."""
    return {q.key: decline() if q.key == key else cancel() for q in questions}


def _requested_schema(question: FormQuestion) -> Mapping[str, Any]:
    """The form's schema as the server sent it (every word the guard reads), else rebuilt from the fields."""
    params = question.request.get("params") if isinstance(question.request, Mapping) else None
    schema = params.get("requestedSchema") if isinstance(params, Mapping) else None
    if isinstance(schema, Mapping) and isinstance(schema.get("properties"), Mapping):
        return schema
    properties = {
        f.name: {k: v for k, v in (("type", f.type), ("title", f.title), ("description", f.description),
                                   ("format", f.format)) if v is not None}
        for f in question.fields
    }
    return {"type": "object", "properties": properties}


def _article(term: str) -> str:
    return f"{'an' if term[:1].lower() in 'aeiou' else 'a'} {term}"
