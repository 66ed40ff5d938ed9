"""`askback call --answers FILE` as a script writes it, and `/cancel` as a person types it, on the real demo.

The words a terminal takes for yes and no are taken from a file too; an answers file that cannot be read is
a usage error (status 2), like any other bad command line; `/cancel` on one question ends the whole call.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from askback.demo import app as demo_app
from tests.e2e.test_client_cli import SAVINGS, TO, finish, run, spawn

Serve = Callable[[Any], str]


@pytest.mark.parametrize(("word", "sent"), [("yes", True), ("y", True), ("no", False), ("false", False)])
def test_a_confirmation_answered_with_a_word_from_a_file(serve: Serve, tmp_path: Path, word: str, sent: bool) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"to": TO, "from_account": SAVINGS, "confirm": word}))
    done = run("call", serve(demo_app), "transfer", "amount=50", "--answers", "a.json", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    if sent:
        assert result["structuredContent"]["status"] == "sent"
    else:  # "no" is a no to the confirmation: the transfer is not made
        assert "Nothing was done" in json.dumps(result) and "structuredContent" not in result


def test_a_word_that_is_no_yes_or_no_says_what_is(serve: Serve, tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"to": TO, "from_account": SAVINGS, "confirm": "sure"}))
    done = run("call", serve(demo_app), "transfer", "amount=50", "--answers", "a.json", cwd=tmp_path)
    assert done.returncode == 5, done.stderr
    assert "the answer to 'confirm' is not valid: expected yes or no (true or false)" in done.stderr


@pytest.mark.parametrize(("content", "says"), [
    (None, "cannot read the answers file nope.json"),
    ("{not json", "cannot read the answers file nope.json"),
    ("[1, 2]", "the answers file nope.json must hold a JSON object"),
    ('{"accept_url": "sometimes"}', '"accept_url" in the answers must be true, false or a list of question keys'),
])
def test_an_answers_file_that_cannot_be_used_is_a_usage_error(serve: Serve, tmp_path: Path, content: str | None,
                                                              says: str) -> None:
    if content is not None:
        (tmp_path / "nope.json").write_text(content)
    url = serve(demo_app)
    for command in (["call", url, "transfer", "amount=50"], ["call", url.removesuffix("/mcp"), "transfer"],
                    ["prompt", url, "release_notes"]):
        done = run(*command, "--answers", "nope.json", cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert says in done.stderr and done.stderr.count("\n") == 1


def test_cancel_at_one_question_ends_the_call_without_asking_the_rest(serve: Serve, tmp_path: Path) -> None:
    child = spawn("call", serve(demo_app), "open_issue", "repo=askback/askback", cwd=tmp_path)
    child.logfile_read = screen = io.StringIO()
    child.expect_exact("Title")
    child.expect_exact(": ")
    child.sendline("/cancel")
    child.expect_exact("The other questions are not asked.")
    child.expect(r"outcome\s+cancelled")
    assert finish(child) == 0
    shown = screen.getvalue()
    assert "[1/2]" in shown  # two questions were asked in this round: the second never was
    assert "Github login" not in shown and "Your answers" not in shown
