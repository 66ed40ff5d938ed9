"""What a phrase of the tables begins with and what it holds, read from the phrase's own text.

The name guard tries, at each word of a text, only the phrases whose beginning is there (`heads`), and compiles
and tries one only when the text holds its literal parts (`needs`); most words begin no phrase, so an ordinary
text compiles nothing. Both read literal characters and `(...)` groups only; anything else (an escape, a class, a
count) ends what is read where it stands: less is read, so more is tried, and a phrase is never missed. They scan
with patterns, a Python step per parenthesis, not per character: every phrase of the tables is read at import.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

_LOOK = ("(?!", "(?=", "(?<!", "(?<=")
_ESCAPE = r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|.)"
_CLASS = _ESCAPE + r"|\[\^?\]?(?:" + _ESCAPE + r"|[^\]\\])*\]"  # an escape or a class: skipped whole
# A run that holds nothing of interest is skipped in one step (a scan char by char is slow on long lists).
_PARENS = re.compile(r"[^\\\[()]*+(" + _CLASS + r"|[()])")
_BAR = re.compile(r"[^\\\[|]*+(" + _CLASS + r"|\|)")
_SKIPPED = re.compile(_CLASS)
_COUNT = re.compile(r"\{[\d,]*\}")
_QUANTIFIER = re.compile(r"[?*+]|\{[\d,]*\}")
# Literal characters none of which a quantifier may leave out (\0 stands for an escape or a class, \1 for a count).
_LITERALS = re.compile(r"(?:[^\0\1\\()\[\]{}|*+?.^$](?![?*{\1]))*")
_PLAIN = re.compile(r"[^\0\1\\()\[\]{}|*+?.^$]*")  # the same, read faster: see `_lead`
_OPTIONAL = ("?", "*", "{")


def _lead(alt: str) -> str:
    """The literal characters `alt` begins with, but one a quantifier may leave out ("tokens?" begins "token")."""
    lead: str = _PLAIN.match(alt)[0]  # type: ignore[index]
    return lead[:-1] if alt[len(lead) : len(lead) + 1] in _OPTIONAL else lead


def _level(rx: str) -> tuple[list[tuple[int, int]], list[int]]:
    """The groups at the top level of `rx` (from "(" to past ")") and where its top-level "|" are."""
    groups, depth, start = [], 0, 0
    for item in _PARENS.finditer(rx):
        if item[1] == "(":
            start = item.start(1) if depth == 0 else start
            depth += 1
        elif item[1] == ")":
            depth -= 1
            if depth == 0:
                groups.append((start, item.end()))
    if depth:
        raise ValueError(f"unbalanced: {rx!r}")
    bars, last = [], 0
    for begin, end in [*groups, (len(rx), len(rx))]:
        if "|" in rx[last:begin]:
            bars += [last + b.start(1) for b in _BAR.finditer(rx[last:begin]) if b[1] == "|"]
        last = end
    return groups, bars


def _inside(rx: str, begin: int, end: int) -> str:
    return rx[begin + (3 if rx[begin + 1] == "?" else 1) : end - 1]


_INNERMOST = re.compile(r"\([^()]*\)")
_FLAT_GROUP = re.compile(r"\(\?:([^()\[\]\\]*)\)")  # a group with no group, class or escape inside


def _top_bar(rx: str) -> bool:
    """Whether `rx` has a "|" outside every group: its groups are dropped, the innermost first."""
    flat = _SKIPPED.sub("", rx) if "\\" in rx or "[" in rx else rx
    while "(" in flat:
        inner = _INNERMOST.sub("", flat)
        if inner == flat:
            raise ValueError(f"unbalanced: {rx!r}")
        flat = inner
    return "|" in flat


def _begins(alt: str, width: int) -> set[str] | None:
    """What an alternative that opens with a group begins with ("" when it can match nothing), or None."""
    if alt[:1] != "(" or (alt[1] == "?" and not alt.startswith(_LOOK) and not alt.startswith("(?:")):
        return None  # an escape, a class, a flag, a character a quantifier may leave out
    group = _FLAT_GROUP.match(alt)
    end = group.end() if group else _level(alt)[0][0][1]
    if alt.startswith(_LOOK):  # consumes nothing: the beginning goes on after it
        return _heads(alt[end:], width)
    found = _heads(group[1] if group else _inside(alt, 0, end), width)
    quantifier = _QUANTIFIER.match(alt, end)
    more = quantifier[0] if quantifier else ""
    if found is None or more.startswith("{"):
        return None
    if more in ("?", "*") or "" in found:  # the group may match nothing: what follows it begins a match too
        after = _heads(alt[end + len(more) :], width)
        return None if after is None else (found - {""}) | after
    return {head[:width] for head in found}


def _heads(rx: str, width: int) -> set[str] | None:
    if "(" not in rx and "[" not in rx and "\\|" not in rx:
        alternatives = rx.split("|")
    elif not _top_bar(rx):
        alternatives = [rx]
    else:
        cuts = [-1, *_level(rx)[1], len(rx)]
        alternatives = [rx[a + 1 : b] for a, b in itertools.pairwise(cuts)]
    found: set[str] = set()
    for alt in alternatives:
        lead = _lead(alt)
        begins = {lead[:width]} if lead or not alt else _begins(alt, width)
        if begins is None:
            return None
        found |= begins
    return found


def heads(rx: str, width: int) -> frozenset[str] | None:
    """Strings one of which begins every match of `rx`, at most `width` characters long; None when a match could
    begin anywhere (the phrase is tried at every word)."""
    try:
        lead = _lead(rx)
        if lead and ("|" not in rx or not _top_bar(rx)):  # most phrases begin with a literal word
            return frozenset((lead[:width],))
        found = _heads(rx, width)
    except (ValueError, IndexError):
        return None
    return None if found is None or "" in found else frozenset(found)


def needs(rx: str, opening: bool = True) -> tuple[tuple[str, ...], ...]:
    """What every match of `rx` holds: groups of literal strings, one of each group in every match
    ("(?:access|api) ?tokens?" holds "token", and "access" or "api"); () when nothing is read. Without `opening`,
    a group `rx` opens with is not read (a caller that found where `rx` begins knows what it holds)."""
    try:
        groups, bars = _level(rx)
    except ValueError:
        return ()
    if bars:
        return ()
    out: list[tuple[str, ...]] = []
    level, last = [], 0
    for begin, end in groups:
        quantifier = _QUANTIFIER.match(rx, end)
        more = quantifier[0] if quantifier else ""
        look = rx.startswith(_LOOK, begin)
        level += [rx[last:begin], "" if look else "\0"]  # a group inside breaks the runs around it
        last = end + len(more)
        if not look and more in ("", "+") and (opening or begin > 0):
            inner = _inside(rx, begin, end)
            begins = heads(inner, 99) if "(" in inner else [
                _LITERALS.match(alt)[0] for alt in _SKIPPED.sub("\0", inner).split("|")]  # type: ignore[index]
            if begins and all(begins):
                out.append(tuple(sorted(set(begins))))
    flat = _COUNT.sub("\1", _SKIPPED.sub("\0", "".join([*level, rx[last:]])))
    return tuple((run,) for run in _LITERALS.findall(flat) if len(run) > 1) + tuple(out)


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
