"""One error model: every `AskbackError` reaches each wire as its `WireMapping` says, on every path.

Each error is raised by a tool of one tiny app, served over real loopback HTTP: on MCP through the fast route and
through the SDK path (the JSON-RPC code its mapping names, or a tool error; the HTTP status the SDK's table gives
that code; `retryable` in the error data), and on A2A (the task state its mapping names; `retryable` in the
status message's askback metadata). A new error class without a case here fails the walk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import anyio
import pytest
from a2a.types import a2a_pb2 as pb
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import ERROR_CODE_HTTP_STATUS

import askback
from askback.core.errors import (
    AskbackError,
    Declined,
    InvalidRequestState,
    MissingCapability,
    NeedsTask,
    Rejection,
    SecretInForm,
    StateTooLarge,
    StoreInDoubt,
    StoreUnavailable,
    ToolError,
)
from askback.core.work import SecretGone, SecretsUnavailable
from askback.mcp.http import http_app
from askback.outofband import NoPublicUrl
from tests.a2a.support import Agent, extension_meta, state
from tests.conftest import LoopbackServer
from tests.support.rawclient import RawClient

# One instance of every caller-facing error, by class.
MAKE: dict[type[AskbackError], Callable[[], AskbackError]] = {
    AskbackError: lambda: AskbackError("a deliberate error"),
    ToolError: lambda: ToolError("the tool says no"),
    Declined: lambda: Declined("declined by the person"),
    NeedsTask: lambda: NeedsTask("this needs a task"),
    InvalidRequestState: lambda: InvalidRequestState(Rejection.NOT_AUTHENTIC),
    SecretInForm: lambda: SecretInForm("probe", "pin", "PIN"),
    StateTooLarge: lambda: StateTooLarge("the state is too large"),
    MissingCapability: lambda: MissingCapability("probe", [(None, "sampling")]),
    StoreUnavailable: StoreUnavailable,
    StoreInDoubt: StoreInDoubt,
    NoPublicUrl: NoPublicUrl,
    SecretsUnavailable: lambda: SecretsUnavailable("this call cannot ask for a secret on a page"),
    SecretGone: SecretGone,
}
# Declined is a person's refusal, not an error the caller caused: every wire shows it as a refusal (a tool
# result saying `declined`, an A2A task CANCELED), never through its mapping; the walk checks that too.
REFUSALS = {Declined}


def subclasses(cls: type[AskbackError]) -> Iterator[type[AskbackError]]:
    yield cls
    for sub in cls.__subclasses__():
        yield from subclasses(sub)


def probe_app() -> askback.App:
    app = askback.App("errors")

    @app.tool()
    def probe(kind: str) -> str:
        """Raise the named error."""
        raise next(make for cls, make in MAKE.items() if cls.__name__ == kind)()

    @app.prompt()
    def probe_prompt(kind: str) -> str:
        """Raise the named error from a prompt, which has no tool-error result."""
        raise next(make for cls, make in MAKE.items() if cls.__name__ == kind)()

    @app.tool(task="optional")
    async def probe_work(kind: str, work: askback.Work) -> str:
        """Raise the named error while working (on A2A, on the task runner)."""
        await work.status("Starting")
        raise next(make for cls, make in MAKE.items() if cls.__name__ == kind)()

    @app.tool()
    def sdk_refusal(x: str) -> str:
        """Raise the SDK's own error, as a tool's author may."""
        raise MCPError(code=-32001, message="refused by the author", data={"why": x})

    return app


def test_every_error_class_has_a_case() -> None:
    assert set(subclasses(AskbackError)) == set(MAKE)


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, str]]:
    with LoopbackServer(http_app(probe_app())) as fast, LoopbackServer(http_app(probe_app(), fast_route=False)) as sdk:
        yield {"fast": fast.url, "sdk": sdk.url}


@pytest.mark.parametrize("path", ["fast", "sdk"])
@pytest.mark.parametrize("cls", list(MAKE), ids=lambda c: c.__name__)
def test_mcp_shows_each_error_by_its_mapping(servers: dict[str, str], path: str, cls: type[AskbackError]) -> None:
    exc = MAKE[cls]()
    with RawClient(servers[path]) as client:
        reply = client.call("probe", {"kind": cls.__name__})
        assert client.last is not None
        status = client.last.status_code
    code = exc.wire.jsonrpc_code
    if cls in REFUSALS:
        assert status == 200, reply
        assert reply["result"]["_meta"]["askback/refusal"]["outcome"] == "declined", reply
        return
    if code is None:
        assert status == 200, reply
        assert reply["result"]["isError"] is True, reply
        return
    assert reply["error"]["code"] == code, reply
    assert reply["error"]["message"] == exc.public_message
    assert status == ERROR_CODE_HTTP_STATUS.get(code, 200), reply
    data = reply["error"].get("data") or {}
    assert data.get("retryable", False) is exc.wire.retryable, reply
    for key, value in (exc.data() or {}).items():
        assert data[key] == value


@pytest.mark.parametrize("path", ["fast", "sdk"])
@pytest.mark.parametrize("cls", list(MAKE), ids=lambda c: c.__name__)
def test_a_prompt_shows_each_error_by_its_code_or_fallback(servers: dict[str, str], path: str,
                                                           cls: type[AskbackError]) -> None:
    exc = MAKE[cls]()
    with RawClient(servers[path]) as client:
        reply = client.send("prompts/get", {"name": "probe_prompt", "arguments": {"kind": cls.__name__}})
        assert client.last is not None
        status = client.last.status_code
    if cls in REFUSALS:  # a refusal on a prompt: the -32602 that names its outcome
        assert reply["error"]["data"]["outcome"] == "declined", reply
        return
    code = exc.wire.jsonrpc_code or exc.wire.fallback_code
    assert reply["error"]["code"] == code, reply
    assert reply["error"]["message"] == exc.public_message
    assert status == ERROR_CODE_HTTP_STATUS.get(code, 200), reply
    assert (reply["error"].get("data") or {}).get("retryable", False) is exc.wire.retryable, reply


@pytest.mark.parametrize("path", ["fast", "sdk"])
def test_the_sdks_own_error_from_a_tool_is_sent_as_raised(servers: dict[str, str], path: str) -> None:
    with RawClient(servers[path]) as client:
        reply = client.call("sdk_refusal", {"x": "policy"})
        assert client.last is not None
        status = client.last.status_code
    assert reply["error"] == {"code": -32001, "message": "refused by the author", "data": {"why": "policy"}}
    assert status == ERROR_CODE_HTTP_STATUS.get(-32001, 200)


@pytest.mark.anyio
@pytest.mark.parametrize("cls", list(MAKE), ids=lambda c: c.__name__)
@pytest.mark.parametrize("tool", ["probe", "probe_work"])
async def test_a2a_shows_each_error_by_its_mapping(serve: Any, cls: type[AskbackError], tool: str) -> None:
    exc = MAKE[cls]()
    pb.TaskState.Value(exc.wire.a2a_state)  # a state A2A has (raises otherwise)
    async with Agent(serve(probe_app()).removesuffix("/mcp")) as agent:
        task = await agent.call(tool, kind=cls.__name__)
        if tool == "probe_work":
            for _ in range(100):  # bounded: the runner settles the task in the background
                if state(task) not in ("TASK_STATE_WORKING", "TASK_STATE_SUBMITTED"):
                    break
                await anyio.sleep(0.05)
                task = await agent.get(task.id)
    if cls in REFUSALS:
        assert state(task) == "TASK_STATE_CANCELED"
        return
    assert state(task) == exc.wire.a2a_state
    meta = extension_meta(task)
    assert meta.get("kind") == "error", meta
    assert meta.get("retryable", False) is exc.wire.retryable, meta


@pytest.mark.parametrize("cls", [c for c in MAKE if MAKE[c]().wire.jsonrpc_code is not None], ids=lambda c: c.__name__)
def test_a_failed_mcp_task_spells_the_error_as_a_call_does(cls: type[AskbackError]) -> None:
    from askback.mcp.tasks import McpTaskWire

    exc = MAKE[cls]()
    data = {**(exc.data() or {}), **({"retryable": True} if exc.wire.retryable else {})}
    expected: dict[str, Any] = {"code": exc.wire.jsonrpc_code, "message": exc.public_message}
    if data:
        expected["data"] = data
    assert McpTaskWire().error(probe_app().tools["probe"], exc) == expected
