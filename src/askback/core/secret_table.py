"""Reading the secret guard's phrase table: its pieces, and what each can begin with.

`askback.core.secrets` matches a text word by word, trying at each word only the pieces (an entry's top-level
alternatives) that can begin there. What a piece can begin with is read here, from the piece's text: its first
characters (`_piece_first_chars`, quick enough for a start-up), or its first two (`starts`, with `re`'s own
parser: for the snapshot, `askback.core.secret_index`, written by `main`). A server whose snapshot is current
never imports this module; with a stale one, the guard reads its table here on its first check.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Sequence
from typing import Any

from askback.core.secret_index import SNAPSHOT, WIDTH, fingerprint
from askback.core.secrets import _ENTRIES, _WORD_START, _trie

_MAX_STARTS = 2048  # a piece that can start in more ways than this is tried everywhere


# -- first characters, and the pieces themselves ------------------------------------------------------------
_SPECIAL = frozenset("\\()[]{}|*+?.^$")


class _Unread(Exception):
    """A construct `_plain_first_chars` does not read; `re`'s own parser reads the piece instead."""


def _plain_first_chars(rx: str) -> frozenset[str] | None:
    """`_first_chars` for a piece made only of literal characters, `(?:...|...)` groups, `?`, `*` and `+`, read
    from its text (most of the table), without `re`'s pure-Python parser: that is most of the guard's start-up.
    Anything else raises `_Unread`. A test checks it agrees with `_first_chars` on every piece of the table."""
    found, nullable, end = _plain_seq(rx, 0)
    if end != len(rx):
        raise _Unread
    return None if nullable else frozenset(found)


def _plain_seq(rx: str, i: int) -> tuple[set[str], bool, int]:
    """First characters of the alternatives from `i` to the closing `)` (or the end), whether one can be empty."""
    found: set[str] = set()
    nullable = False
    while True:
        first, empty, i = _plain_items(rx, i)
        found |= first
        nullable = nullable or empty
        if i < len(rx) and rx[i] == "|":
            i += 1
            continue
        return found, nullable, i


def _plain_items(rx: str, i: int) -> tuple[set[str], bool, int]:
    """One alternative: its items in turn until one that cannot be empty; what follows that is only skipped."""
    found: set[str] = set()
    while i < len(rx) and rx[i] not in "|)":
        if rx.startswith("(?:", i):
            first, empty, i = _plain_seq(rx, i + 3)
            if i >= len(rx) or rx[i] != ")":
                raise _Unread
            i += 1
        elif rx[i] in _SPECIAL:
            raise _Unread  # an escape, a class, a lookaround... reached before any character: `re` reads it
        else:
            first, empty, i = {rx[i]}, False, i + 1
        if i < len(rx) and rx[i] in "?*+":
            empty = empty or rx[i] != "+"
            i += 1
            if i < len(rx) and rx[i] in "?+":
                raise _Unread  # lazy or possessive: left to `re`
        found |= first
        if not empty:
            return found, False, _alternative_end(rx, i)
    return found, True, i


