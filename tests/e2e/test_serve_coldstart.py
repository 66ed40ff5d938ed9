"""`askback serve` listens, and the fast route answers, before the MCP SDK's server stack or the A2A SDK is loaded.

Both are watched from outside the server, with Python's own import log (`PYTHONPROFILEIMPORTTIME`, the same as
`-X importtime`): one line per module, on stderr, in the order they are imported, interleaved with the lines
`askback serve` prints. Nothing in askback reports on itself for these tests.
"""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.test_cli import ROOT, askback_command, serve_env
from tests.support.processes import stop

V = "2026-07-28"
SERVING = re.compile(r"^askback: serving .* at (http://\S+)$")
IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$")
# The A2A SDK. The MCP SDK's modules are imported at start: the fast route applies the SDK's own public checks
# and models (`askback.mcp.fast`); the SDK path (its low-level server and session managers) is built on need.
SDK_MODULES = ("a2a",)
# What a server of this app never needs before its first answer: the SDK path, the client's code, the
# out-of-band pages (no secret or approval here), the SQLite backend (the store is memory://) and the answer
# guard (no answer yet).
UNNEEDED = ("askback.mcp.sdkpath", "askback.mcp.server", "askback.cli.client", "askback.client.client",
            "askback.web.pages", "askback.stores.sqlite", "sqlite3", "askback.guard.values")

APP = '''
from typing import Annotated
import askback

app = askback.App("cold", store="memory://")


@app.tool()
def greet(name: Annotated[str, askback.Ask("What is your name?")]) -> str:
    """Asks a name, then greets."""
    return f"Hello, {name}!"
'''


def _sdk(module: str) -> bool:
    return module.split(".")[0] in SDK_MODULES


def _headers(method: str, name: str | None = None) -> dict[str, str]:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": V, "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    return headers


def _meta() -> dict[str, Any]:
    return {"io.modelcontextprotocol/protocolVersion": V,
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}


def _rpc(http: httpx.Client, url: str, method: str, params: dict[str, Any], name: str | None = None) -> Any:
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": _meta()}}
    response = http.post(url, headers=_headers(method, name), content=json.dumps(body))
    assert response.status_code == 200, response.text
    return response.json()


class _Stderr:
    """The server's stderr, line by line, read in the background."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        assert process.stderr is not None
        stream = process.stderr

        def pump() -> None:
            for line in stream:
                self._queue.put(line.rstrip("\n"))
            self._queue.put(None)

        threading.Thread(target=pump, daemon=True).start()

    def until(self, pattern: re.Pattern[str], timeout: float = 60) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern.pattern!r} within {timeout} s") from None
            if line is None:
                raise AssertionError(f"the server exited before {pattern.pattern!r}: {self.lines[-20:]}")
            self.lines.append(line)
            match = pattern.match(line)
            if match:
                return match

    def rest(self, timeout: float = 30) -> list[str]:
        """Every line, once the server has exited (its stderr closed)."""
        deadline = time.monotonic() + timeout
        while (line := self._queue.get(timeout=max(0.0, deadline - time.monotonic()))) is not None:
            self.lines.append(line)
        return self.lines


def test_serve_listens_and_answers_before_building_the_sdk_path_or_loading_a2a(tmp_path: Path) -> None:
    target = tmp_path / "cold_app.py"
    target.write_text(APP)
    env = serve_env(tmp_path / "data", PYTHONPROFILEIMPORTTIME="1")
    process = subprocess.Popen([*askback_command(), "serve", str(target), "--port", "0"], cwd=ROOT, env=env,
                               text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        stderr = _Stderr(process)
        url = stderr.until(SERVING).group(1)
        before = [m.group(1) for line in stderr.lines if (m := IMPORTED.match(line))]
        assert "askback.mcp.http" in before and "uvicorn" in before, "the import log is read"
        assert [m for m in before if _sdk(m)] == [], "imported before the server listened"
        assert [m for m in before if m in UNNEEDED] == [], "imported before the server listened"

        with httpx.Client(timeout=60) as http:
            asked = _rpc(http, url, "tools/call", {"name": "greet", "arguments": {}}, "greet")
            assert asked["result"]["resultType"] == "input_required"
            listed = _rpc(http, url, "tools/list", {})  # the SDK path's: it waits for the SDK if need be
            assert [t["name"] for t in listed["result"]["tools"]] == ["greet"]
            card = http.get(url.removesuffix("/mcp") + "/.well-known/agent-card.json")
            assert card.status_code == 200 and card.json()["name"] == "cold"
        stderr.until(re.compile(r"^import time:.*\|\s*askback\.mcp\.sdkpath$"))
        stderr.until(re.compile(r"^import time:.*\|\s*a2a$"))
    finally:
        stop(process)  # type: ignore[arg-type]


PROBLEM = re.compile(r"Traceback|\b(ERROR|CRITICAL)\b|Warning\b|Exception\b")


def _initialize(http: httpx.Client, url: str) -> dict[str, Any]:
    """A 2025-11-25 `initialize`: the SDK path's session transport answers it (in an SSE event)."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    response = http.post(url, headers={"Content-Type": "application/json",
                                       "Accept": "application/json, text/event-stream"}, content=json.dumps(body))
    assert response.status_code == 200, response.text
    events = [line.removeprefix("data:").strip() for line in response.text.splitlines() if line.startswith("data:")]
    answer: dict[str, Any] = json.loads(next(e for e in events if e))
    return answer


