"""The answer guard: a credential pasted into a form answer is refused before it is sealed, stored or logged.

A person asked for a name or a memo may paste a password manager's entry, a card number or an API key by mistake.
`credential_value` recognises what is a credential by its form alone, with few false alarms: Luhn-valid card
numbers, PEM private keys, JWTs, well-known token prefixes (`tables/answers/tokens.txt`), authorization header
values, URLs that carry a password, and BIP-39 recovery phrases (12 to 24 words, all from the standard
wordlist). It does not flag IBANs (a demo asks for one), UUIDs, commit hashes, dates or ordinary numbers.

Its cost grows with the text, not with the number of formats, whatever the text (an answer may be a 50 KB paste): the
vendor formats are found by one scan for their literal prefixes at word starts, each pattern then matched only
where its prefix stands; a shape that may sit anywhere is searched only when the text holds a literal it needs.
"""

from __future__ import annotations

import base64
import hashlib
import operator
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from pathlib import Path
from typing import Any

from askback.guard.names import could_name, credential_term
from askback.guard.prefixes import trie

_MAX_DEPTH = 8
_MAX_STRINGS = 256


@dataclass(frozen=True)
class _Format:
    label: str
    pattern: re.Pattern[str]


# The rarer characters a literal may hold: a text without it (one memchr) needs no search for the literal.
_GATES = '"$=:/_-.'


def _gate(need: str) -> str:
    """The rarest character of `need`, or "" (always present) for a literal of letters only."""
    return next((char for char in _GATES if char in need), "")


