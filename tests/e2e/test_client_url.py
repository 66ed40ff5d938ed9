"""The client takes a URL step as a person would: the link shown and checked, consent, the page, the wait.

A real askback server (the demo, or a small app) runs on loopback; the test plays the person in the browser:
it reads the URL the client shows (its standard error, a pty, or the "browser" the client started through
`$BROWSER`), opens the page with httpx, reads the hidden CSRF field and posts the value or the decision back.
The secret must then appear nowhere the client writes: not its output, not its errors, not a pending file.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import httpx
import pexpect
import pytest

import askback
from askback.client import Asked, CallableAnswerer, FileAnswerer, PageNotFinished, UrlQuestion
from askback.demo import app as demo_app
from tests.conftest import free_port
from tests.e2e.test_cli import askback_command, serve_env, served
from tests.e2e.test_client_cli import SAVINGS, TO, demo_server, finish, run
from tests.support import terminal
from tests.support.processes import stop

__all__ = ["demo_server"]  # the fixture, shared with the other command-line tests

SECRET = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
OPEN = re.compile(r"^askback: open (\S+)$", re.MULTILINE)


def complete_page(url: str, **form: str) -> None:
    """What the person does in the browser: open the page, then submit it with its CSRF token."""
    with httpx.Client(timeout=30) as browser:
        page = browser.get(url)
        assert page.status_code == 200, page.text
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None, page.text
        done = browser.post(url, data={"csrf": token.group(1), **form})
        assert done.status_code == 200, done.text


def answers(tmp_path: Path, **entries: Any) -> str:
    path = tmp_path / "a.json"
    path.write_text(json.dumps(entries))
    return str(path)


def call_in_background(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([*askback_command(), *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**(env or os.environ), "NO_COLOR": "1"})


def read_url(process: subprocess.Popen[str], seen: list[str]) -> str:
    """Read the client's standard error up to the line that says which page to open."""
    assert process.stderr is not None
    for line in process.stderr:
        seen.append(line)
        if found := OPEN.match(line.rstrip("\n")):
            return found.group(1)
    pytest.fail(f"the client ended without showing a URL:\n{''.join(seen)}")


def test_askback_call_with_accept_url_waits_while_the_person_enters_the_key(demo_server: str,
                                                                             tmp_path: Path) -> None:
    client = call_in_background("call", demo_server, "connect_bank", "bank=acme",
                                "--answers", answers(tmp_path, accept_url=True), cwd=tmp_path)
    seen: list[str] = []
    url = read_url(client, seen)
    assert url.startswith(demo_server.removesuffix("/mcp") + "/askback/p/")
    complete_page(url, value=SECRET, decision="submit")
    out, err = client.communicate(timeout=120)
    err = "".join(seen) + err
    assert client.returncode == 0, err
    assert json.loads(out)["structuredContent"] == {"bank": "acme", "status": "connected"}
    assert "askback-demo asks for a step on a web page (api_key): connect_bank: open this page" in err
    assert err.count("waiting for the page step to finish") <= 1  # said once at most, however long it takes
    assert SECRET not in out and SECRET not in err


