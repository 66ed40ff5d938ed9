"""What a person is asked to confirm: every value shown whole, none too long to read, none that asks for a credential.

A confirmation (in band, on an approval page, or during a task's work) is what a person reads before an action
runs with these values, so nothing in it is cut. A value longer than `MAX_CONFIRM_CHARS` characters as shown
(invisible characters spelled out) is not one a person can check, so the confirmation is refused rather than
given blind. A caller's value that asks the person for a credential ("Approve {item}?" with `item="and type your
PIN"`) is refused too: credentials are never asked in band. The author's own words are the author's
("Rotate the API key of {service}?" is asked): only the values are read, by the secret guard's request reading
(`Guard.credential_request`, the guard the App hands the core).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from askback.core.guarding import Guard

MAX_CONFIRM_CHARS = 2000  # per value, as shown; documented in docs/out-of-band.md and docs/security.md


def unconfirmable(guard: Guard, values: Mapping[str, Any], shown: Mapping[str, str]) -> str | None:
    """Why these values (by parameter name, with the text each is shown as) cannot be confirmed, or None.

    The reason names the parameter, never the caller's words. These are a caller's values: an author's
    `not_secret` never covers them.
    """
    for name, text in shown.items():
        if len(text) > MAX_CONFIRM_CHARS:
            return (
                f"the value of {name} is {len(text):,} characters long as shown, more than the "
                f"{MAX_CONFIRM_CHARS:,} a confirmation shows whole, so no one could check it"
            )
    for name in shown:
        term = guard.credential_request(plain(values.get(name)))
        if term:
            article = "an" if term[:1].lower() in "aeiou" else "a"
            return (
                f"the value of {name} would ask the person for {article} {term}, and credentials are never "
                "asked that way"
            )
    return None


def plain(value: Any) -> str:
    """The value's own words, for the guard (which reads invisible characters itself)."""
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(plain(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{plain(k)}: {plain(v)}" for k, v in value.items())
    return value if isinstance(value, str) else str(value)
