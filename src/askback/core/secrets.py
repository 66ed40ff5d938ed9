"""The secret guard: credentials never travel through a form.

Passwords, API keys, access tokens, private keys and payment card data must be entered out of band (an MCP
URL-mode page, an A2A auth-required step). A form field whose name, title, description or format marks a
credential is refused when the tool is registered, and again on every form before it is sent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_CREDENTIAL_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (label, re.compile(pattern))
    for label, pattern in (
        ("password", r"\b(pass ?words?|passwd|pwd|pass ?phrases?|pass ?codes?)\b"),
        ("PIN", r"\b(pin|pin ?codes?|pin ?numbers?)\b"),
        ("one-time code", r"\b(otp|totp|hotp|one ?time ?(pass ?word|pass ?code|code)s?|(2fa|mfa|two ?factor|verification|auth|authentication|security|sms) ?codes?)\b"),
        ("API key", r"\b(api ?keys?|apikeys?|access ?keys?|secret ?keys?|license ?keys?|app ?keys?)\b"),
        ("secret", r"\b(secrets?|client ?secrets?|shared ?secrets?)\b"),
        (
            "token",
            r"\b((access|refresh|bearer|auth|authentication|authorization|api|session|id|oauth|csrf|security|"
            r"personal ?access|github|gitlab|slack|jwt) ?tokens?|tokens?$|^tokens?\b|jwts?)\b",
        ),
        ("private key", r"\b((private|signing|encryption|master|ssh|pgp|gpg) ?keys?|privkeys?|keystores?)\b"),
        ("credential", r"\b(credentials?|creds)\b"),
        ("card number", r"\b((credit|debit|payment|bank)? ?card ?(numbers?|nos?|nums?|details?)|pans?|ccn(um)?|cc ?(numbers?|nums?|nos?)|credit ?cards?|debit ?cards?)\b"),
        ("card security code", r"\b(cvv2?|cvc2?|cid|csc|card ?(verification|security) ?(codes?|values?|numbers?)|security ?codes?)\b"),
        ("card expiry", r"\b(card ?(expiry|expiration)( ?dates?)?)\b"),
    )
)

# Ordinary phrases that contain a credential word but are not credentials.
_ORDINARY = re.compile(
    r"\b(max ?tokens?|tokens? ?(counts?|limits?|budgets?|usage|used)|num ?tokens?|password ?(hints?|policy|policies|length|"
    r"strength|rules?|reset ?links?|expiry)|public ?keys?|api ?keys? ?(names?|labels?|ids?|descriptions?)|secret ?(santa)?names?|"
    r"card ?(holder|holders|holder ?names?|names?|types?|brands?|colou?rs?|titles?|games?)|pin ?(message|post|comment)s?|"
    r"pinned)\b"
)


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
        super().__init__(
            f"{where}: field {field!r} asks for a {term}. Credentials (passwords, API keys, tokens, private keys, "
            "payment card data) must never be asked for in a form: collect them out of band instead "
            "(an MCP URL-mode elicitation to a page you serve, or an A2A auth-required step)."
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
