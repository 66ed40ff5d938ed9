"""`askback gateway` in front of the TypeScript SDK's example server, `@modelcontextprotocol/server-everything`.

The server comes from the npm registry (pinned in tests/e2e/ts/package-lock.json, installed with the TypeScript
client by `tests.support.tsclient`) and speaks 2025-11-25 over stdio only; the gateway starts it as its stdio
upstream and serves it on HTTP in both eras. Nobody here wrote it: its tools answer a missing argument with the
TS SDK's `Input validation error`, and through the gateway they ask for it instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.client.client import Client

from tests.e2e.serving import started
from tests.e2e.test_adopt import MODES, Elicitor, accept, text_of
from tests.e2e.test_cli import serve_env
from tests.support import tsclient
from tests.support.corpus import each_required_removed
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
