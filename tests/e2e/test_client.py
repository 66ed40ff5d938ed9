"""`askback.Client` over real loopback HTTP and stdio: the wire rules, both eras, two kinds of server, resume.

The scripted mock records every request, so the rules are checked on what actually went over the wire: a new
JSON-RPC id every round, the `requestState` echoed byte for byte (never sent when none was given, never on
another request), a result without `resultType` taken as complete, capabilities declared exactly.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.types import ASGIApp

import askback
from askback.client import (
    CallableAnswerer,
    Client,
    DeadlineExceeded,
    FileAnswerer,
    Pending,
    Postponed,
    TerminalAnswerer,
    TooManyRounds,
    UnknownQuestion,
)
from askback.demo import app as demo_app
from tests.conformance.server import app as conformance_app
from tests.support import sdkserver
from tests.support.mcpmock import Mock, form, text, url_step

pytestmark = pytest.mark.anyio
Serve = Callable[[askback.App | ASGIApp], str]

TO = "DE44500105175407324931"
SAVINGS = "DE02120300000000202051"
STATE = ' {"nonce": "x y", "originalId": 1} \n'
CONFIRM = form("Please confirm", confirmed={"type": "boolean"})
TRANSFER_ANSWERS = {"to": TO, "from_account": SAVINGS, "confirm": True}


def yes(question: askback.client.Question) -> Any:
    return True


def two_rounds(state: str | None) -> Callable[[dict[str, Any], int], dict[str, Any]]:
    def tool(params: dict[str, Any], number: int) -> dict[str, Any]:
        if number == 1:
            result: dict[str, Any] = {"resultType": "input_required", "inputRequests": {"confirm": CONFIRM}}
            if state is not None:
                result["requestState"] = state
            return result
        return text("done")
    return tool


# -- the wire rules ---------------------------------------------------------------------------------------
async def test_retries_use_new_ids_echo_the_state_exactly_and_keep_it_to_their_own_call(serve: Serve) -> None:
    mock = Mock({"echo": two_rounds(STATE), "nostate": two_rounds(None), "other": lambda p, n: text("other")})
    url = serve(mock.app())

    async def answer(question: askback.client.Question) -> Any:
        await client.call_tool("other", {"x": 1})  # another request while the flow waits
        return True

    async with Client(url, answerer=CallableAnswerer(answer)) as client:
        assert (await client.call_tool("echo", {"a": 1})).content[0].text == "done"  # type: ignore[union-attr]
        await client.call_tool("nostate")
    first, retry = mock.calls("echo")
    assert first.id != retry.id
    assert "requestState" not in first.params and "inputResponses" not in first.params
    assert retry.params["requestState"] == STATE
    assert retry.params["inputResponses"] == {"confirm": {"action": "accept", "content": {"confirmed": True}}}
    assert retry.params["arguments"] == {"a": 1}
    assert "requestState" not in mock.calls("nostate")[1].params
    for other in mock.calls("other"):
        assert "requestState" not in other.params and "inputResponses" not in other.params
    assert retry.headers["mcp-protocol-version"] == "2026-07-28"
    assert retry.headers["mcp-method"] == "tools/call" and retry.headers["mcp-name"] == "echo"
    assert retry.params["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"


async def test_no_result_type_is_complete_and_state_only_rounds_are_retried(serve: Serve) -> None:
    def state_only(params: dict[str, Any], number: int) -> dict[str, Any]:
        if number <= 3:
            return {"resultType": "input_required", "requestState": f"s{number}"}
        return text("ready")

    mock = Mock({"plain": lambda p, n: {"content": [{"type": "text", "text": "no type"}]}, "wait": state_only})
    async with Client(serve(mock.app())) as client:
        assert (await client.call_tool("plain")).content[0].text == "no type"  # type: ignore[union-attr]
        assert (await client.call_tool("wait")).content[0].text == "ready"  # type: ignore[union-attr]
    assert len(mock.calls("plain")) == 1
    retries = mock.calls("wait")[1:]
    assert [r.params.get("requestState") for r in retries] == ["s1", "s2", "s3"]
    assert all("inputResponses" not in r.params for r in retries)


TASKS = {"extensions": {"io.modelcontextprotocol/tasks": {}}}  # the client follows tasks, so it says so


@pytest.mark.parametrize(("make", "declared"), [
    (lambda: None, TASKS),
    (lambda: FileAnswerer({}), {**TASKS, "elicitation": {"form": {}}}),
    (lambda: TerminalAnswerer(), {**TASKS, "elicitation": {"form": {}, "url": {}}}),
    (lambda: TerminalAnswerer(url=False, sampling=True), {**TASKS, "elicitation": {"form": {}}, "sampling": {}}),
])
async def test_capabilities_are_declared_exactly(serve: Serve, make: Callable[[], Any],
                                                 declared: dict[str, Any]) -> None:
    mock = Mock({"t": lambda p, n: text("ok")})
    async with Client(serve(mock.app()), answerer=make()) as client:
        await client.call_tool("t")
    assert mock.calls("t")[0].params["_meta"]["io.modelcontextprotocol/clientCapabilities"] == declared


async def test_sampler_and_roots_add_exactly_their_capabilities(serve: Serve) -> None:
    mock = Mock({"t": lambda p, n: text("ok")})
    async with Client(serve(mock.app()), answerer=FileAnswerer({}), sampler=lambda q: "Paris",
                      roots=["file:///srv"]) as client:
        await client.call_tool("t")
    assert mock.calls("t")[0].params["_meta"]["io.modelcontextprotocol/clientCapabilities"] == {
        **TASKS, "elicitation": {"form": {}}, "sampling": {}, "roots": {}}


async def test_round_cap_and_deadline_end_with_the_open_questions(serve: Serve) -> None:
    async def slow(params: dict[str, Any], number: int) -> dict[str, Any]:
        if number == 1:
            return {"resultType": "input_required", "inputRequests": {"confirm": CONFIRM}, "requestState": "s"}
        await anyio.sleep(20)
        return text("too late")

    mock = Mock({"forever": lambda p, n: {"resultType": "input_required", "inputRequests": {"confirm": CONFIRM},
                                          "requestState": f"s{n}"}, "slow": slow})
    url = serve(mock.app())
    async with Client(url, answerer=CallableAnswerer(yes), max_rounds=3) as client:
        with pytest.raises(TooManyRounds) as rounds:
            await client.call_tool("forever")
    assert len(mock.calls("forever")) == 4
    assert rounds.value.pending is not None and rounds.value.pending.request_state == "s4"
    async with Client(url, answerer=CallableAnswerer(yes), timeout=1.5) as client:
        with pytest.raises(DeadlineExceeded) as late:
            await client.call_tool("slow")
    assert late.value.pending is not None and [q.key for q in late.value.pending.questions] == ["confirm"]


async def test_an_undeclared_url_step_is_refused_not_answered(serve: Serve) -> None:
    mock = Mock({"u": lambda p, n: {"resultType": "input_required",
                                    "inputRequests": {"go": url_step("Connect", "https://example.net/x")}}})
    async with Client(serve(mock.app()), answerer=CallableAnswerer(yes)) as client:
        with pytest.raises(askback.client.ProtocolError, match="URL step, which this client did not declare"):
            await client.call_tool("u")


# -- askback's demo and a server built with the official SDK, both eras --------------------------------------
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_demo_transfer_completes_from_an_answers_file(serve: Serve, mode: Any) -> None:
    async with Client(serve(demo_app), answerer=FileAnswerer(TRANSFER_ANSWERS), mode=mode) as client:
        result = await client.call_tool("transfer", {"amount": 50})
        assert client.protocol_version == ("2026-07-28" if mode == "auto" else "2025-11-25")
        assert client.server_name == "askback-demo"
    assert result.structured_content is not None
    assert result.structured_content["status"] == "sent" and result.structured_content["to"] == TO


@pytest.mark.parametrize("handshake_only", [False, True])
async def test_sdk_server_with_an_eliciting_resolver(serve: Serve, handshake_only: bool) -> None:
    url = serve(sdkserver.app(handshake_only=handshake_only))
    async with Client(url, answerer=FileAnswerer({"shades": 3, "style": "gradient"})) as client:
        result = await client.call_tool("banner", {"text": "Hi"})
        assert client.protocol_version == ("2025-11-25" if handshake_only else "2026-07-28")
    assert result.content[0].text == "Hi: 3 gradient shades of blue"  # type: ignore[union-attr]


async def test_prompts_resources_sampling_and_roots(serve: Serve) -> None:
    url = serve(conformance_app)
    prompts: list[str] = []

    def model(question: askback.client.SamplingQuestion) -> str:
        prompts.append(question.prompt)
        return "Hello"

    answers = FileAnswerer({"user_name": "Ada", "context": "release"})
    async with Client(url, answerer=answers, sampler=model, roots=["file:///srv/docs"]) as client:
        done = await client.call_tool("test_input_required_result_multiple_inputs")
        prompt = await client.get_prompt("test_input_required_result_prompt")
    assert done.content[0].text == "Hello Ada (1 roots)"  # type: ignore[union-attr]
    assert prompts == ["Generate a greeting"]
    assert prompt.messages[0].content.text == "Use this context: release"  # type: ignore[union-attr]
    async with Client(serve(demo_app), answerer=FileAnswerer({"language": "fr"})) as client:
        read = await client.read_resource("demo://greeting/Ada")
    assert read.contents[0].text == "Bonjour, Ada!"  # type: ignore[union-attr]


async def test_over_stdio(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "askback.cli", "serve", "askback.demo:app", "--stdio"]
    env = {"ASKBACK_DATA_DIR": str(tmp_path / "data"), "PATH": "/usr/bin:/bin"}
    async with Client(command, answerer=FileAnswerer(TRANSFER_ANSWERS), env=env) as client:
        result = await client.call_tool("transfer", {"amount": 5})
    assert result.structured_content is not None and result.structured_content["amount"] == "5"


# -- resume later -----------------------------------------------------------------------------------------
async def test_a_postponed_call_is_saved_and_finished_by_another_client(serve: Serve, tmp_path: Path) -> None:
    url = serve(demo_app)
    async with Client(url, answerer=FileAnswerer({"to": TO}, missing="postpone")) as client:
        with pytest.raises(Postponed) as postponed:
            await client.call_tool("transfer", {"amount": 50})
    pending = postponed.value.pending
    assert pending is not None and [q.key for q in pending.questions] == ["to", "from_account"]
    path = pending.save(tmp_path / "pending.json")
    assert path.stat().st_mode & 0o777 == 0o600
    loaded = Pending.load(path)
    assert loaded == pending
    async with Client(loaded.server, answerer=FileAnswerer(TRANSFER_ANSWERS)) as other:
        result = await other.resume(loaded)
    assert result.structured_content["status"] == "sent"  # type: ignore[attr-defined]
    async with Client(url, answerer=FileAnswerer({})) as client:
        with pytest.raises(UnknownQuestion, match="'to'"):
            await client.call_tool("transfer", {"amount": 50})


async def test_a_handshake_era_call_cannot_be_postponed(serve: Serve) -> None:
    url = serve(demo_app)
    async with Client(url, answerer=FileAnswerer({"to": TO}, missing="postpone"), mode="legacy") as client:
        with pytest.raises(askback.client.CannotPostpone, match="cannot be saved for later"):
            await client.call_tool("transfer", {"amount": 50})
        with pytest.raises(askback.client.ClientError, match="can only be continued with a server that speaks"):
            await client.resume(Pending(client.server, "tools/call", {"name": "transfer"}, {}, "s"))


# -- x-mcp-header, protocol versions, authorization ---------------------------------------------------------
HEADERED = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"},
                                             "query": {"type": "string"}}}
INVALID_HEADERS = {
    "empty": {"value": {"type": "string", "x-mcp-header": ""}},
    "on_a_number": {"score": {"type": "number", "x-mcp-header": "Score"}},
    "on_an_object": {"data": {"type": "object", "x-mcp-header": "Data"}},
    "twice": {"a": {"type": "string", "x-mcp-header": "Region"}, "b": {"type": "string", "x-mcp-header": "region"}},
    "with_a_space": {"value": {"type": "string", "x-mcp-header": "My Region"}},
    "with_a_colon": {"value": {"type": "string", "x-mcp-header": "Region:Primary"}},
    "not_ascii": {"value": {"type": "string", "x-mcp-header": "Région"}},
    "with_a_tab": {"value": {"type": "string", "x-mcp-header": "Region\t1"}},
}


def headers_mock() -> Mock:
    schemas = {name: {"type": "object", "properties": props} for name, props in INVALID_HEADERS.items()}
    schemas["headered"] = HEADERED
    schemas["nested"] = {"type": "object", "properties": {
        "where": {"type": "object", "properties": {"zone": {"type": "string", "x-mcp-header": "Zone"}}}}}
    return Mock({name: (lambda p, n: text("called")) for name in schemas}, schemas=schemas)


async def test_tools_with_invalid_x_mcp_headers_are_left_out_and_never_called(serve: Serve) -> None:
    mock = headers_mock()
    async with Client(serve(mock.app())) as client:
        listed = [t["name"] for t in await client.list_tools()]
        assert listed == ["headered", "nested"]
        for name in INVALID_HEADERS:
            with pytest.raises(askback.client.InvalidTool, match=f"tool '{name}' is not valid MCP"):
                await client.call_tool(name, {"value": "x"})
        assert (await client.call_tool("nested", {"where": {"zone": "eu"}})).content[0].text == "called"  # type: ignore[union-attr]
    assert not any(mock.calls(name) for name in INVALID_HEADERS)
    assert mock.calls("nested")[0].headers["mcp-param-zone"] == "eu"


async def test_the_first_tools_call_already_carries_its_mcp_param_headers(serve: Serve) -> None:
    mock = headers_mock()
    async with Client(serve(mock.app())) as client:  # no list_tools() first
        await client.call_tool("headered", {"region": " eu-west ", "query": "q"})
        await client.call_tool("headered", {"region": "us", "query": "q"})
    first, second = mock.calls("headered")
    assert first.headers["mcp-param-region"] == "=?base64?IGV1LXdlc3Qg?="  # leading/trailing spaces: base64
    assert second.headers["mcp-param-region"] == "us"
    assert "mcp-param-query" not in first.headers
    assert [r.method for r in mock.requests].count("tools/list") == 1  # listed once, before the first call


async def test_an_invalid_tool_is_refused_even_when_called_before_listing(serve: Serve) -> None:
    mock = headers_mock()
    async with Client(serve(mock.app())) as client:
        with pytest.raises(askback.client.InvalidTool):
            await client.call_tool("twice", {"a": "x", "b": "y"})
    assert not mock.calls("twice")


async def test_a_server_that_cannot_list_its_tools_can_still_be_called(serve: Serve) -> None:
    mock = Mock({"t": lambda p, n: text("ok")})
    inner = mock.app()

    async def no_listing(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            body = b""
            while True:
                message = await receive()
                body += message.get("body", b"")
                if not message.get("more_body"):
                    break
            if b'"tools/list"' in body:
                reply = b'{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no tools/list"}}'
                await send({"type": "http.response.start", "status": 200,
                            "headers": [(b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": reply.replace(b'"id":1', b'"id":' + _id(body))})
                return
            replayed = iter([{"type": "http.request", "body": body, "more_body": False}])

            async def again() -> Any:
                return next(replayed)

            await inner(scope, again, send)
            return
        await inner(scope, receive, send)

    async with Client(serve(no_listing)) as client:
        assert (await client.call_tool("t")).content[0].text == "ok"  # type: ignore[union-attr]


def _id(body: bytes) -> bytes:
    import json

    return json.dumps(json.loads(body)["id"]).encode()


async def test_an_unsupported_version_is_retried_once_with_one_the_server_lists(serve: Serve) -> None:
    refusal = {"code": -32022, "message": "Unsupported protocol version",
               "data": {"supported": ["2026-07-28"], "requested": "2026-07-28"}}
    mock = Mock({"t": lambda p, n: text("ok")}, refuse_first=(400, refusal))
    async with Client(serve(mock.app())) as client:
        assert (await client.call_tool("t")).content[0].text == "ok"  # type: ignore[union-attr]
        assert client.protocol_version == "2026-07-28"
    first, retry = mock.requests[:2]
    assert first.method == retry.method == "server/discover"
    assert retry.headers["mcp-protocol-version"] == "2026-07-28"
    assert retry.params["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"


async def test_a_server_that_answers_401_needs_authorization(serve: Serve) -> None:
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def locked(request: Any) -> JSONResponse:
        return JSONResponse({"error": "invalid_token"}, status_code=401,
                            headers={"WWW-Authenticate": 'Bearer resource_metadata="http://127.0.0.1/.well-known/x"'})

    url = serve(Starlette(routes=[Route("/mcp", locked, methods=["POST", "GET", "DELETE"])]))
    with pytest.raises(askback.client.Unauthorized, match=r"needs authorization \(HTTP 401\)") as refused:
        async with Client(url) as client:
            await client.call_tool("t")
    assert refused.value.challenge is not None and refused.value.challenge.startswith("Bearer")
    assert "-32603" not in str(refused.value)