def test_the_page_step_never_finished_ends_with_status_4_within_the_bound(demo_server: str, tmp_path: Path) -> None:
    pending = tmp_path / "pending.json"
    done = run("call", demo_server, "connect_bank", "bank=acme", "--answers", answers(tmp_path, accept_url=True),
               "--url-wait", "2", "--save-pending", str(pending), cwd=tmp_path)
    assert done.returncode == 4, done.stderr
    assert "askback: waiting for the page step to finish… (at most 2 s)" in done.stderr
    assert "The page step at 127.0.0.1 was not finished within 2 s; the call stops here." in done.stderr
    assert "Traceback" not in done.stderr
    saved = json.loads(pending.read_text())  # what was open is kept: the person may finish the page later
    assert list(saved["inputRequests"]) == ["api_key"]
    url = OPEN.search(done.stderr)
    assert url is not None
    complete_page(url.group(1), value=SECRET, decision="submit")
    resumed = run("resume", str(pending), "--answers", answers(tmp_path, accept_url=True), cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["structuredContent"]["status"] == "connected"
    assert SECRET not in resumed.stdout + resumed.stderr + done.stdout + done.stderr


def test_an_answers_file_without_accept_url_names_the_step(demo_server: str, tmp_path: Path) -> None:
    done = run("call", demo_server, "connect_bank", "bank=acme", "--answers", answers(tmp_path, to=TO),
               cwd=tmp_path)
    assert done.returncode == 5
    assert "no answer for the question 'api_key': a step on a web page: \"accept_url\": true" in done.stderr


class Person(CallableAnswerer):
    """Agrees to go to each page; takes the step only once the client says it waits (so it must wait)."""

    def __init__(self, **form: str) -> None:
        super().__init__(self.agree, url=True)
        self.form = form
        self.asked: list[str] = []
        self.told: list[float] = []
        self.done = threading.Event()

    def agree(self, question: Any) -> Any:
        assert isinstance(question, UrlQuestion)
        self.asked.append(question.url)
        return True

    def waiting(self, asked: Asked, seconds: float) -> None:
        self.told.append(seconds)
        url = self.asked[-1]
        threading.Thread(target=lambda: (complete_page(url, **self.form), self.done.set()), daemon=True).start()


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_askback_client_waits_for_the_page_without_asking_again(serve: Any, mode: Any) -> None:
    url = serve(demo_app)
    person = Person(value=SECRET, decision="submit")
    async with askback.Client(url, answerer=person, url_wait=60, mode=mode) as client:
        result = await client.call_tool("connect_bank", {"bank": "globex"})
    assert result.structured_content == {"bank": "globex", "status": "connected"}
    assert len(person.asked) == 1 and person.told == [60]  # asked once, told once that it waits
    assert person.done.is_set()
    assert SECRET not in result.model_dump_json()


class Said(io.StringIO):
    """What the answers file writes for the person, with an event set once it names a page to open."""

    def __init__(self) -> None:
        super().__init__()
        self.url_shown = anyio.Event()

    def write(self, text: str) -> int:
        written = super().write(text)
        if OPEN.search(self.getvalue()):
            self.url_shown.set()
        return written


@pytest.mark.anyio
async def test_askback_client_with_an_answers_file_waits_for_an_approval_on_the_page(serve: Any) -> None:
    url = serve(demo_app)
    said = Said()
    answerer = FileAnswerer({"to": TO, "from_account": SAVINGS, "accept_url": True}, output=said)

    async def approve() -> None:
        await said.url_shown.wait()
        found = OPEN.search(said.getvalue())
        assert found is not None
        await anyio.to_thread.run_sync(lambda: complete_page(found.group(1), decision="approve"))

    async with anyio.create_task_group() as people, askback.Client(url, answerer=answerer) as client:
        people.start_soon(approve)
        result = await client.call_tool("transfer", {"amount": 5000})
    assert result.structured_content is not None
    assert result.structured_content["status"] == "sent" and result.structured_content["amount"] in (5000, "5000")
    assert "askback: askback-demo asks for a step on a web page (confirm)" in said.getvalue()


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_askback_client_stops_at_the_bound_when_the_page_is_never_finished(serve: Any, mode: Any) -> None:
    url = serve(demo_app)
    answerer = FileAnswerer({"accept_url": True}, output=io.StringIO())
    async with askback.Client(url, answerer=answerer, url_wait=1.5, mode=mode) as client:
        with pytest.raises(PageNotFinished, match=r"was not finished within 1\.5 s"):
            await client.call_tool("connect_bank", {"bank": "acme"})


APP = '''
from typing import Annotated

import askback

app = askback.App("keyring-shop")


@app.tool()
def connect(shop: str, api_key: Annotated[askback.Secret, askback.Ask("the API key of {shop}")],
            ok: Annotated[bool, askback.Confirm("Connect {shop}?")]) -> str:
    """The confirmation is the last step, asked in the round after the page step."""
    return f"connected {shop} with a key of {len(api_key.reveal())} characters"
'''


def test_the_secret_is_in_no_output_nor_in_the_pending_file_saved_after_it(tmp_path: Path) -> None:
    (tmp_path / "shop.py").write_text(APP)
    with served([str(tmp_path / "shop.py")], serve_env(tmp_path / "data"), tmp_path / "serve.log") as server:
        pending = tmp_path / "pending.json"
        client = call_in_background("call", server.url, "connect", "shop=tea", "--answers",
                                    answers(tmp_path, accept_url=True), "--save-pending", str(pending), cwd=tmp_path)
        seen: list[str] = []
        complete_page(read_url(client, seen), value=SECRET, decision="submit")
        out, err = client.communicate(timeout=120)
        err = "".join(seen) + err
        assert client.returncode == 3, err + out  # the confirmation, asked after the key, is not in the file: saved
        saved = pending.read_text()
        assert list(json.loads(saved)["inputRequests"]) == ["ok"]
        finished = run("resume", str(pending), "--answers", answers(tmp_path, ok=True), cwd=tmp_path)
        assert finished.returncode == 0, finished.stderr
        assert json.loads(finished.stdout)["content"][0]["text"] == (
            f"connected tea with a key of {len(SECRET)} characters")
        everything = out + err + saved + finished.stdout + finished.stderr
        assert SECRET not in everything


# -- a person in a terminal ---------------------------------------------------------------------------------
@pytest.fixture
def browser(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path]]:
    """A `$BROWSER` for `webbrowser`: it notes the URL it is asked to open (the person reads it there)."""
    opened = tmp_path / "opened.txt"
    script = tmp_path / "fake-browser"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{opened}"\n')
    script.chmod(0o755)
    yield {**os.environ, "NO_COLOR": "1", "BROWSER": str(script)}, opened


