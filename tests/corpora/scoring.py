"""Scoring both guards on the corpora of tests/corpora: the rates, the figures per corpus, the report.

A corpus is a module of tests/corpora that defines `ENTRIES` (field texts, `blind.Entry`, for the name guard) or
`VALUES` (pasted answers, `blind_values.Value`, for the answer guard); `corpora()` finds them all by that
convention, so a new corpus is scored (by `python bench/guard_report.py` and the floor test in
tests/test_guard_corpora.py) as soon as its file exists. A corpus also records its blind figure, the one it got
when it was first scored, before anyone tuned the guard on it (the figure that estimates accuracy on unseen text):
`BLIND = {"refused": (hits, total), "accepted": (hits, total), "scored_at": "<commit>", "note": "..."}`, missing
where it was never recorded.

Each side of each corpus keeps a floor in CI (`FLOORS` here, `FLOOR` by default), far enough below today's figure
that one honest change to the guard cannot flip it.

`python -m tests.core.test_secrets_<name>` prints the detailed report of one corpus (per language, per trick,
per form, every miss).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import ModuleType
from typing import Any

import tests.corpora
from askback.guard import credential_term, credential_value, field_credential
from tests.corpora.blind import Entry
from tests.corpora.blind_values import Value

# The rate each side of a corpus keeps in CI: the corpora the guard was tuned on score 99-100%, so 97% leaves room
# for honest changes (3 items on the smallest corpus, 44 on the largest) and still catches a regression.
FLOOR = 0.97
# The corpora below keep a floor a few points under their blind figure (blind4/5: 84.1% to 88.4% at af4f91f, tuned
# on since and still under 97%; blind6/7: 83.4% to 93.2%, blind7_values 96.1% and 98.0% at bab8453; blind8 94.4% and
# 95.3%, blind8_values 98.2% and 96.4% at 22131e4; never tuned on): CI then catches a guard that gets worse on unseen
# text without pretending it reaches 97% there.
FLOORS = {"blind4": 0.80, "blind5": 0.80, "blind6": 0.85, "blind7": 0.78, "blind7_values": 0.90, "blind8": 0.90,
          "blind8_values": 0.92}
# Modules of tests/corpora that are not corpora; any other module must define ENTRIES or VALUES.
HELPERS = frozenset({"scoring"})


def refused(entry: Entry) -> bool:
    """Whether the secret guard refuses the entry, handed to it the way a form carries it."""
    if entry.form == "name":
        return field_credential(entry.text, {"type": "string"}) is not None
    if entry.form == "label":
        return field_credential("f", {"type": "string", "title": entry.text}) is not None
    if entry.form == "description":
        return field_credential("f", {"type": "string", "description": entry.text}) is not None
    return credential_term(entry.text) is not None


def value_refused(value: Value) -> bool:
    return credential_value(value.value) is not None


def rate(items: Sequence[Any], want: bool, check: Callable[[Any], bool]) -> float:
    return sum(check(x) == want for x in items) / len(items)


@dataclass(frozen=True)
class Score:
    """How many of a side's items the guard got right, out of how many."""

    hits: int
    total: int

    @property
    def rate(self) -> float:
        return self.hits / self.total

    def __str__(self) -> str:
        return f"{self.hits}/{self.total} = {self.rate:.1%}"


@dataclass(frozen=True)
class Figures:
    refused: Score  # credential-like items the guard refused
    accepted: Score  # ordinary items it accepted


@dataclass(frozen=True)
class Blind:
    """A corpus's figure when it was first scored, before the guard was tuned on it, and the guard's commit."""

    figures: Figures
    scored_at: str
    note: str = ""


@dataclass(frozen=True)
class Scored:
    """One corpus of tests/corpora as found by `corpora()`: its items, which guard reads them, its records."""

    name: str  # the module's name: "blind3", "heldout_values"
    kind: str  # "texts" (the name guard) or "values" (the answer guard)
    items: tuple[Any, ...]
    blind: Blind | None
    floor: float

    def check(self, item: Any) -> bool:
        """Whether the guard refuses the item."""
        return refused(item) if self.kind == "texts" else value_refused(item)

    def figures(self) -> Figures:
        """The figures of the guard as it is now (scored once per process: the report and the tests share them)."""
        return self._figures

    @cached_property
    def _figures(self) -> Figures:
        secret = [x for x in self.items if x.secret]
        ordinary = [x for x in self.items if not x.secret]
        return Figures(Score(sum(map(self.check, secret)), len(secret)),
                       Score(sum(not self.check(x) for x in ordinary), len(ordinary)))

    def below_floor(self, now: Figures | None = None) -> list[str]:
        """The sides of `now` (default: the guard as it is) under the corpus's floor, said with their counts."""
        now = self.figures() if now is None else now
        return [f"{side} {score} < {self.floor:.0%}" for side, score in (("refused", now.refused),
                                                                       ("accepted", now.accepted))
                if score.rate < self.floor]

    def misses(self) -> tuple[list[Any], list[Any]]:
        """The credential-like items it let through and the ordinary items it refused."""
        return ([x for x in self.items if x.secret and not self.check(x)],
                [x for x in self.items if not x.secret and self.check(x)])


