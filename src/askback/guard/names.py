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
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
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
from askback.guard.prefixes import heads, needs, trie
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
    there (`heads`) and whose literal parts the text holds (`needs`), each compiled the first time it is tried; a
    piece whose beginning cannot be read is tried at every word. A compound (`\\w*(?:kreditkarte|...)\\w*`) is
    searched inside long words; phrases in scripts without spaces are one pattern, for texts with such characters."""

    def __init__(self) -> None:
        self.pieces: list[tuple[int, str]] = []  # (phrase, regex)
        self._needs: dict[int, tuple[tuple[str, ...], ...]] = {}  # read the first time a text could begin the piece
        # Each beginning's first one, two or three characters (`_WIDTH`): (beginning, piece), as tuples.
        self._by_head: dict[str, tuple[tuple[str, int], ...]] = {}
        self._infix: list[tuple[int, str]] = []  # (phrase, stem)
        self._infix_by_head: dict[str, list[tuple[str, int]]] = {}  # as `_by_head`, for what a stem holds
        always: list[int] = []
        parts: list[str] = []
        for index, phrase in enumerate(_PHRASES):
            if not phrase.whole:
                parts.append(f"(?P<p{index}>" + "|".join(phrase.alternatives) + ")")
                continue
            for alt in phrase.alternatives:
                stem = alt[3:-3] if alt.startswith("\\w*") and alt.endswith("\\w*") else " "
                if " " not in stem:
                    self._add_infix(index, stem)
                    continue
                piece = len(self.pieces)
                self.pieces.append((index, alt))
                begins = heads(alt, 99)
                for begin in begins if begins is not None else ():
                    self._by_head[begin[:_WIDTH]] = (*self._by_head.get(begin[:_WIDTH], ()), (begin, piece))
                if begins is None:
                    always.append(piece)
        self._always = tuple(always)
        for i in always:  # tried at every word: what they hold is read now, not at the first check
            self._needs[i] = needs(self.pieces[i][1])
        self._compiled: dict[int, re.Pattern[str]] = {}
        self.parts = lazy("|".join(parts))

    def _add_infix(self, phrase: int, stem: str) -> None:
        """A compound's stem, found by the strings one of which it holds (the group of them whose shortest is
        longest); a stem that holds no string of `_WIDTH` characters or more is searched in every long word."""
        order = len(self._infix)
        self._infix.append((phrase, stem))
        groups = [group for group in needs(stem) if min(map(len, group)) >= _WIDTH]
        best = max(groups, key=lambda group: min(map(len, group)), default=("",))
        for held in best:
            self._infix_by_head.setdefault(held[:_WIDTH], []).append((held, order))

    def _piece(self, i: int) -> re.Pattern[str]:
        compiled = self._compiled.get(i)
        if compiled is None:
            compiled = self._compiled[i] = re.compile(f"(?:{self.pieces[i][1]})(?!\\w)")
        return compiled

    def _held(self, i: int, words: str) -> bool:
        """Whether `words` holds the literal parts of piece `i` (read the first time a text could begin it)."""
        need = self._needs.get(i)
        if need is None:  # the piece was chosen by where it begins: its opening group is not read again
            need = self._needs[i] = needs(self.pieces[i][1], opening=False)
        return all(any(map(words.__contains__, group)) for group in need)

    def matches(self, words: str) -> Iterator[tuple[int, int, int]]:
        """(phrase, start, end) of every phrase in `words`: a phrase's words first, then compounds, then other scripts."""
        always = [i for i in self._always if self._held(i, words)]
        held: dict[int, bool] = {}
        get = self._by_head.get
        for start in _WORD_START.finditer(words):
            at = start.start()
            begun = get(words[at : at + 3], ()) + get(words[at : at + 2], ()) + get(words[at], ())
            if not begun and not always:
                continue  # most words begin no phrase
            chosen = {i for begin, i in begun if words.startswith(begin, at)}
            for i in sorted(chosen.union(always)) if always else sorted(chosen):  # table order: the first match wins
                if i not in held:
                    held[i] = self._held(i, words)
                if held[i]:
                    match = self._piece(i).match(words, at)
                    if match:
                        yield self.pieces[i][0], match.start(), match.end()
                        break
        found: list[tuple[int, int, int]] = []
        for long_word in _LONG_WORDS.finditer(words):  # a compound is a long word: its stems are looked up in it
            first, last = long_word.span()
            stems = {order for at in range(first, last - _WIDTH + 1) for held, order in self._infix_by_head.get(
                words[at : at + _WIDTH], ()) if words.startswith(held, at)}
            stems.update(order for _, order in self._infix_by_head.get("", ()))
            found += [(first, order, last) for order in stems if _compiled_stem(self._infix[order][1]).search(words, first, last)]
        for first, order, last in sorted(found):
            yield self._infix[order][0], first, last
        if words and max(words) >= _PARTS_FROM:
            for match in self.parts.finditer(words):
                if match.lastgroup:
                    yield int(match.lastgroup[1:]), match.start(), match.end()


