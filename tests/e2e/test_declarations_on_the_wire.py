"""Declarations and the author's override on every MCP wire, over real loopback HTTP (issue 18, points 1, 2).

A parameter declared `askback.Secret` or `SecretStr` is a page on MCP 2026-07-28 and a URL elicitation on a
2025-11-25 session (an auth-required task on A2A: tests/a2a/test_declarations.py): never a form. A work
question for a declared secret is refused before anything is asked (MCP tasks, the back-channel). A question
its author declared `not_secret` reaches each wire as the ordinary form it is, with the author's own text.
"""

import base64
from typing import Annotated, Any

import mcp_types as types
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext
from pydantic import SecretStr

import askback
from askback import Ask
from tests.support.rawclient import RawClient
from tests.tasks.wire import TaskClient, accept

KEY = base64.urlsafe_b64encode(bytes(range(40, 72))).decode().rstrip("=")
BUY = "Which token do you want to buy? (e.g. USDC)"
SECRET_TYPES = {"Secret": askback.Secret, "SecretStr": SecretStr}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def declared_app(kind: Any) -> askback.App:
    app = askback.App("declared", keys=KEY, store="memory://")

    @app.tool()
    def connect(bank: str, code: kind) -> str:
        return f"connected {bank}"

    @app.tool()
    def buy(token: Annotated[str, Ask(BUY, not_secret=True)]) -> str:
        return f"bought {token}"

    @app.tool(task="optional")
    async def login(work: askback.Work) -> str:
        """A bug: asks for a declared secret in a form, though its text reads as ordinary."""
        return str(await work.ask("Your code, please", SecretStr))

    @app.tool(task="optional")
    async def trade(work: askback.Work) -> str:
        token = await work.ask(BUY, str, field="token", not_secret=True)
        return f"bought {token}"

    return app


# -- MCP 2026-07-28 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", SECRET_TYPES.values(), ids=SECRET_TYPES.keys())
def test_mcp_2026_a_declared_secret_is_a_page_and_a_declared_not_secret_question_a_form(serve: Any, kind: Any) -> None:
    with RawClient(serve(declared_app(kind))) as c:
        page = c.call("connect", {"bank": "Acme"})["result"]
        asked = c.call("buy", {})["result"]
    assert page["inputRequests"]["code"]["params"]["mode"] == "url"
    form = asked["inputRequests"]["token"]["params"]
    assert form["message"] == BUY and list(form["requestedSchema"]["properties"]) == ["token"]
    assert form.get("mode", "form") == "form"


# -- MCP 2025-11-25 session -------------------------------------------------------------------------------------
@pytest.mark.anyio
@pytest.mark.parametrize("kind", SECRET_TYPES.values(), ids=SECRET_TYPES.keys())
async def test_mcp_2025_a_declared_secret_is_a_url_elicitation_never_a_form(serve: Any, kind: Any) -> None:
    asked: list[types.ElicitRequestParams] = []

    async def answer(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params)
        return types.ElicitResult(action="decline")

    async with Client(serve(declared_app(kind)), mode="legacy", elicitation_callback=answer) as client:
        await client.call_tool("connect", {"bank": "Acme"})
    assert [p.mode for p in asked] == ["url"]


@pytest.mark.anyio
async def test_mcp_2025_work_asks_a_declared_not_secret_question_and_refuses_a_declared_secret(serve: Any) -> None:
    asked: list[types.ElicitRequestParams] = []

    async def answer(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params)
        return types.ElicitResult(action="accept", content={"token": "USDC"})

    async with Client(serve(declared_app(askback.Secret)), mode="legacy", elicitation_callback=answer) as client:
        traded = await client.call_tool("trade", {})
        refused = await client.call_tool("login", {})
    assert [p.message for p in asked] == [BUY]  # the declared secret was never asked
    assert traded.is_error is not True and "bought USDC" in str(traded.content)
    assert refused.is_error is True and "credentials are never asked that way" in str(refused.content)


# -- MCP tasks --------------------------------------------------------------------------------------------------
def test_mcp_tasks_a_work_question_for_a_declared_secret_fails_before_anything_is_asked(serve: Any) -> None:
    client = TaskClient(serve(declared_app(askback.Secret)))
    failed = client.wait(client.call("login", {})["result"]["taskId"])
    assert failed["status"] == "failed" and "inputRequests" not in failed
    assert "credentials are never asked that way" in failed["error"]["message"]
    assert "not_secret" not in failed["error"]["message"]  # no override can make a declared secret a form


def test_mcp_tasks_a_work_question_declared_not_secret_parks_the_task_as_a_form(serve: Any) -> None:
    client = TaskClient(serve(declared_app(askback.Secret)))
    task_id = client.call("trade", {})["result"]["taskId"]
    parked = client.wait(task_id, "input_required")
    (key, request), = parked["inputRequests"].items()
    assert request["params"]["message"] == BUY
    client.update(task_id, {key: accept(token="USDC")})
    done = client.wait(task_id)
    assert done["status"] == "completed" and done["result"]["content"][0]["text"] == "bought USDC"
