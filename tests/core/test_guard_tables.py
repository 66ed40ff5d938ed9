"""The name guard's tables and rules as data: how they are read, and what a mistake in them says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from askback.guard import credential_term
from askback.guard.rules import Occurrence, ordinary, parse
from askback.guard.tables import TABLES, load


class _Text:
    context = frozenset({"gpio", "board"})
    identifier = False


def _at(kind: str = "bare_pin", before: tuple[str, ...] = (), after: tuple[str, ...] = (), count: int = 5,
        matched: str = "pin") -> Occurrence:
    return Occurrence(kind, "PIN", matched, before, after, count, "", _Text())


SETS = {"CUES": frozenset({"card", "bank"}), "HARDWARE": frozenset({"gpio"})}


def test_the_first_rule_that_holds_decides_and_no_rule_means_a_credential() -> None:
    rules = parse(("kind=bare_pin && prev~CUES => credential", "kind=bare_pin && context~HARDWARE => ordinary",
                   "kind=bare_pin && count>3 => ordinary"), SETS, {})
    assert ordinary(rules, _at())  # the hardware word around it
    assert not ordinary(rules, _at(before=("bank",)))  # the first rule wins over the second
    assert not ordinary(rules, _at(kind="pin"))  # no rule for this kind: a credential


@pytest.mark.parametrize("rule, occurrence, holds", [
    ("next~{x,y} => ordinary", _at(after=("y", "z")), True),
    ("second~{z} => ordinary", _at(after=("y", "z")), True),
    ("!next~{x,y} => ordinary", _at(after=("y",)), False),
    ("before2~CUES|{debit} => ordinary", _at(before=("a", "debit", "b")), True),
    ("before2~CUES => ordinary", _at(before=("card", "a", "b")), False),  # three words back: outside
    ("head1~{card} => ordinary", _at(before=("card", "a", "b")), True),
    ("prev2~{a} => ordinary", _at(before=("a", "b")), True),
    ("around1~{x} => ordinary", _at(before=("x",), after=("y",)), True),
    ("matched$=s => ordinary", _at(matched="pins"), True),
    ("matched^=pi,po => ordinary", _at(matched="pins"), True),
    ("matched~{pin} => ordinary", _at(matched="pins"), False),
    ("count<=5 => ordinary", _at(count=5), True),
    ("count!=5 => ordinary", _at(count=5), False),
    ("count=1 => ordinary", _at(count=1), True),
    ("label=PIN,password && kind=bare_pin => ordinary", _at(), True),
    ("identifier => ordinary", _at(), False),
])
def test_each_condition(rule: str, occurrence: Occurrence, holds: bool) -> None:
    named = {"identifier": lambda o: bool(o.text.identifier)}
    assert ordinary(parse((rule,), SETS, named), occurrence) is holds


@pytest.mark.parametrize("rule, says", [
    ("kind=pin", "ends with '=> ordinary' or '=> credential'"),
    ("kind=pin => maybe", "ends with '=> ordinary' or '=> credential'"),
    ("prev~NO_SUCH_SET => ordinary", "no set or check named 'NO_SUCH_SET'"),
    ("no_such_fact => ordinary", "no set or check named 'no_such_fact'"),
])
def test_a_mistaken_rule_fails_at_import_naming_its_line(rule: str, says: str) -> None:
    with pytest.raises(ValueError, match=says) as info:
        parse((rule,), SETS, {})
    assert repr(rule) in str(info.value)


def test_a_table_is_plain_text_read_at_import(tmp_path: Path) -> None:
    (tmp_path / "common.txt").write_text(
        "# comment\n@list WHO\nadmin\nroot\n\n@phrase password | strong | word\n(?:{WHO}) ?pass\npass ?words?\n"
        "@set WORDS\na b\nc\n@rules\nkind=strong => credential   # why\n", encoding="utf-8")
    (tmp_path / "xx.txt").write_text("@set WORDS\nd\n@phrase PIN | part | part\nピン\n", encoding="utf-8")
    tables = load(tmp_path)
    read = [(p.label, p.kind, p.whole) for p in tables.phrases]
    assert read == [("password", "strong", True), ("PIN", "part", False)]
    first, second = tables.phrases[0].alternatives
    assert all(re.fullmatch(first, t) for t in ("admin pass", "rootpass")) and not re.fullmatch(first, "user pass")
    assert second == "pass ?words?"
    assert tables.sets["WORDS"] == frozenset("abcd")  # one set across files
    assert tables.rules == ("kind=strong => credential",)


@pytest.mark.parametrize("text, says", [
    ("orphan line\n", "common.txt:1: a line before any @phrase, @set or @list header"),
    ("@phrase password | strong | everywhere\nx\n", "the mode is 'word' or 'part'"),
    ("@table x\n", "unknown header '@table x'"),
])
def test_a_mistaken_table_says_where(tmp_path: Path, text: str, says: str) -> None:
    (tmp_path / "common.txt").write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=says):
        load(tmp_path)


def test_every_table_line_is_written_as_texts_are_read() -> None:
    """The tables are read as written: a line in another form (a Persian letter, a decomposed vowel) would never
    match a folded text, so each one is held to the fold here."""
    from askback.guard.fold import table_form

    unfolded = [f"{path.name}:{number}: {line!r}" for path in sorted(Path(TABLES).glob("*.txt"))
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if not line.lstrip().startswith("#") and table_form(line) != line]
    assert unfolded == []


def test_the_shipped_tables_hold_every_language_file_and_the_guard_reads_them() -> None:
    names = {p.name for p in Path(TABLES).glob("*.txt")}
    assert {"common.txt", "context.txt", "sentences.txt", "rules.txt", "de.txt", "cjk.txt", "ar.txt", "hi.txt"} <= names
    assert (Path(TABLES) / "README").is_file()
    assert credential_term("Kennwort") == "password"


def test_the_name_guard_loads_nothing_of_the_server() -> None:
    """The client checks a foreign server's forms with the same guard, so it must not pull in the core or an SDK."""
    import subprocess
    import sys

    server = ("askback.core", "askback.mcp", "askback.a2a", "askback.flow", "mcp", "a2a", "pydantic", "starlette")
    code = ("import sys; from askback.guard import credential_term, field_credential; "
            "assert credential_term('Enter your PIN') and field_credential('db_password', {}); "
            f"print(' '.join(m for m in sys.modules if m.startswith({server!r})))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert loaded == []