@cache
def _compiled_stem(stem: str) -> re.Pattern[str]:
    return re.compile(stem)


# Phrases first, bare words last: at one position the first phrase that matches wins, and "clave de la API" must be
# read as an API key before "clave" alone is weighed.
_PHRASES = tuple(sorted(_TABLES.phrases, key=lambda phrase: phrase.kind.startswith("bare_")))
# Built at import: reading where each phrase can begin costs less than compiling one phrase at the first check.
_MATCHER = _Matcher()
_matches = _MATCHER.matches


@cache
def _held() -> re.Pattern[str] | None:
    """What every match of some phrase holds, in an ASCII reading: one string of its most telling group of literal
    parts (`needs`: the group whose shortest string is longest), cut to six characters. None when some phrase holds
    nothing that can be read (then every text is read). Built on the first label the answer guard reads."""
    found: set[str] = set()
    for rx in [alt for _, alt in _MATCHER.pieces] + [stem for _, stem in _MATCHER._infix]:
        groups = needs(rx.removeprefix("\\w*"))  # what follows a leading \w* is held all the same
        if not groups:
            return None
        best = max(groups, key=lambda group: min(map(len, group)))
        found |= {held[:6] for held in best if held.isascii()}
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
_PAN_CARD = lazy(r"(?i)(?<![a-z])pan[ _.-]?card|PanCard|पैन|पॅन")


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


class _Text:
    """What holds for a whole text, whichever reading of it is matched: each fact (`_FACTS`) is read the first time
    a rule asks for it, so an ordinary text (no phrase found) pays for none of them."""

    def __init__(self, written: str, readings: tuple[str, ...]) -> None:
        self.written = written  # the text decoded, as written
        self.readings = readings  # the text's readings, the first as written

    def __getattr__(self, name: str) -> Any:  # only for a fact not read yet
        if name not in _FACTS:
            raise AttributeError(name)
        value = self.__dict__[name] = _FACTS[name](self)
        return value


def _shouts(pattern: re.Pattern[str]) -> Callable[[_Text], bool]:
    """ "PIN" or "TAN" in capitals inside a text that is not all capitals: the credential, not a connector."""
    def shouts(t: _Text) -> bool:
        written = t.written if t.written.isascii() else t.written + " " + fold_confusables(t.written)  # "РIN"
        return bool(pattern.search(written)) and t.written != t.written.upper()
    return shouts


_FACTS: dict[str, Callable[[_Text], Any]] = {
    "context": lambda t: frozenset(w for words in t.readings for w in words.split()),  # every word of every reading
    "shouts_pin": _shouts(lazy(r"(?<![A-Za-z])PINs?(?![A-Za-z])")),
    "shouts_tan": _shouts(lazy(r"(?<![A-Za-z])TANs?(?![A-Za-z])")),  # a bank's one-time transaction number
    # The text asks or describes a yes/no ("Whether ..."), so it never asks for the credential itself.
    "yes_no": lambda t: bool(t.readings) and t.readings[0].split(" ", 1)[0] in ("whether", "ob"),
    "identifier": lambda t: not any(c.isspace() for c in t.written.strip()),  # is_password_set names a boolean
    # A character beyond Latin, Greek and Cyrillic: the setting substrings are searched.
    "non_latin": lambda t: bool(t.written) and max(t.written) >= _PARTS_FROM,
    "pan_card": lambda t: bool(_PAN_CARD.search(t.written)),  # India's tax id card, whatever follows
    "states": lambda t: _states(t.readings),  # a report of a credential's state or a rule about it, no request
}


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


def _term(text: str) -> str | None:
    text = decoded(text)
    seen = readings(text, _TYPOS)
    if "\u202e" in text:  # an override used only to embed keeps its order; one used to hide a word is turned back
        seen += [r for r in readings(RTL_OVERRIDE.sub(lambda m: m.group(1)[::-1], text), _TYPOS) if r not in seen]
    whole = _Text(text, tuple(seen))
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
