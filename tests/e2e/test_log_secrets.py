"""Issue 17 §1 and §4: no log line at any level carries an answer, a secret or a page's ticket.

A real `askback serve --log-level debug` (and trace, uvicorn's most verbose) runs real flows on every wire (MCP
2026-07-28 and 2025-11-25, A2A, the pages), each value a canary; then nothing of any canary is in what the
server wrote, from askback or any library it runs (uvicorn's access log, the MCP and A2A SDKs, SQLAlchemy...).
"""

from __future__ import annotations

import asyncio
import logging
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import mcp_types
import pytest
from mcp.client.client import Client

from tests.a2a.support import Agent, message, state
from tests.e2e.serving import SERVING
from tests.e2e.test_cli import ROOT, askback_command
from tests.e2e.test_out_of_band import URL_OK, url_of
from tests.e2e.test_serve_exposure import env_for
from tests.e2e.workers import pin_workers, probed, release
from tests.support.processes import stop
from tests.support.rawclient import RawClient

APP = "tests/e2e/log_canary_app.py"
NAME_MODERN = "Canary-Modern-Name-7f3a"
NAME_LEGACY = "Canary-Legacy-Name-91bc"
NAME_A2A = "Canary-A2A-Name-c0de"
PASTED_TOKEN = "ghp_" + "Zq8XcanaryTOKENpasted0123456789abcd"  # a GitHub token pasted where a name is asked
PAGE_SECRET_MCP = "sk_live_CanaryPageSecretMcp0001"
PAGE_SECRET_A2A = "sk_live_CanaryPageSecretA2a0002"
IN_BAND_KEY = "sk_live_CanaryInBandKeyA2a0003"  # sent in a message to a task that waits on its secret page
CANARIES = (NAME_MODERN, NAME_LEGACY, NAME_A2A, PASTED_TOKEN, PAGE_SECRET_MCP, PAGE_SECRET_A2A, IN_BAND_KEY)


def submit(url: str, **form: str) -> httpx.Response:
    with httpx.Client() as browser:
        page = browser.get(url)
        assert page.status_code == 200, page.text
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        return browser.post(url, data={"csrf": token.group(1), **form})


def serve_logged(tmp_path: Path, level: str) -> tuple[subprocess.Popen[bytes], str, Path]:
    log = tmp_path / "server.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([*askback_command(), "serve", APP, "--port", "0", "--log-level", level],
                                   cwd=ROOT, env=env_for(tmp_path), stdout=sink, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for line in log.read_text(errors="replace").splitlines():
            match = SERVING.match(line)
            if match:
                return process, match.group(1), log
        if process.poll() is not None:
            break
        time.sleep(0.05)
    stop(process)  # type: ignore[arg-type]
    pytest.fail(f"askback serve did not start: {log.read_text(errors='replace')}")


def modern_flows(mcp: str) -> list[str]:
    """2026-07-28: a value answered in band, a pasted token refused, a page secret, a page approval."""
    tickets = []
    with RawClient(mcp) as c:
        first = c.call("greet")["result"]
        refused = c.call("greet", responses={"name": {"action": "accept", "content": {"name": PASTED_TOKEN}}},
                         state=first["requestState"])["result"]
        assert refused["resultType"] == "input_required", refused  # the guard asks again
        done = c.call("greet", responses={"name": {"action": "accept", "content": {"name": NAME_MODERN}}},
                      state=refused["requestState"])["result"]
        assert done["content"][0]["text"] == f"hello {len(NAME_MODERN)}", done
        asked = c.call("connect", {"bank": "Acme"})["result"]
        url = url_of(asked, "api_key")
        assert submit(url, value=PAGE_SECRET_MCP, decision="submit").status_code == 200
        connected = c.call("connect", {"bank": "Acme"}, responses={"api_key": URL_OK}, state=asked["requestState"])
        assert "connected Acme" in connected["result"]["content"][0]["text"], connected
        tickets.append(url.rsplit("/", 1)[1])
        approval = c.call("pay", {"amount": 5000})["result"]
        url = url_of(approval, "ok")
        assert submit(url, decision="approve").status_code == 200
        paid = c.call("pay", {"amount": 5000}, responses={"ok": URL_OK}, state=approval["requestState"])["result"]
        assert paid["content"][0]["text"] == "paid 5000", paid
        tickets.append(url.rsplit("/", 1)[1])
    return tickets


