"""Every corpus of tests/corpora keeps its floor, and the guard report scores them all.

The floor of each side (97%, or a few points under the blind figure for a corpus nobody may tune on: `FLOORS` in
tests/corpora/scoring.py) sits well below today's figures, so one honest change to either guard cannot turn CI red;
the behaviour of each rule and each channel is tested on its own (tests/core/test_secrets.py, tests/test_leaks.py,
tests/stress/test_secret_guard.py). The figures themselves are a benchmark: `make guard-report` writes them into
docs/security.md.
"""

from __future__ import annotations

import pkgutil
import re
import types
from pathlib import Path

import pytest
from bench import guard_report

import tests.corpora
from tests.corpora.blind import Entry
from tests.corpora.blind_values import Value
from tests.corpora.scoring import HELPERS, Blind, Figures, Score, Scored, corpora, scored

CORPORA = corpora()


@pytest.mark.parametrize("corpus", CORPORA, ids=[c.name for c in CORPORA])
def test_each_corpus_keeps_its_floor(corpus: Scored) -> None:
    now = corpus.figures()
    # On failure: the sides under the floor, then every credential-like item let through and ordinary one refused.
    assert corpus.below_floor(now) == [], (corpus.below_floor(now), *corpus.misses())


def test_a_side_under_its_floor_is_reported() -> None:
    # The floor check can fail: a corpus whose labels the real guard contradicts is under its floor on that side.
    texts = Scored("probe", "texts", (Entry("password", False, "en", "name"), Entry("city", False, "en", "name"),
                                      Entry("api_key", True, "en", "name")), None, 0.97)
    assert texts.figures() == Figures(Score(1, 1), Score(1, 2))
    assert texts.below_floor() == ["accepted 1/2 = 50.0% < 97%"]
    values = Scored("probe", "values", (Value("4111 1111 1111 1111", False, "card"), Value("hello", True, "text")),
                    None, 0.5)
    assert values.below_floor() == ["refused 0/1 = 0.0% < 50%", "accepted 0/1 = 0.0% < 50%"]


def test_every_module_of_the_corpora_is_scored() -> None:
    modules = {m.name for m in pkgutil.iter_modules(tests.corpora.__path__)} - HELPERS
    assert {c.name for c in CORPORA} == modules
    assert {c.kind for c in CORPORA} == {"texts", "values"}
    assert all(len([x for x in c.items if x.secret]) and len([x for x in c.items if not x.secret]) for c in CORPORA)


def test_a_module_that_is_no_corpus_is_an_error_not_skipped() -> None:
    # A new corpus of another shape must not silently drop out of the report and the floors.
    with pytest.raises(ValueError, match="exactly one of ENTRIES"):
        scored(types.ModuleType("tests.corpora.odd"))
    both = types.ModuleType("tests.corpora.both")
    both.ENTRIES, both.VALUES = [], []  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="exactly one of ENTRIES"):
        scored(both)
    bad = types.ModuleType("tests.corpora.bad")
    bad.ENTRIES, bad.BLIND = [], {"refused": (1, 2), "scored_at": "abc1234"}  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="BLIND needs"):
        scored(bad)


def test_blind_records_are_counts_of_a_commit() -> None:
    recorded = [c for c in CORPORA if c.blind is not None]
    assert {c.name for c in CORPORA} - {c.name for c in recorded} == {"names", "values"}  # written with the guards
    for c in recorded:
        assert isinstance(c.blind, Blind) and re.fullmatch(r"[0-9a-f]{7,40}", c.blind.scored_at), c.name
        for score in (c.blind.figures.refused, c.blind.figures.accepted):
            assert 0 <= score.hits <= score.total, (c.name, score)


def test_the_report_gives_the_blind_figure_first_then_now() -> None:
    text = guard_report.table(CORPORA, "abc1234")
    rows = {line.split(" | ")[0].strip("| `"): line for line in text.splitlines() if line.startswith("| `")}
    assert set(rows) == {c.name for c in CORPORA}
    for c in CORPORA:
        cells = [cell.strip() for cell in rows[c.name].strip("|").split("|")]
        now = c.figures()
        assert cells[5:7] == [f"{now.refused.hits}/{now.refused.total} ({now.refused.rate:.1%})",
                              f"{now.accepted.hits}/{now.accepted.total} ({now.accepted.rate:.1%})"], cells
        if c.blind is None:
            assert cells[2:5] == ["not recorded", "not recorded", "-"]
        else:
            blind = c.blind.figures
            assert cells[2:5] == [f"{blind.refused.hits}/{blind.refused.total} ({blind.refused.rate:.1%})",
                                  f"{blind.accepted.hits}/{blind.accepted.total} ({blind.accepted.rate:.1%})",
                                  f"`{c.blind.scored_at}`"]


def test_writing_the_report_replaces_only_the_table(tmp_path: Path) -> None:
    page = tmp_path / "security.md"
    page.write_text(f"# Page\n\nbefore\n{guard_report.BEGIN}\nold table\n{guard_report.END}\nafter\n", encoding="utf-8")
    guard_report.write_doc("new table", page, guard_report.BEGIN, guard_report.END)
    guard_report.write_doc("newer table", page, guard_report.BEGIN, guard_report.END)
    assert page.read_text(encoding="utf-8") == (
        f"# Page\n\nbefore\n{guard_report.BEGIN}\nnewer table\n{guard_report.END}\nafter\n")


def test_the_security_page_has_a_row_for_every_corpus() -> None:
    # A corpus added without `make guard-report` would be missing from the page.
    page = guard_report.DOC.read_text(encoding="utf-8")
    section = page.split(guard_report.BEGIN, 1)[1].split(guard_report.END, 1)[0]
    assert {c.name for c in CORPORA} <= set(re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE))
