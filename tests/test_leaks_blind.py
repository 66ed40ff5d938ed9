"""The answer guard's blind corpus of values (tests/corpora/blind_values.py), written without the guard in view.

Its rates are held to its floor, with every other corpus, in tests/test_guard_corpora.py.
"""

from __future__ import annotations

from tests.corpora.blind_values import ORDINARY, SECRET


def test_corpus_size() -> None:
    assert len(SECRET) >= 150 and len(ORDINARY) >= 150
