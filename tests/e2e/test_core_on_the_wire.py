"""The core's rules as a client sees them over real loopback HTTP: capabilities, the guard, single use, logs."""

import base64
import logging
from pathlib import Path
from typing import Annotated, Any

import httpx
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitRequestParams, ElicitResult

import askback
from tests.support.rawclient import PROTOCOL, RawClient, accept

KEY = base64.urlsafe_b64encode(bytes(range(7, 39))).decode().rstrip("=")


def _post(url: str, method: str, params: dict[str, Any], capabilities: dict[str, Any]) -> httpx.Response:
    params = {**params, "_meta": {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }}
    headers = {"MCP-Protocol-Version": PROTOCOL, "Accept": "application/json, text/event-stream",
               "Mcp-Method": method, "Mcp-Name": params["name"]}
    return httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, headers=headers)


def confirm_app() -> askback.App:
    app = askback.App("caps", store="memory://", keys=KEY)

    @app.tool()
    def launch(code: str, ok: Annotated[bool, askback.Confirm("Launch {code}?")]) -> str:
        return f"launched {code}"

    @app.tool()
    def summarise(text: str, summary: Annotated[str, askback.Sample("Summarise {text}")]) -> str:
        return summary

    @app.tool()
    def greet(name: str) -> str:
        return f"Hello, {name}!"

    return app


@pytest.mark.parametrize(("tool", "arguments", "capabilities", "required"), [
    ("launch", {"code": "x"}, {}, {"elicitation": {"form": {}}}),
    ("launch", {}, {"sampling": {}}, {"elicitation": {"form": {}}}),
    ("summarise", {"text": "owls"}, {"elicitation": {}}, {"sampling": {}}),
])
def test_a_step_only_the_client_can_complete_is_32021_with_http_400(
        serve: Any, tool: str, arguments: dict[str, Any], capabilities: dict[str, Any],
        required: dict[str, Any]) -> None:
    response = _post(serve(confirm_app()), "tools/call", {"name": tool, "arguments": arguments}, capabilities)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == -32021
    assert error["data"]["requiredCapabilities"] == required
    assert error["data"]["missing"], error
    assert "Nothing was done" in error["message"]


def test_values_the_caller_can_send_are_a_tool_error_with_their_schemas(serve: Any) -> None:
    response = _post(serve(confirm_app()), "tools/call", {"name": "greet", "arguments": {}}, {})
    assert response.status_code == 200
    result = response.json()["result"]
    assert result["isError"] is True
    assert result["structuredContent"]["missing"][0]["name"] == "name"
    assert result["structuredContent"]["missing"][0]["schema"]["type"] == "string"


# -- the secret guard checks each form as it will be sent, in both eras ------------------------------------
def guarded_app() -> askback.App:
    app = askback.App("guarded", store="memory://", keys=KEY)

    @app.tool()
    def login(what: str, answer: Annotated[str, askback.Ask("Please enter your {what} to continue")]) -> str:
        return "logged in"

    @app.tool()
    def send(memo: str, ok: Annotated[bool, askback.Confirm("Send with memo {memo}?")]) -> str:
        return f"sent {memo}"

    return app


def test_a_rendered_credential_question_is_refused_on_2026_07_28(serve: Any) -> None:
    with RawClient(serve(guarded_app())) as c:
        result = c.call("login", {"what": "online banking password"})["result"]
        assert result["isError"] is True and "credentials are never asked" in result["content"][0]["text"]
        assert "inputRequests" not in result
        asked = c.call("send", {"memo": "pin it"})["result"]
        assert asked["resultType"] == "input_required"
        done = c.call("send", {"memo": "pin it"}, responses={"ok": accept(ok=True)}, state=asked["requestState"])
        assert done["result"]["content"][0]["text"] == "sent pin it"


