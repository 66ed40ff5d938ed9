"""`askback gateway URL` in front of an `MCPServer` app written without askback, all real on loopback.

The upstream is the official SDK's own `streamable_http_app()` under uvicorn; the gateway is the `askback
gateway` command in its own process. Driven by the official SDK `Client` (both eras) and by a raw client where
a test needs the wire itself (the sealed state, a capability set the SDK client does not let a caller choose).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
import httpx
import mcp_types as types
import pytest
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.server.mcpserver import MCPServer
from pydantic import Field

import askback
from askback.client import FileAnswerer
from tests.conftest import LoopbackServer, free_port
from tests.e2e.serving import refused, started, statuses
from tests.e2e.test_adopt import MODES, Elicitor, accept, text_of
from tests.e2e.test_cli import ROOT, serve_env
from tests.support import adopted, tsclient
from tests.support.corpus import each_required_removed
from tests.support.processes import stop
from tests.support.rawclient import RawClient
from tests.support.rawclient import accept as answered

pytestmark = pytest.mark.anyio
by_mode = pytest.mark.parametrize("mode", MODES)
Runs = list[tuple[str, dict[str, Any]]]
RUNS: Runs = []  # what the upstream's tools ran, with their values (cleared before each test)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    with LoopbackServer(adopted.build(RUNS).streamable_http_app()) as server:
        yield server.url


@pytest.fixture(scope="module")
def gateway(upstream: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = serve_env(Path(tmp_path_factory.mktemp("gateway-data")))
    with started([upstream, "--port", "0"], env, command="gateway") as server:
        assert any(line == f"askback: upstream {upstream}" for line in server.lines), server.lines
        yield server.url


@pytest.fixture(autouse=True)
def _fresh_runs() -> None:
    RUNS.clear()


async def test_the_upstreams_tools_are_listed_as_the_upstream_lists_them(upstream: str, gateway: str) -> None:
    async with Client(upstream) as direct, Client(gateway) as through:
        theirs, ours = await direct.list_tools(), await through.list_tools()
    assert [t.model_dump() for t in ours.tools] == [t.model_dump() for t in theirs.tools]


# -- a missing argument is asked, and the call completes ----------------------------------------------------
@by_mode
async def test_a_missing_argument_is_asked_and_the_call_completes(gateway: str, mode: str) -> None:
    elicitor = Elicitor(accept(service="api", env="production"))
    async with Client(gateway, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("deploy", {})
    assert not result.is_error, text_of(result)
    assert text_of(result) == "Deployed api to production with 1 replicas."
    assert RUNS == [("deploy", {"service": "api", "env": "production", "replicas": 1})]
    (form,) = elicitor.asked
    assert sorted(form.requested_schema["properties"]) == ["env", "service"]  # exactly the missing ones
    assert form.requested_schema["properties"]["env"]["enum"] == ["staging", "production"]


def test_the_round_on_the_wire_is_sealed_and_bound_to_the_call(gateway: str) -> None:
    with RawClient(gateway) as raw:
        first = raw.call("deploy", {"replicas": 2})["result"]
        assert first["resultType"] == "input_required"
        state = first["requestState"]
        assert "askback/adopt" not in state and "answers" not in state  # sealed, not the adopter's plaintext
        (key,) = first["inputRequests"]
        answer = {key: answered(service="api", env="staging")}
        # The same state for other arguments or another tool is refused before anything is forwarded.
        for name, arguments in (("deploy", {"replicas": 3}), ("order", {"replicas": 2})):
            refused = raw.call(name, arguments, responses=answer, state=state)
            assert refused["error"]["code"] == types.INVALID_PARAMS, refused
        forged = raw.call("deploy", {"replicas": 2}, responses=answer, state=state[:-4] + "AAAA")
        assert forged["error"]["code"] == types.INVALID_PARAMS
        done = raw.call("deploy", {"replicas": 2}, responses=answer, state=state)["result"]
    assert done["content"][0]["text"] == "Deployed api to staging with 2 replicas."
    assert RUNS == [("deploy", {"service": "api", "env": "staging", "replicas": 2})]


# -- an invalid argument is asked with its reason -------------------------------------------------------------
@by_mode
async def test_an_invalid_argument_is_asked_with_its_reason(gateway: str, mode: str) -> None:
    elicitor = Elicitor(accept(env="staging", replicas=3))
    async with Client(gateway, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("deploy", {"service": "api", "env": "qa", "replicas": 9})
    assert text_of(result) == "Deployed api to staging with 3 replicas."
    (form,) = elicitor.asked
    assert sorted(form.requested_schema["properties"]) == ["env", "replicas"]
    assert "replicas was not accepted: it must be at most 5" in form.message
    assert "env was not accepted: it must be one of: staging, production" in form.message
    assert "qa" not in form.message and "9" not in form.message  # a refused value is never echoed


@by_mode
async def test_without_elicitation_the_upstream_answers_as_without_the_gateway(upstream: str, gateway: str,
                                                                               mode: str) -> None:
    results = []
    for url in (upstream, gateway):
        async with Client(url, mode=mode) as client:
            results.append(await client.call_tool("deploy", {"service": "api"}))
    direct, through = results
    assert direct.is_error and "validation error" in text_of(direct)
    assert text_of(through) == text_of(direct) and through.is_error
    assert RUNS == []


# -- the upstream's own input_required passes through ---------------------------------------------------------
@by_mode
async def test_an_upstream_input_required_passes_through(gateway: str, mode: str) -> None:
    elicitor = Elicitor(accept(text="Hi"), accept(shades=3))  # the gateway's question, then the upstream's own
    async with Client(gateway, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("banner", {})
    assert text_of(result) == "Hi: 3 shades of blue", text_of(result)
    assert elicitor.fields() == [["text"], ["colour", "shades"]]
    assert elicitor.asked[1].message == "Which palette should the banner use?"  # the upstream's, untouched
    assert RUNS == [("banner", {"text": "Hi", "shades": 3})]


def test_the_upstreams_round_is_shown_as_it_asked_and_its_state_rides_sealed(gateway: str) -> None:
    with RawClient(gateway) as raw:
        first = raw.call("banner", {"text": "Hi"})["result"]
        assert first["resultType"] == "input_required"
        (key,) = first["inputRequests"]
        assert key == "tests.support.adopted:ask_palette"  # the upstream's own key and question
        assert first["inputRequests"][key]["params"]["message"] == "Which palette should the banner use?"
        done = raw.call("banner", {"text": "Hi"}, responses={key: answered(shades=2)},
                        state=first["requestState"])["result"]
    assert done["content"][0]["text"] == "Hi: 2 shades of blue"


# -- a credential-like field is never asked in a form -----------------------------------------------------------
@pytest.mark.parametrize(("tool", "field"), [("rotate", "api_key"), ("login", "password")])
def test_a_credential_without_url_mode_is_minus_32021_and_never_a_form(gateway: str, tool: str,
                                                                         field: str) -> None:
    with RawClient(gateway) as raw:
        reply = raw.call(tool, {}, capabilities={"elicitation": {"form": {}}})
    assert "result" not in reply, reply
    assert reply["error"]["code"] == -32021
    assert reply["error"]["data"]["requiredCapabilities"] == {"elicitation": {"url": {}}}
    assert field in reply["error"]["message"]
    assert RUNS == []


@by_mode
@pytest.mark.parametrize(("tool", "field"), [("rotate", "api_key"), ("login", "password")])
async def test_a_credential_is_refused_clearly_and_never_asked(gateway: str, mode: str, tool: str,
                                                               field: str) -> None:
    elicitor = Elicitor()  # asked nothing: a credential is never a form question
    async with Client(gateway, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool(tool, {})
    assert elicitor.asked == [] and RUNS == []
    assert result.is_error and "out of band" in text_of(result) and field in text_of(result)


# -- askback's own client, and a stdio upstream -----------------------------------------------------------------
@pytest.mark.parametrize("mode", ["modern", "legacy"])
async def test_askback_client_completes_through_the_gateway(gateway: str, mode: Literal["modern", "legacy"]) -> None:
    # A file answers one call (a question asked again after it was answered means its answer was refused).
    answers = FileAnswerer({"service": "api", "env": "staging"})
    async with askback.Client(gateway, answerer=answers, mode=mode) as client:
        deployed = await client.call_tool("deploy", {"replicas": 2})
    answers = FileAnswerer({"text": "Hi", "shades": 4})  # the gateway's question, then the upstream's own
    async with askback.Client(gateway, answerer=answers, mode=mode) as client:
        banner = await client.call_tool("banner", {})
    assert text_of(deployed) == "Deployed api to staging with 2 replicas."
    assert text_of(banner) == "Hi: 4 shades of blue"
    assert RUNS == [("deploy", {"service": "api", "env": "staging", "replicas": 2}),
                    ("banner", {"text": "Hi", "shades": 4})]


async def test_a_stdio_upstream_behind_the_gateway(tmp_path: Path) -> None:
    command = [sys.executable, str(ROOT / "tests" / "support" / "adopted_stdio.py")]
    with started(["--port", "0", "--", *command], serve_env(tmp_path), command="gateway") as server:
        assert server.lines[-2] == f"askback: upstream {' '.join(command)}"
        elicitor = Elicitor(accept(service="api", env="production"))
        async with Client(server.url, elicitation_callback=elicitor) as client:
            result = await client.call_tool("deploy", {})
    assert text_of(result) == "Deployed api to production with 1 replicas."
    assert elicitor.fields() == [["service", "env"]]


@pytest.mark.parametrize("upstream", ["http://127.0.0.1:1/mcp", "--"])
def test_an_upstream_that_cannot_be_reached_stops_the_start_in_one_line(tmp_path: Path, upstream: str) -> None:
    args = [upstream, "--port", "0"] if upstream != "--" else ["--port", "0", "--", "false"]
    line = refused(args, serve_env(tmp_path), command="gateway")
    assert line.startswith("askback: cannot start the gateway: the upstream ")


# -- prompts and resources: served where the upstream has them, forwarded unchanged ------------------------------
def library() -> MCPServer:
    mcp = MCPServer("library")

    @mcp.prompt()
    def review(topic: str) -> str:
        """Ask for a review of a topic."""
        return f"Please review {topic}."

    @mcp.resource("library://motd")
    def motd() -> str:
        return "Quiet please."

    @mcp.resource("library://books/{isbn}")
    def book(isbn: str) -> str:
        return f"Book {isbn}"

    return mcp


@by_mode
async def test_prompts_and_resources_are_served_as_the_upstream_serves_them(tmp_path: Path, mode: str) -> None:
    with LoopbackServer(library().streamable_http_app()) as upstream_server, \
            started([upstream_server.url, "--port", "0"], serve_env(tmp_path), command="gateway") as gateway_server:
        results = []
        for url in (upstream_server.url, gateway_server.url):
            async with Client(url, mode=mode) as client:
                results.append([
                    (await client.list_prompts()).model_dump(exclude={"meta"}),
                    (await client.get_prompt("review", {"topic": "Dune"})).model_dump(exclude={"meta"}),
                    (await client.list_resources()).model_dump(exclude={"meta"}),
                    (await client.list_resource_templates()).model_dump(exclude={"meta"}),
                    (await client.read_resource("library://books/42")).model_dump(exclude={"meta"}),
                ])
    direct, through = results
    assert through == direct
    assert through[1]["messages"][0]["content"]["text"] == "Please review Dune."


async def test_a_tools_only_upstream_gets_a_gateway_that_declares_tools_only(tmp_path: Path) -> None:
    tools_only = askback.App("tools-only")

    @tools_only.tool
    def echo(text: str) -> str:
        return text

    with LoopbackServer(tools_only) as upstream_server, \
            started([upstream_server.url, "--port", "0"], serve_env(tmp_path), command="gateway") as gateway_server, \
            RawClient(gateway_server.url) as raw:
        discovered = raw.send("server/discover")["result"]
        missing = raw.send("prompts/list")
        echoed = raw.call("echo", {"text": "hi"})["result"]
    assert "tools" in discovered["capabilities"]
    assert "prompts" not in discovered["capabilities"] and "resources" not in discovered["capabilities"]
    assert missing["error"]["code"] == types.METHOD_NOT_FOUND
    assert echoed["content"][0]["text"] == "hi"


# -- a policy file: what the upstream does not know to ask ---------------------------------------------------------
POLICY = """
[tools.order]
confirm = "Order {quantity} x {item}?"

