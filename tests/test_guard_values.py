"""The answer guard's table-driven scan: a vendor token is found wherever it stands in a long answer, and the
module stays neutral (the client loads it without the server)."""

from __future__ import annotations

import ast
import base64
import random
import sys
from pathlib import Path

import pytest

from askback.guard import credential_value

TOKENS = ["ghp_" + "a1B2" * 9, "AKIA" + "ABCDEFGHIJKLMNOP", "sk-proj-" + "Zx9" * 10, "xoxb-" + "1234567890-abcdef",
          "glpat-" + "Q7w" * 8, "AIza" + "B" * 20 + "c" * 15, "npm_" + "k3" * 18, "FLWSECK-" + "ab" * 16 + "-X",
          "dop_v1_" + "0f" * 32, "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"]


def _filler(size: int) -> str:
    rng = random.Random(size)
    return " ".join(base64.b64encode(rng.randbytes(30)).decode() + " the meeting moved" for _ in range(size // 60))


@pytest.mark.parametrize("token", TOKENS)
@pytest.mark.parametrize("where", ["alone", "after text", "inside a URL", "after a key="])
def test_a_vendor_token_is_found_wherever_it_stands(token: str, where: str) -> None:
    assert credential_value(token) is not None  # the example is a real format
    text = {"alone": token, "after text": f"{_filler(20_000)}\n{token}\n{_filler(2_000)}",
            "inside a URL": f"see https://example.com/cb?x=1&t={token}&y=2 for it",
            "after a key=": f"{_filler(5_000)} deploy_key={token}"}[where]
    assert credential_value(text) is not None, where


def test_long_ordinary_texts_pass() -> None:
    assert credential_value(_filler(50_000)) is None


def test_the_answer_guard_imports_nothing_of_the_server() -> None:
    source = Path(sys.modules["askback.guard"].__file__ or "").with_name("values.py").read_text()
    imported = {node.module or "" for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Import) for a in node.names}
    outside = {m for m in imported if m.split(".")[0] not in sys.stdlib_module_names and m != "__future__"
               and m != "askback.guard" and not m.startswith("askback.guard.")}  # its own package
    assert outside <= {"mnemonic"}, outside


@pytest.mark.parametrize("card", ["4111 1111 1111 1111", "3528 - 2492 - 2089 - 6633", "3427.844301.51460",
                                  "5555-5555-5555-4444"])
def test_a_card_number_is_found_in_a_long_text(card: str) -> None:
    assert credential_value(f"{_filler(20_000)} paid with {card}, thanks {_filler(3_000)}") == "a payment card number"


def test_an_iban_in_a_long_text_is_no_card() -> None:
    assert credential_value(f"{_filler(20_000)} IBAN DE89 3704 0044 0532 0130 00 {_filler(3_000)}") is None


@pytest.mark.parametrize("kind", ["log lines", "JSON"])
def test_a_long_paste_hands_the_name_guard_short_labels(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A label is the words naming a value: a time, an id or the previous JSON value before it is no part of it,
    and reading it would cost the name guard many times more (its cost grows with the label's length)."""
    from bench.guard_cost import text

    import askback.guard.names as names
    import askback.guard.values as values

    read: list[str] = []
    real = names.could_name

    def reading(label: str) -> bool:  # the name guard's first look at a label, before any reading of it
        read.append(label)
        return real(label)

    monkeypatch.setattr(values, "could_name", reading)
    assert credential_value(text(kind, 50_000)) is None
    assert read  # the labels were read (with their values' kinds, none a credential)
    assert all(sum(c.isdigit() for c in label) < 3 and "," not in label for label in read), read
    assert credential_value("2026-12-01T19:07:31Z INFO worker-3 password=Gl4cier.Night42") is not None


def test_a_password_file_line_is_found_on_any_line() -> None:
    """The shape is matched at each line's start (`line` in tokens.txt), not searched: the first, a middle and
    the last line of a paste are each read."""
    entry = "alice:1001:x:y:Hunter22secret"
    for pasted in (entry, f"notes\n{entry}", f"notes\n{entry}\nmore notes", f"a\nb\nc\n{entry}"):
        assert credential_value(pasted) == "a password file line", pasted
    assert credential_value("notes\nalice: 1001 x y Hunter22secret") != "a password file line"


def test_the_label_filter_never_hides_what_the_name_guard_finds() -> None:
    """`could_name` lets the answer guard skip reading most labels: on every text of every name corpus that the
    name guard finds a credential in (18,000 texts, every language and trick), it must say the text could name one."""
    import importlib
    import pkgutil

    import tests.corpora
    from askback.guard.names import could_name, credential_term
    from tests.corpora.scoring import HELPERS

    texts = [entry.text for module in pkgutil.iter_modules(tests.corpora.__path__) if module.name not in HELPERS
             for entry in getattr(importlib.import_module(f"tests.corpora.{module.name}"), "ENTRIES", ())]
    assert len(texts) > 10_000
    hidden = [text for text in texts if not could_name(text) and credential_term(text)]
    assert hidden == []
