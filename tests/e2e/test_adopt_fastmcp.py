"""`askback.adopt` on a FastMCP 4 app, served by FastMCP's own `http_app()` (askback's pages beside it) on loopback.

Driven by two clients nobody here wrote, on both eras: the official SDK `Client` and FastMCP's own `Client`
(2026-07-28: `input_required` rounds under the seal FastMCP's boundary applies; legacy: the 2025-11-25
back-channel), and by a raw client where a test reads the wire itself (the state, a replay, a capability the
SDK clients do not let a caller choose). A person completes each page link shortly after the client shows it.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from fastmcp import Client as FastMCPClient
from fastmcp.exceptions import ToolError
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext

import askback
from tests.conftest import LoopbackServer
from tests.e2e.test_adopt import MODES, Elicitor, accept, decline, text_of
from tests.e2e.test_adopt_pages import Person, nowhere
from tests.support import adopted_fastmcp
from tests.support.adopted_fastmcp import BANNER_STATE, CANARY, Runs
from tests.support.rawclient import RawClient
from tests.support.rawclient import accept as answered

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]
by_mode = pytest.mark.parametrize("mode", MODES)
CLIENTS = ("sdk", "fastmcp")
by_client = pytest.mark.parametrize("kind", CLIENTS)
Callback = Callable[[ClientRequestContext, types.ElicitRequestParams], Awaitable[types.ElicitResult | types.ErrorData]]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)
    return caplog


@pytest.fixture
def front() -> Iterator[tuple[str, Runs]]:
    """The adopted FastMCP app's MCP URL and the record of its tools' runs."""
    runs: Runs = []
    with LoopbackServer(adopted_fastmcp.adopted(runs)) as server:
        yield server.url, runs


async def call(kind: str, url: str, mode: str, name: str, arguments: dict[str, Any],
               person: Callback | None) -> types.CallToolResult:
    """One `tools/call` through the client `kind`, answering its questions with `person`, as a `CallToolResult`."""
    if kind == "sdk":
        async with Client(url, mode=mode, elicitation_callback=person) as sdk:
            return await sdk.call_tool(name, arguments)

    async def handler(message: str, response_type: Any, params: types.ElicitRequestParams, context: Any) -> Any:
        assert person is not None
        return await person(context, params)

    async with FastMCPClient(url, mode=mode, elicitation_handler=handler if person is not None else None) as fast:
        try:
            got = await fast.call_tool(name, arguments, raise_on_error=False)
        except ToolError as exc:  # (not raised with raise_on_error=False; kept so a change shows as a failure)
            raise AssertionError(f"FastMCP's client raised: {exc}") from exc
    return types.CallToolResult(content=got.content, structured_content=got.structured_content,
                                is_error=got.is_error, _meta=got.meta)


# -- askback never imports FastMCP ------------------------------------------------------------------------------
def test_fastmcp_is_never_imported_by_askback_or_by_adopting_an_mcpserver() -> None:
    probe = (
        "import sys\n"
        "import askback\n"
        "from mcp.server.mcpserver import MCPServer\n"
        "server = MCPServer('x')\n"
        "@server.tool()\n"
        "def f(a: int) -> int:\n"
        "    return a\n"
        "askback.adopt(server, tools={'f': askback.ToolOptions(confirm='f {a}?')}).streamable_http_app()\n"
        "import askback.adoption, askback.gateway\n"
        "loaded = sorted(m for m in sys.modules if m == 'fastmcp' or m.startswith('fastmcp.'))\n"
        "print(loaded)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


# -- a missing required value: one round naming exactly it ----------------------------------------------------
@by_client
@by_mode
async def test_missing_values_are_asked_in_one_round_and_merged(front: tuple[str, Runs], kind: str,
                                                               mode: str) -> None:
    url, runs = front
    elicitor = Elicitor(accept(service="api", env="production"))
    result = await call(kind, url, mode, "deploy", {}, elicitor)
    assert not result.is_error, text_of(result)
    assert text_of(result) == "Deployed api to production with 1 replicas."
    assert runs == [("deploy", {"service": "api", "env": "production", "replicas": 1})]
    assert elicitor.fields() == [["service", "env"]]
    (form,) = elicitor.asked
    assert form.requested_schema["required"] == ["service", "env"]
    assert form.requested_schema["properties"]["env"]["enum"] == ["staging", "production"]


@by_client
@by_mode
async def test_one_missing_argument_is_the_only_question(front: tuple[str, Runs], kind: str, mode: str) -> None:
    url, runs = front
    elicitor = Elicitor(accept(env="staging"))
    result = await call(kind, url, mode, "deploy", {"service": "api"}, elicitor)
    assert text_of(result) == "Deployed api to staging with 1 replicas."
    assert elicitor.fields() == [["env"]] and len(runs) == 1


# -- an invalid value: asked again with the reason, never repeating the value --------------------------------
@by_client
@by_mode
async def test_an_invalid_value_is_asked_with_its_reason(front: tuple[str, Runs], kind: str, mode: str) -> None:
    url, runs = front
    elicitor = Elicitor(accept(replicas=3))
    result = await call(kind, url, mode, "deploy", {"service": "api", "env": "staging", "replicas": 9}, elicitor)
    assert text_of(result) == "Deployed api to staging with 3 replicas."
    (form,) = elicitor.asked
    assert list(form.requested_schema["properties"]) == ["replicas"]
    assert "it must be at most 5" in form.message and "9" not in form.message
    assert runs == [("deploy", {"service": "api", "env": "staging", "replicas": 3})]


# -- a confirmation of the final values ---------------------------------------------------------------------------
@by_client
@by_mode
async def test_a_confirmation_shows_the_final_values_and_runs_on_yes(front: tuple[str, Runs], kind: str,
                                                                    mode: str) -> None:
    url, runs = front
    elicitor = Elicitor(accept(quantity=2), accept(confirm=True))
    result = await call(kind, url, mode, "order", {"item": "tea"}, elicitor)
    assert text_of(result) == "Ordered 2 x tea."
    assert [f.message for f in elicitor.asked][1] == "Order 2 x tea?"
    assert runs == [("order", {"item": "tea", "quantity": 2})]


@by_client
@by_mode
async def test_a_declined_confirmation_runs_nothing(front: tuple[str, Runs], kind: str, mode: str) -> None:
    url, runs = front
    result = await call(kind, url, mode, "order", {"item": "tea", "quantity": 2}, Elicitor(decline))
    assert runs == [] and "declined" in text_of(result)
    assert result.meta is not None and result.meta["askback/refusal"]["outcome"] == "declined"


# -- a credential by name: on askback's page, never in a form, never anywhere else ------------------------------
@by_client
@by_mode
async def test_a_credential_is_entered_on_the_page_never_in_a_form(front: tuple[str, Runs], kind: str, mode: str,
                                                                   logs: pytest.LogCaptureFixture) -> None:
    url, runs = front
    person = Person({"bank": "Acme"})
    result = await call(kind, url, mode, "connect", {}, person)
    assert text_of(result) == f"connected Acme with a key of {len(CANARY)} characters", text_of(result)
    assert runs == [("connect", {"bank": "Acme", "key_ok": True})]
    assert [list(f.requested_schema["properties"]) for f in person.asked] == [["bank"]]
    assert len(person.links) == 1 and "/askback/p/" in person.links[0]
    nowhere(lambda: result.model_dump_json() + "".join(person.pages), logs)


async def test_the_credential_is_in_no_state_or_result_on_the_wire(front: tuple[str, Runs],
                                                                   logs: pytest.LogCaptureFixture) -> None:
    url, runs = front
    seen: list[str] = []
    with RawClient(url) as raw:
        first = raw.call("connect", {"bank": "Acme"})["result"]
        seen.append(str(first))
        (key, request), = first["inputRequests"].items()
        assert request["params"]["mode"] == "url"
        person = Person()
        await person._complete(request["params"]["url"])
        done = raw.call("connect", {"bank": "Acme"}, responses={key: {"action": "accept"}},
                        state=first["requestState"])
        seen.append(str(done))
        again = raw.call("connect", {"bank": "Acme"}, responses={key: {"action": "accept"}},
                         state=first["requestState"])
        seen.append(str(again))
    assert done["result"]["content"][0]["text"].startswith("connected Acme")
    assert again["error"]["code"] == -32602  # the key was read once: a replay of the round gets nothing
    assert runs == [("connect", {"bank": "Acme", "key_ok": True})]
    nowhere(lambda: "".join(seen) + "".join(person.pages), logs)


async def test_a_credential_needs_url_mode(front: tuple[str, Runs]) -> None:
    url, runs = front
    with RawClient(url) as raw:
        reply = raw.call("connect", {"bank": "Acme"}, capabilities={"elicitation": {"form": {}}})
    assert reply["error"]["code"] == -32021
    assert reply["error"]["data"]["requiredCapabilities"] == {"elicitation": {"url": {}}}
    assert runs == []


# -- an approval on the page above an amount; single use ----------------------------------------------------------
@by_client
@by_mode
async def test_a_large_amount_is_approved_on_the_page(front: tuple[str, Runs], kind: str, mode: str) -> None:
    url, runs = front
    person = Person()
    result = await call(kind, url, mode, "transfer", {"amount": 5000, "to": "DE44500105175407324931"}, person)
    assert text_of(result) == "sent 5000 EUR to DE44500105175407324931", text_of(result)
    assert person.asked == [] and len(person.links) == 1
    assert "Send 5000 EUR to DE44500105175407324931?" in person.pages[0]
    assert runs == [("transfer", {"amount": 5000, "to": "DE44500105175407324931"})]


@by_mode
async def test_rejected_on_the_page_runs_nothing(front: tuple[str, Runs], mode: str) -> None:
    url, runs = front
    result = await call("sdk", url, mode, "transfer", {"amount": 5000, "to": "DE44500105175407324931"},
                        Person(decision="reject"))
    assert runs == [] and "rejected" in text_of(result)


async def test_the_final_round_runs_once_and_a_replay_is_refused(front: tuple[str, Runs]) -> None:
    url, runs = front
    arguments = {"amount": 50, "to": "DE44500105175407324931"}
    with RawClient(url) as raw:
        first = raw.call("transfer", arguments)["result"]
        (key,) = first["inputRequests"]
        retry = {"responses": {key: answered(confirm=True)}, "state": first["requestState"]}
        done = raw.call("transfer", arguments, **retry)
        replay = raw.call("transfer", arguments, **retry)
    assert done["result"]["content"][0]["text"] == "sent 50 EUR to DE44500105175407324931"
    assert replay["error"]["code"] == -32602
    assert replay["error"]["message"] == "Invalid or expired requestState; start the request again without it."
    assert runs == [("transfer", {"amount": 50, "to": "DE44500105175407324931"})]


# -- the app's own tools that already ask keep working ------------------------------------------------------------
@by_client
@by_mode
async def test_a_tool_that_asks_by_itself_still_does(front: tuple[str, Runs], kind: str, mode: str) -> None:
    url, runs = front
    elicitor = Elicitor(accept(text="hello"), accept(colour="red", shades=3))
    result = await call(kind, url, mode, "banner", {}, elicitor)
    assert text_of(result) == "hello: 3 shades of red", text_of(result)
    assert elicitor.fields() == [["text"], ["colour", "shades"]]  # askback's question, then the tool's own
    assert runs == [("banner", {"text": "hello", "shades": 3})]


async def test_the_tools_own_state_comes_back_to_it_and_askbacks_is_sealed(front: tuple[str, Runs]) -> None:
    url, runs = front
    with RawClient(url) as raw:
        first = raw.call("banner", {})["result"]
        (key,) = first["inputRequests"]
        own = raw.call("banner", {}, responses={key: answered(text="hi")}, state=first["requestState"])["result"]
        assert list(own["inputRequests"]) == ["palette"]  # the tool's own question, under its own key
        done = raw.call("banner", {}, responses={"palette": answered(colour="red", shades=2)},
                        state=own["requestState"])["result"]
    assert BANNER_STATE not in own["requestState"] and "askback/adopt" not in first["requestState"]  # sealed
    assert done["content"][0]["text"] == "hi: 2 shades of red"  # the tool read BANNER_STATE back, in plaintext
    assert runs == [("banner", {"text": "hi", "shades": 2})]


@by_mode
async def test_a_call_made_in_code_is_not_asked_about(front: tuple[str, Runs], mode: str) -> None:
    url, runs = front
    elicitor = Elicitor()  # any question fails the test
    result = await call("sdk", url, mode, "relay", {"service": "api"}, elicitor)
    assert text_of(result) == "in code: ValidationError", text_of(result)  # FastMCP's own answer to its own call
    assert elicitor.asked == [] and runs == []


# -- a client that cannot be asked gets FastMCP's own answer, unchanged ---------------------------------------
@by_mode
async def test_without_elicitation_fastmcp_answers_as_without_askback(serve: Callable[[Any], str],
                                                                      mode: str) -> None:
    plain = serve(adopted_fastmcp.build().http_app())
    adopted = serve(adopted_fastmcp.adopted([]))
    results = [await call("sdk", url, mode, "deploy", {"service": "api"}, None) for url in (plain, adopted)]
    assert results[0].is_error and "env" in text_of(results[0])
    assert results[1].model_dump() == results[0].model_dump()


async def test_adopt_refuses_to_run_twice() -> None:
    server = adopted_fastmcp.build()
    askback.adopt(server)
    with pytest.raises(ValueError, match="already"):
        askback.adopt(server)
