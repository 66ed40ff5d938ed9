# ruff: noqa: E501
# (the rules below keep one case per line)
"""The name guard: whether a form field's name, title or description, or a form's message, asks for a credential.

Passwords, PINs, API keys, access tokens, private keys, recovery phrases, session cookies, connection strings and
payment card data must be entered out of band (an MCP URL-mode page, an A2A auth-required step). A text is read in
every way a person could read it (`askback.guard.fold`), and its words are matched against the credential phrases
of the tables (`guard/tables/*.txt`, one per language or family); a phrase only counts where its neighbours do not
make it an ordinary value: `max_tokens`, `password_min_length`, `gpio_pin`, `token_count` and "Maximum tokens to
generate" name a number or a setting, not a credential (the word sets those neighbours come from are tables too).

Choices made (documented, tested): a passport, ID card, tax or social security number is personal data but not a
credential (it grants no access), so it passes; so do an IBAN, a username, an email, a session or client id, the id
or name of a key, and the path of a key file. A boolean field cannot carry a credential, so it is never refused; nor
is a boolean's name (`is_password_set`). An Indian postal "PIN code" (with a postal word near it) and India's "PAN card"
(a tax id) pass; a bare `pan`, `card_pan` or `APP_PAN` is a payment card's number and is refused.

Neutral: the standard library, `disarm` and this package only, so the client can check a foreign server's forms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from askback.guard.fold import (
    RTL_OVERRIDE,
    Typos,
    decoded,
    fold_confusables,
    forms,
    joined_words,
    lazy,
    readings,
    unleet,
    words_of,
)
from askback.guard.prefixes import prefixes, required, trie
from askback.guard.rules import Check, Occurrence, ordinary, parse
from askback.guard.tables import load

_TABLES = load()
S = _TABLES.sets
_TYPOS = Typos(sorted(S["TYPO_TARGETS"]), S["NOT_TYPOS"])


# --------------------------------------------------------------------------------------------------------------
# Matching: at each word, only the pieces that can begin there, compiled together the first time they are needed.

_WIDTH = 3  # characters of a text, from a word's start, that choose the pieces tried there
_WORD_START = re.compile(r"(?<!\w)\w")
_LONG_WORDS = re.compile(r"\w{7,}")
_PARTS_FROM = "\u0590"  # Hebrew onwards: the scripts whose phrases are tried anywhere


class _Matcher:
    """Every phrase of the tables, split into its alternatives ("pieces", in table order: at one position the first
    piece that matches wins, as in one alternation). A position tries only the pieces that can begin with the text
    there (`prefixes`); a piece whose beginning cannot be read is tried at every word. Most words begin no piece, so
    an ordinary text compiles nothing. A compound (`\\w*(?:kreditkarte|...)\\w*`) is searched inside long words;
    phrases in scripts without spaces are one matcher, tried only on texts that have such characters."""

    def __init__(self) -> None:
        self.pieces: list[tuple[int, str]] = []  # (phrase, regex)
        self._by_prefix: dict[str, list[int]] = {}
        always: list[int] = []
        infix: list[str] = []
        self.stems: list[str] = []
        parts: list[str] = []
        for index, phrase in enumerate(_PHRASES):
            if not phrase.whole:
                parts.append(f"(?P<p{index}>" + "|".join(phrase.alternatives) + ")")
                continue
            for alt in phrase.alternatives:
                stem = alt[3:-3] if alt.startswith("\\w*") and alt.endswith("\\w*") else " "
                if " " not in stem:
                    self.stems.append(stem)
                    infix.append(f"(?P<p{index}x{len(infix)}>{stem})")
                    continue
                piece = len(self.pieces)
                self.pieces.append((index, f"(?:{alt})(?!\\w)"))
                begins = prefixes(alt, _WIDTH)
                for begin in begins if begins is not None else ():
                    self._by_prefix.setdefault(begin, []).append(piece)
                if begins is None:
                    always.append(piece)
        self._always = tuple(always)
        self._compiled: dict[int, re.Pattern[str]] = {}
        self._required: dict[int, str] = {}  # read the first time a text could begin the piece
        self.infix = lazy("|".join(infix))
        self.parts = lazy("|".join(parts))

    def _piece(self, i: int) -> re.Pattern[str]:
        compiled = self._compiled.get(i)
        if compiled is None:
            compiled = self._compiled[i] = re.compile(self.pieces[i][1])
        return compiled

    def matches(self, words: str) -> Iterator[tuple[int, int, int]]:
        """(phrase, start, end) of every phrase in `words`: a phrase's words first, then compounds, then other scripts."""
        held: dict[int, bool] = {}  # whether `words` holds a piece's required characters at all
        for start in _WORD_START.finditer(words):
            at = start.start()
            head = words[at : at + _WIDTH]
            chosen = set(self._always)
            for end in range(1, len(head) + 1):
                chosen.update(self._by_prefix.get(head[:end], ()))
            for i in sorted(chosen):  # in table order: the first piece that matches wins
                if i not in held:
                    run = self._required.get(i)
                    if run is None:
                        run = self._required[i] = required(self.pieces[i][1][3:-7])
                    held[i] = run in words
                if held[i]:
                    match = self._piece(i).match(words, at)
                    if match:
                        yield self.pieces[i][0], match.start(), match.end()
                        break
        for word in _LONG_WORDS.finditer(words):  # a compound is a long word: search only those
            for match in self.infix.finditer(words, word.start(), word.end()):
                if match.lastgroup:
                    yield int(match.lastgroup[1:].partition("x")[0]), word.start(), word.end()
        if words and max(words) >= _PARTS_FROM:
            for match in self.parts.finditer(words):
                if match.lastgroup:
                    yield int(match.lastgroup[1:]), match.start(), match.end()