def spawn(args: list[str], env: dict[str, str], cwd: Path) -> pexpect.spawn:
    child = terminal.spawn([*askback_command(), *args], cwd=cwd, env=env, timeout=60, dimensions=(50, 160))
    child.logfile_read = sys.stdout  # shown by pytest when a test fails
    return child


def test_a_person_enters_the_key_in_the_browser_the_client_opened(demo_server: str, tmp_path: Path,
                                                                  browser: tuple[dict[str, str], Path]) -> None:
    env, opened = browser
    transcript = io.StringIO()
    child = spawn(["call", demo_server, "connect_bank", "bank=acme"], env, tmp_path)
    child.logfile_read = transcript
    child.expect_exact("A step on a web page: connect_bank: open this page to enter the API key")
    child.expect_exact("host: 127.0.0.1")
    child.expect_exact("Open it in your browser? [y]es, [n]o: I will open it myself, /decline: ")
    child.sendline("y")
    child.expect_exact("Opened in your browser.")
    url = opened.read_text().strip()
    child.expect_exact("Waiting for the page step to finish… (Ctrl-C to stop; at most 300 s)")
    complete_page(url, value=SECRET, decision="submit")
    child.expect(r"status\s+connected")
    assert finish(child) == 0
    shown = transcript.getvalue()
    assert url in shown and SECRET not in shown
    assert "! " not in shown  # a loopback page of the server called: nothing to warn about
    (Path(os.environ.get("ASKBACK_TRANSCRIPTS", tmp_path)) / "connect_bank.txt").write_text(shown)


@pytest.fixture
def punycode_demo(tmp_path: Path) -> Iterator[str]:
    """The demo, its pages announced under a punycode host (as an operator's ASKBACK_PUBLIC_URL could); a public
    URL elsewhere needs page authentication, so the demo gets a hook."""
    port = free_port()
    log = (tmp_path / "demo.log").open("wb")
    env = serve_env(tmp_path / "data", ASKBACK_PUBLIC_URL="https://xn--bnk-qla.example")
    app = str(Path(__file__).with_name("signed_in_demo.py"))
    process = subprocess.Popen([*askback_command(), "serve", app, "--port", str(port)], env=env, stdout=log,
                               stderr=subprocess.STDOUT)
    try:
        for _ in range(200):
            if run("tools", f"http://127.0.0.1:{port}/mcp", "--json", cwd=tmp_path).returncode == 0:
                break
            if process.poll() is not None:
                pytest.fail((tmp_path / "demo.log").read_text())
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stop(process)
        log.close()


def test_a_punycode_host_is_warned_about_before_anything_is_opened(punycode_demo: str, tmp_path: Path,
                                                                   browser: tuple[dict[str, str], Path]) -> None:
    env, opened = browser
    child = spawn(["call", punycode_demo, "connect_bank", "bank=acme"], env, tmp_path)
    child.expect(r"https://xn--bnk-qla\.example/askback/p/\S+\r\n {12}\^{19}\r\n")  # the host, underlined
    child.expect_exact("host: xn--bnk-qla.example")
    child.expect_exact("! the host is written in punycode (xn--): it reads as 'bänk.example'")
    child.expect_exact("! it is not the host of the MCP server you called (127.0.0.1)")
    child.expect_exact("Open it in your browser? [y]es, [n]o: I will open it myself, /decline: ")
    child.sendline("/decline")
    child.expect(r"outcome\s+declined")
    assert finish(child) == 0
    assert not opened.exists()  # nothing was opened


def test_ctrl_c_while_waiting_for_the_page_ends_cleanly(demo_server: str, tmp_path: Path,
                                                        browser: tuple[dict[str, str], Path]) -> None:
    env, _ = browser
    child = spawn(["call", demo_server, "connect_bank", "bank=acme"], env, tmp_path)
    child.expect_exact("/decline: ")
    child.sendline("n")
    child.expect_exact("Waiting for the page step to finish…")
    child.sendintr()
    child.expect_exact("askback: interrupted")
    assert finish(child) == 130