@pytest.mark.parametrize("stack", [["--http", "httptools", "--loop", "uvloop"], ["--http", "h11", "--loop", "asyncio"]],
                         ids=["httptools-uvloop", "h11-asyncio"])
def test_a_start_logs_no_error_and_the_first_sdk_request_is_answered(tmp_path: Path, stack: list[str]) -> None:
    """A start at debug level logs no traceback and no error, also while the server waits for its first client
    (a start-up timer once failed there, at every start, with `NoEventLoopError`), and the SDK path, built on
    first need, answers that client's first request: a 2025-11-25 `initialize`."""
    target = tmp_path / "cold_app.py"
    target.write_text(APP)
    process = subprocess.Popen([*askback_command(), "serve", str(target), "--port", "0", "--log-level", "debug",
                                *stack], cwd=ROOT, env=serve_env(tmp_path / "data"), text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        stderr = _Stderr(process)
        url = stderr.until(SERVING).group(1)
        time.sleep(0.5)  # no client yet: whatever start-up still does runs now (not an assertion on time)
        with httpx.Client(timeout=60) as http:
            initialized = _initialize(http, url)
            assert initialized["result"]["protocolVersion"] == "2025-11-25", initialized
            assert initialized["result"]["serverInfo"]["name"] == "cold"
            asked = _rpc(http, url, "tools/call", {"name": "greet", "arguments": {}}, "greet")
            assert asked["result"]["resultType"] == "input_required"
    finally:
        stop(process)  # type: ignore[arg-type]
    lines = stderr.rest()
    assert any("uvicorn" in line.lower() or "DEBUG" in line for line in lines), "debug logging was on"
    problems = [line for line in lines if PROBLEM.search(line)]
    assert problems == [], "\n".join(lines)


PROBE = '''
import json, sys
from typing import Annotated
from starlette.testclient import TestClient
import askback
from askback.mcp.http import http_app

SDK = ("a2a",)
UNNEEDED = UNNEEDED_MODULES


def loaded():
    return sorted({m.split(".")[0] for m in sys.modules if m.split(".")[0] in SDK})


def unneeded():
    return sorted(m for m in UNNEEDED if m in sys.modules)


app = askback.App("probe", store="memory://")


@app.tool()
def modules() -> list[str]:
    """What of the SDKs (and of what the first answer never needs) is loaded while this tool runs."""
    return loaded() + unneeded()


V = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}


def rpc(http, method, params, name=None):
    headers = {"content-type": "application/json", "accept": "application/json", "mcp-protocol-version": V,
               "mcp-method": method}
    if name:
        headers["mcp-name"] = name
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": META}}
    return http.post("/mcp", headers=headers, content=json.dumps(body)).json()


seen = {"constructed": None, "started": None}
asgi = http_app(app)
seen["constructed"] = loaded()
with TestClient(asgi, base_url="http://localhost:8000") as http:
    seen["started"] = loaded()
    seen["tool"] = json.loads(rpc(http, "tools/call", {"name": "modules"}, "modules")["result"]["content"][0]["text"])
    seen["listed"] = [t["name"] for t in rpc(http, "tools/list", {})["result"]["tools"]]
    seen["after"] = loaded() + unneeded()
print(json.dumps(seen))
'''.replace("UNNEEDED_MODULES", repr(UNNEEDED))


def test_the_first_fast_answer_runs_without_the_sdk_path(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=serve_env(tmp_path / "data"), text=True,
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["constructed"] == [] and seen["started"] == [] and seen["tool"] == []
    assert seen["listed"] == ["modules"]
    assert "askback.mcp.sdkpath" in seen["after"], "the probe sees the SDK path once a request needs it"


def test_an_error_answered_while_the_sdk_loads_in_the_background(tmp_path: Path) -> None:
    """The first request is refused by the fast route (a state that does not open) right after the port is bound,
    with the SDK's status for the error's code."""
    target = tmp_path / "cold_app.py"
    target.write_text(APP)
    for _ in range(3):
        process = subprocess.Popen([*askback_command(), "serve", str(target), "--port", "0"], cwd=ROOT,
                                   env=serve_env(tmp_path / "data"), text=True, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
        try:
            url = _Stderr(process).until(SERVING).group(1)
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "greet", "arguments": {}, "requestState": "not a state", "_meta": _meta()}}
            with httpx.Client(timeout=60) as http:
                response = http.post(url, headers=_headers("tools/call", "greet"), content=json.dumps(body))
            assert response.status_code == 400, response.text
            assert response.json()["error"]["code"] == -32602
        finally:
            stop(process)  # type: ignore[arg-type]


COLLECTOR_APP = '''
import gc
import askback

app = askback.App("collector", store="memory://")


@app.tool()
def collector() -> dict[str, object]:
    """Whether the garbage collector runs, and how many objects start-up froze out of it."""
    return {"enabled": gc.isenabled(), "frozen": gc.get_freeze_count()}
'''


def test_the_collector_runs_once_the_server_listens_with_start_up_frozen_out_of_it(tmp_path: Path) -> None:
    """`askback serve` pauses the garbage collector while it starts (`askback.cli.collection`): it must be on
    again by the first request, with what start-up built in the permanent generation."""
    target = tmp_path / "collector_app.py"
    target.write_text(COLLECTOR_APP)
    process = subprocess.Popen([*askback_command(), "serve", str(target), "--port", "0"], cwd=ROOT,
                               env=serve_env(tmp_path / "data"), text=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    try:
        url = _Stderr(process).until(SERVING).group(1)
        with httpx.Client(timeout=60) as http:
            answer = _rpc(http, url, "tools/call", {"name": "collector", "arguments": {}}, "collector")
        seen = answer["result"]["structuredContent"]
        assert seen["enabled"] is True
        assert seen["frozen"] > 10_000, "start-up's modules, classes and schemas are frozen"
    finally:
        stop(process)  # type: ignore[arg-type]


def test_the_collector_runs_in_a_stdio_server(tmp_path: Path) -> None:
    target = tmp_path / "collector_app.py"
    target.write_text(COLLECTOR_APP)
    server = f"{sys.executable} -m askback.cli serve {target} --stdio"
    run = subprocess.run([*askback_command(), "call", server, "collector", "--json"], cwd=ROOT,
                         env=serve_env(tmp_path / "data"), text=True, capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)["structuredContent"]
    assert seen["enabled"] is True and seen["frozen"] > 10_000


STEADY_APP = '''
import sys
from typing import Annotated
import askback

app = askback.App("steady", store="memory://")
WATCHED = WATCHED_MODULES


@app.tool()
def greet(name: Annotated[str, askback.Ask("What is your name?")]) -> str:
    """Asks a name, then greets."""
    return f"Hello, {name}!"


@app.tool()
def modules() -> list[str]:
    """Which of the watched modules this server process holds."""
    return sorted(m for m in WATCHED if m in sys.modules)
'''
# What a server answering only 2026-07-28 tool calls never holds, however many flows it has answered: the SDK
# path and its low-level server, the A2A SDK and askback's agent, the client, the pages, the SQLite backend. The
# answer guard is watched too: it is loaded by the first answer, so the probe is seen to read the process's state.
# (The SDK's own modules are all loaded with its package, which the fast route's checks import.)
STEADY_UNNEEDED = ("askback.mcp.sdkpath", "askback.mcp.server", "a2a", "askback.a2a.server",
                   "askback.client.client", "askback.web.pages", "askback.stores.sqlite", "sqlite3")


def _modules(http: httpx.Client, url: str) -> list[str]:
    answer = _rpc(http, url, "tools/call", {"name": "modules", "arguments": {}}, "modules")
    return list(json.loads(answer["result"]["content"][0]["text"]))


def test_a_server_that_only_answered_2026_07_28_flows_holds_no_sdk_path_nor_a2a_and_builds_them_on_need(
    tmp_path: Path,
) -> None:
    """Steady state, not start-up: after complete two-round flows (the question, the answer, the greeting) the
    process still holds none of what only other requests need, and the first such request is answered."""
    target = tmp_path / "steady_app.py"
    target.write_text(STEADY_APP.replace("WATCHED_MODULES", repr((*STEADY_UNNEEDED, "askback.guard.values"))))
    process = subprocess.Popen([*askback_command(), "serve", str(target), "--port", "0"], cwd=ROOT,
                               env=serve_env(tmp_path / "data"), text=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    try:
        url = _Stderr(process).until(SERVING).group(1)
        with httpx.Client(timeout=60) as http:
            assert _modules(http, url) == []
            for _ in range(20):
                asked = _rpc(http, url, "tools/call", {"name": "greet", "arguments": {}}, "greet")["result"]
                assert asked["resultType"] == "input_required"
                [(key, request)] = asked["inputRequests"].items()
                [field] = request["params"]["requestedSchema"]["properties"]
                answer = {"name": "greet", "arguments": {}, "requestState": asked["requestState"],
                          "inputResponses": {key: {"action": "accept", "content": {field: "Ada"}}}}
                done = _rpc(http, url, "tools/call", answer, "greet")["result"]
                assert done["content"][0]["text"] == "Hello, Ada!"
            assert _modules(http, url) == ["askback.guard.values"], "only the answer guard, loaded by the answers"

            listed = _rpc(http, url, "tools/list", {})  # the SDK path's, built now
            assert sorted(t["name"] for t in listed["result"]["tools"]) == ["greet", "modules"]
            card = http.get(url.removesuffix("/mcp") + "/.well-known/agent-card.json")
            assert card.status_code == 200 and card.json()["name"] == "steady"
            now = _modules(http, url)
            assert "askback.mcp.sdkpath" in now and "a2a" in now and "askback.a2a.server" in now
    finally:
        stop(process)  # type: ignore[arg-type]
