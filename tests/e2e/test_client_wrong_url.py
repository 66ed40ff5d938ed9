"""A URL that is not an MCP endpoint: the client commands say what is there, in one line, never a traceback.

A new user forgets `/mcp`: the server's base URL is where askback serves its A2A agent, and a POST there is
a plain HTTP 404. `tools`, `prompt` and `read` said `Not Found (JSON-RPC error -32601)` or failed with an
internal `AttributeError`; now they name the A2A agent, or say no MCP endpoint is there and suggest `/mcp`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from askback.client import Client, NoEndpoint
from askback.demo import app as demo_app
from tests.e2e.test_client_cli import run

Serve = Callable[[Any], str]


def plain_site() -> Starlette:
    """A web server with a page at / (GET only: a POST there is a plain 405) and nothing else (a plain 404)."""
    return Starlette(routes=[Route("/", lambda request: PlainTextResponse("hello"), methods=["GET"])])


def no_traceback(stderr: str) -> None:
    assert "Traceback" not in stderr and "AttributeError" not in stderr and stderr.count("\n") == 1, stderr


@pytest.mark.parametrize("command", [["tools"], ["prompt", "release_notes", "version=1.2"],
                                     ["read", "demo://greeting/Ada"]], ids=["tools", "prompt", "read"])
def test_an_askback_base_url_is_named_as_an_a2a_agent(serve: Serve, tmp_path: Path, command: list[str]) -> None:
    base = serve(demo_app).removesuffix("/mcp")
    done = run(command[0], base, *command[1:], cwd=tmp_path)
    no_traceback(done.stderr)
    assert f"{base} is an A2A agent" in done.stderr
    assert f"{base}/mcp" in done.stderr
    assert "-32601" not in done.stderr and "Not Found" not in done.stderr
    if command[0] == "tools":
        assert done.returncode == 6  # the server answered: nothing speaks MCP at that URL
    else:
        assert done.returncode == 2 and "prompts and resources are MCP only" in done.stderr


@pytest.mark.parametrize("command", [["tools"], ["call", "transfer", "amount=50"],
                                     ["prompt", "release_notes"], ["read", "demo://greeting/Ada"]],
                         ids=["tools", "call", "prompt", "read"])
def test_a_plain_404_is_no_mcp_endpoint_with_a_hint(serve: Serve, tmp_path: Path, command: list[str]) -> None:
    base = serve(plain_site()).removesuffix("/mcp")
    for url, status in ((base, 405), (base + "/api", 404)):
        done = run(command[0], url, *command[1:], cwd=tmp_path)
        no_traceback(done.stderr)
        assert done.returncode == 6, done.stderr
        assert f"no MCP endpoint at {url} (HTTP {status}); did you mean {url}/mcp?" in done.stderr


def test_a_404_at_an_mcp_path_suggests_nothing(serve: Serve, tmp_path: Path) -> None:
    url = serve(plain_site())  # …/mcp, a plain 404 here
    done = run("tools", url, cwd=tmp_path)
    assert done.returncode == 6 and f"no MCP endpoint at {url} (HTTP 404)" in done.stderr
    assert "did you mean" not in done.stderr


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "modern", "legacy"])
async def test_the_python_client_raises_no_endpoint_in_every_mode(serve: Serve, mode: Any) -> None:
    url = serve(plain_site()).removesuffix("/mcp") + "/api"
    with pytest.raises(NoEndpoint) as raised:
        async with Client(url, mode=mode):
            pass
    assert (raised.value.url, raised.value.status) == (url, 404)


def test_an_mcp_endpoint_is_still_an_mcp_endpoint(serve: Serve, tmp_path: Path) -> None:
    listed = run("tools", serve(demo_app), "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "transfer" in {tool["name"] for tool in json.loads(listed.stdout)}


@pytest.mark.parametrize("command", [["tools"], ["prompt", "release_notes"], ["read", "demo://greeting/Ada"]],
                         ids=["tools", "prompt", "read"])
def test_a_json_rpc_service_without_initialize_is_no_mcp_endpoint(serve: Serve, tmp_path: Path,
                                                                  command: list[str]) -> None:
    # askback's own A2A endpoint answers JSON-RPC, and "method not found" to MCP's initialize: it is named as no
    # MCP endpoint, not reported as a server error with a JSON-RPC code.
    url = serve(demo_app).removesuffix("/mcp") + "/a2a"
    done = run(command[0], url, *command[1:], cwd=tmp_path)
    no_traceback(done.stderr)
    assert done.returncode == 6, done.stderr
    assert f"no MCP endpoint at {url} (it answers JSON-RPC, but not MCP's initialize" in done.stderr
    assert "-32601" not in done.stderr and "did you mean" not in done.stderr
