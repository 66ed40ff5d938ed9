"""What askback asks a client: form, sampling and roots questions, each with a stable fingerprint.

A fingerprint identifies the question itself (its kind, text, schema, options), not the round it was asked
in. The sealed state records the fingerprint of every question asked, so an answer is only accepted for the
exact question it answers; a note explaining why a previous answer was refused is not part of it.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

from askback.core import jsoncodec


def canonical_json(value: Any) -> bytes:
    """Deterministic compact JSON: sorted keys, no whitespace, UTF-8."""
    return jsoncodec.canonical(value).encode()


def short_digest(data: bytes, size: int = 9) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()[:size]).decode().rstrip("=")


@dataclass(frozen=True, slots=True)
class FormQuestion:
    """An `elicitation/create` form with one or more flat fields."""

    key: str
    message: str
    schema: dict[str, Any]
    note: str | None = None
    binding: Any = None  # extra content the answer is bound to (a confirmation's values); never sent
    # The question's identity: kind, key, text, schema and binding; not the note (why it is asked again).
    fingerprint: str = field(default="", compare=False)

    method = "elicitation/create"

    def __post_init__(self) -> None:
        if not self.fingerprint:
            digest = short_digest(canonical_json(["form", self.key, self.message, self.schema, self.binding]))
            object.__setattr__(self, "fingerprint", digest)

    def with_note(self, note: str | None) -> FormQuestion:
        """The same question (same fingerprint) with a note saying why it is asked again."""
        return replace(self, note=note)

    @property
    def full_message(self) -> str:
        return f"{self.message}\n\n{self.note}" if self.note else self.message


@dataclass(frozen=True, slots=True)
class UrlQuestion:
    """A URL-mode elicitation: the person completes a step on a page; the server learns the outcome itself."""

    key: str
    message: str
    url: str
    fingerprint: str = field(init=False, repr=False, compare=False)

    method = "elicitation/create"

    def __post_init__(self) -> None:
        object.__setattr__(self, "fingerprint", short_digest(canonical_json(["url", self.key, self.message, self.url])))

    @property
    def elicitation_id(self) -> str:
        """A stable id for this step (2025-11-25 sessions name URL elicitations), not the link itself."""
        return short_digest(canonical_json(["url-id", self.url]), 12)


@dataclass(frozen=True, slots=True)
class SamplingQuestion:
    """A `sampling/createMessage` request: the value comes from the client's model."""

    key: str
    prompt: str
    max_tokens: int
    system_prompt: str | None = None
    temperature: float | None = None
    fingerprint: str = field(init=False, repr=False, compare=False)

    method = "sampling/createMessage"

    def __post_init__(self) -> None:
        identity = ["sample", self.key, self.prompt, self.max_tokens, self.system_prompt, self.temperature]
        object.__setattr__(self, "fingerprint", short_digest(canonical_json(identity)))


@dataclass(frozen=True, slots=True)
class RootsQuestion:
    """A `roots/list` request: the value is the client's list of roots."""

    key: str
    fingerprint: str = field(init=False, repr=False, compare=False)

    method = "roots/list"

    def __post_init__(self) -> None:
        object.__setattr__(self, "fingerprint", short_digest(canonical_json(["roots", self.key])))


Question = FormQuestion | UrlQuestion | SamplingQuestion | RootsQuestion


@dataclass(frozen=True, slots=True)
class MissingValue:
    """A value still missing when it cannot be asked: named with its schema so a model can retry with it."""

    name: str
    schema: dict[str, Any]
    reason: str
    as_argument: bool = True

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "schema": self.schema, "reason": self.reason, "asArgument": self.as_argument}


@dataclass(frozen=True, slots=True)
class Problems:
    """Why values were refused this round, by parameter name (shown to the person in the next question)."""

    by_name: dict[str, str] = field(default_factory=dict)

    def note(self, name: str) -> str | None:
        reason = self.by_name.get(name)
        return f"The previous value was not accepted: {reason}." if reason else None
