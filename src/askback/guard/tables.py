"""Reading the name guard's tables (`guard/tables/*.txt`, format in `guard/tables/README`).

Four kinds of block, each a header line and the lines under it up to the next header:
`@phrase label | kind | word|part` (one regex alternative a line), `@set NAME` (words separated by spaces),
`@list NAME` (one regex alternative a line, named: `{NAME}` inside a phrase line stands for all of them), and
`@rules` (one rule a line, read by `askback.guard.rules`; ` #` starts a comment).
`common.txt` is read first, then the other files by name: at one position of a text the first phrase that matches
wins, so the order of the blocks is the order of the table.
"""

from __future__ import annotations

import os
import re
from types import MappingProxyType
from typing import NamedTuple

TABLES = os.path.join(os.path.dirname(__file__), "tables")  # no pathlib: the guard is imported at start-up
_FIRST = "common.txt"
_NAME = re.compile(r"\{([A-Z_]+)\}")  # never a quantifier: those are digits


class Phrase(NamedTuple):
    """One credential phrase of a table: what it asks for, how its neighbours are weighed, where it may match."""

    label: str  # what the question asks for ("password", "API key"...)
    kind: str  # which rules weigh its neighbours (`rules.txt`)
    whole: bool  # matched as whole words (True) or anywhere, for scripts written without spaces (False)
    alternatives: tuple[str, ...]


class Tables(NamedTuple):
    phrases: tuple[Phrase, ...]
    sets: MappingProxyType[str, frozenset[str]]
    lists: MappingProxyType[str, tuple[str, ...]]
    rules: tuple[str, ...]  # read by `askback.guard.rules`

    def pattern(self, name: str) -> str:
        """The list `name` as one regex alternation."""
        return "|".join(self.lists[name])


def _blocks(text: str, where: str) -> list[tuple[str, list[str]]]:
    blocks: list[tuple[str, list[str]]] = []
    lines: list[str] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        if line[0] == "@":
            lines = []
            blocks.append((line, lines))
        elif lines is None:
            raise ValueError(f"{where}:{number}: a line before any @phrase, @set or @list header")
        else:
            lines.append(line)
    return blocks


def load(directory: str | os.PathLike[str] = TABLES) -> Tables:
    """Every table in `directory`, `common.txt` first."""
    files = sorted((name for name in os.listdir(directory) if name.endswith(".txt")), key=lambda n: (n != _FIRST, n))
    raw_phrases: list[tuple[str, str, bool, list[str]]] = []
    sets: dict[str, set[str]] = {}
    lists: dict[str, list[str]] = {}
    rules: list[str] = []
    for name in files:
        with open(os.path.join(directory, name), "rb") as file:  # bytes decoded: cheaper than a text file
            text = file.read().decode()
        for header, lines in _blocks(text, name):
            what, _, rest = header[1:].partition(" ")
            if what == "phrase":
                label, kind, mode = (part.strip() for part in rest.split("|"))
                if mode not in ("word", "part"):
                    raise ValueError(f"{name}: {header!r}: the mode is 'word' or 'part'")
                raw_phrases.append((label, kind, mode == "word", lines))
            elif what == "set":
                sets.setdefault(rest.strip(), set()).update(" ".join(lines).split())
            elif what == "list":
                lists.setdefault(rest.strip(), []).extend(lines)
            elif what == "rules":
                rules.extend(line.partition(" #")[0].strip() for line in lines)
            else:
                raise ValueError(f"{name}: unknown header {header!r}")
    named: dict[str, str] = {}

    def alternation(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in named:
            named[name] = "(?:" + "|".join(lists[name]) + ")"
        return named[name]

    phrases = tuple(
        Phrase(label, kind, whole, tuple(_NAME.sub(alternation, line) if "{" in line else line
                                         for line in lines))
        for label, kind, whole, lines in raw_phrases
    )
    return Tables(
        phrases,
        MappingProxyType({name: frozenset(words) for name, words in sets.items()}),
        MappingProxyType({name: tuple(items) for name, items in lists.items()}),
        tuple(rules),
    )
