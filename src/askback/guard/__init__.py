"""The guard: whether a question asks for a credential, and whether an answer is one.

One package for both ends of the wire: the server's core asks it about every question it will send and every
answer it accepts; the client asks it about the forms a foreign server sends. Declarations decide first
(`askback.Secret`, `SecretStr`, `writeOnly`, `format: password`); the checks here are the safety net behind them.

- `field_credential(name, schema)`: the credential a form field's name, title or description asks for, or None.
- `credential_term(text)`: the credential a free text (a form's message) asks for, or None.
- `credential_request(text)`: a caller's value that turns a confirmation into a request for a credential.
- `credential_value(value)` / `answer_problem(value)` / `answer_refusal(value)`: an answer that is a credential.
- `guard_form(where, schema, message=...)`: raises `SecretInForm` for a form that asks for a credential.
- `GUARD`: this guard as the core's `askback.core.guarding.Guard` protocol (the App hands it to the core).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from askback._lazy import lazy_names
from askback.guard.default import GUARD, DefaultGuard, guard_form  # after the functions it calls
from askback.guard.names import (
    credential_request,
    credential_term,
    field_credential,
)

if TYPE_CHECKING:
    from askback.core.errors import SecretInForm
    from askback.guard.values import answer_problem, answer_refusal, credential_value

# The answer guard is imported on the first answer checked, not at start-up; `SecretInForm` is the core's
# error (it reaches callers with its wire mapping), read only when asked for, so the guard imports no core.
_ANSWER_GUARD = ("answer_problem", "answer_refusal", "credential_value")
__getattr__ = lazy_names(
    __name__, {**dict.fromkeys(_ANSWER_GUARD, "askback.guard.values"), "SecretInForm": "askback.core.errors"}
)

__all__ = [
    "GUARD",
    "DefaultGuard",
    "SecretInForm",
    "answer_problem",
    "answer_refusal",
    "credential_request",
    "credential_term",
    "credential_value",
    "field_credential",
    "guard_form",
]
