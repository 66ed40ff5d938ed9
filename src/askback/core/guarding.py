"""What the core needs of the secret guard, and the one rule by which a form is checked before it is sent.

The core never imports the guard: the App hands it one (the guard package's `GUARD`) through the Runtime and the
registration, so the guard stays a package of its own that the client can load without the server.

A value goes out of band because its declaration says so (`askback.Secret`, pydantic `SecretStr`, a schema's
`writeOnly` or `format: password`): that is the contract, and `declared_secret` reads it here, in the core.
The guard's word check is the safety net behind it, for an author who forgot to declare one. An author can
answer the net for one question (`not_secret=True`): the words are then the author's own, and only the
declarations (which no override lifts) and a caller's values shown in the text are still checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class Guard(Protocol):
    """The name guard, as the core calls it: each method names the credential a text asks for, or None."""

    def field_credential(self, name: str, schema: Mapping[str, Any]) -> str | None:
        """The credential a form field (its name, title, description) asks for."""
        ...

    def credential_term(self, text: str | None) -> str | None:
        """The credential a free text (a question, a label) names."""
        ...

    def credential_request(self, text: str | None) -> str | None:
        """The credential a caller's value asks a person to give ("and type your PIN")."""
        ...


@dataclass(frozen=True, slots=True)
class Finding:
    """Why a form cannot be sent: the field it would fill, the credential read, and whether it was declared."""

    field: str
    term: str
    declared: bool = False  # the schema itself declares a secret: no override lifts that


def declared_secret(schema: Mapping[str, Any]) -> bool:
    """Whether a field's schema declares a secret: `writeOnly` or `format: password` (pydantic's `SecretStr`)."""
    return schema.get("writeOnly") is True or schema.get("format") == "password"


def guard_form(
    guard: Guard,
    schema: Mapping[str, Any],
    *,
    message: str | None = None,
    names: Iterable[str | None] = (),
    not_secret: bool = False,
    caller_values: Iterable[str] = (),
) -> Finding | None:
    """What a form (its `requestedSchema` and message) would ask for that must go out of band, or None.

    The one check of every form askback sends: at registration, at call time, for a question asked during the
    work, and in the tests. Rules, in order:

    - a field whose schema declares a secret is refused, whatever else is said (an override included);
    - a yes/no field cannot carry a credential, so a form of booleans only is never refused for its words;
    - otherwise each field's name, title and description, the form's `message` and the extra `names` (a
      parameter's own name) are read by the guard, unless the author declared the question `not_secret`;
    - `caller_values` (a caller's words shown in the author's text) are read in every case: an author's
      override covers the author's words, never a caller's.
    """
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        return None
    carriers: list[str] = []
    for name, prop in properties.items():
        field_schema: Mapping[str, Any] = prop if isinstance(prop, Mapping) else {}
        if declared_secret(field_schema):
            return Finding(str(name), "password", declared=True)
        if field_schema.get("type") == "boolean":
            continue
        carriers.append(str(name))
        if not not_secret:
            term = guard.field_credential(str(name), field_schema)
            if term:
                return Finding(str(name), term)
    if not carriers:
        return None
    texts: list[str | None] = [] if not_secret else [*names, message]
    for text in texts:
        term = guard.credential_term(text)
        if term:
            return Finding(carriers[0], term)
    for value in caller_values:
        term = guard.credential_term(value)
        if term:
            return Finding(carriers[0], term)
    return None