[tools.deploy]
secret = ["service"]

[tools.ship.choices]
city = ["Paris", { value = "Lyon", title = "Lyon, the city of lights" }]
"""


@pytest.fixture(scope="module")
def governed(upstream: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    where = tmp_path_factory.mktemp("governed")
    (where / "policy.toml").write_text(POLICY)
    with started([upstream, "--port", "0", "--policy", str(where / "policy.toml")], serve_env(where),
                 command="gateway") as server:
        yield server.url


@by_mode
async def test_a_policy_confirmation_shows_the_final_values(governed: str, mode: str) -> None:
    elicitor = Elicitor(accept(quantity=2), accept(confirm=True))
    async with Client(governed, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("order", {"item": "lamp"})
    assert text_of(result) == "Ordered 2 x lamp."
    assert elicitor.fields() == [["quantity"], ["confirm"]]
    assert elicitor.asked[1].message == "Order 2 x lamp?"
    assert RUNS == [("order", {"item": "lamp", "quantity": 2})]


@by_mode
async def test_a_policy_choice_is_asked_among_its_options(governed: str, mode: str) -> None:
    elicitor = Elicitor(accept(city="Lyon"))
    async with Client(governed, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("ship", {"country": "fr"})
    assert text_of(result) == "Shipping to Lyon, fr."
    (form,) = elicitor.asked
    assert form.requested_schema["properties"]["city"]["oneOf"] == [
        {"const": "Paris", "title": "Paris"}, {"const": "Lyon", "title": "Lyon, the city of lights"}]


async def test_a_policy_secret_is_never_asked_in_a_form(governed: str) -> None:
    """It is asked on the gateway's page (tests/e2e/test_adopt_pages.py completes that page); declined at the
    link, nothing is forwarded."""
    links: list[str] = []

    async def person(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestURLParams), params  # never a form
        links.append(params.url)
        return types.ElicitResult(action="decline")

    async with Client(governed, elicitation_callback=person) as client:
        result = await client.call_tool("deploy", {"env": "staging"})
    assert len(links) == 1 and "/askback/p/" in links[0] and RUNS == []
    assert result.is_error and "declined" in text_of(result)


@pytest.mark.parametrize(("policy", "said"), [
    ("[tools.fly]\nconfirm = 'Fly?'\n", "the upstream lists no tool 'fly'"),
    ("[tools.order\n", "is not valid TOML"),
])
def test_a_policy_that_cannot_apply_stops_the_start_in_one_line(upstream: str, tmp_path: Path, policy: str,
                                                                said: str) -> None:
    (tmp_path / "policy.toml").write_text(policy)
    line = refused([upstream, "--port", "0", "--policy", str(tmp_path / "policy.toml")], serve_env(tmp_path),
                   command="gateway")
    assert said in line, line


# -- the stdio front ---------------------------------------------------------------------------------------------
@by_mode
async def test_the_gateway_over_stdio(upstream: str, tmp_path: Path, mode: str) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "askback.cli", "gateway", upstream, "--stdio"],
        env={"ASKBACK_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}, cwd=str(ROOT),
    )
    elicitor = Elicitor(accept(service="api", env="production"), accept(shades=1))
    async with Client(params, mode=mode, elicitation_callback=elicitor) as client:
        deployed = await client.call_tool("deploy", {})
        banner = await client.call_tool("banner", {"text": "Hi"})
    assert text_of(deployed) == "Deployed api to production with 1 replicas."
    assert text_of(banner) == "Hi: 1 shades of blue"
    assert elicitor.fields() == [["service", "env"], ["colour", "shades"]]


# -- headers toward the upstream ---------------------------------------------------------------------------------
def test_a_header_goes_with_every_request_to_the_upstream(tmp_path: Path) -> None:
    team = askback.App("team", principal=lambda request: request.headers.get("x-authenticated-user"))

    @team.tool()
    def whoami(note: str, caller: askback.Caller) -> str:
        return f"{caller.principal}: {note}"

    with LoopbackServer(team) as upstream_server, \
            started([upstream_server.url, "--port", "0", "--header", "X-Authenticated-User: alice"],
                    serve_env(tmp_path), command="gateway") as gateway_server, \
            RawClient(gateway_server.url) as raw:
        first = raw.call("whoami", {})["result"]  # asked by the gateway: note is missing
        (key,) = first["inputRequests"]
        assert key == "askback/adopt/values"
        done = raw.call("whoami", {}, responses={key: answered(note="hi")}, state=first["requestState"])["result"]
    assert done["content"][0]["text"] == "alice: hi"


# -- every required argument of every tool, removed one at a time -------------------------------------------------
def test_each_required_argument_removed_is_asked_alone_and_completes(gateway: str) -> None:
    """The issue's measure: 100 % of (tool, required argument) pairs through the gateway, credentials aside
    (a credential is never asked in a form: those pairs are refused, and counted apart)."""

    def palette(tool: str, result: dict[str, Any]) -> dict[str, Any]:  # the upstream's own question (banner's)
        (key,) = result["inputRequests"]
        return {key: answered(shades=1)}

    with RawClient(gateway) as raw:
        measured = each_required_removed(raw, own_round=palette)
    assert measured.failed == {}
    assert sorted(measured.refused) == [("login", "password"), ("rotate", "api_key")]
    assert sorted(measured.asked) == sorted([
        ("deploy", "service"), ("deploy", "env"), ("order", "item"), ("order", "quantity"), ("rotate", "service"),
        ("login", "user"), ("banner", "text"), ("pay", "amount"), ("pay", "from_account"), ("ship", "country"),
        ("ship", "city")])


def test_the_gateways_front_keeps_the_host_and_origin_checks(gateway: str) -> None:
    port = gateway.split(":")[2].split("/")[0]
    assert statuses(gateway, [{}, {"Host": f"evil.test:{port}"}, {"Origin": "http://evil.test"}]) == [200, 421, 403]


def test_the_client_commands_do_not_load_the_gateway_server(tmp_path: Path) -> None:
    """Every subcommand's parser is built for `askback call ...`: the gateway's must not load uvicorn or itself."""
    probe = ("import sys; from askback.cli import _parser; _parser(['call']); "
             "print(sorted(m for m in ('uvicorn', 'askback.cli.gateway', 'askback.gateway') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={**serve_env(tmp_path), "PYTHONPATH": f"{ROOT / 'src'}"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# -- the TypeScript SDK v2 client through the gateway ---------------------------------------------------------------
@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_the_typescript_client_completes_through_the_gateway(gateway: str, mode: str) -> None:
    answers = {"service": "api", "env": "staging", "replicas": 3, "text": "Hi", "shades": 2}
    deployed = tsclient.run("gateway.mjs", gateway, mode, "deploy", json.dumps({"replicas": 9}), json.dumps(answers))
    assert deployed["ok"], deployed
    assert deployed["result"]["content"][0]["text"] == "Deployed api to staging with 3 replicas.", deployed
    assert deployed["asked"] == [["service", "env", "replicas"]]
    banner = tsclient.run("gateway.mjs", gateway, mode, "banner", "{}", json.dumps(answers))
    assert banner["ok"], banner
    assert banner["result"]["content"][0]["text"] == "Hi: 2 shades of blue"
    assert banner["asked"] == [["text"], ["colour", "shades"]]


# -- an upstream that goes away and comes back -------------------------------------------------------------------
UPSTREAM_PROCESS = (
    "import logging, uvicorn; from tests.support import adopted; logging.disable(logging.INFO); "
    "uvicorn.run(adopted.build().streamable_http_app(), host='127.0.0.1', port={port}, log_level='warning')"
)


def upstream_process(port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, "-c", UPSTREAM_PROCESS.format(port=port)], cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process
        time.sleep(0.05)
    stop(process)
    pytest.fail("the upstream process did not listen")


def test_the_gateway_outlives_its_upstream_and_reconnects(tmp_path: Path) -> None:
    port = free_port()
    upstream_url = f"http://127.0.0.1:{port}/mcp"
    first = upstream_process(port)
    with started([upstream_url, "--port", "0"], serve_env(tmp_path), command="gateway") as server, \
            RawClient(server.url) as raw:
        assert "result" in raw.call("deploy", {"service": "api", "env": "staging"})
        stop(first)
        gone = raw.call("deploy", {"service": "api", "env": "staging"})
        assert "error" in gone and server.process.poll() is None  # an error for the call; the gateway serves on
        unknown = raw.call("never-listed", {})  # a tool it would list again for: the upstream's absence, said
        assert "error" in unknown and server.process.poll() is None
        second = upstream_process(port)
        try:
            deadline = time.monotonic() + 30
            while "result" not in (reply := raw.call("deploy", {"service": "api", "env": "staging"})):
                assert time.monotonic() < deadline, reply
                time.sleep(0.2)
            assert reply["result"]["content"][0]["text"] == "Deployed api to staging with 1 replicas."
        finally:
            stop(second)


async def test_concurrent_calls_share_the_upstream_connection(gateway: str) -> None:
    replies: dict[int, Any] = {}

    async def call(http: httpx.AsyncClient, n: int) -> None:
        body = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {
            "name": "order", "arguments": {"item": f"lamp-{n}", "quantity": n},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
                      "io.modelcontextprotocol/clientCapabilities": {}}}}
        headers = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "order",
                   "Accept": "application/json, text/event-stream"}
        replies[n] = (await http.post(gateway, json=body, headers=headers)).json()

    async with httpx.AsyncClient(timeout=30) as http, anyio.create_task_group() as group:
        for n in range(1, 33):
            group.start_soon(call, http, n)
    assert {n: r["result"]["content"][0]["text"] for n, r in replies.items()} == {
        n: f"Ordered {n} x lamp-{n}." for n in range(1, 33)}
    assert sorted(RUNS, key=lambda run: run[1]["quantity"]) == [
        ("order", {"item": f"lamp-{n}", "quantity": n}) for n in range(1, 33)]


def test_a_tool_with_x_mcp_header_has_its_headers_checked_at_the_gateway_and_sent_upstream(tmp_path: Path) -> None:
    regional = MCPServer("regional")

    @regional.tool()
    def find(query: str, region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
        return f"{query} in {region}"

    def post(http: httpx.Client, url: str, headers: dict[str, str]) -> dict[str, Any]:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "find", "arguments": {"query": "maps", "region": "eu"},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
                      "io.modelcontextprotocol/clientCapabilities": {}}}}
        base = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "find",
                "Accept": "application/json, text/event-stream"}
        reply: dict[str, Any] = http.post(url, json=body, headers={**base, **headers}).json()
        return reply

    with LoopbackServer(regional.streamable_http_app()) as upstream_server, \
            started([upstream_server.url, "--port", "0"], serve_env(tmp_path), command="gateway") as gateway_server, \
            httpx.Client(timeout=30) as http:
        wrong = post(http, gateway_server.url, {"Mcp-Param-Region": "us"})
        right = post(http, gateway_server.url, {"Mcp-Param-Region": "eu"})
    assert wrong["error"]["code"] == types.HEADER_MISMATCH, wrong
    assert right["result"]["content"][0]["text"] == "maps in eu", right
