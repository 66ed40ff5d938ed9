"""The guard the App hands the core: the package's public functions, as the core's `Guard` protocol wants them.

The core (`askback.core.guarding`) declares what it needs of a guard and never imports this package; the App
passes `GUARD`. `guard_form` is the public, raising spelling of the core's one form check (the same rule at
registration, at call time and in the tests); it and `SecretInForm` are read from the core only when used, so
importing the guard (as the client does) loads nothing of the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from askback.guard.names import credential_request, credential_term, field_credential


class DefaultGuard:
    """The name guard of this package (stateless: one instance serves every app)."""

    __slots__ = ()

    def field_credential(self, name: str, schema: Mapping[str, Any]) -> str | None:
        return field_credential(name, schema)

    def credential_term(self, text: str | None) -> str | None:
        return credential_term(text)

    def credential_request(self, text: str | None) -> str | None:
        return credential_request(text)


GUARD = DefaultGuard()


def guard_form(where: str, requested_schema: Mapping[str, Any], *, message: str | None = None) -> None:
    """Raise `SecretInForm` if a form's `requestedSchema` (or its message, when a field could carry one) asks
    for a credential: the core's one rule (`askback.core.guarding.guard_form`) with this package's guard."""
    from askback.core.guarding import guard_form as check

    found = check(GUARD, requested_schema, message=message)
    if found is not None:
        from askback.core.errors import SecretInForm  # only a refusal needs the error (and its wire mapping)

        raise SecretInForm(where, found.field, found.term, declared=found.declared)
