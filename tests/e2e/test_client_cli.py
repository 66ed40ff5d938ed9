"""`askback call | resume | tools` as a person and a script use them: a real pseudo-terminal, files, exit codes.

The terminal tests drive the installed command in a pty with pexpect, typing as a person would (including
mistakes); the others run it as a subprocess with a pipe for stdout, which therefore gets JSON.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest
from starlette.types import ASGIApp

import askback
from askback.demo import app as demo_app
from tests.conformance.server import app as conformance_app
from tests.conftest import free_port
from tests.e2e.test_cli import askback_command, serve_env
from tests.support import sdkserver, terminal
from tests.support.mcpmock import Mock, form, text
from tests.support.processes import stop

Serve = Callable[[askback.App | ASGIApp], str]
TO = "DE44500105175407324931"
SAVINGS = "DE02120300000000202051"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*askback_command(), *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    child = terminal.spawn([*askback_command(), *args], cwd=cwd, env={**os.environ, "NO_COLOR": "1"})
    child.logfile_read = sys.stdout  # shown by pytest when a test fails
    return child


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return int(child.exitstatus if child.exitstatus is not None else -1)


@pytest.fixture
def demo_server(tmp_path: Path) -> Iterator[str]:
    """`askback demo --port P`, as the README has a new user start it."""
    port = free_port()
    log = (tmp_path / "demo.log").open("wb")
    process = subprocess.Popen([*askback_command(), "demo", "--port", str(port)], env=serve_env(tmp_path / "data"),
                               stdout=log, stderr=subprocess.STDOUT)
    try:
        child = None
        for _ in range(200):
            child = subprocess.run([*askback_command(), "tools", f"http://127.0.0.1:{port}/mcp", "--json"],
                                   capture_output=True, text=True)
            if child.returncode == 0:
                break
            if process.poll() is not None:
                pytest.fail((tmp_path / "demo.log").read_text())
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stop(process)
        log.close()


def test_a_person_answers_transfer_in_the_terminal(demo_server: str, tmp_path: Path) -> None:
    child = spawn("call", demo_server, "transfer", "amount=50", cwd=tmp_path)
    child.expect("askback-demo asks 2 questions for the tool transfer")
    child.expect("Recipient IBAN")
    child.expect("text, 15–34 characters")
    child.expect("To: ")
    child.sendline("DE44")  # too short: explained and asked again, nothing sent
    child.expect("must be at least 15 characters long")
    child.expect("To: ")
    child.sendline(TO)
    child.expect(r"1\) Everyday account")
    child.expect(r"2\) Savings account")
    child.expect("From account: ")
    child.sendline("3")
    child.expect("not one of the options")
    child.sendline("savings account (de02 …2051)")
    child.expect("2. From account: Savings account")
    child.expect("Send these answers")
    child.sendline("1")  # change the IBAN in the review
    child.expect("To: ")
    child.sendline(TO[:-1] + "2")
    child.expect("Send these answers")
    child.sendline("")
    child.expect(r"\(round 2\)")
    child.expect(rf"Send 50 EUR from Savings account \(DE02 …2051\) \[{SAVINGS}\] to {TO[:-1]}2\?")
    child.expect(r"\[y/n\]: ")
    child.sendline("y")  # a lone confirmation is sent as answered: no second "are you sure"
    child.expect(r"status\s+sent")  # rendered for a person, not JSON
    before = child.before
    assert finish(child) == 0
    assert "{" not in before.split("Confirm: yes")[-1]


@pytest.mark.parametrize("handshake_only", [False, True], ids=["2026-07-28", "2025-11-25"])
def test_a_person_answers_an_official_sdk_server_in_the_terminal(serve: Serve, tmp_path: Path,
                                                                  handshake_only: bool) -> None:
    url = serve(sdkserver.app(handshake_only=handshake_only))
    child = spawn("call", url, "banner", "text=Hi", cwd=tmp_path)
    child.expect("Which palette should the banner use?")
    child.expect(r"Colour \[blue\]: ")
    child.sendline("")  # the default
    child.expect("at least 1, at most 5")
    child.expect("Shades: ")
    child.sendline("9")
    child.expect("must be at most 5")
    child.sendline("3")
    child.expect(r"2\) gradient")
    child.expect(r"Style \[flat\]: ")
    child.sendline("2")
    child.expect("Send these answers")
    child.sendline("")
    child.expect("Hi: 3 gradient shades of blue")
    assert finish(child) == 0


def test_the_same_call_from_an_answers_file_prints_json(demo_server: str, tmp_path: Path) -> None:
    (tmp_path / "answers.json").write_text(json.dumps({"to": TO, "from_account": SAVINGS, "confirm": True}))
    done = run("call", demo_server, "transfer", "--args", '{"amount": 50}', "--answers", "answers.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["structuredContent"]["status"] == "sent" and result["structuredContent"]["to"] == TO


def test_sdk_server_from_an_answers_file(serve: Serve, tmp_path: Path) -> None:
    url = serve(sdkserver.app(handshake_only=True))
    (tmp_path / "answers.json").write_text(json.dumps({"shades": 2}))
    done = run("call", url, "banner", "text=Yo", "--answers", "answers.json", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"][0]["text"] == "Yo: 2 flat shades of blue"


def test_saved_in_one_process_finished_in_another(serve: Serve, tmp_path: Path) -> None:
    url = serve(demo_app)
    saved = run("call", url, "transfer", "amount=50", "--save-pending", "pending.json", cwd=tmp_path)
    assert saved.returncode == 3, saved.stderr
    assert "Continue with: askback resume pending.json" in saved.stderr
    pending = tmp_path / "pending.json"
    assert pending.stat().st_mode & 0o777 == 0o600
    data = json.loads(pending.read_text())
    assert data["format"] == "askback.pending" and data["version"] == 1
    assert data["params"] == {"name": "transfer", "arguments": {"amount": 50}}
    assert list(data["inputRequests"]) == ["to", "from_account"] and data["server"] == {"url": url}
    first_state = data["requestState"]

    (tmp_path / "some.json").write_text(json.dumps({"to": TO, "from_account": SAVINGS}))
    again = run("resume", "pending.json", "--answers", "some.json", "--save-pending", "pending.json", cwd=tmp_path)
    assert again.returncode == 3, again.stderr
    data = json.loads(pending.read_text())
    assert list(data["inputRequests"]) == ["confirm"] and data["requestState"] != first_state
    # The answers so far travel only inside the sealed state: the file has no field for them.
    assert set(data) == {"format", "version", "savedAt", "server", "serverName", "protocolVersion", "method",
                         "params", "rounds", "inputRequests", "requestState"}
    assert data["rounds"] == 2

    (tmp_path / "confirm.json").write_text(json.dumps({"confirm": True}))
    copy = tmp_path / "copy.json"
    copy.write_text(pending.read_text())
    done = run("resume", "pending.json", "--answers", "confirm.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["structuredContent"]["from_account"] == SAVINGS
    # A finished call's file is removed: a second resume is told so in plain words, and nothing is sent.
    assert not pending.exists()
    assert "askback: the call saved in pending.json is finished; the file is removed" in done.stderr
    replay = run("resume", "pending.json", "--answers", "confirm.json", cwd=tmp_path)
    assert replay.returncode == 2, replay.stderr
    assert "there is no pending file pending.json (a resume that finishes its call removes the file)" in replay.stderr
    # A copy kept of the same file: the server refuses its used state, and the client says what that means.
    again = run("resume", "copy.json", "--answers", "confirm.json", cwd=tmp_path)
    assert again.returncode == 6, again.stderr
    assert "the server refused to continue the call saved in copy.json" in again.stderr
    assert "a saved call finishes once and its state expires: if it finished already, it is done" in again.stderr
    assert copy.exists()  # not finished by this resume: the client leaves the file alone


def test_resume_in_the_terminal(serve: Serve, tmp_path: Path) -> None:
    url = serve(demo_app)
    saved = run("call", url, "transfer", "amount=7", "to=" + TO, "--save-pending", "p.json", cwd=tmp_path)
    assert saved.returncode == 3, saved.stderr
    child = spawn("resume", "p.json", cwd=tmp_path)
    child.expect("From account: ")
    child.sendline("1")
    child.expect(r"\[y/n\]: ")
    child.sendline("/decline")
    child.expect("declined")
    assert finish(child) == 0


@pytest.mark.parametrize(("args", "answers", "code", "message"), [
    (["transfer", "amount=50"], {"to": TO, "from_account": SAVINGS}, 5, "no answer for the question 'confirm'"),
    (["transfer", "amount=50", "--max-rounds", "1"], {"to": TO, "from_account": SAVINGS, "confirm": True}, 4,
     "more than 1 rounds"),
    (["transfer", "--args", "[1]"], {}, 2, "--args must be a JSON object"),
    (["transfer", "amount"], {}, 2, "is not KEY=VALUE"),
])
def test_exit_codes(serve: Serve, tmp_path: Path, args: list[str], answers: dict[str, Any], code: int,
                    message: str) -> None:
    (tmp_path / "a.json").write_text(json.dumps(answers))
    done = run("call", serve(demo_app), *args, "--answers", "a.json", cwd=tmp_path)
    assert done.returncode == code, done.stderr
    assert message in done.stderr


def test_tool_error_unreachable_server_and_tools(serve: Serve, tmp_path: Path) -> None:
    url = serve(conformance_app)
    refused = run("call", url, "test_input_required_result_sampling", "--answers", "/dev/null", cwd=tmp_path)
    assert refused.returncode == 2  # /dev/null is no JSON object: the command line names an unusable file
    (tmp_path / "a.json").write_text("{}")
    cannot = run("call", url, "test_input_required_result_sampling", "--answers", "a.json", cwd=tmp_path)
    # Sampling was not declared: the server says so with -32021 (missing required client capability).
    assert cannot.returncode == 6 and "-32021" in cannot.stderr and "sampling" in cannot.stderr
    down = run("call", f"http://127.0.0.1:{free_port()}/mcp", "anything", cwd=tmp_path)
    assert down.returncode == 6 and "cannot reach the server" in down.stderr
    listed = run("tools", url, cwd=tmp_path)
    assert listed.returncode == 0
    assert "test_input_required_result_multi_round" in {t["name"] for t in json.loads(listed.stdout)}


def test_a_reader_that_stops_early_ends_the_command_quietly(serve: Callable[[askback.App], str],
                                                           tmp_path: Path) -> None:
    url = serve(demo_app)
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written: every write gets EPIPE
    try:
        done = subprocess.run([*askback_command(), "tools", url], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, cwd=tmp_path, env=serve_env(tmp_path / "data"), timeout=60)
    finally:
        os.close(write_end)
    assert done.returncode == 0, done.stderr
    assert "cannot reach" not in done.stderr and "Traceback" not in done.stderr


# -- what a server sends cannot act on the terminal --------------------------------------------------------------
SPOOF = "x\x1b[2K\rSend 1.00 EUR to own savings"


def spoofing_mock() -> Mock:
    def pay(params: dict[str, Any], number: int) -> dict[str, Any]:
        if number == 1:
            confirm = form(f"Send 1.00 EUR to {SPOOF}?", ok={"type": "boolean", "title": f"OK \u202e{SPOOF}"})
            return {"resultType": "input_required", "inputRequests": {"ok": confirm}, "requestState": "s"}
        return {"resultType": "complete", "content": [{"type": "text", "text": f"paid\x1b]0;owned\x07 {SPOOF}"}],
                "structuredContent": {"to": SPOOF, "memo\u200b": "\u2066hidden\u2069"}}

    return Mock({"pay": pay})


def test_a_spoofing_confirmation_is_shown_as_it_is_in_a_real_terminal(serve: Serve, tmp_path: Path) -> None:
    url = serve(spoofing_mock().app())
    child = spawn("call", url, "pay", cwd=tmp_path)
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect_exact("Send 1.00 EUR to x␛[2K␍Send 1.00 EUR to own savings?")
    child.expect(r"\[y/n\]: ")
    child.sendline("y")
    child.expect("memo<U\\+200B>")
    assert finish(child) == 0
    screen = seen.getvalue()
    assert "\x1b" not in screen  # colour is off (NO_COLOR), so no escape of any kind may reach the terminal
    assert re.search(r"\r(?!\n)", screen) is None  # no carriage return that could rewrite a line
    assert "OK <U+202E>x␛[2K␍Send" in screen and "paid␛]0;owned␇ x␛[2K␍Send" in screen
    assert "<U+2066>hidden<U+2069>" in screen
    assert not [c for c in screen if unicodedata.category(c) in ("Cf", "Zl", "Zp") or "\x80" <= c <= "\x9f"]


def test_a_server_error_message_is_made_inert_on_stderr(serve: Serve, tmp_path: Path) -> None:
    refusal = {"code": -32602, "message": "bad\x1b[2K\rall good\u202e"}
    url = serve(Mock({"t": lambda p, n: text("ok")}, refuse_first=(400, refusal)).app())
    done = run("call", url, "t", "--legacy", cwd=tmp_path)
    assert done.returncode == 6
    assert "bad␛[2K␍all good<U+202E>" in done.stderr and "\x1b" not in done.stderr


# -- tools with x-mcp-header, unauthorized servers ----------------------------------------------------------------
HEADERED = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"},
                                             "query": {"type": "string"}}}
BAD_HEADER = {"type": "object", "properties": {"score": {"type": "number", "x-mcp-header": "Score"}}}


def test_call_sends_mcp_param_headers_on_its_first_tools_call_and_refuses_an_invalid_tool(serve: Serve,
                                                                                          tmp_path: Path) -> None:
    mock = Mock({"headered": lambda p, n: text("ok"), "bad": lambda p, n: text("called")},
                schemas={"headered": HEADERED, "bad": BAD_HEADER})
    url = serve(mock.app())
    done = run("call", url, "headered", "--args", '{"region": "eu-west1", "query": "q"}', cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [c.headers.get("mcp-param-region") for c in mock.calls("headered")] == ["eu-west1"]
    refused = run("call", url, "bad", "score:=1.5", cwd=tmp_path)
    assert refused.returncode == 6 and "tool 'bad' is not valid MCP" in refused.stderr
    assert "only permitted on integer/string/boolean" in refused.stderr
    assert mock.calls("bad") == []
    listed = run("tools", url, cwd=tmp_path)
    assert [t["name"] for t in json.loads(listed.stdout)] == ["headered"]


def test_a_server_that_needs_authorization_says_so(serve: Serve, tmp_path: Path) -> None:
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route

    async def locked(request: Any) -> Response:
        return Response(status_code=401, headers={"WWW-Authenticate": "Bearer"})

    url = serve(Starlette(routes=[Route("/mcp", locked, methods=["POST", "GET", "DELETE"])]))
    done = run("call", url, "anything", cwd=tmp_path)
    assert done.returncode == 6
    # No terminal and nothing kept: no sign-in is begun (none could finish without a person), and it says so.
    assert f"signing in to {url} failed: it answers HTTP 401 and no sign-in is kept for it" in done.stderr
    assert "sign in once where a person can (askback tools URL, on a terminal)" in done.stderr
    assert "-32603" not in done.stderr


# -- prompts, resources, lists, listings -------------------------------------------------------------------------
def test_prompt_and_read_answer_what_they_ask(serve: Serve, tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"context": "release", "language": "fr"}))
    got = run("prompt", serve(conformance_app), "test_input_required_result_prompt", "--answers", "a.json",
              cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["messages"][0]["content"]["text"] == "Use this context: release"
    read = run("read", serve(demo_app), "demo://greeting/Ada", "--answers", "a.json", cwd=tmp_path)
    assert read.returncode == 0, read.stderr
    assert json.loads(read.stdout)["contents"][0]["text"] == "Bonjour, Ada!"


def test_a_list_parameter_takes_comma_separated_values(serve: Serve, tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {
        "attendees": {"type": "array", "items": {"type": "string"}},
        "rooms": {"type": "array", "items": {"type": "integer"}},
        "maybe": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        "title": {"type": "string"}}}
    mock = Mock({"book": lambda p, n: text("ok")}, schemas={"book": schema})
    done = run("call", serve(mock.app()), "book", "attendees=ada,grace", "rooms=3, 4", "maybe=x",
               "title=a,b", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert mock.calls("book")[0].params["arguments"] == {
        "attendees": ["ada", "grace"], "rooms": [3, 4], "maybe": ["x"], "title": "a,b"}


def test_tools_shows_types_choices_formats_and_bounds(demo_server: str, tmp_path: Path) -> None:
    child = spawn("tools", demo_server, cwd=tmp_path)
    child.expect("transfer")
    child.expect(r"amount \(required\): a number, at least 0\.01, at most 10000 — Amount to send, in EUR")
    child.expect(r"to \(required\): text, 15–34 characters — Recipient IBAN")
    child.expect(r"priority: one of low, normal, high \[default normal\]")
    before = child.before
    assert finish(child) == 0
    assert "choice" not in before


def test_cancel_at_the_review_is_spelled_right_and_the_result_is_said_once(demo_server: str,
                                                                          tmp_path: Path) -> None:
    child = spawn("call", demo_server, "transfer", "amount=50", cwd=tmp_path)
    child.expect("To: ")
    child.sendline(TO)
    child.expect("From account: ")
    child.sendline("2")
    child.expect("Send these answers")
    seen = io.StringIO()
    child.logfile_read = seen
    child.sendline("/cancel")
    assert finish(child) == 0
    screen = seen.getvalue()
    assert "All cancelled." in screen and "canceld" not in screen
    message = "transfer was cancelled"
    assert screen.count(message) == 1, screen


# -- answers files and resume --------------------------------------------------------------------------------------
@pytest.mark.parametrize("era", [[], ["--legacy"]], ids=["2026-07-28", "2025-11-25"])
def test_one_sampling_answer_works_in_both_eras(serve: Serve, tmp_path: Path, era: list[str]) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"sampling": "Paris"}))
    done = run("call", serve(conformance_app), "test_input_required_result_sampling", "--answers", "a.json",
               "--answer-sampling", *era, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result.get("isError") is not True and "Paris" in json.dumps(result)


def test_resume_keeps_answer_sampling_and_roots(serve: Serve, tmp_path: Path) -> None:
    url = serve(conformance_app)
    saved = run("call", url, "test_input_required_result_multiple_inputs", "--answer-sampling",
                "--roots", "file:///srv/docs", "--save-pending", "p.json", cwd=tmp_path)
    assert saved.returncode == 3, saved.stderr
    assert json.loads((tmp_path / "p.json").read_text())["options"] == {
        "answerSampling": True, "roots": ["file:///srv/docs"]}
    (tmp_path / "a.json").write_text(json.dumps({"user_name": "Ada", "sampling": "Hello"}))
    done = run("resume", "p.json", "--answers", "a.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"][0]["text"] == "Hello Ada (1 roots)"
