"""The answer guard on a blind corpus of values (tests/corpora/blind_values.py), written without the guard in view."""

from __future__ import annotations

from askback.guard import credential_value
from tests.corpora.blind_values import ORDINARY, SECRET


def test_corpus_size() -> None:
    assert len(SECRET) >= 150 and len(ORDINARY) >= 150


def test_credential_like_values_are_refused() -> None:
    missed = [str(v.value)[:40] for v in SECRET if credential_value(v.value) is None]
    assert 1 - len(missed) / len(SECRET) >= 0.99, missed


def test_ordinary_values_are_accepted() -> None:
    wrong = [str(v.value)[:40] for v in ORDINARY if credential_value(v.value) is not None]
    assert 1 - len(wrong) / len(ORDINARY) >= 0.99, wrong
