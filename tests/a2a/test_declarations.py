"""Declarations and the author's override on A2A (issue 18, points 1 and 2; the MCP wires:
tests/e2e/test_declarations_on_the_wire.py, whose app this is)."""

from typing import Any

import pytest

from tests.a2a.support import Agent, schema_of, state, status_parts
from tests.e2e.test_declarations_on_the_wire import BUY, SECRET_TYPES, declared_app


# -- A2A --------------------------------------------------------------------------------------------------------
@pytest.mark.anyio
@pytest.mark.parametrize("kind", SECRET_TYPES.values(), ids=SECRET_TYPES.keys())
async def test_a2a_a_declared_secret_is_auth_required_and_a_declared_not_secret_question_a_form(
        serve_agent: Any, kind: Any) -> None:
    async with Agent(serve_agent(declared_app(kind))) as agent:
        page = await agent.call("connect", bank="Acme")
        form = await agent.call("buy")
        refused = await agent.call("login")
    assert state(page) == "TASK_STATE_AUTH_REQUIRED"
    assert not [d for media, d in status_parts(page)[1] if media == "application/schema+json"]
    assert state(form) == "TASK_STATE_INPUT_REQUIRED" and list(schema_of(form)["properties"]) == ["token"]
    assert status_parts(form)[0] == BUY
    assert state(refused) != "TASK_STATE_INPUT_REQUIRED"
    assert not [d for media, d in status_parts(refused)[1] if media == "application/schema+json"]