# Phrases first, bare words last: at one position the first phrase that matches wins, and "clave de la API" must be
# read as an API key before "clave" alone is weighed.
_PHRASES = tuple(sorted(_TABLES.phrases, key=lambda phrase: phrase.kind.startswith("bare_")))
_MATCHER: _Matcher | None = None


def _matcher() -> _Matcher:
    global _MATCHER
    if _MATCHER is None:  # built on the first check: a program that never checks a form never pays for it
        _MATCHER = _Matcher()
    return _MATCHER


def _matches(words: str) -> Iterator[tuple[int, int, int]]:
    return _matcher().matches(words)


@lru_cache(maxsize=1)
def _held() -> re.Pattern[str] | None:
    """What every match of some phrase holds, in an ASCII reading: its required run or one of its beginnings (four
    characters), whichever is longer, cut to six. None when some phrase holds neither (then every text is read)."""
    found: set[str] = set()
    matcher = _matcher()
    for rx, run in [(rx[3:-7], required(rx[3:-7])) for _, rx in matcher.pieces] + [(s, "") for s in matcher.stems]:
        rx = rx.removeprefix("\\w*")  # what follows a leading \w* is held all the same
        heads = None if len(run) >= 4 else prefixes(rx, 4)  # (slower to read than the run: only for a shorter one)
        options = ([{run}] if run else []) + ([set(heads)] if heads is not None else [])
        if not options:
            return None
        found |= {held[:6] for held in max(options, key=lambda held: min(map(len, held))) if held.isascii()}
    return re.compile(trie(sorted(found)))  # (cut to six characters: as selective, and a smaller pattern to compile)


def could_name(text: str) -> bool:
    """Whether `credential_term(text)` may find a credential: False only for an ASCII text none of whose readings
    holds what every phrase needs (most labels of a log line or a JSON record), told by a few C loops where reading
    it costs ten times more. The answer guard asks before it reads a label."""
    held = _held()
    if held is None or not text.isascii() or "&" in text or "%" in text:
        return True  # a text beyond ASCII, or one to decode, is read in full
    seen = forms(text)
    if len(text) <= 40 and not any(c.isspace() for c in text) and _REVERSED_STEM.search(text.lower()):
        seen += [text[::-1], unleet(text[::-1])]  # a word typed backwards, as `_term` reads one
    for form in seen:
        words = joined_words(words_of(form))
        typo = _TYPOS.read(words)
        if held.search(words) or (typo is not None and held.search(typo)):
            return True
    return False


# --------------------------------------------------------------------------------------------------------------
# Neighbours that make an occurrence ordinary.

_SETTING_NEAR = lazy(r"(?<!\w)(?:" + _TABLES.pattern("SETTINGS") + r")(?!\w)")
_SETTING_PART = lazy(_TABLES.pattern("SETTING_PARTS"))
_SETTING_INSIDE = lazy(_TABLES.pattern("SETTING_INSIDE"))
_STATE = lazy(r"(?<!\w)(?:" + _TABLES.pattern("STATE") + r")(?!\w)|" + _TABLES.pattern("STATE_PARTS"))
_REQUEST = lazy(r"(?<!\w)(?:" + _TABLES.pattern("REQUEST") + r")(?!\w)|" + _TABLES.pattern("REQUEST_PARTS"))
_BOOLEAN_TAIL = tuple(S["BOOLEAN_TAIL"])
_PAN_CARD = re.compile(r"(?i)(?<![a-z])pan[ _.-]?card|PanCard|पैन|पॅन")


