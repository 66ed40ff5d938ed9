"""A tool's declared JSON Schema 2020-12 input schema, over real loopback HTTP with the SDK `Client`, both eras.

The schema is listed exactly as written; a field it requires and the call lacks is asked in a form built from
its declared property; a value its property refuses is asked again with the schema's reason; a rule across
fields that the values break ends the call with a tool error naming it.
"""


import copy
from typing import Any

import mcp_types as types
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext

import askback

pytestmark = pytest.mark.anyio
by_mode = pytest.mark.parametrize("mode", ("2026-07-28", "legacy"))

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"size": {"type": "string", "enum": ["small", "large"], "description": "Cup size"}},
    "properties": {
        "size": {"$ref": "#/$defs/size"},
        "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
        "milk": {"type": "boolean"},
        "sugar": {"type": "integer", "minimum": 0},
    },
    "required": ["size"],
    "if": {"properties": {"milk": {"const": True}}, "required": ["milk"]},
    "then": {"required": ["code"]},
    "additionalProperties": False,
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def coffee_app(runs: list[dict[str, Any]]) -> askback.App:
    app = askback.App("coffee")

    @app.tool(input_schema=copy.deepcopy(SCHEMA))
    def order(size: str, code: str | None = None, milk: bool = False, sugar: int = 0) -> str:
        runs.append({"size": size, "code": code, "milk": milk, "sugar": sugar})
        return f"{size} coffee"

    return app


class Answers:
    def __init__(self, *replies: dict[str, Any]) -> None:
        self.replies = list(replies)
        self.asked: list[types.ElicitRequestFormParams] = []

    async def __call__(self, context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestFormParams)
        self.asked.append(params)
        return types.ElicitResult(action="accept", content=self.replies.pop(0))


@by_mode
async def test_the_schema_is_listed_exactly_as_declared(serve: Any, mode: str) -> None:
    url = serve(coffee_app([]))
    async with Client(url, mode=mode) as client:
        (tool,) = (await client.list_tools()).tools
    assert tool.input_schema == SCHEMA


@by_mode
async def test_a_required_field_is_asked_from_its_declared_property(serve: Any, mode: str) -> None:
    runs: list[dict[str, Any]] = []
    url = serve(coffee_app(runs))
    answers = Answers({"size": "large"})
    async with Client(url, mode=mode, elicitation_callback=answers) as client:
        result = await client.call_tool("order", {"sugar": 1})
    assert not result.is_error, result
    (asked,) = answers.asked
    field = asked.requested_schema["properties"]["size"]
    assert field["type"] == "string" and field["enum"] == ["small", "large"]  # from the $ref'd definition
    assert asked.requested_schema["required"] == ["size"]
    assert runs == [{"size": "large", "code": None, "milk": False, "sugar": 1}]


@by_mode
async def test_a_value_its_property_refuses_is_asked_again_with_the_reason(serve: Any, mode: str) -> None:
    runs: list[dict[str, Any]] = []
    url = serve(coffee_app(runs))
    answers = Answers({"size": "huge"}, {"size": "small"})
    async with Client(url, mode=mode, elicitation_callback=answers) as client:
        result = await client.call_tool("order", {"size": "medium", "milk": True, "code": "ABC"})
    assert not result.is_error, result
    assert len(answers.asked) == 2
    assert "it must be one of: small, large" in answers.asked[0].message
    assert runs == [{"size": "small", "code": "ABC", "milk": True, "sugar": 0}]


@by_mode
async def test_a_broken_rule_across_fields_is_a_tool_error_and_nothing_runs(serve: Any, mode: str) -> None:
    runs: list[dict[str, Any]] = []
    url = serve(coffee_app(runs))
    async with Client(url, mode=mode) as client:
        result = await client.call_tool("order", {"size": "small", "milk": True})
    assert result.is_error
    assert "code" in result.content[0].text  # type: ignore[union-attr]
    assert runs == []


def test_a_property_that_is_no_parameter_is_refused_at_registration() -> None:
    app = askback.App("bad")
    with pytest.raises(askback.SpecError, match="'code' is no parameter"):
        @app.tool(input_schema={"type": "object", "properties": {"size": {"type": "string"}, "code": {}}})
        def order(size: str | None = None) -> str:
            return "x"


def test_a_required_property_with_a_default_is_refused_at_registration() -> None:
    app = askback.App("bad")
    with pytest.raises(askback.SpecError, match="cannot have a default"):
        @app.tool(input_schema={"type": "object", "properties": {"size": {"type": "string"}}, "required": ["size"]})
        def order(size: str = "small") -> str:
            return "x"


def test_an_invalid_schema_is_refused_at_registration() -> None:
    app = askback.App("bad")
    with pytest.raises(askback.SpecError, match="not a valid JSON Schema 2020-12"):
        @app.tool(input_schema={"type": "object", "properties": {"size": {"type": 7}}})
        def order(size: str | None = None) -> str:
            return "x"