def _alternative_end(rx: str, i: int) -> int:
    """The index of the `|` or `)` that ends the alternative `i` is in (escapes and classes skipped whole)."""
    depth = 0
    while i < len(rx):
        char = rx[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            close = rx.find("]", i + 2)
            if close < 0:
                raise _Unread
            i = close + 1
            continue
        if depth == 0 and char in "|)":
            return i
        depth += (char == "(") - (char == ")")
        i += 1
    return i


def _piece_first_chars(rx: str) -> frozenset[str] | None:
    try:
        return _plain_first_chars(rx)
    except _Unread:
        return _first_chars(rx)


def _first_chars(rx: str) -> frozenset[str] | None:
    """The characters a match of `rx` can start with, or None when it could start with any."""
    parser: Any = importlib.import_module("re._parser")
    const: Any = importlib.import_module("re._constants")

    def seq(items: Any) -> tuple[set[str], bool] | None:
        found: set[str] = set()
        for op, av in items:
            one = item(op, av)
            if one is None:
                return None
            found |= one[0]
            if not one[1]:
                return found, False
        return found, True

    def item(op: Any, av: Any) -> tuple[set[str], bool] | None:
        if op is const.LITERAL:
            return {chr(av)}, False
        if op is const.IN:
            chars: set[str] = set()
            for sop, sav in av:
                if sop is const.LITERAL:
                    chars.add(chr(sav))
                elif sop is const.RANGE and sav[1] - sav[0] < 4096:
                    chars.update(chr(c) for c in range(sav[0], sav[1] + 1))
                elif sop is const.CATEGORY and sav is const.CATEGORY_DIGIT:
                    chars.update("0123456789")
                else:
                    return None
            return chars, False
        if op is const.SUBPATTERN:
            return seq(av[3])
        if op is const.BRANCH:
            found: set[str] = set()
            nullable = False
            for alternative in av[1]:
                one = seq(alternative)
                if one is None:
                    return None
                found |= one[0]
                nullable = nullable or one[1]
            return found, nullable
        if op in (const.MAX_REPEAT, const.MIN_REPEAT):
            one = seq(av[2])
            return None if one is None else (one[0], one[1] or av[0] == 0)
        if op in (const.ASSERT, const.ASSERT_NOT, const.AT):
            return set(), True
        return None

    try:
        result = seq(parser.parse(rx))
    except Exception:  # an analysis this module cannot do only costs speed: try the entry everywhere
        return None
    return None if result is None or result[1] else frozenset(result[0])


def _alternatives(body: str) -> list[str]:
    """`body` split at its top-level `|` (not inside a group or a character class)."""
    parts: list[str] = []
    depth, start, i, in_class = 0, 0, 0, False
    while i < len(body):
        char = body[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(body[start:i])
            start = i + 1
        i += 1
    parts.append(body[start:])
    return parts


_LITERAL_ALTERNATIVE = re.compile(r"(?:[^\\()\[\]{}|*+.^$?](?:\?)?)+")


def _factor_head(alt: str) -> str:
    """`alt` with a leading group of literal alternatives factored into a trie (same language, faster to try)."""
    if not alt.startswith("(?:"):
        return alt
    depth, end = 0, 0
    while end < len(alt):
        depth += (alt[end] == "(") - (alt[end] == ")")
        if depth == 0:
            break
        end += 1
    group = alt[3:end]
    options = group.split("|")
    if len(options) < 4 or not all(_LITERAL_ALTERNATIVE.fullmatch(o) for o in options):
        return alt
    variants: list[str] = []
    for option in options:
        forms = [""]
        for i, char in enumerate(option):
            if char == "?":
                continue
            optional = option[i + 1 : i + 2] == "?"
            forms = [f + char for f in forms] + (forms if optional else [])
        variants += forms
    return "(?:" + _trie("|".join(v for v in variants if v)) + ")" + alt[end + 1 :] if all(variants) else alt


def _derived_pieces() -> tuple[tuple[str, str], ...]:
    """Every whole-word entry's top-level alternatives, each its own group (`g<entry>x<n>`), in order."""
    head, tail = _WORD_START + "(?:", ")(?!\\w)"
    pieces: list[tuple[str, str]] = []
    for i, (_, _, rx) in enumerate(_ENTRIES):
        if rx.startswith(head) and rx.endswith(tail):
            body = rx[len(head):-len(tail)]
            pieces += [(f"g{i}x{n}", f"(?:{_factor_head(alt)})(?!\\w)") for n, alt in enumerate(_alternatives(body))]
    return tuple(pieces)


def rendered() -> str:
    """The snapshot of the running table, as `secret_index.json` keeps it (one piece a line)."""
    regexes = [rx for _, _, rx in _ENTRIES]
    lines = []
    for name, piece in _derived_pieces():
        begins = starts(piece)
        lines.append(json.dumps([name, piece, None if begins is None else sorted(begins)], ensure_ascii=False))
    return (
        f'{{"fingerprint": "{fingerprint(regexes)}",\n "width": {WIDTH},\n "pieces": [\n  '
        + ",\n  ".join(lines)
        + "\n ]\n}\n"
    )


# -- reading what a regex can start with ---------------------------------------------------------------------
# A set of strings of at most WIDTH characters: a string of WIDTH characters is a beginning of a match, a shorter
# one is a whole match. None: not read (the piece could start anywhere).
_Starts = set[str] | None


def starts(rx: str) -> frozenset[str] | None:
    """The `WIDTH`-character beginnings of the texts `rx` can match at a position (shorter: whole matches), or
    None when they cannot be read or when `rx` can match the empty text."""
    parser: Any = importlib.import_module("re._parser")  # `re`'s own reading of a pattern (no stubs: private)
    try:
        parsed = parser.parse(rx)
    except re.error:
        return None
    if parsed.state.flags & (re.IGNORECASE | re.LOCALE):
        return None
    found = _sequence(parsed.data)
    if found is None or "" in found or len(found) > _MAX_STARTS:
        return None
    return frozenset(found)


def _joined(heads: set[str], tails: set[str]) -> set[str]:
    out = set()
    for head in heads:
        if len(head) >= WIDTH:
            out.add(head)
            continue
        for tail in tails:
            out.add((head + tail)[:WIDTH])
    return out


def _sequence(items: Sequence[tuple[Any, Any]]) -> _Starts:
    found = {""}
    for op, av in items:
        one = _item(op, av)
        if one is None:
            return None
        found = _joined(found, one)
        if len(found) > _MAX_STARTS:
            return None
        if all(len(s) >= WIDTH for s in found):
            break  # what follows cannot change a beginning any more
    return found


def _item(op: Any, av: Any) -> _Starts:
    c: Any = importlib.import_module("re._constants")

    if op is c.LITERAL:
        return {chr(av)}
    if op is c.IN:
        chars: set[str] = set()
        for sub_op, sub_av in av:
            if sub_op is c.LITERAL:
                chars.add(chr(sub_av))
            elif sub_op is c.RANGE and sub_av[1] - sub_av[0] < _MAX_STARTS:
                chars.update(chr(code) for code in range(sub_av[0], sub_av[1] + 1))
            else:
                return None  # a negated class, \d (any Unicode digit), \w, \s...: too many to list
        return chars
    if op is c.SUBPATTERN:
        _, add_flags, del_flags, body = av
        if add_flags or del_flags:
            return None  # (?i:...) and the like
        return _sequence(body.data)
    if op is c.ATOMIC_GROUP:
        return _sequence(av.data)
    if op is c.BRANCH:
        union: set[str] = set()
        for alternative in av[1]:
            one = _sequence(alternative.data)
            if one is None:
                return None
            union |= one
        return union
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
        low, high, body = av
        one = _sequence(body.data)
        if one is None:
            return None
        found = {""} if low == 0 else set()
        repeated = {""}
        count = 0
        while count < high:
            count += 1
            grown = _joined(repeated, one)
            if count >= low:
                if grown <= found and grown == repeated:
                    break  # no more repetitions can add a beginning
                found |= grown
            repeated = grown
            if len(found) > _MAX_STARTS:
                return None
        return found
    if op in (c.ASSERT, c.ASSERT_NOT, c.AT):
        return {""}  # consumes nothing (its condition is not read: more beginnings, never fewer)
    return None  # ANY, NOT_LITERAL, back references, conditionals...


def main() -> None:
    """Write the snapshot of the running table (`python -m askback.core.secret_index`)."""
    SNAPSHOT.write_text(rendered(), encoding="utf-8")
    print(f"wrote {SNAPSHOT}")
