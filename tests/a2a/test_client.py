"""`askback call` and `askback.client.a2a` answer A2A agents with the same answerers as MCP servers."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any

import httpx
import pexpect
import pytest

import askback
from askback.client import CallableAnswerer, FileAnswerer, UrlQuestion
from askback.client.a2a import AgentCall, agent_base
from askback.demo import app as demo_app
from tests.e2e.test_cli import askback_command

IBAN = "DE44500105175407324931"
EVERYDAY = "DE89370400440532013000"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*askback_command(), *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})


@pytest.mark.anyio
async def test_an_agent_is_told_from_an_mcp_server_by_its_card(serve_agent: Any) -> None:
    base = serve_agent(demo_app)
    assert await agent_base(base) == base
    assert await agent_base(base + "/.well-known/agent-card.json") == base
    assert await agent_base(base + "/mcp") is None


@pytest.mark.anyio
async def test_the_python_client_completes_transfer_from_an_answers_mapping(serve_agent: Any) -> None:
    answers = FileAnswerer({"to": IBAN, "from_account": EVERYDAY, "confirm": True})
    result = await AgentCall(serve_agent(demo_app), answerer=answers).call("transfer", {"amount": 50})
    assert result["isError"] is False
    assert result["structuredContent"]["to"] == IBAN and result["structuredContent"]["amount"] == "50"


@pytest.mark.anyio
async def test_a_decline_from_the_answerer_ends_the_task(serve_agent: Any) -> None:
    def no(question: Any) -> Any:
        return askback.client.decline()

    result = await AgentCall(serve_agent(demo_app), answerer=CallableAnswerer(no)).call("transfer", {"amount": 50})
    assert result["isError"] is False and "declined" in result["content"][0]["text"]


@pytest.mark.anyio
async def test_a_page_step_is_waited_for_over_a_stream(serve_agent: Any) -> None:
    app = askback.App("vault")

    @app.tool()
    def connect(bank: str, api_key: Annotated[askback.Secret, askback.Ask("the API key of {bank}")]) -> str:
        return f"connected {bank} with a key of {len(api_key.reveal())} characters"

    def person(question: Any) -> Any:
        assert isinstance(question, UrlQuestion)

        async def later() -> None:  # the person fills the page a moment after the client starts waiting
            await asyncio.sleep(0.5)
            await asyncio.to_thread(_submit, question.url, value="sk-0123456789abcdef", decision="submit")

        asyncio.get_running_loop().create_task(later())
        return True

    result = await AgentCall(serve_agent(app), answerer=CallableAnswerer(person, form=False, url=True)).call(
        "connect", {"bank": "Acme"})
    assert result["content"][0]["text"] == "connected Acme with a key of 19 characters"


def _submit(url: str, **form: str) -> httpx.Response:
    with httpx.Client() as browser:
        page = browser.get(url)
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        return browser.post(url, data={"csrf": token.group(1), **form})


def test_askback_call_completes_transfer_on_an_agent_card_url_from_an_answers_file(
        serve_agent: Any, tmp_path: Path) -> None:
    card = serve_agent(demo_app) + "/.well-known/agent-card.json"
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"to": IBAN, "from_account": EVERYDAY, "confirm": True}))
    done = run("call", card, "transfer", "amount=50", "--answers", str(answers), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["structuredContent"]["to"] == IBAN


def test_askback_call_asks_an_agent_in_the_terminal(serve_agent: Any, tmp_path: Path) -> None:
    base = serve_agent(demo_app)
    command = askback_command()
    child = pexpect.spawn(command[0], [*command[1:], "call", base, "transfer", "amount=50"], cwd=str(tmp_path),
                          encoding="utf-8", timeout=30, env={**os.environ, "NO_COLOR": "1"}, dimensions=(50, 140))
    child.logfile_read = sys.stdout  # shown by pytest when the test fails
    child.expect("Recipient IBAN")
    child.sendline(IBAN)
    child.expect("Everyday account")
    child.sendline("1")
    child.expect("Send these answers")
    child.sendline("y")
    child.expect("Send 50 EUR")
    child.sendline("y")
    child.expect("TX-")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