@pytest.mark.anyio
async def test_a_rendered_credential_question_is_refused_on_a_legacy_session(serve: Any) -> None:
    seen: list[str] = []

    async def answer(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        seen.append(params.message)
        return ElicitResult(action="accept", content={"ok": True})

    async with Client(serve(guarded_app()), mode="legacy", elicitation_callback=answer) as client:
        refused = await client.call_tool("login", {"what": "online banking password"})
        sent = await client.call_tool("send", {"memo": "pin it"})
    assert refused.is_error is True and seen == ["Send with memo pin it?"]
    assert sent.is_error is not True


# -- single use survives a lost store ----------------------------------------------------------------------
def test_a_single_use_replay_never_runs_against_a_store_that_cannot_know(
        serve: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    runs: list[str] = []

    def bank(store: Path) -> askback.App:
        app = askback.App("bank", keys=KEY, store=f"sqlite:///{store}")

        @app.tool(once=True)
        def pay(to: str, ok: Annotated[bool, askback.Confirm("Pay {to}?")]) -> str:
            runs.append(to)
            return "paid"

        return app

    store = tmp_path / "data" / "store.sqlite3"
    url = serve(bank(store))
    with RawClient(url) as c:
        first = c.call("pay", {"to": "ada"})["result"]
        final = {"responses": {"ok": accept(ok=True)}, "state": first["requestState"]}
        assert c.call("pay", {"to": "ada"}, **final)["result"]["content"][0]["text"] == "paid"
    for leftover in store.parent.iterdir():  # the data dir is lost; the keys stay configured
        leftover.unlink()
    with caplog.at_level(logging.WARNING, logger="askback"), RawClient(serve(bank(store))) as c:
        replay = c.call("pay", {"to": "ada"}, **final)
    assert replay["error"]["code"] == -32602
    assert runs == ["ada"]
    assert any("another store" in r.getMessage() or "lost or replaced" in r.getMessage() for r in caplog.records)


# -- log lines cannot be forged with a caller's newline --------------------------------------------------------
@pytest.mark.anyio
async def test_a_newline_in_a_resource_uri_cannot_forge_a_log_line(
        serve: Any, caplog: pytest.LogCaptureFixture) -> None:
    app = askback.App("notes", store="memory://", keys=KEY)

    @app.resource("notes://{name}")
    def note(name: str) -> str:
        raise RuntimeError("broken")

    # A legacy session carries the URI in the body only (no header), so any character can arrive.
    with caplog.at_level(logging.ERROR, logger="askback"):
        async with Client(serve(app), mode="legacy") as client:
            with pytest.raises(MCPError):
                await client.read_resource("notes://x\nERROR askback: forged")
    messages = [r.getMessage() for r in caplog.records]
    assert messages and all("\n" not in m for m in messages), messages


# -- completion/complete suggests what a choice would offer -----------------------------------------------
def test_a_choice_provider_answers_completions_for_prompt_arguments(serve: Any) -> None:
    app = askback.App("docs", store="memory://", keys=KEY)

    def languages(caller: askback.Caller) -> list[str]:
        return ["python", "perl", "php", "rust"]

    @app.prompt()
    def explain(language: Annotated[str, askback.OneOf(languages)]) -> str:
        return f"Explain {language}"

    with RawClient(serve(app)) as c:
        reply = c.send("completion/complete", {"ref": {"type": "ref/prompt", "name": "explain"},
                                               "argument": {"name": "language", "value": "p"}})
    assert reply["result"]["completion"]["values"] == ["python", "perl", "php"]


def test_a_pasted_card_number_is_asked_again_and_never_sealed_or_logged(
        serve: Any, caplog: pytest.LogCaptureFixture) -> None:
    app = askback.App("notes-app", store="memory://", keys=KEY)

    @app.tool()
    def remember(note: str) -> str:
        return "kept"

    card = "4242 4242 4242 4242"
    with caplog.at_level(logging.DEBUG), RawClient(serve(app)) as c:
        first = c.call("remember", {})["result"]
        again = c.call("remember", {}, responses={"note": accept(note=card)}, state=first["requestState"])["result"]
    assert again["resultType"] == "input_required"
    message = again["inputRequests"]["note"]["params"]["message"]
    assert "card" in message.lower() and card not in message
    assert card not in again["requestState"] and card.replace(" ", "") not in str(again)
    assert all(card not in r.getMessage() for r in caplog.records)
