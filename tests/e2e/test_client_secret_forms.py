"""`askback call` against a foreign server that phishes for a password by form (tests/support/phishing.py).

The server is built on the official SDK and served over real HTTP, in both eras: 2026-07-28 (the form in
`inputRequests`) and 2025-11-25 (`elicitation/create` over the session). The terminal warns, naming the field,
and asks before anything is typed; an answers file does not fill the field without `--allow-secret-forms`,
stops with status 5 and declines the form (which the server hears); the flag fills it. An ordinary form is not
warned about, and a token pasted into one is not sent without the same consent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_client_cli import finish, run, spawn
from tests.support.phishing import Phishing

Serve = Callable[[Any], str]
ERAS = pytest.mark.parametrize("handshake_only", [False, True], ids=["2026-07-28", "2025-11-25"])
PASSWORD = "Bursztyn-2026"
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
WARNING = "⚠ this server asks for a password in a form: field 'password'."


@pytest.fixture
def phishing() -> Phishing:
    return Phishing()


def answers(tmp_path: Path, values: dict[str, Any]) -> str:
    (tmp_path / "answers.json").write_text(json.dumps(values))
    return "answers.json"


@ERAS
def test_the_answers_file_does_not_fill_a_password_form(serve: Serve, phishing: Phishing, tmp_path: Path,
                                                        handshake_only: bool) -> None:
    url = serve(phishing.app(handshake_only=handshake_only))
    done = run("call", url, "sign_in", "user=ada", "--answers", answers(tmp_path, {"password": PASSWORD}),
               cwd=tmp_path)
    assert done.returncode == 5, done.stderr
    assert "field 'password'" in done.stderr and "for a password in a form" in done.stderr
    assert "--allow-secret-forms" in done.stderr and "The form was declined." in done.stderr
    assert PASSWORD not in done.stderr and done.stdout == ""
    assert phishing.heard == [("sign_in", "decline", None)]  # what the client said is what the server heard


@ERAS
def test_allow_secret_forms_fills_it(serve: Serve, phishing: Phishing, tmp_path: Path, handshake_only: bool) -> None:
    url = serve(phishing.app(handshake_only=handshake_only))
    done = run("call", url, "sign_in", "user=ada", "--answers", answers(tmp_path, {"password": PASSWORD}),
               "--allow-secret-forms", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"][0]["text"] == "signed in ada"
    assert phishing.heard == [("sign_in", "accept", PASSWORD)]


@ERAS
@pytest.mark.parametrize("said", ["", "n", "no"])
def test_the_terminal_warns_and_no_declines(serve: Serve, phishing: Phishing, tmp_path: Path, handshake_only: bool,
                                            said: str) -> None:
    url = serve(phishing.app(handshake_only=handshake_only))
    child = spawn("call", url, "sign_in", "user=ada", cwd=tmp_path)
    child.expect_exact("Sign in again to continue.")
    child.expect_exact(WARNING)
    child.expect_exact("A password typed here passes through this client and may reach the model")
    child.expect_exact("Type it anyway? [y/N]: ")  # asked before the field's own prompt
    assert "Password" not in child.before.split(WARNING)[-1]
    child.sendline(said)
    child.expect_exact("declined.")
    child.expect_exact("not signed in (decline)")
    assert finish(child) == 0  # the person's own no
    assert phishing.heard == [("sign_in", "decline", None)]


@ERAS
def test_the_terminal_fills_it_once_the_person_says_yes(serve: Serve, phishing: Phishing, tmp_path: Path,
                                                        handshake_only: bool) -> None:
    url = serve(phishing.app(handshake_only=handshake_only))
    child = spawn("call", url, "sign_in", "user=ada", cwd=tmp_path)
    child.expect_exact(WARNING)
    child.expect_exact("Type it anyway? [y/N]: ")
    child.sendline("maybe")  # neither yes nor no: asked again, nothing typed into the form yet
    child.expect_exact("Answer y or n")
    child.sendline("y")
    child.expect_exact("Password: ")
    child.sendline(PASSWORD)
    child.expect_exact("signed in ada")
    assert finish(child) == 0
    assert phishing.heard == [("sign_in", "accept", PASSWORD)]


@ERAS
def test_an_ordinary_form_is_not_warned_about(serve: Serve, phishing: Phishing, tmp_path: Path,
                                              handshake_only: bool) -> None:
    url = serve(phishing.app(handshake_only=handshake_only))
    child = spawn("call", url, "note", "ticket=T-1", cwd=tmp_path)
    child.expect_exact("What should the note on the ticket say?")
    child.expect_exact("Text: ")
    child.sendline("call the customer back")
    child.expect_exact("noted on T-1: call the customer back")
    assert "⚠" not in child.before
    assert finish(child) == 0
    done = run("call", url, "note", "ticket=T-2", "--answers", answers(tmp_path, {"text": "all good"}), "--json",
               cwd=tmp_path)
    assert done.returncode == 0 and "⚠" not in done.stderr, done.stderr
    assert phishing.heard == [("note", "accept", "call the customer back"), ("note", "accept", "all good")]


@ERAS
def test_a_pasted_token_is_not_sent_into_an_ordinary_form_without_consent(serve: Serve, phishing: Phishing,
                                                                          tmp_path: Path, handshake_only: bool) -> None:
    url = serve(phishing.app(handshake_only=handshake_only))
    done = run("call", url, "note", "ticket=T-1", "--answers", answers(tmp_path, {"text": TOKEN}), cwd=tmp_path)
    assert done.returncode == 5, done.stderr
    assert "field 'text'" in done.stderr and "looks like an access token" in done.stderr
    assert TOKEN not in done.stderr and "The form was declined." in done.stderr
    allowed = run("call", url, "note", "ticket=T-2", "--answers", "answers.json", "--allow-secret-forms", "--json",
                  cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stderr
    assert phishing.heard == [("note", "decline", None), ("note", "accept", TOKEN)]


@ERAS
def test_the_terminal_warns_about_a_pasted_token_and_asks_again(serve: Serve, phishing: Phishing, tmp_path: Path,
                                                                handshake_only: bool) -> None:
    url = serve(phishing.app(handshake_only=handshake_only))
    child = spawn("call", url, "note", "ticket=T-1", cwd=tmp_path)
    child.expect_exact("Text: ")
    child.sendline(TOKEN)
    child.expect_exact("⚠ That looks like an access token.")
    child.expect_exact("Send it anyway? [y/N]: ")
    child.sendline("")
    child.expect_exact("Not sent. Type another value")
    child.expect_exact("Text: ")
    child.sendline("see the log")
    child.expect_exact("noted on T-1: see the log")
    assert finish(child) == 0
    child = spawn("call", url, "note", "ticket=T-2", cwd=tmp_path)
    child.expect_exact("Text: ")
    child.sendline(TOKEN)
    child.expect_exact("Send it anyway? [y/N]: ")
    child.sendline("y")  # the person's explicit consent
    child.expect_exact("noted on T-2")
    assert finish(child) == 0
    assert phishing.heard == [("note", "accept", "see the log"), ("note", "accept", TOKEN)]


@ERAS
def test_a_password_the_person_agreed_to_type_is_not_echoed(serve: Serve, phishing: Phishing, tmp_path: Path,
                                                            handshake_only: bool) -> None:
    # Typed into a terminal, a credential stays off the screen (and out of its scrollback), as a password
    # prompt's does: the pty shows what the program echoes, so the typed text must not come back.
    url = serve(phishing.app(handshake_only=handshake_only))
    child = spawn("call", url, "sign_in", "user=ada", cwd=tmp_path)
    child.expect_exact("Type it anyway? [y/N]: ")
    child.sendline("y")
    child.expect_exact("Password: ")
    child.sendline(PASSWORD)
    child.expect_exact("signed in ada")
    shown = child.before
    assert finish(child) == 0
    assert PASSWORD not in shown + (child.before or "")
    assert phishing.heard == [("sign_in", "accept", PASSWORD)]
