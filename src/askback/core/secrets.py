"""The secret guard: credentials never travel through a form.

Passwords, API keys, access tokens, private keys and payment card data must be entered out of band (an MCP
URL-mode page, an A2A auth-required step). A form field whose name, title, description or format marks a
credential is refused when the tool is registered, and again on every form before it is sent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_TERMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("password", ("pass ?words?", "passwd", "pwd", "pass ?phrases?", "pass ?codes?")),
    ("PIN", ("pin", "pin ?codes?", "pin ?numbers?")),
    (
        "one-time code",
        (
            "otp",
            "totp",
            "hotp",
            "one ?time ?(pass ?word|pass ?code|code)s?",
            "(2fa|mfa|two ?factor|verification|auth|authentication|security|sms) ?codes?",
        ),
    ),
    ("API key", ("api ?keys?", "apikeys?", "access ?keys?", "secret ?keys?", "license ?keys?", "app ?keys?")),
    ("secret", ("secrets?", "client ?secrets?", "shared ?secrets?")),
    (
        "token",
        (
            "(access|refresh|bearer|auth|authentication|authorization|api|session|id|oauth|csrf|security"
            "|personal ?access|github|gitlab|slack|jwt) ?tokens?",
            "tokens?",
            "jwts?",
            "bearer",
        ),
    ),
    ("private key", ("(private|signing|encryption|master|ssh|pgp|gpg) ?keys?", "privkeys?", "keystores?")),
    ("credential", ("credentials?", "creds")),
    (
        "card number",
        (
            "(credit|debit|payment|bank)? ?card ?(numbers?|nos?|nums?|details?)",
            "pan",
            "ccn(um)?",
            "cc ?(numbers?|nums?|nos?)",
            "credit ?cards?",
            "debit ?cards?",
        ),
    ),
    (
        "card security code",
        ("cvv2?", "cvc2?", "csc", "card ?(verification|security) ?(codes?|values?|numbers?)", "security ?codes?"),
    ),
    ("card expiry", ("card ?(expiry|expiration)( ?dates?)?",)),
)
_CREDENTIAL_PATTERNS = tuple((label, re.compile(r"\b(" + "|".join(alts) + r")\b")) for label, alts in _TERMS)

# Ordinary phrases that contain a credential word but are not credentials.
_ORDINARY_PHRASES = (
    "max ?tokens?",
    "tokens? ?(counts?|limits?|budgets?|usage|used)",
    "num ?tokens?",
    "tokens? ?(ids?|types?|names?|symbols?|standards?)",
    "password ?(hints?|policy|policies|length|strength|rules?|reset ?links?|expiry)",
    "public ?keys?",
    "api ?keys? ?(names?|labels?|ids?|descriptions?)",
    "card ?(holder|holders|holder ?names?|names?|types?|brands?|colou?rs?|titles?|games?)",
    "pin ?(message|post|comment)s?",
    "pinned",
)
_ORDINARY = re.compile(r"\b(" + "|".join(_ORDINARY_PHRASES) + r")\b")


def _normalise(text: str) -> str:
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)  # camelCase -> camel Case
    text = re.sub(r"[_\-./:]+", " ", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def credential_term(text: str | None) -> str | None:
    """The kind of credential `text` names, or `None` when it reads as an ordinary value."""
    if not text:
        return None
    norm = _normalise(text)
    cleaned = _ORDINARY.sub(" ", norm)
    for label, pattern in _CREDENTIAL_PATTERNS:
        if pattern.search(cleaned.strip()):
            return label
    return None


def field_credential(name: str, schema: Mapping[str, Any]) -> str | None:
    """Why the form field `name` with `schema` would ask for a credential, or `None` when it is safe."""
    if schema.get("format") == "password" or schema.get("writeOnly") is True:
        return "password"
    for text in (name, schema.get("title"), schema.get("description")):
        term = credential_term(text if isinstance(text, str) else None)
        if term:
            return term
    return None


class SecretInForm(ValueError):
    """A form would ask for a credential; it must be entered out of band instead."""

    def __init__(self, where: str, field: str, term: str) -> None:
        article = "an" if term[:1].lower() in "aeiou" else "a"
        super().__init__(
            f"{where}: form field {field!r} would ask for {article} {term}. Credentials (passwords, PINs, API keys, "
            "tokens, private keys, payment card data) are never asked for in a form, where they would pass through "
            "the client and the model's context: collect them out of band instead, on a page the server controls "
            "(MCP URL-mode elicitation)."
        )
        self.field = field
        self.term = term


def guard_form(where: str, requested_schema: Mapping[str, Any]) -> None:
    """Raise `SecretInForm` if any property of a form's `requestedSchema` asks for a credential."""
    properties = requested_schema.get("properties", {})
    for name, schema in properties.items():
        term = field_credential(name, schema if isinstance(schema, Mapping) else {})
        if term:
            raise SecretInForm(where, name, term)
