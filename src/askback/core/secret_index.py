"""The secret guard's phrase table, analysed ahead of time: its pieces and the two characters each can start with.

The guard matches a text word by word, and at each word tries only the phrases ("pieces") that can begin there
(`askback.core.secrets._Dispatch`). Splitting the table into pieces and reading what each can start with takes
tens of milliseconds of pure Python, and the fewer pieces a matcher holds the less `re` has to compile on the
first check: most of what a server's first registration would wait for. So `secret_index.json` keeps, for the
table as it is, every piece and the set of two-character beginnings each can match (read with `re`'s own parser,
its language over-approximated: lookarounds are skipped, anything not read exactly means "could start anywhere"),
with the fingerprint of the table's regexes. `load()` returns it only when that fingerprint is the running
table's; otherwise the guard reads the first characters itself, as before, and matches exactly the same way (a
test proves the two agree on every corpus text). `python -m askback.core.secret_index` rewrites the snapshot; a
test fails while it is out of date.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SNAPSHOT = Path(__file__).with_name("secret_index.json")
WIDTH = 2  # characters of a word that choose its matcher
_FORMAT = 1
_MAX_STARTS = 2048  # a piece that can start in more ways than this is tried everywhere


@dataclass(frozen=True)
class PhraseIndex:
    """Every piece of the table in order, and for each the `WIDTH`-character beginnings it can match (None: any)."""

    pieces: tuple[tuple[str, str], ...]
    starts: Mapping[str, frozenset[str] | None]
    width: int = WIDTH


def fingerprint(regexes: Iterable[str]) -> str:
    """sha256 of the table's regexes (in order) and of this snapshot's format."""
    digest = hashlib.sha256(f"secret index {_FORMAT} width {WIDTH}".encode())
    for rx in regexes:
        digest.update(b"\0" + rx.encode())
    return digest.hexdigest()


def load(regexes: Sequence[str], path: Path = SNAPSHOT) -> PhraseIndex | None:
    """The snapshot, or None when it was not taken from this table (or cannot be read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("fingerprint") != fingerprint(regexes) or data.get("width") != WIDTH:
        return None
    pieces = tuple((name, piece) for name, piece, _ in data["pieces"])
    starts = {name: None if begins is None else frozenset(begins) for name, _, begins in data["pieces"]}
    return PhraseIndex(pieces, starts)


def rendered() -> str:
    """The snapshot of the running table, as `secret_index.json` keeps it (one piece a line)."""
    from askback.core import secrets

    regexes = [rx for _, _, rx in secrets._ENTRIES]
    lines = []
    for name, piece in secrets._derived_pieces():
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
    import re
    from importlib import import_module

    parser: Any = import_module("re._parser")  # `re`'s own reading of a pattern (no stubs: private to `re`)
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
    from importlib import import_module

    c: Any = import_module("re._constants")

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
    SNAPSHOT.write_text(rendered(), encoding="utf-8")
    print(f"wrote {SNAPSHOT}")


if __name__ == "__main__":
    main()
