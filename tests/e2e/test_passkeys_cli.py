"""`askback passkeys enroll|list|revoke` as real commands beside a real server sharing their SQLite store, and
`askback demo --passkeys` from its first line to an approved transfer, in headless chromium with a virtual
authenticator."""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from askback.loader import load_app
from tests.conftest import LoopbackServer, free_port
from tests.e2e.test_cli import ROOT, askback_command
from tests.e2e.test_passkeys_browser import KEYS, Call, Person, shot, shows
from tests.support.browser import launch
from tests.support.processes import stop
from tests.support.rawclient import RawClient

if TYPE_CHECKING:
    from playwright.sync_api import Browser

APP = "tests/e2e/passkey_app.py"
LINK = re.compile(r"http://localhost:\d+/askback/passkeys/enroll/[A-Za-z0-9_-]{32}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launch() as chromium:
        yield chromium


@pytest.fixture
def shared_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    env = {"ASKBACK_STORE": f"sqlite:///{tmp_path}/askback.db", "ASKBACK_KEYS": KEYS,
           "ASKBACK_DATA_DIR": str(tmp_path)}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return {**os.environ, **env}


def passkeys(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*askback_command(), "passkeys", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


def test_an_enrollment_link_enrolls_once_and_the_operator_lists_and_revokes(
    browser: Browser, shared_store: dict[str, str]
) -> None:
    app = load_app(APP)
    with LoopbackServer(app) as server:
        printed = passkeys(shared_store, "enroll", "alice", "--app", APP, "--public-url",
                           f"http://127.0.0.1:{server.port}")
        assert printed.returncode == 0, printed.stderr
        [link] = LINK.findall(printed.stdout)
        assert link.startswith(f"http://localhost:{server.port}/")  # a passkey needs a name, not an address
        assert "add a passkey for alice" in printed.stderr

        alice = Person(browser, "alice")
        shows(alice.page, "Add a passkey", 200, alice.page.goto(link))
        shot(alice.page, "09-enroll-link")
        alice.page.get_by_role("button", name="Add a passkey").click()
        alice.page.wait_for_selector("h1:text('Passkey added')")
        shows(alice.page, "This enrollment link is not valid, was used or has expired", 404, alice.page.goto(link))

        listed = passkeys(shared_store, "list", "--app", APP)
        [(principal, credential, _)] = [line.split("\t") for line in listed.stdout.splitlines()]
        assert principal == "alice" and len(credential) > 20

        with RawClient(server.url) as client:
            client.http.headers["x-user"] = "alice"
            call = Call(client, "transfer", {"amount": 4000})
            shows(alice.page, "Approved", 200, alice.approve(call.url))
            assert call.retry()["result"]["resultType"] == "complete"

            revoked = passkeys(shared_store, "revoke", "alice", credential[:10], "--app", APP)
            assert revoked.returncode == 0, revoked.stderr
            assert passkeys(shared_store, "list", "alice", "--app", APP).stdout == ""
            again = Call(client, "transfer", {"amount": 4001})
            shows(alice.page, "Approve this action?", 200, alice.page.goto(again.url))
            assert "none is enrolled for alice" in alice.page.locator(".card").inner_text()
            assert again.pending()
        alice.close()
    assert passkeys(shared_store, "revoke", "alice", "nothing-like-it", "--app", APP).returncode == 1


def test_the_command_needs_to_know_the_app(shared_store: dict[str, str]) -> None:
    env = {k: v for k, v in shared_store.items() if k != "ASKBACK_APP"}
    done = passkeys(env, "enroll", "alice")
    assert done.returncode == 2
    assert done.stderr.strip() == "askback passkeys: name the app with --app TARGET (or ASKBACK_APP)"
    missing = passkeys(env, "list", "--app", "tests/e2e/no_such_app.py")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr and "no such file" in missing.stderr


def test_the_demo_with_passkeys_prints_an_enrollment_link_and_its_big_transfer_needs_the_passkey(
    browser: Browser, tmp_path: Path
) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("ASKBACK_KEYS", "ASKBACK_STORE")}
    env["ASKBACK_DATA_DIR"] = str(tmp_path)
    log = tmp_path / "demo.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([*askback_command(), "demo", "--passkeys", "--port", str(port)], cwd=ROOT,
                                   env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not (LINK.search(log.read_text()) and "askback: serving" in log.read_text()):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        text = log.read_text()
        assert "a transfer above 1,000 EUR is approved with a passkey" in text
        [link] = LINK.findall(text)
        person = Person(browser, "you")
        shows(person.page, "Add a passkey", 200, person.page.goto(link))
        person.page.get_by_role("button", name="Add a passkey").click()
        person.page.wait_for_selector("h1:text('Passkey added')")

        with RawClient(f"http://127.0.0.1:{port}/mcp") as client:
            arguments = {"amount": 2500, "to": "DE44500105175407324931", "from_account": "DE89370400440532013000"}
            call = Call(client, "transfer", arguments)
            shows(person.page, "Approve this action?", 200, person.page.goto(call.url))
            shot(person.page, "10-demo-transfer")
            with person.page.expect_response(lambda r: r.request.method == "POST") as posted:
                person.page.get_by_role("button", name="Approve with passkey").click()
            shows(person.page, "Approved", 200, posted.value)
            done = call.retry()
            assert done["result"]["structuredContent"]["status"] == "sent", done
        person.close()
    finally:
        stop(process)
