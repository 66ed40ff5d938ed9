"""A retry of an accepted page step is held while the page is not done (`askback.pagewait`), over real HTTP.

The official SDK `Client` (2026-07-28) retries an `input_required` result at once and gives up after 10
rounds: without the hold, a callback that accepts a URL question at once failed in a fraction of a second.
"""

import io
import threading
import time
from typing import Annotated, Any

import anyio
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext
from mcp_types import ElicitRequestParams, ElicitResult

import askback
from askback.client import FileAnswerer, PageNotFinished
from askback.mcp.http import http_app
from tests.e2e.test_out_of_band import KEY, SECRET, URL_OK, submit, url_of
from tests.support.rawclient import RawClient

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def bank(runs: list[Any], **kw: Any) -> askback.App:
    app = askback.App("wait-bank", keys=KEY, store="memory://", **kw)

    @app.tool()
    def connect(bank: str, api_key: Annotated[askback.Secret, askback.Ask("the API key of {bank}")]) -> str:
        runs.append(api_key.reveal())
        return f"connected {bank}"

    @app.tool(once=True)
    def pay(amount: int, ok: Annotated[bool, askback.Confirm("Pay {amount} EUR?", out_of_band=True)]) -> str:
        runs.append(amount)
        return f"paid {amount}"

    return app


class AcceptAtOnce:
    """The obvious elicitation callback: accept the URL question at once; a person finishes the page later."""

    def __init__(self) -> None:
        self.urls: list[str] = []
        self.seen = anyio.Event()

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        assert params.mode == "url"
        self.urls.append(params.url)
        self.seen.set()
        return ElicitResult(action="accept")


async def finish_page_later(answer: AcceptAtOnce, delay: float, form: dict[str, str], done: list[float]) -> None:
    await answer.seen.wait()
    await anyio.sleep(delay)
    posted = await anyio.to_thread.run_sync(lambda: submit(answer.urls[0], **form))
    assert posted.status_code == 200, posted.text
    done.append(time.monotonic())


@pytest.mark.parametrize(("tool", "arguments", "form", "expected"), [
    ("connect", {"bank": "Acme"}, {"value": SECRET, "decision": "submit"}, "connected Acme"),
    ("pay", {"amount": 5000}, {"decision": "approve"}, "paid 5000"),
])
async def test_the_sdk_client_with_an_accept_at_once_callback_completes_a_page_step(
        serve: Any, tool: str, arguments: dict[str, Any], form: dict[str, str], expected: str) -> None:
    runs: list[Any] = []
    url = serve(bank(runs))
    answer = AcceptAtOnce()
    done: list[float] = []
    async with anyio.create_task_group() as tg:
        tg.start_soon(finish_page_later, answer, 1.5, form, done)
        async with Client(url, mode="2026-07-28", elicitation_callback=answer) as client:
            result = await client.call_tool(tool, arguments)
    assert result.is_error is not True, result
    assert result.content[0].text == expected  # type: ignore[union-attr]
    assert runs == [SECRET if tool == "connect" else 5000]
    assert len(set(answer.urls)) == 1 and len(answer.urls) <= 3  # held, not asked again and again


def test_a_held_retry_ends_soon_after_the_page_completes_not_at_the_bound(serve: Any) -> None:
    hold = 20.0
    runs: list[Any] = []
    with RawClient(serve(bank(runs, page_wait=hold))) as c:
        first = c.call("pay", {"amount": 5000})["result"]
        url = url_of(first, "ok")
        done: list[float] = []

        def approve() -> None:
            assert submit(url, decision="approve").status_code == 200
            done.append(time.monotonic())

        person = threading.Timer(1.0, approve)  # the person, on the page, while the retry is held
        person.start()
        try:
            reply = c.call("pay", {"amount": 5000}, responses={"ok": URL_OK}, state=first["requestState"])
            answered = time.monotonic()
        finally:
            person.join()
    assert reply["result"]["content"][0]["text"] == "paid 5000" and runs == [5000]
    assert done and answered - done[0] < hold / 4  # ended by the page, far before the bound


def test_a_hold_that_expires_asks_the_same_url_question_again(serve: Any) -> None:
    runs: list[Any] = []
    with RawClient(serve(bank(runs, page_wait=0.6))) as c:
        first = c.call("connect", {"bank": "Acme"})["result"]
        started = time.monotonic()
        again = c.call("connect", {"bank": "Acme"}, responses={"api_key": URL_OK}, state=first["requestState"])
        held = time.monotonic() - started
    assert again["result"]["resultType"] == "input_required"
    assert url_of(again["result"], "api_key") == url_of(first, "api_key") and runs == []
    assert held >= 0.6  # it was held (to the bound: nothing finished the page)


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_a_retry_that_did_not_accept_is_never_held(serve: Any, action: str) -> None:
    runs: list[Any] = []
    with RawClient(serve(bank(runs, page_wait=30.0))) as c:
        first = c.call("connect", {"bank": "Acme"})["result"]
        started = time.monotonic()
        reply = c.call("connect", {"bank": "Acme"}, responses={"api_key": {"action": action}},
                       state=first["requestState"])
        took = time.monotonic() - started
    text = reply["result"]["content"][0]["text"]
    assert f"was {action}" in text and "Nothing was done" in text and runs == []
    assert took < 15.0  # answered, not held to the 30 s bound


