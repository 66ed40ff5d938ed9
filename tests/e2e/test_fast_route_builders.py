"""What the fast route sends as built is exactly what the SDK's result sieve would send.

The fast route does not re-validate the results askback builds from its own values (questions, refusals, tool
errors, text results, text and bytes reads): here every builder's output, over generated questions and values,
is checked against the SDK's 2026-07-28 result models, and the SDK's sieve must leave it unchanged.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from mcp_types import methods

from askback.core.outcomes import Refusal
from askback.core.questions import FormQuestion, RootsQuestion, SamplingQuestion, UrlQuestion
from askback.mcp import wire

V = "2026-07-28"


def same_after_sieve(method: str, result: dict[str, Any]) -> None:
    assert methods.serialize_server_result(method, V, result) == result


text = st.text(min_size=1, max_size=30)


@st.composite
def questions(draw: st.DrawFn) -> Any:
    kind = draw(st.sampled_from(["form", "url", "sampling", "roots"]))
    key = draw(st.text(alphabet="abcdefgh_", min_size=1, max_size=8))
    if kind == "form":
        prop = draw(st.sampled_from([{"type": "string"}, {"type": "integer", "minimum": 1}, {"type": "boolean"},
                                     {"type": "string", "enum": ["a", "b"]}, {"type": "number"}]))
        schema = {"type": "object", "properties": {key: prop}, "required": [key]}
        return FormQuestion(key=key, message=draw(text), schema=schema)
    if kind == "url":
        return UrlQuestion(key=key, message=draw(text), url="https://example.test/askback/x")
    if kind == "sampling":
        return SamplingQuestion(key=key, prompt=draw(text), max_tokens=draw(st.integers(1, 500)),
                                system_prompt=draw(st.none() | text), temperature=draw(st.none() | st.floats(0, 1)))
    return RootsQuestion(key=key)



@settings(max_examples=150, deadline=None)
@given(qs=st.lists(questions(), min_size=1, max_size=4, unique_by=lambda q: q.key), state=st.none() | text)
def test_input_required_is_what_the_sdk_sends(qs: list[Any], state: str | None) -> None:
    for method in ("tools/call", "prompts/get", "resources/read"):
        same_after_sieve(method, wire.input_required(tuple(qs), state))


@settings(max_examples=100, deadline=None)
@given(value=st.none() | text | st.dictionaries(text, st.integers() | text, max_size=3),
       has_output=st.booleans())
def test_tool_results_built_from_plain_values(value: Any, has_output: bool) -> None:
    same_after_sieve("tools/call", wire.tool_result(value, has_output_schema=has_output))


@settings(max_examples=100, deadline=None)
@given(reason=st.sampled_from(["declined", "cancelled", "no_options", "cannot_ask", "missing_capability",
                               "too_many_rounds"]),
       message=text, has_output=st.booleans(), missing=st.booleans())
def test_refusals_and_tool_errors(reason: str, message: str, has_output: bool, missing: bool) -> None:
    from askback.core.questions import MissingValue

    gone = (MissingValue(name="x", schema={"type": "string"}, reason="r"),) if missing else ()
    refusal = Refusal(reason=reason, message=message, missing=gone)
    same_after_sieve("tools/call", wire.tool_refusal(refusal, has_output_schema=has_output))
    same_after_sieve("tools/call", wire.tool_error(message))


@settings(max_examples=100, deadline=None)
@given(value=text | st.binary(max_size=20), mime=st.none() | st.sampled_from(["text/plain", "image/png"]))
def test_resource_reads_of_text_and_bytes(value: Any, mime: str | None) -> None:
    same_after_sieve("resources/read", wire.resource_result(value, "notes://x", mime))
