"""What a phrase of the tables can begin with: its first few characters, read from the phrase's own text.

The name guard tries, at each word of a text, only the phrases whose beginning is there; most words begin no
phrase at all, so most texts compile and try nothing. A beginning is read from literal characters, `(?:...|...)`
groups and `?`, `*`, `+` after them; anything else (an escape, a class, a lookaround) ends the beginning where it
stands: a shorter beginning means more words are tried, never fewer, so a phrase is never missed.
"""

from __future__ import annotations

import re
from typing import Any

_MAX = 512  # a phrase that can begin in more ways than this is tried at every word
_SPECIAL = "\\()[]{}|*+?.^$"

# A beginning read so far and whether it may still grow (False: what follows it was not read).
_Heads = set[tuple[str, bool]]


class _Unread(Exception):
    pass


def prefixes(rx: str, width: int) -> frozenset[str] | None:
    """Strings one of which begins every match of `rx`: `width` characters long, or shorter where the phrase ends
    or stops being literal. None when a match could begin anywhere (the phrase is tried at every word)."""
    if len(rx) > width and not any(c in _SPECIAL for c in rx[: width + 1]):
        return frozenset((rx[:width],))  # most phrases begin with a plain word: read without the parser below
    try:
        heads, end = _alternation(rx, 0, {("", True)}, width)
    except (_Unread, IndexError, ValueError):
        return None
    found = frozenset(head for head, _ in heads)
    return None if end != len(rx) or "" in found else found


def _alternation(rx: str, i: int, heads: _Heads, width: int) -> tuple[_Heads, int]:
    out: _Heads = set()
    while True:
        got, i = _sequence(rx, i, heads, width)
        out |= got
        if len(out) > _MAX:
            raise _Unread
        if i < len(rx) and rx[i] == "|":
            i += 1
            continue
        return out, i


def _sequence(rx: str, i: int, heads: _Heads, width: int) -> tuple[_Heads, int]:
    """One alternative, from the beginnings that lead into it."""
    while i < len(rx) and rx[i] not in "|)":
        if not any(grows for _, grows in heads):
            return heads, _alternative_end(rx, i)
        if rx.startswith(("(?!", "(?=", "(?<!", "(?<="), i):  # consumes nothing: the beginning goes on after it
            i = _alternative_end(rx, i + 3) + 1
            continue
        if rx.startswith("\\d", i):
            item, i = {(h + d, len(h) + 1 < width) if g else (h, False) for h, g in heads for d in "0123456789"}, i + 2
        elif rx.startswith("(?:", i):
            item, i = _alternation(rx, i + 3, heads, width)
            if rx[i] != ")":
                raise _Unread
            i += 1
        elif rx[i] in _SPECIAL:
            return {(head, False) for head, _ in heads}, _alternative_end(rx, i)
        else:
            char, i = rx[i], i + 1
            item = {(head + char, len(head) + 1 < width) if grows else (head, False) for head, grows in heads}
        if i < len(rx) and rx[i] == "{":  # a count, maybe none: where it leads is not followed
            item, i = {(head, False) for head, _ in item | heads}, rx.index("}", i) + 1
        elif i < len(rx) and rx[i] in "?*+":
            repeat, i = rx[i], i + 1
            if repeat == "?":
                item |= heads
            else:  # the item again, or not at all for `*`: where that leads is not followed
                item = {(head, False) for head, _ in item | (heads if repeat == "*" else set())}
        heads = item
    return heads, i


def _alternative_end(rx: str, i: int) -> int:
    """The index of the `|` or `)` that ends the alternative `i` is in (escapes and classes skipped whole)."""
    depth = 0
    while i < len(rx):
        char = rx[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            i = rx.index("]", i + 2) + 1
            continue
        if depth == 0 and char in "|)":
            return i
        depth += (char == "(") - (char == ")")
        i += 1
    return i


def required(rx: str) -> str:
    """The longest run of literal characters every match of `rx` holds ("(?:access|api) ?tokens?" holds "token"),
    or "" when none is read: a text without it is not tried with `rx` at all."""
    best, run, depth, i = "", "", 0, 0
    while i < len(rx):
        char, nxt = rx[i], rx[i + 1 : i + 2]
        if depth == 0 and char == "|":
            return ""  # alternatives at the top: no one run is in every match
        if char in "\\[{":  # an escape, a class, a count: skipped whole, never part of a run
            i = i + 2 if char == "\\" else rx.index("]" if char == "[" else "}", i + 2) + 1
            char = ""
        elif char in "()":
            depth += 1 if char == "(" else -1
            i, char = i + 1, ""
        else:
            i += 1
        literal = depth == 0 and char != "" and char not in _SPECIAL and nxt not in ("?", "*", "{")
        run = run + char if literal else ""
        if len(run) > len(best):
            best = run
        if nxt == "+":
            run = ""
    return best


def trie(words: list[str]) -> str:
    """One regex matching the longest of `words`, as a trie of alternations: a position costs a test of its first
    character rather than one per word (an alternation of words is tried word by word)."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + emit(sub) for char, sub in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(root)