def _setting_of(o: Occurrence) -> bool:
    """ "the name of the API key", "longueur minimale du mot de passe": a setting's word, then "of", then the phrase."""
    before, of, setting = o.before, S["OF"], S["SETTING_AFTER"] | S["COUNT_BEFORE"]
    return any(before[i] in of and i > 0 and before[i - 1] in setting
               for i in range(len(before) - 1, max(len(before) - 4, 0) - 1, -1))


def _purpose(o: Occurrence) -> bool:
    """ "the token used to authenticate", "the private key file contents": says what the credential is for."""
    nxt, second = o.after[:1], o.after[1:2]
    return (nxt == ("used",) and second in (("to",), ("for",), ("by",), ("when",))) or (
        nxt in (("file",), ("files",)) and second in (("contents",), ("content",), ("text",), ("body",), ("data",)))


def _flag(name: str) -> Check:
    return lambda o: bool(getattr(o.text, name))


# What the rules can ask that a word set cannot say: facts about the whole text, and the settings' patterns.
_NAMED: dict[str, Check] = {
    **{flag: _flag(flag) for flag in ("states", "yes_no", "identifier", "non_latin", "pan_card", "shouts_pin", "shouts_tan")},
    "purpose": _purpose,
    "boolean_name": lambda o: " " not in o.matched and o.matched[:2] in ("is", "ha") and o.matched.endswith(_BOOLEAN_TAIL),
    "setting_near": lambda o: bool(_SETTING_NEAR.search(" ".join(o.before[-4:])) or _SETTING_NEAR.search(" ".join(o.after[:2]))),
    "setting_part": lambda o: bool(_SETTING_PART.search(o.window)),
    "setting_inside": lambda o: " " not in o.matched and len(o.matched) > 9 and bool(_SETTING_INSIDE.search(o.matched)),
    "setting_of": _setting_of,
    "asks": lambda o: any(_REQUEST.search(words) for words in o.text.readings),  # a request verb: enter, paste...
}
_RULES = parse(_TABLES.rules, S, _NAMED)


@dataclass(frozen=True)
class _Text:
    """What holds for a whole text, whichever reading of it is matched."""

    context: frozenset[str]  # every word of every reading
    shouts_pin: bool  # "PIN" in capitals inside a text that is not all capitals: the credential, not a connector
    shouts_tan: bool  # "TAN" in capitals likewise: a bank's one-time transaction number
    yes_no: bool  # the text asks or describes a yes/no ("Whether ..."), so it never asks for the credential itself
    identifier: bool = False  # one identifier (no spaces): is_password_set names a boolean
    non_latin: bool = False  # a character beyond Latin, Greek and Cyrillic: the setting substrings are searched
    pan_card: bool = False  # "PAN card" as written: India's tax id card, whatever follows
    readings: tuple[str, ...] = ()  # the text's readings, the first as written

    @cached_property
    def states(self) -> bool:
        """A report of a credential's state or a rule about it, with no request verb: read when a phrase found in
        the text is weighed, not for every text (most hold none)."""
        return _states(self.readings)




_NEAR = 240  # characters either side of a phrase that its neighbours are read from


# Stems of credential words as they read backwards ("drowssap" holds "ssap"): a cheap test before a reversed reading.
_REVERSED_STEM = re.compile("|".join(w[::-1] for w in (
    "pass", "pwd", "word", "key", "secret", "cret", "token", "tok", "pin", "cvv", "cvc", "card", "seed", "phrase",
    "otp", "code", "auth", "cred", "priv", "sess", "cookie", "mnemonic", "iban", "ssn", "api")))
# Kinds a reversed reading may match: whole phrases, never the short words a reversal makes by chance ("nap": "pan").
_REVERSIBLE = frozenset(("strong", "part", "compound"))