def scored(module: ModuleType) -> Scored:
    """A corpus module as a `Scored` corpus; ValueError for a module that is not one or whose records are wrong."""
    name = module.__name__.rsplit(".", 1)[-1]
    kinds = [(kind, getattr(module, attr)) for kind, attr in (("texts", "ENTRIES"), ("values", "VALUES"))
             if hasattr(module, attr)]
    if len(kinds) != 1:
        raise ValueError(f"tests/corpora/{name}.py must define exactly one of ENTRIES (field texts) or VALUES "
                         f"(answers), or be listed in scoring.HELPERS")
    [(kind, items)] = kinds
    record = getattr(module, "BLIND", None)
    blind = None
    if record is not None:
        required = {"refused", "accepted", "scored_at"}
        if not required <= set(record) <= required | {"note"}:
            raise ValueError(f"tests/corpora/{name}.py: BLIND needs refused, accepted and scored_at (and maybe note)")
        blind = Blind(Figures(Score(*record["refused"]), Score(*record["accepted"])), record["scored_at"],
                      record.get("note", ""))
    return Scored(name, kind, tuple(items), blind, FLOORS.get(name, FLOOR))


def corpora() -> list[Scored]:
    """Every corpus in tests/corpora, by module name; ValueError for a module that is neither corpus nor helper."""
    names = sorted(m.name for m in pkgutil.iter_modules(tests.corpora.__path__) if m.name not in HELPERS)
    return [scored(importlib.import_module(f"tests.corpora.{name}")) for name in names]


@dataclass(frozen=True)
class Corpus:
    entries: Sequence[Entry]
    values: Sequence[Value]
    min_texts: int = 700  # of each side
    min_values: int = 250
    secret: list[Entry] = field(init=False)
    ordinary: list[Entry] = field(init=False)
    secret_values: list[Value] = field(init=False)
    ordinary_values: list[Value] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "secret", [e for e in self.entries if e.secret])
        object.__setattr__(self, "ordinary", [e for e in self.entries if not e.secret])
        object.__setattr__(self, "secret_values", [v for v in self.values if v.secret])
        object.__setattr__(self, "ordinary_values", [v for v in self.values if not v.secret])

    def report(self) -> str:
        lines = [
            f"[secret guard] refused {rate(self.secret, True, refused):.1%} of {len(self.secret)} credential-like, "
            f"accepted {rate(self.ordinary, False, refused):.1%} of {len(self.ordinary)} ordinary",
        ]
        for key in ("lang", "trick", "form"):
            lines.append(f"-- by {key}: group  refused/credential  accepted/ordinary")
            lines += _table(self.entries, lambda e, k=key: getattr(e, k), refused)
        lines.append(
            f"[answer guard] refused {rate(self.secret_values, True, value_refused):.1%} of "
            f"{len(self.secret_values)} credential-like values, accepted "
            f"{rate(self.ordinary_values, False, value_refused):.1%} of {len(self.ordinary_values)} ordinary"
        )
        lines.append("-- by kind: kind  refused/credential  accepted/ordinary")
        lines += _table(self.values, lambda v: v.kind, value_refused)
        lines.append("-- missed credential-like entries (form, lang, trick, text):")
        lines += [f"   {e.form:11} {e.lang:7} {e.trick:20} {e.text!r}" for e in self.secret if not refused(e)]
        lines.append("-- refused ordinary entries (form, lang, trick, text):")
        lines += [f"   {e.form:11} {e.lang:7} {e.trick:20} {e.text!r}" for e in self.ordinary if refused(e)]
        lines.append("-- missed credential-like values (kind, value):")
        lines += [f"   {v.kind:26} {str(v.value)[:90]!r}" for v in self.secret_values if not value_refused(v)]
        lines.append("-- refused ordinary values (kind, label, value):")
        lines += [f"   {v.kind:26} {credential_value(v.value)!r} {str(v.value)[:80]!r}"
                  for v in self.ordinary_values if value_refused(v)]
        return "\n".join(lines)


def _table(items: Sequence[Any], key: Callable[[Any], str], check: Callable[[Any], bool]) -> list[str]:
    groups: dict[str, list[Any]] = defaultdict(list)
    for x in items:
        groups[key(x)].append(x)
    rows = []
    for name in sorted(groups):
        sec = [x for x in groups[name] if x.secret]
        ordi = [x for x in groups[name] if not x.secret]
        s = f"{sum(check(x) for x in sec)}/{len(sec)}" if sec else "-"
        o = f"{sum(not check(x) for x in ordi)}/{len(ordi)}" if ordi else "-"
        rows.append(f"   {name:26} {s:>9} {o:>9}")
    return rows


class CorpusChecks:
    """The checks of a corpus's size and spread (its rates are held to its floor by tests/test_guard_corpora.py,
    with every other corpus)."""

    corpus: Corpus

    def test_corpus_size_and_spread(self) -> None:
        c = self.corpus
        assert len(c.secret) >= c.min_texts and len(c.ordinary) >= c.min_texts
        assert len({e.lang for e in c.entries}) >= 25
        assert {e.form for e in c.entries} == {"name", "label", "description", "message"}
        assert len({e.trick for e in c.entries if not e.trick.startswith("style:")}) >= 20
        assert len(c.secret_values) >= c.min_values and len(c.ordinary_values) >= c.min_values
        assert len({(e.text, e.form) for e in c.entries}) == len(c.entries)  # no entry counted twice
