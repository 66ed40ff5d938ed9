"""The snapshot of the secret guard's phrase table is the running table's, and matching with it changes nothing.

With the snapshot (`askback.core.secret_index`), two characters of a word choose its matcher; without it, one
character, read at start-up. Both must find exactly the same phrases in every text: the corpora are the texts.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from askback.core import secret_index, secret_table, secrets
from tests.corpora import blind, blind2, blind3, final, heldout, names


def test_the_snapshot_is_the_running_tables() -> None:
    """Fails after any change to the phrase table until `python -m askback.core.secret_index` is run again."""
    assert secret_index.SNAPSHOT.read_text(encoding="utf-8") == secret_table.rendered()
    index = secrets._index()
    assert index is not None and index.pieces == secret_table._derived_pieces()


def test_a_snapshot_of_another_table_is_not_used(tmp_path: Path) -> None:
    regexes = [rx for _, _, rx in secrets._ENTRIES]
    stale = json.loads(secret_index.SNAPSHOT.read_text(encoding="utf-8"))
    stale["fingerprint"] = "0" * 64
    path = tmp_path / "secret_index.json"
    path.write_text(json.dumps(stale), encoding="utf-8")
    assert secret_index.load(regexes, path) is None
    assert secret_index.load(regexes, tmp_path / "missing.json") is None
    assert secret_index.load(regexes[:-1]) is None  # one phrase fewer: another table
    assert secret_index.load(regexes) is not None


@pytest.mark.parametrize("rx, begins", [
    ("(?:ab?c|d*e)(?!\\w)", {"ab", "ac", "dd", "de", "e"}),
    ("(?:x+y)", {"xx", "xy"}),
    ("(?:(?:a|b)?c)", {"ac", "bc", "c"}),
    ("[ab]c", {"ac", "bc"}),
    ("(?=a)b", {"b"}),  # a lookaround consumes nothing: read as more beginnings, never fewer
    ("(?:x{2,3}|y{0,1}z)", {"xx", "yz", "z"}),
    ("(?:a?)", None),  # can match the empty text: tried at every word
    ("(?i)abc", None), ("(?i:a)b", None), ("\\wa", None), ("\\da", None), ("[^a]b", None), (".a", None),
])
def test_the_beginnings_of_small_patterns(rx: str, begins: set[str] | None) -> None:
    assert secret_table.starts(rx) == (None if begins is None else frozenset(begins))


def test_two_character_beginnings_agree_with_first_characters_on_every_phrase() -> None:
    pieces = [(n, p) for n, p in secrets._pieces() if secrets._infix_stem(p) is None]
    index = secrets._index()
    assert index is not None
    read = 0
    for name, piece in pieces:
        begins, first = index.starts[name], secret_table._piece_first_chars(piece)
        if begins is not None and first is not None:
            read += 1
            assert {b[:1] for b in begins} == first, piece
    assert read >= 0.95 * len(pieces)


def _texts() -> Iterator[str]:
    for corpus in (blind, blind2, blind3, final, heldout):
        yield from (entry.text for entry in corpus.ENTRIES)
    for table in (names.CREDENTIAL, names.ORDINARY):
        for texts in table.values():
            yield from texts


def _one_alternation(whole: re.Pattern[str], words: str) -> list[tuple[str, int, int]]:
    """What the dispatchers stand for: every phrase in one alternation, tried at each word (the first wins)."""
    found = []
    for start in re.finditer(r"(?<!\w)\w", words):
        match = whole.match(words, start.start())
        if match and match.lastgroup:
            found.append((match.lastgroup, match.start(), match.end()))
    return found


def test_both_dispatchers_find_what_one_alternation_finds_in_every_corpus_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = secrets._index()
    assert index is not None
    pieces = [(n, p) for n, p in secrets._pieces() if secrets._infix_stem(p) is None]
    by_two = secrets._Dispatch(pieces, index.starts, index.width)
    by_one = secrets._Dispatch(pieces, {n: secret_table._piece_first_chars(p) for n, p in pieces}, 1)
    readings = sorted({words for text in _texts() for words in secrets._readings(secrets._decoded(text))})
    assert len(readings) > 5000
    # The word-start phrases only: compounds and other scripts are matched the same way by both.
    monkeypatch.setattr(secrets, "_LONG_WORDS", re.compile("(?!)"))
    monkeypatch.setattr(secrets, "_needs_parts", lambda words: False)
    found = {}
    for dispatch in (by_one, by_two):
        monkeypatch.setattr(secrets, "_dispatch", lambda d=dispatch: d)
        found[dispatch] = [list(secrets._matches(words)) for words in readings]
    assert found[by_two] == found[by_one]
    whole = re.compile("|".join(f"(?P<{name}>{piece})" for name, piece in pieces))
    some = range(0, len(readings), 3)  # one alternation of the whole table is slow to try: a third of the texts
    assert [found[by_two][i] for i in some] == [_one_alternation(whole, readings[i]) for i in some]
    assert sum(map(bool, found[by_two])) > 1000, "the texts do hold phrases"


def test_the_matchers_kept_are_bounded_by_the_table_not_by_the_texts() -> None:
    """Answers are checked too, and a client chooses them: a new beginning must not add a matcher for good."""
    dispatch = secrets._dispatch()
    rng = random.Random(7)
    for _ in range(3000):
        dispatch.matcher("".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(2)))
    assert len(dispatch._compiled) <= len(dispatch._by_start) + len(dispatch._by_short) + 1


@pytest.mark.parametrize("first_everywhere", [False, True])
def test_a_phrase_tried_everywhere_yields_to_an_earlier_one_and_wins_over_a_later_one(
    monkeypatch: pytest.MonkeyPatch, first_everywhere: bool,
) -> None:
    """The phrases tried at every word are a matcher of their own: at one word, table order still decides."""
    plain, everywhere = "(?:ab)(?!\\w)", "(?:\\w*b)(?!\\w)"
    pieces = [("g0x0", everywhere), ("g1x0", plain)] if first_everywhere else [("g0x0", plain), ("g1x0", everywhere)]
    starts = {name: secret_table.starts(piece) for name, piece in pieces}
    assert None in starts.values() and frozenset({"ab"}) in starts.values()
    monkeypatch.setattr(secrets, "_dispatch", lambda: secrets._Dispatch(pieces, starts, 2))
    whole = re.compile("|".join(f"(?P<{name}>{piece})" for name, piece in pieces))
    for words in ("ab", "cb", "x ab y", "ab cb"):
        assert [m for m in secrets._matches(words) if m[0] in ("g0x0", "g1x0")] == _one_alternation(whole, words)
    assert next(secrets._matches("ab"))[0] == "g0x0"


def test_the_tables_arabic_folding_is_translate_with_arabic_fold() -> None:
    from askback.core.secret_words import ARABIC_FOLD

    assert not set(map(ord, "".join(map(str, ARABIC_FOLD.values())))) & set(ARABIC_FOLD), "nothing folds twice"
    texts = [rx for _, _, rx in secrets._table_entries()] + ["کیى أئ", "plain"]
    assert [secrets._arabic_folded(t) for t in texts] == [t.translate(ARABIC_FOLD) for t in texts]


def test_with_a_stale_snapshot_the_guard_reads_its_table_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "_index", lambda: None)
    for cached in (secrets._pieces, secrets._dispatch):
        cached.cache_clear()
    try:
        assert secrets._dispatch().word_starts.pattern == r"(?<!\w)\w"  # one character chooses a word's matcher
        assert secrets._pieces() == secret_table._derived_pieces()
        assert secrets.credential_term("Enter your password") == "password"
        assert secrets.credential_term("What is your name?") is None
    finally:
        monkeypatch.undo()
        for cached in (secrets._pieces, secrets._dispatch):
            cached.cache_clear()
    assert secrets._dispatch().word_starts.pattern == r"(?<!\w)\w.?"


def test_a_pattern_compiled_on_first_use_is_the_pattern_compiled_at_once() -> None:
    lazy = secrets._lazy(lambda: r"(?<!\w)ab+c", re.IGNORECASE)
    eager = re.compile(r"(?<!\w)ab+c", re.IGNORECASE)
    for text in ("x ABBC y", "abc abbbc", "xabc", ""):
        assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
        assert lazy.sub("-", text) == eager.sub("-", text) and bool(lazy.search(text)) == bool(eager.search(text))
    assert (lazy.pattern, lazy.flags, lazy.groups) == (eager.pattern, eager.flags, eager.groups)
