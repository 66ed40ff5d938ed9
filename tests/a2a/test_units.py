"""The A2A adapter's pure parts: the wire translation (the task record: tests/tasks/test_holder.py)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

import askback
from askback.a2a import wire
from askback.core.questions import FormQuestion, UrlQuestion
from tests.a2a.support import Agent, state, status_parts


def test_whole_floats_become_ints_except_for_strings() -> None:
    assert wire.coerce(3.0, {"type": "integer"}) == 3 and type(wire.coerce(3.0, {"type": "integer"})) is int
    assert wire.coerce(2.5, {"type": "number"}) == 2.5
    assert wire.coerce([1.0, 2.0], {"type": "array", "items": {"type": "integer"}}) == [1, 2]
    assert wire.coerce("3", {"type": "string"}) == "3"


def test_answers_map_to_the_questions_that_asked_them() -> None:
    a = FormQuestion("to", "", {"properties": {"to": {"type": "string"}}, "required": ["to"]})
    b = FormQuestion("seats", "", {"properties": {"seats": {"type": "integer"}}, "required": ["seats"]})
    page = UrlQuestion("api_key", "", "http://x/askback/p/t")
    assert wire.read_answers([{"seats": 2.0}], [a, b]) == {"seats": {"action": "accept", "content": {"seats": 2}}}
    assert wire.read_answers([{"action": "accept", "content": {"to": "x"}}], [a]) == {
        "to": {"action": "accept", "content": {"to": "x"}}}
    assert wire.read_answers([{"action": "decline"}], [a, page]) == {
        "to": {"action": "decline"}, "api_key": {"action": "decline"}}
    with pytest.raises(wire.BadMessage):
        wire.read_answers(["not an object"], [a])


def test_the_flat_schema_merges_exactly_the_fields_asked() -> None:
    a = FormQuestion("to", "", {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]})
    b = FormQuestion("n", "", {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
                     note="The previous value was not accepted: too big.")
    assert wire.flat_schema([a, b]) == {"type": "object", "properties": {"to": {"type": "string"},
                                                                          "n": {"type": "integer"}},
                                        "required": ["to", "n"]}
    assert wire.reasons([a, b]) == {"n": "The previous value was not accepted: too big."}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_a_task_left_past_the_round_lifetime_ends_clearly(serve_agent: Any) -> None:
    app = askback.App("slow", round_ttl=1)

    @app.tool()
    def hello(name: str) -> str:
        return f"hello {name}"

    async with Agent(serve_agent(app)) as agent:
        task = await agent.call("hello")
        await anyio.sleep(2.2)  # past the round's lifetime (not a timing assertion: the state has simply expired)
        task = await agent.answer(task, {"name": "Ada"})
        assert state(task) == "TASK_STATE_REJECTED"
        assert "Invalid or expired requestState" in status_parts(task)[0]


def test_a_problem_shown_again_replaces_the_one_the_message_said_before() -> None:
    asked = wire.input_required([FormQuestion("to", "Who?", {"properties": {"to": {"type": "string"}}})])
    once = wire.with_problem(asked, "The store is down.", retryable=True)
    twice = wire.with_problem(once, "The store is still down.", retryable=True)
    assert twice.parts[0].text == "The store is still down.\n\nWho?"
    assert twice.metadata[wire.EXTENSION_URI] == {"kind": "input", "problem": "The store is still down.",
                                                   "retryable": True}
    assert wire.with_problem(once, "Not asked.").metadata[wire.EXTENSION_URI] == {"kind": "input",
                                                                                  "problem": "Not asked."}