async def legacy_flow(mcp: str) -> None:
    async def answer(context: Any, params: mcp_types.ElicitRequestParams) -> mcp_types.ElicitResult:
        return mcp_types.ElicitResult(action="accept", content={"name": NAME_LEGACY})

    async with Client(mcp, mode="legacy", elicitation_callback=answer) as client:
        result = await client.call_tool("greet", {})
    assert result.is_error is not True and f"hello {len(NAME_LEGACY)}" in repr(result.content)


async def a2a_flows(base: str) -> list[str]:
    async with Agent(base) as agent:
        task = await agent.call("greet")
        done = await agent.answer(task, {"name": NAME_A2A})
        assert state(done) == "TASK_STATE_COMPLETED", done
        waiting = await agent.call("connect", bank="Acme")
        assert state(waiting) == "TASK_STATE_AUTH_REQUIRED", waiting
        pages = [p for p in re.findall(r"https?://\S+/askback/p/[\w-]+", str(waiting))]
        assert pages, waiting
        pasted = await agent.send(message(text=f"here is the key: {IN_BAND_KEY}", task=waiting))
        assert state(pasted) in ("TASK_STATE_AUTH_REQUIRED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED"), pasted
        if state(pasted) == "TASK_STATE_AUTH_REQUIRED":
            assert (await asyncio.to_thread(submit, pages[0], value=PAGE_SECRET_A2A, decision="submit")).is_success
            finished = await agent.send(message(text="done", task=waiting))
            assert state(finished) == "TASK_STATE_COMPLETED", finished
    return [pages[0].rsplit("/", 1)[1]]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("level", ["debug", "trace"])
def test_no_log_line_carries_an_answer_a_secret_or_a_ticket(tmp_path: Path, level: str) -> None:
    process, mcp, log = serve_logged(tmp_path, level)
    try:
        tickets = modern_flows(mcp)
        asyncio.run(legacy_flow(mcp))
        tickets += asyncio.run(a2a_flows(mcp.removesuffix("/mcp")))
    finally:
        stop(process)  # type: ignore[arg-type]
    text = log.read_text(errors="replace")
    assert " DEBUG " in text and "/askback/p/" in text, text[-3000:]  # verbose, and the pages' requests logged
    leaked = [c for c in (*CANARIES, *tickets) if c in text]
    lines = [line for line in text.splitlines() if any(c in line for c in leaked)]
    assert not leaked, "\n".join(lines[:20])


def test_every_worker_redacts_tickets_in_its_access_log(tmp_path: Path) -> None:
    log = tmp_path / "workers.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([*askback_command(), "serve", probed(tmp_path, APP), "--port", "0", "--workers", "2",
                                    "--log-level", "info"], cwd=ROOT, env=env_for(tmp_path), stdout=sink,
                                   stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        mcp = None
        while mcp is None and time.monotonic() < deadline and process.poll() is None:
            mcp = next((m.group(1) for m in map(SERVING.match, log.read_text().splitlines()) if m), None)
            time.sleep(0.05)
        assert mcp is not None, log.read_text()
        tickets = []
        workers = pin_workers(mcp, 2)  # each page is opened on a connection pinned to a known worker
        try:
            for worker in workers:
                for _ in range(3):
                    url = url_of(worker.client.call("connect", {"bank": "Acme"})["result"], "api_key")
                    tickets.append(url.rsplit("/", 1)[1])
                    page = worker.client.http.get(url)
                    assert page.status_code == 200 and worker.answered(page), (worker.pid, page.status_code)
        finally:
            release(workers)
    finally:
        stop(process)  # type: ignore[arg-type]
    text = log.read_text(errors="replace")
    assert len({w.pid for w in workers}) == 2 and len(tickets) == 6
    assert text.count('"GET /askback/p/<ticket> HTTP/1.1" 200') == 6, text
    assert not [t for t in tickets if t in text], text


@pytest.mark.anyio
async def test_an_http_app_under_its_own_uvicorn_logs_no_payload_at_debug(
        serve: Any, caplog: pytest.LogCaptureFixture) -> None:
    # The library path: `http_app` in a program's own uvicorn, its root logger at DEBUG.
    from askback.loader import load_app

    with caplog.at_level(logging.DEBUG):
        base = serve(load_app(APP)).removesuffix("/mcp")
        tickets = await a2a_flows(base)
        assert logging.getLogger().isEnabledFor(logging.DEBUG)  # the program's choice, untouched
    text = "\n".join(record.getMessage() for record in caplog.records)
    assert not [c for c in (NAME_A2A, IN_BAND_KEY, PAGE_SECRET_A2A, *tickets) if c in text]