def _read_formats(
    path: Path,
) -> tuple[dict[str, tuple[_Format, ...]], tuple[tuple[tuple[tuple[str, str, bool], ...], _Format, str], ...]]:
    """tokens.txt: the vendor formats by each prefix that can start them, and the shapes with the literals they need."""
    by_prefix: dict[str, list[_Format]] = {}
    inside: list[tuple[tuple[tuple[str, str, bool], ...], _Format, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        where, label, literals, pattern = line.split(" | ", 3)
        found = _Format(label, re.compile(pattern))
        if where == "start":
            for prefix in literals.split():
                by_prefix.setdefault(prefix, []).append(found)
        elif where in ("inside", "at", "line"):
            # A literal with a capital letter is looked for as written (its pattern is case-sensitive).
            needs = tuple((_gate(need), need, need != need.lower()) for need in literals.split())
            inside.append((needs, found, where))
        else:
            raise ValueError(f"{path.name}: {where!r} is not 'start', 'inside', 'at' or 'line' in {line!r}")
    # At a position where the longest prefix found is P, every format whose prefix starts P may match there.
    tries = {p: tuple(f for q, fs in by_prefix.items() if p.startswith(q) for f in fs) for p in by_prefix}
    return tries, tuple(inside)


def _shape_class(char: str) -> str:
    """ASCII digits to "9", letters to "a" / "A", symbols (what `_MADE_HINT` calls one, but "/") to "#"."""
    if char.isdigit() or char.isalpha():
        return "9" if char.isdigit() else "a" if char.islower() else "A"
    return char if char.isspace() or char in "_\"'`.,;!?()[]:=-/" or char > "\x7f" else "#"


# A text's shape, its UTF-8 bytes mapped by one table: a search for b"9" * 13 in it is a C loop, where a pattern's
# scan of the text costs a few hundred instructions per character (and `str.translate` as much on non-ASCII text).
# The bytes of non-ASCII characters keep their value (0x80 and over).
_SHAPE = bytes(ord(_shape_class(chr(code))) if code < 128 else code for code in range(256))
# The characters of a vendor token's run become "r", every other ASCII character a space.
_RUN_SHAPE = bytes(
    ord("r") if code < 128 and (chr(code).isalnum() or chr(code) in "_.$:/=+-") else ord(" ") for code in range(256)
)
_RUN_START, _RUN_END = b"r" * 14, re.compile(b"r*")


def _shape(text: str, table: bytes = _SHAPE) -> bytes:
    return text.encode("utf-8", "surrogatepass").translate(table)

_TRIES, _INSIDE = _read_formats(Path(__file__).with_name("tables") / "answers" / "tokens.txt")
_PREFIXES = re.compile(r"\b" + trie(sorted(_TRIES)))  # the longest prefix at each word start
_MARKS = bytes(ord("p") if chr(code) in ".$:/=+-" else ord("f") if any(p[0] == chr(code) for p in _TRIES) else 32
               for code in range(256))
_NEEDS = tuple(dict.fromkeys(need for needs, _, _ in _INSIDE for need in needs))
# Every vendor format's match is a run of 14 or more of the characters [0-9A-Za-z_.$:/=+-]: the prefix scan runs
# only inside such runs (most words of prose or code are shorter, and its word-boundary test is costly on each).


def _runs(text: str) -> Iterator[tuple[int, int]]:
    """The spans of the runs of 14 token characters or more (a search for 14 "r" skips ahead, a pattern would not)."""
    raw = text.encode("utf-8", "surrogatepass")
    shape = raw.translate(_RUN_SHAPE)
    wide = len(raw) != len(text)  # then byte offsets are turned into character offsets, as the runs are passed
    start, chars, seen = shape.find(_RUN_START), 0, 0
    while start != -1:
        end = _RUN_END.match(shape, start).end()  # type: ignore[union-attr]  # "r*" always matches
        if wide:  # a run is ASCII: its length in characters is its length in bytes
            chars += len(raw[seen:start].decode("utf-8", "surrogatepass"))
            seen = start
            yield chars, chars + end - start
        else:
            yield start, end
        start = shape.find(_RUN_START, end)


def _starts(text: str) -> Iterator[tuple[int, tuple[_Format, ...]]]:
    """Each word start inside the runs where a vendor prefix stands, with the formats of every prefix found there.

    In an ASCII text a word starts only at a run's start or after one of its non-word characters (".$:/=+-"), and
    a prefix only with one of its first characters: the text's marks ("p" for those, "f" for these) find the places
    by `bytes.find`, and the prefix pattern is matched there alone, where a search would test its word boundary at
    every character of a long run (a pasted base64 blob is one)."""
    marks = b""
    for start, end in _runs(text):
        if not text.isascii():
            yield from ((found.start(), _TRIES[found.group(0)]) for found in _PREFIXES.finditer(text, start, end))
            continue
        marks = marks or text.encode().translate(_MARKS)
        at = start if marks[start] == 102 else _after(marks.find(b"pf", start, end))  # 102: "f"
        while at != -1:
            found = _PREFIXES.match(text, at)
            if found:
                yield at, _TRIES[found.group(0)]
            at = _after(marks.find(b"pf", at, end))


def _after(mark: int) -> int:
    return mark + 1 if mark != -1 else -1


def _format_label(text: str) -> str | None:
    """The label of a well-known format found in `text`: the vendor formats first (by position), then the shapes."""
    for at, candidates in _starts(text):
        for candidate in candidates:
            found = candidate.pattern.match(text, at)
            if found and "EXAMPLE" not in found.group(0):  # AWS's documented AKIAIOSFODNN7EXAMPLE and its like
                return candidate.label
    low = text.lower()
    gates = {"", *(char for char in _GATES if char in text)}
    # Each literal once (several shapes share one), each a C search of the text; a shape is tried with one of its.
    held = {(need, exact) for gate, need, exact in _NEEDS if gate in gates and need in (text if exact else low)}
    if not held:
        return None
    for needs, candidate, where in _INSIDE:
        if held.isdisjoint((need, exact) for _, need, exact in needs):
            continue
        if where == "at":
            found = _named(candidate.pattern, text, low, tuple((need, exact) for _, need, exact in needs))
        elif where == "line":  # matched at each line's start (a search would try every character)
            found, at = None, 0
            while found is None and at != -1:
                found, at = candidate.pattern.match(text, at), text.find("\n", at)
                at += at != -1
        else:
            found = candidate.pattern.search(text)
        if found and "EXAMPLE" not in found.group(0):
            return candidate.label
    return None

# 13 to 19 digits, grouped by single or double spaces or hyphens; not inside a longer number, a decimal, a date or
# a version ("1,234,567", "2026-03-01"), but a comma or a full stop after it is punctuation.
_CARD = re.compile(r"(?<![\d.,/:+-])(?:\d(?: {1,2}|-| - )?){12,18}\d(?!\d|[.,/:-]\d)")
# Groups of four to six digits with dots, as some people type a card number (4.4.4.4, Amex's 4.6.5).
_CARD_DOTTED = re.compile(r"(?<![\d.])\d{4}\.\d{4,6}\.\d{4,6}(?:\.\d{1,7})?(?![\d.])")
# An IBAN (country, two check digits, up to 30 letters and digits in groups): its digits must not be read as a card.
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[0-9A-Z]{4}){2,7}(?: ?[0-9A-Z]{1,4})?\b")
# An IMEI is Luhn-valid and 15 digits long like an Amex number; it is told by its name or its 2-6-6-1 grouping.
_IMEI_NAME = re.compile(r"(?i)\b(?:imei|meid)\b")
_IMEI_GROUPS = re.compile(r"^\d{2}[ -]\d{6}[ -]\d{6}[ -]\d$")
# A card's security code with its name: "cvv 232", "CVC: 099", "CVV2=080"; "cid" (Amex's name) only with the card.
_CARD_CODE = re.compile(r"(?i)(?<![a-z])(?:cvv2?|cvc2?|cvn|ccv|csc)(?![a-z])\W{0,3}\d{3,4}(?!\d)")
_AMEX_CID = re.compile(r"(?i)(?<![a-z])cid(?![a-z])\W{0,3}\d{4}(?!\d).{0,40}\b(?:amex|american express|card)\b")
_CODE_NAMES = tuple((name, False) for name in ("cvv", "cvc", "cvn", "ccv", "csc"))
_CID, _DIGITS_ON = (("cid", False),), (("digits ", False),)
_BACK_DIGITS = re.compile(r"(?i)\bdigits (?:on|at) the back(?: of (?:the|your) card)?\W*(?:are|is|:)?\s*\d{3,4}\b")
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_BASIC = re.compile(r"(?i)^\s*(?:authorization\s*:\s*)?basic\s+([0-9A-Za-z+/]{8,}={0,2})\s*$")
# Separators of a word list, as people paste one: spaces (ideographic ones in Japanese), commas, line breaks.
_SEPARATORS = re.compile(r"[\s,;\u3000\u3001]+")
_NON_ASCII_DIGIT = re.compile(r"[^\D0-9]")  # Arabic-Indic, Devanagari, Bengali... digits (one set: a fast scan)


def _luhn(digits: str) -> bool:
    total = 0
    for i, char in enumerate(reversed(digits)):
        d = ord(char) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _iban_valid(candidate: str) -> bool:
    """ISO 13616's check: the country and check digits moved to the end, letters as 10-35, the number mod 97 is 1."""
    compact = candidate.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def _without_ibans(text: str, shape: bytes) -> str:
    """The text with each valid IBAN made "x"s. Every IBAN starts where the shape has "AA99": in an ASCII text the
    pattern is matched there alone (`_IBAN.sub` would try it at every character)."""
    if not text.isascii():
        return _IBAN.sub(lambda m: "x" * len(m.group(0)) if _iban_valid(m.group(0)) else m.group(0), text)
    parts, done, at = [], 0, shape.find(b"AA99")
    while at != -1:
        found = _IBAN.match(text, at)
        if not found:
            at = shape.find(b"AA99", at + 1)
            continue
        if _iban_valid(found.group(0)):
            parts += [text[done:at], "x" * (found.end() - at)]
            done = found.end()
        at = shape.find(b"AA99", found.end())  # as `sub` goes on after each match, valid or not
    return "".join([*parts, text[done:]])


def _card_digits(digits: str) -> bool:
    # Real card numbers start with 2-6 (Mastercard, Visa, Amex, Discover, UnionPay, JCB...) or 9792 (Troy); 13-19
    # digits. Only Amex (34, 37) has 15: a Luhn-valid 15-digit number starting otherwise is an IMEI or the like.
    if not (13 <= len(digits) <= 19 and (digits[0] in "23456" or digits.startswith(_DOMESTIC_CARDS))):
        return False
    if len(digits) == 15 and digits[:2] not in ("34", "37"):
        return False
    return len(set(digits)) > 1 and _luhn(digits)


# Domestic networks outside the 2-6 range: Uzcard (8600) and Humo (9860) in Uzbekistan, Troy (9792) in Turkey.
_DOMESTIC_CARDS = ("8600", "9860", "9792")
# A text's shape with digits and " .-" made "c", all else "x": a card number lies in a run of 13 "c" or more, which
# `bytes.find` finds by skipping ahead (a pattern would try each digit).
_CARDISH = bytes(ord("c") if chr(code) in "9 .-" else ord("x") for code in range(256))
_CARDISH_13, _CARDISH_RUN = b"c" * 13, re.compile(b"c*")


def _card_number(text: str, shape: bytes | None = None) -> bool:
    # Every card number is 13 digits once its spaces, hyphens or dots are taken out: a test of the text's shape
    # before the exact patterns, whose look-behinds make them try every position.
    shape = _shape(text) if shape is None else shape
    if b"9" * 13 not in shape.replace(b" ", b"").replace(b"-", b"").replace(b".", b""):
        return False
    if b"AA99" in shape:  # what an IBAN starts with
        text = _without_ibans(text, shape)  # (the same length: the spans below hold)
    return any(_card_in(text, start, end) for start, end in _digit_spans(text, shape))


def _digit_spans(text: str, shape: bytes) -> Iterator[tuple[int, int]]:
    """Where a card number may be: each run of digits, spaces, hyphens and dots with 13 digits (and the two
    characters after it, which the patterns' look-ahead reads). A whole non-ASCII text: its shape's offsets are
    bytes, not characters."""
    if not text.isascii():
        yield 0, len(text)
        return
    cardish = shape.translate(_CARDISH)
    start = cardish.find(_CARDISH_13)
    while start != -1:  # a run of 13 or more digits and separators; it holds a card only with 13 digits
        end = _CARDISH_RUN.match(cardish, start).end()  # type: ignore[union-attr]  # "c*" always matches
        if shape.count(b"9", start, end) >= 13:
            yield start, min(len(text), end + 2)
        start = cardish.find(_CARDISH_13, end)


def _card_in(text: str, start: int, end: int) -> bool:
    for match in _CARD.finditer(text, start, end):
        raw = match.group(0)
        if " " in raw and "-" in raw and raw.count(" - ") * 2 != raw.count(" "):
            continue  # "1234 5678-90": a mix of separators is a range or a phone number; " - " alone is one card
        digits = raw.replace(" ", "").replace("-", "")
        # A bare 13-digit run is far more often a barcode (EAN-13) than one of the old 13-digit Visa numbers.
        if len(digits) == 13 and raw.isdigit():
            continue
        if len(digits) == 15 and (_IMEI_GROUPS.match(raw) or _IMEI_NAME.search(text, 0, match.start())):
            continue
        if _card_digits(digits):
            return True
    return any(_card_digits(match.group(0).replace(".", "")) for match in _CARD_DOTTED.finditer(text, start, end))


# --------------------------------------------------------------------------------------------------------------
# A credential's label beside its value: "password: hunter2", "PIN 4831", "my pin is 0592", "пароль від пошти:
# Kyiv2024!", "G-306152 is your Google verification code". The label is read by the secret guard, so it is
# recognised in every language and spelling that guard knows.

# Words that join a label to its value ("my password is ...", "la mia password è ...", "mã OTP của bạn là ...").
_COPULAS = frozenset(("is", "es", "est", "ist", "e", "è", "é", "är", "er", "jest", "je", "это", "є", "là", "ni",
                      "adalah", "ialah", "ay", "είναι", "hai", "هو", "هي"))
_LABEL_WORDS = 5  # a label is the few words nearest the value
_GLUED = re.compile(r"(?<!:)([:=])(?!//)")  # "pass:x", "DB_PASSWORD=x"; not a URL's "://"
# Kinds whose value may be digits alone after a bare space ("PIN 4831", "cvv 232"); a token or a key needs more.
_DIGIT_KINDS = frozenset(("PIN", "one-time code", "card security code", "password", "access code", "recovery code"))
_STRIP = "\"'`.,;!?)(]["
_CODE_WORDS = frozenset(("code", "codigo", "código", "code:", "kode", "kod", "код"))
# "Use 918273 to log in": digits said to be for signing in are a one-time code.
_SIGN_IN_AFTER = re.compile(r"(?i)^to (?:log ?in|sign ?in|verify|confirm|authenticate)\b")
# A value that only shows that a secret exists ("********", "•••", "xxxx") or names where it is kept
# ("${DB_PASSWORD}", "op://vault/item", an ARN, "{{ secrets.TOKEN }}"): no credential travels with it.
_MASK_CHARS = "*•●xX#·"
_MASKED = re.compile(f"^[{_MASK_CHARS}]{{3,}}$")
_REFERENCE = re.compile(r"^(?:\$\{[^}]+\}|\$[A-Z_][A-Z0-9_]*|\{\{[^}]+\}\}|op://\S+|vault:\S+|arn:aws[\w-]*:\S+)$")
# Labels whose answer is a plain word ("Rex", "Kowalczyk"): nothing about the value tells it from any other word.
_PLAIN_WORD_KINDS = frozenset(("security answer",))
# "Your Uber code: 627838", "WhatsApp code 421-813", "2FA: 674709": a code of 4 to 8 digits after a label that
# names a code, unless the label says which ordinary code it is.
_CODE_LABEL = re.compile(r"(?i)\b(?:code|codes|2fa|mfa|otp|totp|mtan)\b")
_ORDINARY_CODE = re.compile(r"(?i)postal|post|zip|area|country|promo|discount|coupon|product|error|status|http|track"
                            r"|reference|order|dial|iso|sort|swift|branch|tax|airport|colou?r|pin code|hs|bar")
_OTP_VALUE = re.compile(r"^\d{4,8}$|^\d{3}[- ]\d{3}$")
# The Greek word for a code, which a form also uses for a product's or a postal code: with a value of letters and
# digits after it, it is the word for a password ("κωδικός πρόσβασης" shortened).
_CODE_WORD_LABEL = re.compile(r"(?i)^κωδικ(?:ός|ος|ό|ο|ού|ου)$")
_CJK_GLUED = re.compile(r"(?<=[\u3040-\u9fff\uac00-\ud7af])(?=[A-Za-z0-9])")
# India's PAN (five letters, four digits, a letter) is a tax id, not a card's number.
_INDIAN_PAN = re.compile(r"^[A-Z]{5}\d{4}[A-Z]$")
# Short digit groups after a label ("code de connexion : 30 41 77"): one value, typed in groups.
_DIGIT_GROUPS = re.compile(r"(?<![\d\w])(\d{2,4})(?: (\d{2,4}))(?: (\d{2,4}))?(?![\d\w])")
# What else expires on a month and year: documents, offers, subscriptions.
_EXPIRES_ELSEWHERE = re.compile(
    r"(?i)passport|visa\b|licen[cs]e|id card|coupon|voucher|warranty|subscription|domain|trial"
    r"|\blot\b|batch|best before|use by")
# A card's expiry after the word for it: "exp 09/28", "Ablaufdatum 11/27", "有効期限 05/30".
_CARD_EXPIRY = re.compile(
    r"(?i)(?:\bexp|\bexpiry|\bexpiration|valid thru|ablaufdatum|g[uü]ltig bis|v[aá]lid[ao] hasta|vencimiento"
    r"|validade|scadenza|срок действия|son kullanma|有効期限|有效期|date d.expiration|تاريخ الانتهاء|انتهاء الصلاحية)"
    r"\W{0,3}(?:(?:0[1-9]|1[0-2]) ?/ ?(?:\d{2}|20\d{2})|20\d{2}-(?:0[1-9]|1[0-2]))(?![\d/-])")

# A piece of each name `_CARD_EXPIRY` knows, in lower case ("exp" is in "expiry" and "date d'expiration").
_EXPIRY_NAMES = ("exp", "valid thru", "ablaufdatum", "ltig bis", "hasta", "vencimiento", "validade", "scadenza",
                 "срок действия", "son kullanma", "有効期限", "有效期", "انتهاء")

# The nearest word of a label: two letters and no digit (or one letter of a script without cases, "密码").
_LABEL_WORD = re.compile(r"^[^\d]*[^\W\d_][^\d]*$")
# Something a made value has: a digit, a symbol other than punctuation, a case change inside a word, a long word.
_MADE_HINT = re.compile(r"\d|[^\w\s\"'`.,;!?()\[\]:=-]|[a-z][A-Z]|[^\W\d_]{15}")
# A word with three digits or more (a time, an id, a path with a number) is a value, not part of a label: the label
# stops after it ("12:07:31.899Z WARN worker-4 request_id=..." is labelled "WARN worker-4 request_id"), which keeps
# each reading short (the name guard's reading costs grow with the label's length). So does a word that ends a
# value of a list or a mapping ('"tags": ["a", "b"], "price": 3' is labelled '"price"').
_ENDS_LABEL = re.compile(r"(?:\D*\d){3}|.*[,\]}]$").match
_MAX_LABELS = 12  # labels read per string: a long text of numbers costs a bounded number of readings


def _label_word(word: str) -> bool:
    """`_LABEL_WORD.search(word)`: for an ASCII word read off its shape (the pattern backtracks on every word)."""
    if not word.isascii():
        return _LABEL_WORD.search(word) is not None
    shape = word.encode().translate(_SHAPE)
    return b"9" not in shape and (b"a" in shape or b"A" in shape)


def _looks_made(value: str) -> bool:
    """Whether a value looks chosen or generated (a digit, a symbol, mixed case) rather than an ordinary word."""
    if not value.isalpha() or len(value) >= 15:
        return True  # a digit or a symbol in it, or "correcthorsebattery": a passphrase run together
    # Mixed case: neither all lower, all upper nor capitalized (the first two tests make no copy of the word).
    return not (value.islower() or value.isupper() or value in (value.lower(), value.upper(), value.capitalize()))


def _made_hint(text: str, shape: bytes) -> bool:
    """`_MADE_HINT.search(text)`, read off an ASCII text's shape: a digit, a symbol, "aB", 15 letters in a row."""
    if not text.isascii():
        return _MADE_HINT.search(text) is not None
    return (b"9" in shape or b"#" in shape or b"/" in shape or b"aA" in shape
            or b"a" * 15 in shape.replace(b"A", b"a"))


def _glued(line: str) -> str:
    """`_GLUED.sub(r" \1 ", line)`: spaces around each ":" and "=", but in "::", ":=", "://" (plain replaces when
    none of these is in the line: the pattern's template is expanded in Python for each match)."""
    if any(pair in line for pair in ("::", ":=", "://", "=//")):
        return _GLUED.sub(r" \1 ", line)
    return line.replace(":", " : ").replace("=", " = ")


def _label_line(line: str) -> str:
    """A line as labels are read from it: a Latin value glued to a CJK label apart, digit groups joined."""
    shape = _shape(line)
    if not line.isascii() and (b"9" in shape or b"a" in shape or b"A" in shape):
        line = _CJK_GLUED.sub(" ", line)  # "登录密码是N0rth#Star55": the label ends where the Latin value starts
    if b"9 9" in shape:  # digits, a space, digits: what `_DIGIT_GROUPS` joins
        line = _DIGIT_GROUPS.sub(lambda m: "".join(g for g in m.groups() if g), line)
    return line


def _labelled_secret(text: str, shape: bytes | None = None) -> bool:
    """A credential's label next to a value that looks like one.

    "Password: forgotten" or "the password is incorrect" carry no secret; "password: hunter2", "PIN 4829" and
    "482913 is your verification code" do.
    """
    if ":" not in text and not _made_hint(text, _shape(text) if shape is None else shape):
        return False  # no word in it looks chosen or generated, and no label: nothing to read labels for
    terms: dict[str, str | None] = {}

    def term(words: list[str]) -> str | None:
        # A label names something in words: its nearest word has letters and no digit ("DE89 3704" is no label).
        if not words or len(terms) >= _MAX_LABELS or not _label_word(words[-1]):
            return None
        label = " ".join(words)
        if label not in terms:  # (`could_name` first: most labels of a log or a record name nothing it could read)
            terms[label] = credential_term(label) if could_name(label) else None
        return terms[label]

    def label_before(end: int, size: int) -> list[str]:
        start = end
        while start > max(0, end - size) and tokens[start - 1] not in (":", "=") and not _ENDS_LABEL(tokens[start - 1]):
            start -= 1  # a label stops at the previous separator: '{"auths": {"auth": "..."}}' is labelled "auth"
        return tokens[start:end]

    for whole in text.splitlines()[:64]:
        line = _label_line(whole[:400])
        tokens = _glued(line).split()
        for j, raw in enumerate(tokens):
            if len(raw) < 3:
                continue  # ":", "=", "42": too short a value, as below
            value = raw.strip(_STRIP)
            before = tokens[j - 1] if j else ""
            made = _looks_made(value)
            if before != ":" and not made:
                continue  # an ordinary word with no label before it (most words): what the branches below conclude
            # Each pattern is tried only on a value with its first character (or its length): a match costs more
            # than the test.
            if (len(value) < 3 or value.startswith(("//", "{", "[", "<")) or value.endswith(">")
                    or (value[0] in _MASK_CHARS and _MASKED.match(value))
                    or (value[0] in "${ova" and _REFERENCE.match(value))):
                continue  # a structure's opening, a masked value, a reference to where the secret is kept
            if len(value) == 10 and _INDIAN_PAN.match(value):
                continue
            if j and value[0].isdecimal() and _OTP_VALUE.match(value):
                label_words = " ".join(label_before(j - 1 if before == ":" else j, _LABEL_WORDS))
                if _CODE_LABEL.search(label_words) and not _ORDINARY_CODE.search(label_words):
                    return True
            if not made:
                if before == ":" and term(label_before(j - 1, _LABEL_WORDS)) in _PLAIN_WORD_KINDS:
                    return True  # "mother's maiden name: Kowalczyk"
                continue
            if before in (":", "=") or before.lower() in _COPULAS:
                label = label_before(j - 1, _LABEL_WORDS)
                kind = term(label)
                if kind:
                    return True
                greek_code = bool(label) and not label[-1].isascii() and bool(_CODE_WORD_LABEL.match(label[-1]))
                if greek_code and not value.isdigit() and any(c.isdigit() for c in value):
                    return True  # "κωδικός: Gl4cier.Night": a code of letters and digits is a password
            # (past the cap, `term` reads no label; the label's nearest word and the value's digit, tested first,
            # are what `term` and the kinds need)
            elif j and len(terms) < _MAX_LABELS and _label_word(before) and any(c.isdigit() for c in value):
                kind = term(label_before(j, _LABEL_WORDS - 2))
                if kind and (kind in _DIGIT_KINDS or len(value) >= 16):
                    if kind == "PIN" and credential_term(line) is None:
                        continue  # the line read whole says what else it is: "PIN code 560001 is Bengaluru GPO"
                    return True
            if j + 1 < len(tokens) and tokens[j + 1].lower() in _COPULAS and value.isascii():
                # "G-306152 is your Google verification code": the value first, then what it is.
                kind = term(tokens[j + 2 : j + 2 + _LABEL_WORDS])
                if kind in _DIGIT_KINDS:
                    return True
                # "151256 is your Instagram code": digits that are someone's code are a one-time code.
                said = [w.strip(_STRIP).lower() for w in tokens[j + 2 : j + 2 + _LABEL_WORDS]]
                if value.replace("-", "").isdigit() and set(said) & _CODE_WORDS:
                    return True
            if value.isdigit() and 4 <= len(value) <= 8 and _SIGN_IN_AFTER.match(" ".join(tokens[j + 1 : j + 4])):
                return True  # "Use 918273 to log in to your bank"
    return False


# A list of recovery codes as a service prints them: "uwjqa-3jq97", one per line or space, several of them.
_RECOVERY_CODE = re.compile(r"(?i)^(?:[0-9a-z]{4,6}-[0-9a-z]{4,6}|\d{4} ?\d{4})$")


def _recovery_codes(text: str) -> bool:
    if len(text) < 36 or not any(c.isdigit() for c in text[:12]):
        return False  # four codes or more, and a code has digits: cheap tests first
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) >= 4:
        codes = lines
    else:  # `_SEPARATORS.split`, where a separator at either end makes an empty code
        stripped = text.strip()
        if stripped[0] in ",;\u3001" or stripped[-1] in ",;\u3001":
            return False
        codes = stripped.replace(",", " ").replace(";", " ").replace("\u3001", " ").split()
    if not 4 <= len(codes) <= 40 or not all(_RECOVERY_CODE.match(c) for c in codes):
        return False
    mixed = sum(any(ch.isdigit() for ch in c) and any(ch.isalpha() for ch in c) for c in codes)
    return mixed * 2 >= len(codes) or (len(codes) >= 5 and all(c.replace(" ", "").isdigit() for c in codes))


