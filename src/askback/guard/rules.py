"""The rules that weigh a credential phrase's neighbours (`guard/tables/rules.txt`), read by one small interpreter.

A rule is one line, `CONDITION && CONDITION ... => ordinary` or `=> credential`; the first rule whose conditions all
hold decides, and a phrase no rule decides counts as a credential. A condition (`!` before it negates it) is:

- `kind=a,b` / `label=a,b`: the phrase's kind or label is one of these;
- `WHERE~SETS`: a word there is in one of the sets (`A|B|{x,y}`: sets of the tables, or words written inline).
  WHERE is `prev` (the word before), `prev2` (the one before it), `next`, `second` (the word after `next`),
  `beforeN` / `afterN` (the N words before / after), `aroundN` (both), `headN` (the first N words of the text up to
  the phrase), `context` (every word of the text, in every reading), `matched` (the phrase as matched);
- `matched^=a,b` / `matched$=a,b`: the phrase begins / ends with one of these;
- `count<N`, `count<=N`, `count=N`, `count!=N`, `count>N`: how many words the text has;
- a name: a fact about the text or the occurrence the guard computes (`identifier`, `yes_no`, `purpose`...).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any, NamedTuple

_WHERE = re.compile(r"(prev2|prev|next|second|before\d|after\d|around\d|head\d|context|matched)~(.+)")
_COUNT = re.compile(r"count(<=|<|!=|=|>)(\d+)")
_OPS: dict[str, Callable[[int, int], bool]] = {"<=": operator.le, "<": operator.lt, "!=": operator.ne,
                                                "=": operator.eq, ">": operator.gt}


class Occurrence(NamedTuple):
    """A phrase where it was found: its neighbours and what holds for the whole text (`text`)."""

    kind: str
    label: str
    matched: str
    before: tuple[str, ...]  # up to six words before it
    after: tuple[str, ...]  # up to three words after it
    length: int  # words in the text
    window: str  # a few characters either side, for scripts written without spaces
    text: Any  # what holds for the whole text (its flags and `context`)

    def words(self, where: str) -> Collection[str]:
        if where == "prev2":
            return self.before[-2:-1]
        n = int(where[-1]) if where[-1].isdigit() else 0
        context: frozenset[str] = self.text.context
        return {
            "prev": self.before[-1:], "next": self.after[:1], "second": self.after[1:2],
            "before": self.before[-n:] if n else (), "after": self.after[:n], "head": self.before[:n],
            "around": self.before[-n:] + self.after[:n] if n else (), "context": context,
            "matched": (self.matched,),
        }[where.rstrip("0123456789")]


Check = Callable[[Occurrence], bool]


class Rule(NamedTuple):
    checks: tuple[Check, ...]
    ordinary: bool
    source: str  # the line, for a reader of a failing test


def _words(spec: str, sets: Mapping[str, frozenset[str]]) -> frozenset[str]:
    if spec in sets:
        return sets[spec]  # one set: used as it is, not copied
    out: set[str] = set()
    for part in spec.split("|"):
        out |= set(part[1:-1].split(",")) if part.startswith("{") else sets[part]
    return frozenset(out)


def _check(atom: str, sets: Mapping[str, frozenset[str]], named: Mapping[str, Check]) -> Check:
    if atom.startswith("!"):
        inner = _check(atom[1:], sets, named)
        return lambda o: not inner(o)
    if atom.startswith(("kind=", "label=")):
        field, _, values = atom.partition("=")
        allowed = frozenset(values.split(","))
        return lambda o: getattr(o, field) in allowed
    if atom.startswith(("matched^=", "matched$=")):
        ends = tuple(sets[atom[9:]] if atom[9:] in sets else atom[9:].split(","))
        return (lambda o: o.matched.startswith(ends)) if atom[7] == "^" else (lambda o: o.matched.endswith(ends))
    where = _WHERE.fullmatch(atom)
    if where:
        place, words = where.group(1), _words(where.group(2), sets)
        return lambda o: not words.isdisjoint(o.words(place))
    count = _COUNT.fullmatch(atom)
    if count:
        op, n = _OPS[count.group(1)], int(count.group(2))
        return lambda o: op(o.length, n)
    return named[atom]


def parse(lines: tuple[str, ...], sets: Mapping[str, frozenset[str]], named: Mapping[str, Check]) -> tuple[Rule, ...]:
    """The rules of the tables; a rule that names what does not exist fails at import, with its line."""
    rules = []
    for line in lines:
        condition, arrow, outcome = line.partition("=>")
        if not arrow or outcome.strip() not in ("ordinary", "credential"):
            raise ValueError(f"rule {line!r}: ends with '=> ordinary' or '=> credential'")
        try:
            checks = tuple(_check(atom.strip(), sets, named) for atom in condition.split("&&") if atom.strip())
        except KeyError as missing:
            raise ValueError(f"rule {line!r}: no set or check named {missing}") from None
        rules.append(Rule(checks, outcome.strip() == "ordinary", line))
    return tuple(rules)


def ordinary(rules: tuple[Rule, ...], occurrence: Occurrence) -> bool:
    """Whether the first rule that holds makes `occurrence` ordinary (no rule: a credential)."""
    for rule in rules:
        if all(check(occurrence) for check in rule.checks):
            return rule.ordinary
    return False