def test_a_first_call_and_a_retry_without_the_question_asked_are_never_held(serve: Any) -> None:
    runs: list[Any] = []
    with RawClient(serve(bank(runs, page_wait=30.0))) as c:
        started = time.monotonic()
        first = c.call("connect", {"bank": "Acme"}, responses={"api_key": URL_OK})["result"]
        unanswered = c.call("connect", {"bank": "Acme"}, state=first["requestState"])["result"]
        took = time.monotonic() - started
    assert first["resultType"] == unanswered["resultType"] == "input_required"
    assert took < 15.0  # both answered at once, not held to the 30 s bound


def test_the_page_wait_is_set_by_the_app_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from askback.pagewait import DEFAULT_SECONDS, PageWaitError

    monkeypatch.delenv("ASKBACK_PAGE_WAIT", raising=False)
    assert bank([]).page_wait == DEFAULT_SECONDS == 20.0
    assert bank([], page_wait=0).page_wait == 0.0
    monkeypatch.setenv("ASKBACK_PAGE_WAIT", "45")
    assert bank([]).page_wait == 45.0 and bank([], page_wait=3).page_wait == 3.0
    for bad in ("soon", "-1", "nan", "inf"):
        monkeypatch.setenv("ASKBACK_PAGE_WAIT", bad)
        with pytest.raises(PageWaitError, match="ASKBACK_PAGE_WAIT"):
            bank([])


@pytest.mark.parametrize("fast_route", [True, False])
async def test_a_client_that_stops_waiting_ends_the_hold_at_the_server(serve: Any, fast_route: bool) -> None:
    """askback's own client keeps to its `url_wait` against a holding server, and its closed connection
    ends the hold (on the fast route and on the SDK's), long before the server's bound."""
    hold = 30.0
    app = bank([], page_wait=hold)
    url = serve(http_app(app, fast_route=fast_route))
    answerer = FileAnswerer({"accept_url": True}, output=io.StringIO())
    started = time.monotonic()
    async with askback.Client(url, answerer=answerer, url_wait=1.5) as client:
        with pytest.raises(PageNotFinished, match=r"was not finished within 1\.5 s"):
            await client.call_tool("connect", {"bank": "Acme"})
    assert time.monotonic() - started < hold / 3
    holds = app.runtime.page_wait
    for _ in range(100):  # bounded: the server looks for the disconnect every poll (0.2 s)
        if holds.holding == 0:
            break
        await anyio.sleep(0.1)
    assert holds.holding == 0


def test_askback_serve_takes_the_page_wait_from_its_flag(tmp_path: Any) -> None:
    """`--page-wait 0` turns the hold off (else the retry below would be held 20 s); a bad value is refused."""
    from tests.e2e.serving import started
    from tests.e2e.test_cli import serve_env

    env = {k: v for k, v in serve_env(tmp_path).items() if k != "ASKBACK_PAGE_WAIT"}
    with started(["--port", "0", "--page-wait", "0"], env, command="demo") as server, RawClient(server.url) as c:
        first = c.call("connect_bank", {"bank": "acme"})["result"]
        started_at = time.monotonic()
        again = c.call("connect_bank", {"bank": "acme"}, responses={"api_key": URL_OK},
                       state=first["requestState"])["result"]
        took = time.monotonic() - started_at
    assert url_of(again, "api_key") == url_of(first, "api_key")
    assert took < 10.0  # not held: the default of 20 s would have held it to the end

    import subprocess

    from tests.e2e.serving import askback_command
    bad = subprocess.run([*askback_command(), "demo", "--page-wait", "-3"], env=env, capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "--page-wait: '-3' is not a number of seconds" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_held_retry_blocks_neither_the_event_loop_nor_other_calls(serve: Any) -> None:
    """While one retry is held (nobody finishes its page), the same one-process server answers other calls,
    other held retries included, and the held one ends only when its page is done."""
    runs: list[Any] = []
    app = bank(runs, page_wait=30.0)
    url = serve(app)
    with RawClient(url) as first_client:
        first = first_client.call("pay", {"amount": 5000})["result"]
    answered: list[dict[str, Any]] = []

    def held() -> None:
        with RawClient(url) as c:
            answered.append(c.call("pay", {"amount": 5000}, responses={"ok": URL_OK}, state=first["requestState"]))

    holder = threading.Thread(target=held)
    holder.start()
    try:
        for _ in range(300):  # bounded: until the server holds the retry
            if app.runtime.page_wait.holding == 1:
                break
            time.sleep(0.02)
        assert app.runtime.page_wait.holding == 1
        with RawClient(url) as other:
            others = [other.call("connect", {"bank": f"B{n}"})["result"]["resultType"] for n in range(5)]
        assert others == ["input_required"] * 5  # answered by the one process while it holds the first
        assert app.runtime.page_wait.holding == 1 and not answered  # still held
    finally:
        assert submit(url_of(first, "ok"), decision="approve").status_code == 200
        holder.join(timeout=30)
    assert answered and answered[0]["result"]["content"][0]["text"] == "paid 5000" and runs == [5000]