def _term_in(words: str, text: _Text, reversed_text: bool = False) -> str | None:
    count = words.count(" ") + 1
    for index, start, end in _matches(words):
        label, kind = _PHRASES[index].label, _PHRASES[index].kind
        if reversed_text and kind not in _REVERSIBLE:
            continue
        # Only the nearest words matter, and reading a bounded window keeps a long text linear, not quadratic.
        before = words[max(0, start - _NEAR) : start].split()[-6:]
        after = words[end : end + _NEAR].split()[:3]
        window = words[max(0, start - 16) : start] + " | " + words[end : end + 16]
        if not ordinary(_RULES, Occurrence(kind, label, words[start:end].strip(), tuple(before), tuple(after), count,
                                           window, text)):
            return label
    return None




def _states(readings: Sequence[str]) -> bool:
    """Whether the text reports a credential's state or states a rule about it, and asks for nothing."""
    if not readings or (len(readings[0]) < 12 and readings[0].isascii()):
        return False  # a name or a short label ("Password updated" aside) names the field itself
    # The text as written (decoded): a look-alike folding of Arabic or Thai letters is no reading of its verbs.
    return bool(_STATE.search(readings[0])) and not _REQUEST.search(readings[0])


_SHOUTED_PIN = re.compile(r"(?<![A-Za-z])PINs?(?![A-Za-z])")
_SHOUTED_TAN = re.compile(r"(?<![A-Za-z])TANs?(?![A-Za-z])")


def _term(text: str) -> str | None:
    text = decoded(text)
    seen = readings(text, _TYPOS)
    if "\u202e" in text:  # an override used only to embed keeps its order; one used to hide a word is turned back
        seen += [r for r in readings(RTL_OVERRIDE.sub(lambda m: m.group(1)[::-1], text), _TYPOS) if r not in seen]
    shouted = text if text.isascii() else text + " " + fold_confusables(text)  # "РIN" with a Cyrillic Р
    whole = _Text(
        context=frozenset(w for words in seen for w in words.split()),
        shouts_pin=bool(_SHOUTED_PIN.search(shouted)) and text != text.upper(),
        shouts_tan=bool(_SHOUTED_TAN.search(shouted)) and text != text.upper(),
        yes_no=bool(seen) and seen[0].split(" ", 1)[0] in ("whether", "ob"),
        identifier=not any(c.isspace() for c in text.strip()),
        non_latin=bool(text) and max(text) >= _PARTS_FROM,
        pan_card=bool(_PAN_CARD.search(text)),
        readings=tuple(seen),
    )
    for words in seen:
        term = _term_in(words, whole)
        if term:
            return term
    # A name typed backwards ("drowssap", "yek_ipa"): read reversed, for whole phrases only. A text with spaces is
    # not reversed whole: its other words would lose the sense they give ("Mindestlänge des strowssaP").
    if len(text) <= 40 and text.isascii() and not any(c.isspace() for c in text) and _REVERSED_STEM.search(text.lower()):
        backwards = text[::-1]  # one plain reading (and its digits as letters): the tricks are not stacked
        for words in dict.fromkeys((words_of(backwards), words_of(unleet(backwards)))):
            term = _term_in(words, whole, reversed_text=True)
            if term:
                return term
    return None


def credential_term(text: str | None) -> str | None:
    """The kind of credential `text` names ("password", "API key"...), or `None` when it reads as ordinary."""
    if not text or not text.strip():
        return None
    # Not memoised here: the core keeps no process-wide state. A server checks each distinct form once
    # (`askback.flow.Flow` remembers the forms it checked, by fingerprint), and registration runs once.
    return _term(text)


def credential_request(text: str | None) -> str | None:
    """The credential `text` asks a person to give ("and type your PIN", "geben Sie Ihr Passwort ein"), or `None`.

    Stricter than `credential_term`, which reads a field's label, where a bare "PIN" asks for one: a caller's
    value shown inside a sentence a person confirms names a thing ("Delete secrets.txt?", memo "PIN") and asks
    for the credential only with a request verb, in any language the guard reads.
    """
    term = credential_term(text)
    if term is None or text is None:
        return None
    return term if any(_REQUEST.search(words) for words in readings(decoded(text), _TYPOS)) else None


def field_credential(name: str, schema: Mapping[str, Any]) -> str | None:
    """Why the form field `name` with `schema` would ask for a credential, or `None` when it is safe."""
    if schema.get("type") == "boolean":
        return None  # yes or no cannot carry a credential, whatever the question says
    if schema.get("format") == "password" or schema.get("writeOnly") is True:
        return "password"
    numeric = schema.get("type") in ("integer", "number")
    for text in (name, schema.get("title"), schema.get("description")):
        term = credential_term(text if isinstance(text, str) else None)
        if term and not (numeric and term == "token"):  # a number of tokens is a count, never a token
            return term
    return None