# --------------------------------------------------------------------------------------------------------------
# BIP-39 recovery phrases, in every language the reference wordlists cover.

_BIP39_LANGUAGES = ("english", "spanish", "french", "italian", "portuguese", "czech", "japanese", "korean",
                    "chinese_simplified", "chinese_traditional", "russian", "turkish")


def _bip39_key(word: str) -> str:
    """A word as it is looked up: lower case, NFC, and accents off Latin letters (people type "titulo" for "título")."""
    word = unicodedata.normalize("NFC", word.lower())
    if word.isascii() or not all(c < "\u0250" for c in word):
        return word
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def _bip39_index() -> dict[str, tuple[tuple[int, int], ...]]:
    """Each word of every wordlist: (language, index) pairs. Read once from the reference package on first use."""
    from mnemonic import Mnemonic

    found: dict[str, list[tuple[int, int]]] = {}
    for lang, name in enumerate(_BIP39_LANGUAGES):
        for i, word in enumerate(Mnemonic(name).wordlist):
            found.setdefault(_bip39_key(word), []).append((lang, i))
    return {word: tuple(pairs) for word, pairs in found.items()}


def _valid_phrase(indices: list[int]) -> bool:
    """BIP-39's checksum: the last bits of the words' indices are the first bits of SHA-256 of the rest."""
    bits = "".join(format(i, "011b") for i in indices)
    cut = len(bits) * 32 // 33
    entropy = int(bits[:cut], 2).to_bytes(cut // 8, "big")
    digest = format(int.from_bytes(hashlib.sha256(entropy).digest(), "big"), "0256b")
    return bits[cut:] == digest[: len(bits) - cut]


def _valid_run(run: list[tuple[tuple[int, int], ...]]) -> bool:
    """Whether some 12 to 24 consecutive words of `run`, all from one language's list, pass the checksum."""
    languages = {lang for pairs in run for lang, _ in pairs}
    # A run as long as a phrase is read whole: a window of it passing the checksum by chance (one in sixteen) is
    # no phrase. A longer run may hold a phrase among other list words ("wallet: legal winner ...").
    sizes = (len(run),) if len(run) in (24, 21, 18, 15, 12) else (24, 21, 18, 15, 12)
    for lang in languages:
        indices = [next((i for la, i in pairs if la == lang), -1) for pairs in run]
        for size in sizes:
            for start in range(len(indices) - size + 1):
                window = indices[start : start + size]
                if -1 not in window and _valid_phrase(window):
                    return True
    return False


_PHRASE_MARKS = str.maketrans(".:()[]\"'", " " * 8)
_PHRASE_BYTES = bytes.maketrans(b".:()[]\"'", b" " * 8)
_NOT_DIGITS = bytes(code for code in range(256) if not 48 <= code <= 57)


def _has_digit(text: str) -> bool:
    return bool(text.encode().translate(None, _NOT_DIGITS))


@lru_cache(maxsize=1)
def _bip39_bytes() -> frozenset[bytes]:
    """The ASCII words of every wordlist, as bytes: an ASCII text's words are looked up without decoding them."""
    return frozenset(word.encode() for word in _bip39_index() if word.isascii())


def _recovery_phrase(text: str) -> bool:
    """A valid BIP-39 phrase, alone or inside a longer text ("seed phrase: legal winner thank ...").

    Only a phrase whose checksum holds counts: twelve common words that happen to be on a list are not a wallet's
    phrase (one such list in sixteen passes by chance).
    """
    if len(text) > 2000:
        return False  # too long to scan
    plain = text.isascii()  # then a word's key is its lower case: one lower() for the whole text
    # The words between separators (`_SEPARATORS`): white space, commas, semicolons, the ideographic comma.
    parts = (text.lower() if plain else text.replace("\u3001", " ")).replace(",", " ").replace(";", " ").split()
    if len(parts) < 12:
        return False
    index = _bip39_index()
    # Twelve list words in a row (numbers between them allowed) or no phrase: tested with C loops (map, bytes)
    # before the loop below reads each word. The marks a word is stripped of, made spaces, leave its list word or
    # number whole (and split no other word into more list words than it had). An ASCII text is read as bytes.
    if plain:
        rough: list[Any] = " ".join(parts).encode().translate(_PHRASE_BYTES).split()
        listed = map(_bip39_bytes().__contains__, rough)
        flags = bytes(map(operator.or_, listed, map(bytes.isdigit, rough)) if _has_digit(text) else listed)
    else:
        rough = " ".join(parts).translate(_PHRASE_MARKS).split()
        flags = bytes(map(operator.or_, map(bool, map(index.get, map(_bip39_key, rough))), map(str.isdigit, rough)))
    if b"\x01" * 12 not in flags:
        return False
    stripped = map(str.strip, parts, repeat(".:()[]\"'"))
    words = list(stripped) if plain else list(map(_bip39_key, stripped))
    run: list[tuple[tuple[int, int], ...]] = []
    for word in [*words, ""]:
        pairs = index.get(word)
        if pairs:
            run.append(pairs)
            continue
        if word.rstrip(".)").isdigit() and run:
            continue  # numbered phrases: "1. legal 2. winner"
        if len(run) >= 12 and _valid_run(run):
            return True
        run = []
    return False


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


# An ed25519 keypair as Solana's CLI writes it: a JSON array of 64 bytes.
_BYTE_ARRAY = re.compile(r"^\s*\[\s*(?:\d{1,3}\s*,\s*){63}\d{1,3}\s*\]\s*$")


def _keypair_bytes(value: Any) -> bool:
    if isinstance(value, str):
        if not _BYTE_ARRAY.match(value):
            return False
        value = [int(n) for n in value.strip().strip("[]").split(",")]
    return (isinstance(value, list) and len(value) == 64 and all(type(n) is int and 0 <= n <= 255 for n in value)
            and len(set(value)) > 8)


def _structured(value: Any) -> str | None:
    """What a list or a mapping says as a whole: a phrase split into its words, a key named for a credential."""
    words = isinstance(value, list | tuple) and 12 <= len(value) <= 24 and all(isinstance(w, str) for w in value)
    if words and _recovery_phrase(" ".join(value)):
        return "a recovery phrase"  # ["shaft", "hire", ...]: the words of a phrase, one per item
    if isinstance(value, dict):
        for key, item in list(value.items())[:_MAX_STRINGS]:
            # {"password": "Bursztyn2026!"}: the key labels its value as "password: ..." would.
            if isinstance(key, str) and isinstance(item, str) and _labelled_secret(f"{key}: {item}"):
                return "a labelled credential"
    return None


def _named(pattern: re.Pattern[str], text: str, low: str, names: tuple[tuple[str, bool], ...]) -> re.Match[str] | None:
    """`pattern.search(text)` for a pattern whose every match starts with one of `names` (each looked for in `text`
    when marked exact, else in `low`): matched only where one stands, found by `str.find` (a search would try the
    pattern at every character)."""
    if len(low) != len(text):  # a lower case of another length ("İ"): its offsets are not the text's
        found = any(name in (text if exact else low) for name, exact in names)
        return pattern.search(text) if found else None
    for name, exact in names:
        where = text if exact else low
        at = where.find(name)
        while at != -1:
            match = pattern.match(text, at)
            if match:
                return match
            at = where.find(name, at + 1)
    return None


def credential_value(value: Any) -> str | None:
    """What kind of credential an answer `value` looks like ("a payment card number", "a private key"...), or None.

    `value` is what a form answer carries: a string, a number, a list of strings, or nested primitives. The label
    never contains any part of the value, so it is safe to show and to log.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return "a payment card number" if _card_number(str(value)) else None
    if _keypair_bytes(value):
        return "a private key"
    structured = _structured(value) if isinstance(value, list | tuple | dict) else None
    if structured:
        return structured
    for raw in _strings(value):
        # Fullwidth letters, no-break spaces and invisible characters are what a person sees, not what matches.
        text = raw if raw.isascii() else unicodedata.normalize("NFKC", _INVISIBLE.sub("", raw))
        if not text.isascii():  # digits of other scripts are digits: "٤٢٩٢ ٦١٣٩ ..." is a card number
            text = _NON_ASCII_DIGIT.sub(lambda m: str(unicodedata.digit(m.group(0))), text)
        if len(text) < 6 or _REFERENCE.match(text.strip()):
            continue  # an ARN or a "${VAR}" names where a secret is kept
        label = _format_label(text)
        if label:
            return label
        if text[:1] == "[" and _keypair_bytes(text):
            return "a private key"
        if _basic_auth(text):
            return "an authorization header"
        shape = _shape(text)
        if _card_number(text, shape):
            return "a payment card number"
        low = text.lower()  # what each pattern below cannot match without, tested before its look-behinds
        if b"999" in shape and (_named(_CARD_CODE, text, low, _CODE_NAMES) or _named(_AMEX_CID, text, low, _CID)
                                or _named(_BACK_DIGITS, text, low, _DIGITS_ON)):
            return "a card security code"
        if ((b"99/" in shape.replace(b" ", b"") or b"9999-99" in shape) and any(name in low for name in _EXPIRY_NAMES)
                and _CARD_EXPIRY.search(text) and not _EXPIRES_ELSEWHERE.search(text)):
            return "a card expiry date"
        if _recovery_phrase(text):
            return "a recovery phrase"
        if _recovery_codes(text):
            return "a list of recovery codes"
        if _labelled_secret(text, shape):
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
