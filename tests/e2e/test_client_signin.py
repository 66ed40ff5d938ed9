"""The client signs in (OAuth 2.1) to a server that answers HTTP 401: real HTTP on loopback, a real authorization
server (`tests/support/oauthserver.py`), the SDK's provider, askback's token file, listener and messages.

The harness's 25 `auth/*` client scenarios cover the protocol's variants (tests/conformance); these cover what
askback adds: where tokens are kept and who may read them, refresh across processes, the ways a person
authorizes, the gateway toward its upstream, and that no token, code or secret reaches a log line or an error.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest

import askback
from askback.client import SignInFailed, Unauthorized
from askback.gateway import gateway_app
from tests.conftest import LoopbackServer
from tests.support.oauthserver import Authority, protected_app

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def authority() -> Iterator[Authority]:
    authority = Authority()
    with LoopbackServer(protected_app(authority)) as server:
        authority.base = server.url.removesuffix("/mcp")
        yield authority


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)  # every logger, the SDK's and httpx's included
    return caplog


def url_of(authority: Authority) -> str:
    return f"{authority.base}/mcp"


async def hello(url: str, sign_in: askback.SignIn | None, name: str = "ada") -> str:
    async with askback.Client(url, sign_in=sign_in) as client:
        result = await client.call_tool("hello", {"name": name})
    assert not result.is_error, result
    return str(result.structured_content or result.content[0].text)  # type: ignore[union-attr]


def assert_no_secret_in(text: str, authority: Authority) -> None:
    leaked = [secret for secret in authority.issued() if secret in text]
    assert not leaked, f"issued credentials in the text: {leaked}"


async def test_a_client_signs_in_keeps_the_tokens_private_and_says_nothing_secret(
    authority: Authority, tmp_path: Path, logs: pytest.LogCaptureFixture
) -> None:
    sign_in = askback.SignIn(authorize="http", data_dir=tmp_path / "data")
    assert "hello ada" in await hello(url_of(authority), sign_in)
    assert authority.counts["register"] == 1 and authority.counts["authorize"] == 1
    assert authority.counts["token:authorization_code"] == 1

    kept = sign_in.token_file(url_of(authority)).path
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    stored = json.loads(kept.read_text())
    assert stored["server"] == url_of(authority) and stored["tokens"]["access_token"] in authority.access_tokens
    assert_no_secret_in(logs.text, authority)  # the code, the tokens: in no log line of any library


async def test_the_kept_token_is_used_again_and_an_expired_one_is_refreshed_not_signed_in_anew(
    authority: Authority, tmp_path: Path, logs: pytest.LogCaptureFixture
) -> None:
    sign_in = askback.SignIn(authorize="http", data_dir=tmp_path / "data")
    await hello(url_of(authority), sign_in)
    await hello(url_of(authority), askback.SignIn(authorize="never", data_dir=tmp_path / "data"), "grace")
    assert authority.counts.get("token:refresh_token", 0) == 0  # the kept token, still valid, was used as it is
    # Its hour goes by (the file says when it expires; the SDK keeps that only in memory):
    kept = sign_in.token_file(url_of(authority)).path
    stored = json.loads(kept.read_text())
    stored["tokens"]["expires_at"] = time.time() - 1
    kept.write_text(json.dumps(stored))
    # A later process, on the same data directory: the expired token is refreshed before the first request, and
    # no person is needed (with "never", a person would be an error).
    await hello(url_of(authority), askback.SignIn(authorize="never", data_dir=tmp_path / "data"), "alan")
    assert authority.counts["token:refresh_token"] == 1
    assert authority.counts["401"] == 1  # only the very first request went without a token
    assert authority.counts["authorize"] == 1 and authority.counts["register"] == 1
    assert_no_secret_in(logs.text, authority)


async def test_without_a_sign_in_a_401_says_how_to_sign_in(authority: Authority) -> None:
    with pytest.raises(Unauthorized) as raised:
        await hello(url_of(authority), None)
    assert not isinstance(raised.value, SignInFailed)
    assert "HTTP 401" in str(raised.value) and "sign_in=askback.SignIn()" in str(raised.value)


async def test_never_stops_where_a_person_is_needed_and_says_so(authority: Authority, tmp_path: Path) -> None:
    never = askback.SignIn(authorize="never", data_dir=tmp_path / "data")
    with pytest.raises(SignInFailed, match="it answers HTTP 401 and no sign-in is kept for it; a person must sign in"):
        await hello(url_of(authority), never)
    assert "register" not in authority.counts  # with nothing kept, no sign-in was begun: no client registered
    # Tokens kept, but refused and not refreshable: a person would be needed again, and "never" says so.
    await hello(url_of(authority), askback.SignIn(authorize="http", data_dir=tmp_path / "data"))
    authority.access_tokens.clear()
    authority.refresh_tokens.clear()
    with pytest.raises(SignInFailed, match=r"a person must sign in at 127\.0\.0\.1:\d+, and none is asked here"):
        await hello(url_of(authority), never)
    assert authority.counts["authorize"] == 1  # nobody was sent to the authorization page by "never"


async def test_a_login_page_stops_the_http_sign_in_and_says_a_person_is_needed(
    authority: Authority, tmp_path: Path
) -> None:
    authority.login_page = True
    with pytest.raises(SignInFailed) as raised:
        await hello(url_of(authority), askback.SignIn(authorize="http", data_dir=tmp_path / "data"))
    message = str(raised.value)
    assert "answered HTTP 200 instead of sending the browser back: a person must sign in there" in message
    assert message.startswith(f"signing in to {url_of(authority)} failed: ")


async def test_a_token_file_others_can_read_is_refused_and_its_tokens_not_shown(
    authority: Authority, tmp_path: Path
) -> None:
    sign_in = askback.SignIn(authorize="http", data_dir=tmp_path / "data")
    await hello(url_of(authority), sign_in)
    kept = sign_in.token_file(url_of(authority)).path
    kept.chmod(0o644)
    with pytest.raises(SignInFailed) as raised:
        await hello(url_of(authority), sign_in)
    assert f"token file {kept} has mode 0644: group or others may read the tokens" in str(raised.value)
    assert_no_secret_in(str(raised.value), authority)


async def test_the_browser_comes_back_to_a_listener_that_takes_only_this_sign_in(
    authority: Authority, tmp_path: Path
) -> None:
    """`print`: the person's browser (here an HTTP client in another thread, as a browser would) follows the
    URL; the listener on 127.0.0.1 refuses an answer with another `state` and takes the right one."""
    seen: dict[str, object] = {}

    def browser(text: str) -> None:
        url = text.split("\n  ", 1)[1].split("\n", 1)[0]
        seen["told"] = text

        def visit() -> None:
            with httpx.Client() as person:
                first = person.get(url, follow_redirects=False)
                back = httpx.URL(first.headers["location"])
                forged = person.get(back.copy_set_param("state", "someone-else"))
                seen["forged"] = (forged.status_code, forged.text)
                seen["back"] = person.get(back).status_code

        threading.Thread(target=visit, daemon=True).start()

    sign_in = askback.SignIn(authorize="print", data_dir=tmp_path / "data", tell=browser, wait=30)
    assert "hello ada" in await hello(url_of(authority), sign_in)
    told = str(seen["told"])
    assert told.startswith(f"{url_of(authority)} asks you to sign in, at 127.0.0.1:")
    assert "open it in a browser on this machine" in told
    status, page = seen["forged"]  # type: ignore[misc]
    assert status == 400 and "not the answer to the sign-in under way" in str(page)
    assert seen["back"] == 200
    assert_no_secret_in(told, authority)


async def test_a_browser_that_never_comes_back_ends_the_wait_with_a_clear_error(
    authority: Authority, tmp_path: Path
) -> None:
    sign_in = askback.SignIn(authorize="print", data_dir=tmp_path / "data", tell=lambda text: None, wait=0.5)
    with pytest.raises(SignInFailed, match=r"the browser did not come back from signing in within 0\.5 s"):
        await hello(url_of(authority), sign_in)


async def test_the_gateway_signs_in_to_its_upstream(authority: Authority, tmp_path: Path) -> None:
    sign_in = askback.SignIn(authorize="http", data_dir=tmp_path / "data")
    with LoopbackServer(gateway_app(url_of(authority), sign_in=sign_in)) as gateway:
        # The gateway's own caller needs no sign-in: the gateway holds the upstream's.
        assert "hello ada" in await hello(gateway.url, None)
    assert authority.counts["authorize"] == 1


def askback_cli(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ASKBACK_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "askback.cli", *args], capture_output=True, text=True,
                          timeout=60, env=env, stdin=subprocess.DEVNULL)


async def test_askback_call_signs_in_uses_the_kept_tokens_and_signs_out(authority: Authority, tmp_path: Path) -> None:
    url, data = url_of(authority), tmp_path / "data"
    signed = await anyio.to_thread.run_sync(lambda: askback_cli("call", url, "hello", "name=ada", "--sign-in", "http",
                                                                "--json", data_dir=data))
    assert signed.returncode == 0, signed.stderr
    assert "hello ada" in signed.stdout
    # No terminal: the default is "never", which the kept token is enough for.
    again = await anyio.to_thread.run_sync(lambda: askback_cli("call", url, "hello", "name=grace", "--json",
                                                               data_dir=data))
    assert again.returncode == 0, again.stderr
    out = await anyio.to_thread.run_sync(lambda: askback_cli("sign-out", url, data_dir=data))
    assert out.returncode == 0 and f"signed out of {url}" in out.stderr
    refused = await anyio.to_thread.run_sync(lambda: askback_cli("call", url, "hello", "name=ada", data_dir=data))
    assert refused.returncode == 6
    assert f"askback: signing in to {url} failed: it answers HTTP 401 and no sign-in is kept for it" in refused.stderr
    for done in (signed, again, out, refused):
        assert_no_secret_in(done.stdout + done.stderr, authority)
        assert "Traceback" not in done.stderr


async def test_askback_gateway_signs_in_to_its_upstream_at_start(authority: Authority, tmp_path: Path) -> None:
    from tests.e2e.serving import started

    env = {**os.environ, "ASKBACK_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT / "src")}
    args = [url_of(authority), "--port", "0", "--upstream-auth", "oauth", "--sign-in", "http"]
    with started(args, env, command="gateway") as gateway:
        assert "hello ada" in await hello(gateway.url, None)
        assert_no_secret_in("\n".join(gateway.lines), authority)
    assert authority.counts["authorize"] == 1
    # Without a sign-in, the gateway says at start why it cannot serve, in one line.
    refused = await anyio.to_thread.run_sync(lambda: subprocess.run(
        [sys.executable, "-m", "askback.cli", "gateway", url_of(authority), "--port", "0"],
        capture_output=True, text=True, timeout=60, env={**env, "ASKBACK_DATA_DIR": str(tmp_path / "other")}))
    assert refused.returncode == 2, refused.stderr
    assert "needs a sign-in (HTTP 401): start it with --upstream-auth oauth" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr


async def test_a_real_browser_signs_in_through_the_listener(authority: Authority, tmp_path: Path) -> None:
    """`print`, with headless chromium as the person's browser: it opens the URL, the authorization server
    sends it back to 127.0.0.1, and the listener's page says it is done."""
    from tests.support import browser as chromium
    from tests.support.browser import launch

    if not os.access(chromium.CHROMIUM, os.X_OK):  # checked here: `launch` runs in the browser's own thread
        chromium._unavailable(f"chromium at {chromium.CHROMIUM}")
    pages: list[str] = []
    browsing: list[threading.Thread] = []

    def person(text: str) -> None:
        url = text.split("\n  ", 1)[1].split("\n", 1)[0]

        def browse() -> None:
            with launch() as browser:
                page = browser.new_page()
                page.goto(url)
                page.wait_for_url("http://127.0.0.1:*/callback*")
                pages.append(page.inner_text("body"))

        browsing.append(threading.Thread(target=browse, daemon=True))
        browsing[0].start()

    sign_in = askback.SignIn(authorize="print", data_dir=tmp_path / "data", tell=person, wait=60)
    assert "hello ada" in await hello(url_of(authority), sign_in)
    await anyio.to_thread.run_sync(lambda: browsing[0].join(60))
    assert pages == ["Signed in. You can close this page and go back to askback."]
