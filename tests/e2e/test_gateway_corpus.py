"""`askback gateway` in front of the TypeScript SDK's example server, `@modelcontextprotocol/server-everything`.

The server comes from the npm registry (pinned in tests/e2e/ts/package-lock.json, installed with the TypeScript
client by `tests.support.tsclient`) and speaks 2025-11-25 over stdio only; the gateway starts it as its stdio
upstream and serves it on HTTP in both eras. Nobody here wrote it: its tools answer a missing argument with the
TS SDK's `Input validation error`, and through the gateway they ask for it instead.

Then a FastMCP 4 app of our own with typical tools (in its own venv, bench/.venv-fastmcp) and FastMCP's own
`create_proxy` in front of it: the gateway in front of either asks the same, where FastMCP alone answers with
pydantic's `Missing required argument`.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from bench.run import fastmcp_python
from mcp.client.client import Client

from tests.conftest import free_port
from tests.e2e.serving import started
from tests.e2e.test_adopt import MODES, Elicitor, accept, text_of
from tests.e2e.test_cli import serve_env
from tests.support import tsclient
from tests.support.corpus import each_required_removed
from tests.support.processes import stop
from tests.support.rawclient import RawClient

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def everything(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    command = tsclient.everything_server()
    env = serve_env(Path(tmp_path_factory.mktemp("gateway-everything")))
    with started(["--port", "0", "--", *command], env, command="gateway") as server:
        yield server.url


def test_the_ts_everything_server_is_asked_for_each_required_argument(everything: str) -> None:
    """Every (tool, required argument) pair the server lists: asked alone, completed with the answer.

    7 pairs, each asked alone; 5 complete. The other 2 are asked and answered as well, and then fail upstream
    for what the gateway does not do yet, not for the value: `trigger-url-elicitation` asks its caller over the
    2025-11-25 back-channel, which the gateway does not relay from an upstream of that era, and
    `simulate-research-query` runs only as a 2025-11-25 task (`taskSupport: required`), which the gateway
    does not forward."""
    with RawClient(everything) as raw:
        measured = each_required_removed(raw, values={"get-sum": {"a": 2, "b": 3}})
    assert measured.refused == []
    assert sorted(measured.asked) == [
        ("echo", "message"), ("get-annotated-message", "messageType"), ("get-structured-content", "location"),
        ("get-sum", "a"), ("get-sum", "b"),
    ]
    assert measured.failed == {
        ("trigger-url-elicitation", "url"): "did not complete: complete MCP error -32600: this client answers no "
                                            "questions here",
        ("simulate-research-query", "topic"): "did not complete: complete MCP error -32601: Tool "
                                              "simulate-research-query requires task augmentation "
                                              "(taskSupport: 'required')",
    }


@pytest.mark.parametrize("mode", MODES)
async def test_the_python_sdk_client_completes_a_ts_server_flow_through_the_gateway(everything: str,
                                                                                     mode: str) -> None:
    elicitor = Elicitor(accept(b=3))
    async with Client(everything, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("get-sum", {"a": 2})
    assert text_of(result) == "The sum of 2 and 3 is 5."
    assert elicitor.fields() == [["b"]]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_the_typescript_client_completes_a_ts_server_flow_through_the_gateway(everything: str, mode: str) -> None:
    done = tsclient.run("gateway.mjs", everything, mode, "get-structured-content", "{}",
                        json.dumps({"location": "Chicago"}))
    assert done["ok"], done
    assert done["asked"] == [["location"]]
    assert done["result"]["structuredContent"]["temperature"] is not None, done


# -- a FastMCP app of our own, and FastMCP's own proxy in front of it ---------------------------------------------
FASTMCP_APP = Path(__file__).resolve().parents[1] / "support" / "fastmcp_corpus.py"
FASTMCP_PAIRS = [("book", "city"), ("book", "nights"), ("book", "room"), ("convert", "amount"),
                 ("convert", "currency"), ("remind", "text"), ("remind", "urgent"), ("search", "query")]


def _fastmcp_python() -> str:
    python, why = fastmcp_python(install=True)
    if python is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"FastMCP cannot be installed under CI: {why}")
        pytest.skip(f"FastMCP is not available: {why}")
    return python


def _served(command: list[str], port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"{command} exited with {process.returncode}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/mcp", timeout=2)
            return process
        except httpx.HTTPError:
            time.sleep(0.2)
    stop(process)
    pytest.fail(f"{command} did not serve within 120 s")


@pytest.fixture(scope="module")
def fastmcp_servers() -> Iterator[dict[str, str]]:
    """The FastMCP app, and FastMCP's `create_proxy` in front of it: a chain a deployment might already run."""
    python = _fastmcp_python()
    app_port, proxy_port = free_port(), free_port()
    app = _served([python, str(FASTMCP_APP), str(app_port)], app_port)
    try:
        proxy = _served([python, str(FASTMCP_APP), str(proxy_port), "--proxy", f"http://127.0.0.1:{app_port}/mcp"],
                        proxy_port)
        try:
            yield {"app": f"http://127.0.0.1:{app_port}/mcp", "proxy": f"http://127.0.0.1:{proxy_port}/mcp"}
        finally:
            stop(proxy)
    finally:
        stop(app)


@pytest.fixture(scope="module", params=["app", "proxy"])
def fastmcp_gateway(request: pytest.FixtureRequest, fastmcp_servers: dict[str, str],
                    tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = serve_env(Path(tmp_path_factory.mktemp("gateway-fastmcp")))
    with started([fastmcp_servers[request.param], "--port", "0"], env, command="gateway") as server:
        yield server.url


def test_a_fastmcp_server_and_its_proxy_are_asked_for_each_required_argument(fastmcp_gateway: str) -> None:
    with RawClient(fastmcp_gateway) as raw:
        measured = each_required_removed(raw, values={"book": {"nights": 2}, "convert": {"amount": 9.5}})
    assert measured.failed == {}
    assert measured.refused == []
    assert sorted(measured.asked) == FASTMCP_PAIRS


@pytest.mark.parametrize("mode", MODES)
async def test_the_python_sdk_client_completes_a_fastmcp_flow_through_the_gateway(fastmcp_gateway: str,
                                                                                  mode: str) -> None:
    elicitor = Elicitor(accept(nights=3, room="suite"))
    async with Client(fastmcp_gateway, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("book", {"city": "Oslo"})
    assert text_of(result) == "Booked a suite room in Oslo for 3 nights."
    assert elicitor.fields() == [["nights", "room"]]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_the_typescript_client_completes_a_fastmcp_flow_through_the_gateway(fastmcp_gateway: str, mode: str) -> None:
    done = tsclient.run("gateway.mjs", fastmcp_gateway, mode, "convert", json.dumps({"amount": 2}),
                        json.dumps({"currency": "GBP"}))
    assert done["ok"], done
    assert done["asked"] == [["currency"]]
    assert done["result"]["content"][0]["text"] == "2.0 in GBP", done
