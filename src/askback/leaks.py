"""The answer guard: a credential pasted into a form answer is refused before it is sealed, stored or logged.

A person asked for a name or a memo may paste a password manager's entry, a card number or an API key by mistake.
`credential_value` recognises what is a credential by its form alone, with few false alarms: Luhn-valid card
numbers, PEM private keys, JWTs, well-known token prefixes, authorization header values, URLs that carry a
password, and BIP-39 recovery phrases (12 to 24 words, all from the standard wordlist). It does not flag IBANs (a demo
asks for one), UUIDs, commit hashes, dates or ordinary numbers. Detect-secrets' high-entropy detectors would flag
hashes and UUIDs, and its keyword detectors read source code, not single values, so a few exact patterns serve
better here.
"""

from __future__ import annotations

import base64
import hashlib
import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from askback.core.secrets import credential_term

_MAX_DEPTH = 8
_MAX_STRINGS = 256

# Well-known token formats: prefix and the shape of what follows, from each vendor's documentation.
_TOKENS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (label, re.compile(rx))
    for label, rx in (
        ("a private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
        ("a private key", r"\b(?:xprv|tprv|yprv|zprv)[1-9A-HJ-NP-Za-km-z]{100,112}\b"),
        ("an API key", r"\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,}"),
        ("an API key", r"\bsk-ant-(?:api|admin)\d{2}-[0-9A-Za-z_-]{20,}"),
        ("an API key", r"\bsk-(?:proj-|svcacct-|admin-)?[0-9A-Za-z_-]{20,}"),
        ("an access token", r"\b(?:ghp|gho|ghs|ghu|ghr)_[0-9A-Za-z]{30,}"),
        ("an access token", r"\bgithub_pat_[0-9A-Za-z_]{40,}"),
        ("an access token", r"\bglpat-[0-9A-Za-z_-]{20,}"),
        ("an access token", r"\bxox[abposr]-[0-9A-Za-z-]{10,}"),
        ("a webhook secret URL", r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[0-9A-Za-z/_-]{20,}"),
        ("a webhook secret", r"\bwhsec_[0-9A-Za-z+/=]{24,}"),
        ("a webhook secret URL", r"https://discord(?:app)?\.com/api/webhooks/\d+/[0-9A-Za-z_-]{30,}"),
        ("an access key", r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[0-9A-Z]{16}\b"),
        ("an API key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
        ("an access token", r"\bya29\.[0-9A-Za-z_-]{20,}"),
        ("an access token", r"\bnpm_[0-9A-Za-z]{36}\b"),
        ("an access token", r"\bpypi-[0-9A-Za-z_-]{50,}"),
        ("an access token", r"\bhf_[0-9A-Za-z]{30,}\b"),
        ("an API key", r"\bSG\.[0-9A-Za-z_-]{16,}\.[0-9A-Za-z_-]{16,}"),
        ("an access token", r"\b\d{8,10}:AA[0-9A-Za-z_-]{33}\b"),
        ("an API key", r"\bkey-[0-9a-f]{32}\b"),
        ("an API key", r"\bSK[0-9a-fA-F]{32}\b"),
        ("an access token", r"\bsq0(?:atp|csp)-[0-9A-Za-z_-]{22,}"),
        ("an access token", r"\bATATT3[0-9A-Za-z_=-]{100,}"),
        ("an API key", r"\blin_(?:api|oauth)_[0-9A-Za-z]{40}\b"),
        ("an access token", r"[?&]sig=[0-9A-Za-z%+/=]{30,}"),
        ("an access token", r"\bshp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}\b"),
        ("an access token", r"\bdop_v1_[0-9a-f]{64}\b"),
        ("an access token", r"\b(?:hvs|hvb)\.[0-9A-Za-z_-]{24,}"),
        ("an access token", r"\bEAA[0-9A-Za-z]{80,}"),
        ("an API key", r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b"),
        ("an access token", r"\beyJ[0-9A-Za-z_-]{8,}\.eyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{8,}"),
        ("an authorization header", r"(?i)^\s*(?:authorization\s*:\s*)?(?:bearer|token)\s+[0-9A-Za-z._~+/=-]{16,}\s*$"),
        ("a connection string with a password", r"\b[a-z][a-z0-9+.-]{1,20}://[^\s/:@]*:[^\s/@]+@[^\s/@]+"),
        ("a connection string with a password",
         r"(?i)(?:^|;)\s*(?:password|pwd|accountkey|sharedaccesskey)\s*=\s*[^;\s]+"),
        ("a session cookie",
         r"(?i)\b(?:sessionid|session|sid|phpsessid|jsessionid|connect\.sid|_session)=[0-9A-Za-z%._-]{16,}"),
    )
)

_CARD = re.compile(r"(?<![\d.,/:+-])(?:\d[ -]?){12,18}\d(?![\d.,/:-])")
# Four groups of four digits with dots, as some people type a card number (a version or an address has fewer).
_CARD_DOTTED = re.compile(r"(?<![\d.])\d{4}\.\d{4}\.\d{4}\.\d{1,7}(?![\d.])")
# "password: hunter2", "api_key=9a3d…", '"access_token": "…"', "пароль: …", "my 2FA code is 492817": a label the
# secret guard reads as a credential, then the value itself.
_LABELLED = re.compile(
    r"(?P<label>[^\W\d_][\w .'-]{0,40}?)[\"']?\s*(?:[:=]|\s(?:is|es|est|ist|e|è|é|är|er|jest|je|это)\s)\s*[\"']?"
    r"(?P<value>[^\s\"',;}]{3,})"
)
_LABEL_SEPARATOR = re.compile(r"[:=]|\s(?:is|es|est|ist|e|è|é|är|er|jest|je|это)\s")  # cheap test first
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_BASIC = re.compile(r"(?i)^\s*(?:authorization\s*:\s*)?basic\s+([0-9A-Za-z+/]{8,}={0,2})\s*$")
_WORD = re.compile(r"[a-z]{3,8}")
_SEPARATORS = re.compile(r"[\s,;]+")


def _luhn(digits: str) -> bool:
    total = 0
    for i, char in enumerate(reversed(digits)):
        d = ord(char) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _card_number(text: str) -> bool:
    for match in _CARD.finditer(text):
        raw = match.group(0)
        if " " in raw and "-" in raw:
            continue
        digits = raw.replace(" ", "").replace("-", "")
        # Real card numbers start with 2-6 (Mastercard, Visa, Amex, Discover, UnionPay, JCB...); 13-19 digits.
        # A bare 13-digit run is far more often a barcode (EAN-13) than one of the old 13-digit Visa numbers.
        if len(digits) == 13 and raw.isdigit():
            continue
        if 13 <= len(digits) <= 19 and digits[0] in "23456" and len(set(digits)) > 1 and _luhn(digits):
            return True
    for match in _CARD_DOTTED.finditer(text):
        digits = match.group(0).replace(".", "")
        if 13 <= len(digits) <= 19 and digits[0] in "23456" and len(set(digits)) > 1 and _luhn(digits):
            return True
    return False


def _labelled_secret(text: str) -> bool:
    """A credential's label followed by a value that looks like one (a digit, a symbol or mixed case in it).

    "Password: forgotten" or "the password is incorrect" carry no secret; "password: hunter2" and "PIN: 4829" do.
    """
    if not _LABEL_SEPARATOR.search(text):
        return False
    for match in _LABELLED.finditer(text):
        value = match.group("value")
        if value.startswith("//"):
            continue  # a URL's scheme, not a label
        looks_made = any(c.isdigit() for c in value) or not value.isalnum() or (
            value != value.lower() and value != value.upper() and value != value.capitalize()
        )
        if looks_made and credential_term(match.group("label")):
            return True
    return False


@lru_cache(maxsize=1)
def _bip39_index() -> dict[str, int]:
    # The reference implementation's English wordlist, read once from the package on first use.
    from mnemonic import Mnemonic

    return {word: i for i, word in enumerate(Mnemonic("english").wordlist)}


def _valid_phrase(words: list[str]) -> bool:
    """BIP-39's checksum: the last bits of the words' indices are the first bits of SHA-256 of the rest."""
    index = _bip39_index()
    bits = "".join(format(index[w], "011b") for w in words)
    cut = len(bits) * 32 // 33
    entropy = int(bits[:cut], 2).to_bytes(cut // 8, "big")
    digest = format(int.from_bytes(hashlib.sha256(entropy).digest(), "big"), "0256b")
    return bits[cut:] == digest[: len(bits) - cut]


def _phrase_inside(text: str) -> bool:
    """A valid recovery phrase inside a longer text ("seed phrase: legal winner thank ...").

    Inside other words the checksum must hold, so a run of common words that happen to be on the list does not count.
    """
    if len(text) > 2000 or len(_SEPARATORS.findall(text)) < 11:
        return False  # too long to scan, or fewer than twelve words
    index = _bip39_index()
    run: list[str] = []
    for part in [*_SEPARATORS.split(text.lower()), ""]:
        word = part.strip(".:()[]\"'")
        if word in index:
            run.append(word)
            continue
        if word.isdigit() and run:
            continue  # numbered phrases: "1. legal 2. winner"
        for size in (24, 21, 18, 15, 12):
            if any(_valid_phrase(run[i : i + size]) for i in range(len(run) - size + 1)):
                return True
        run = []
    return False


def _mnemonic(text: str) -> bool:
    """12 to 24 words, every one from the BIP-39 English wordlist: a wallet's recovery phrase.

    Ordinary sentences need words the list lacks ("the", "a", "to", "of", "and", "is"), so they never qualify.
    """
    if len(text) > 480:  # 24 words of at most 8 letters, numbered, with separators, fit well within this
        return False
    parts = [p for p in _SEPARATORS.split(text.lower()) if p and not p.rstrip(".)").isdigit()]
    if len(parts) not in (12, 15, 18, 21, 24) or not all(_WORD.fullmatch(p) for p in parts):
        return False
    index = _bip39_index()
    return all(p in index for p in parts)


def _basic_auth(text: str) -> bool:
    """`Basic dXNlcjpwYXNz`: base64 of "user:password" ("Basic information" is not)."""
    match = _BASIC.match(text)
    if not match:
        return False
    try:
        decoded = base64.b64decode(match.group(1) + "=" * (-len(match.group(1)) % 4), validate=True)
    except ValueError:
        return False
    return b":" in decoded


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif depth < _MAX_DEPTH and isinstance(value, list | tuple):
        for item in value[:_MAX_STRINGS]:
            yield from _strings(item, depth + 1)
    elif depth < _MAX_DEPTH and isinstance(value, dict):
        for key, item in list(value.items())[:_MAX_STRINGS]:
            yield from _strings(key, depth + 1)
            yield from _strings(item, depth + 1)


def credential_value(value: Any) -> str | None:
    """What kind of credential an answer `value` looks like ("a payment card number", "a private key"...), or None.

    `value` is what a form answer carries: a string, a number, a list of strings, or nested primitives. The label
    never contains any part of the value, so it is safe to show and to log.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return "a payment card number" if _card_number(str(value)) else None
    for raw in _strings(value):
        # Fullwidth letters, no-break spaces and invisible characters are what a person sees, not what matches.
        text = raw if raw.isascii() else unicodedata.normalize("NFKC", _INVISIBLE.sub("", raw))
        if len(text) < 6:
            continue
        for label, pattern in _TOKENS:
            if pattern.search(text):
                return label
        if _basic_auth(text):
            return "an authorization header"
        if _card_number(text):
            return "a payment card number"
        if _mnemonic(text) or _phrase_inside(text):
            return "a recovery phrase"
        if _labelled_secret(text):
            return "a labelled credential"
    return None


def answer_refusal(label: str) -> str:
    """The message for a person who pasted what looks like a credential; it names the kind, never the value."""
    return (
        f"That looks like {label}. Do not paste passwords, keys, tokens or card numbers here; this form is not the "
        "place for secrets. Enter the value that was asked for."
    )


def answer_problem(value: Any) -> str | None:
    """For the engine: the message refusing an answer that looks like a credential, or None to accept it."""
    label = credential_value(value)
    return answer_refusal(label) if label else None
