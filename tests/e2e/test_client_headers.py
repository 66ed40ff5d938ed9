"""`askback call --header NAME:VALUE`: the header goes with every request, on MCP and on A2A alike.

An app whose principal comes from a header (security.md's `x-authenticated-user` hook) can be tried from the
command line. A pending file keeps the header's name, never its value (it may be a credential): `resume`
is given it again, and says so when it is not.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import pytest

import askback
from tests.e2e.test_client_cli import run

Serve = Callable[[Any], str]
WHO = "x-authenticated-user"


def principal(request: askback.Request) -> str | None:
    return request.headers.get(WHO)


def team() -> askback.App:
    app = askback.App("team", principal=principal)

    @app.tool()
    def whoami(note: str, caller: askback.Caller) -> str:
        """Say who calls, with a note."""
        return f"{caller.principal}: {note}"

    return app


@pytest.fixture
def url(serve: Serve) -> str:
    return serve(team())


def text(done: Any) -> str:
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["content"][0]["text"])


@pytest.mark.parametrize("wire", ["mcp", "a2a"])
def test_the_header_names_the_caller_on_every_round(url: str, tmp_path: Path, wire: str) -> None:
    server = url if wire == "mcp" else url.removesuffix("/mcp")
    (tmp_path / "a.json").write_text(json.dumps({"note": "hi"}))
    # The note is asked (a second round, whose state is bound to the first round's caller): it must carry it too.
    asked = run("call", server, "whoami", "--header", f"{WHO}: alice", "--answers", "a.json", "--json", cwd=tmp_path)
    assert text(asked) == "alice: hi"
    given = run("call", server, "whoami", "note=yo", "--header", "X-Authenticated-User:bob", "--json", cwd=tmp_path)
    assert text(given) == "bob: yo"
    nobody = run("call", server, "whoami", "note=yo", "--json", cwd=tmp_path)
    assert text(nobody) == "None: yo"


def test_tools_sends_the_header_too(url: str, tmp_path: Path) -> None:
    listed = run("tools", url, "--header", f"{WHO}:alice", "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert [tool["name"] for tool in json.loads(listed.stdout)] == ["whoami"]


def test_a_pending_file_keeps_the_headers_name_not_its_value(url: str, tmp_path: Path) -> None:
    secret = "alice-7f3a9c"  # a header value may be a credential
    saved = run("call", url, "whoami", "--header", f"{WHO}:{secret}", "--save-pending", "p.json", cwd=tmp_path)
    assert saved.returncode == 3, saved.stderr
    assert f"askback resume p.json [--answers FILE] --header {WHO}:… (header values are not saved" in saved.stderr
    assert secret not in saved.stderr
    kept = (tmp_path / "p.json").read_text()
    assert secret not in kept
    assert json.loads(kept)["options"] == {"headerNames": [WHO]}
    (tmp_path / "a.json").write_text(json.dumps({"note": "later"}))
    (tmp_path / "copy.json").write_text(kept)

    bare = run("resume", "copy.json", "--answers", "a.json", cwd=tmp_path)
    assert f"the call was saved with --header {WHO}" in bare.stderr
    assert "give them again with --header" in bare.stderr
    assert bare.returncode == 6  # the server refuses a state minted for another caller
    assert f"it was saved with --header {WHO}, not given again now" in bare.stderr

    resumed = run("resume", "p.json", "--answers", "a.json", "--header", f"{WHO}:{secret}", "--json", cwd=tmp_path)
    assert text(resumed) == f"{secret}: later"
    assert "saved with --header" not in resumed.stderr


@pytest.mark.parametrize(("header", "says"), [
    ("novalue", "--header takes NAME:VALUE"),
    (":alice", "--header takes NAME:VALUE"),
    ("bad name:alice", "--header takes NAME:VALUE"),
    ("Mcp-Method:tools/list", "--header Mcp-Method: the client sets this header itself"),
    ("Content-Type:text/plain", "--header Content-Type: the client sets this header itself"),
    (f"{WHO}:ali\nce", f"--header {WHO}: the value has a line break or NUL"),
])
def test_a_bad_header_is_a_usage_error_that_never_shows_its_value(url: str, tmp_path: Path, header: str,
                                                                 says: str) -> None:
    done = run("call", url, "whoami", "note=x", "--header", header, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "ali\nce" not in done.stderr and "Traceback" not in done.stderr


def test_a_header_given_twice_or_to_a_stdio_server_is_refused(url: str, tmp_path: Path) -> None:
    twice = run("call", url, "whoami", "--header", f"{WHO}:a", "--header", "X-Authenticated-User:b", cwd=tmp_path)
    assert twice.returncode == 2 and "--header X-Authenticated-User is given twice" in twice.stderr
    stdio = run("call", "askback serve app.py --stdio", "whoami", "--header", f"{WHO}:a", cwd=tmp_path)
    assert stdio.returncode == 2 and "--header needs an http(s) server URL" in stdio.stderr


def test_a_resume_saved_again_keeps_the_header_names_it_was_not_given(serve: Serve, tmp_path: Path) -> None:
    app = askback.App("notes")  # no principal hook: the header does not bind the state, so a bare resume goes on

    @app.tool()
    def note(text: str, ok: Annotated[bool, askback.Confirm("Keep {text}?")]) -> str:
        return f"kept {text}" if ok else "dropped"

    url = serve(app)
    saved = run("call", url, "note", "--header", "X-Trace:abc", "--save-pending", "p.json", cwd=tmp_path)
    assert saved.returncode == 3, saved.stderr
    (tmp_path / "a.json").write_text(json.dumps({"text": "milk"}))
    again = run("resume", "p.json", "--answers", "a.json", "--save-pending", "p.json", cwd=tmp_path)
    assert again.returncode == 3, again.stderr
    assert "the call was saved with --header X-Trace" in again.stderr
    data = json.loads((tmp_path / "p.json").read_text())
    assert list(data["inputRequests"]) == ["ok"] and data["options"] == {"headerNames": ["X-Trace"]}
    assert "abc" not in (tmp_path / "p.json").read_text()
