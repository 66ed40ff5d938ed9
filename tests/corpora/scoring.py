"""Scoring both guards on a corpus of field texts and pasted values: the rates, the report, the checks.

Each corpus test module (`tests/core/test_secrets_blind3.py`, `_heldout.py`, `_final.py`) subclasses
`CorpusChecks` with its corpus; `python -m tests.core.test_secrets_<name>` prints its report.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from askback.guard import credential_term, credential_value, field_credential
from tests.corpora.blind import Entry
from tests.corpora.blind_values import Value


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
    """The checks every scored corpus must pass: its size and spread, and 99% on each side of both guards."""

    corpus: Corpus

    def test_corpus_size_and_spread(self) -> None:
        c = self.corpus
        assert len(c.secret) >= c.min_texts and len(c.ordinary) >= c.min_texts
        assert len({e.lang for e in c.entries}) >= 25
        assert {e.form for e in c.entries} == {"name", "label", "description", "message"}
        assert len({e.trick for e in c.entries if not e.trick.startswith("style:")}) >= 20
        assert len(c.secret_values) >= c.min_values and len(c.ordinary_values) >= c.min_values
        assert len({(e.text, e.form) for e in c.entries}) == len(c.entries)  # no entry counted twice

    def test_credential_like_entries_are_refused(self) -> None:
        missed = [e.text for e in self.corpus.secret if not refused(e)]
        assert rate(self.corpus.secret, True, refused) >= 0.99, missed

    def test_ordinary_entries_are_accepted(self) -> None:
        wrong = [e.text for e in self.corpus.ordinary if refused(e)]
        assert rate(self.corpus.ordinary, False, refused) >= 0.99, wrong

    def test_credential_like_values_are_refused(self) -> None:
        missed = [str(v.value)[:60] for v in self.corpus.secret_values if not value_refused(v)]
        assert rate(self.corpus.secret_values, True, value_refused) >= 0.99, missed

    def test_ordinary_values_are_accepted(self) -> None:
        wrong = [str(v.value)[:60] for v in self.corpus.ordinary_values if value_refused(v)]
        assert rate(self.corpus.ordinary_values, False, value_refused) >= 0.99, wrong
