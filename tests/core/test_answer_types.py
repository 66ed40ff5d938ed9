"""A form answer is of the JSON Schema type its form declared: every field type against a table of wrong types.

Each wrong answer is asked again with the reason (never a failure, never a crash, never run); each right one
completes with the Python value. The same values sent as arguments keep the lax coercion documented for
arguments, so both sides of the line are pinned here.
"""

import datetime
import enum
import math
from decimal import Decimal
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

import askback
from askback.core.jsontypes import json_type, type_problem
from askback.core.outcomes import AskRound, Run
from askback.core.work import Accepted, Again, choice_question, value_question
from askback.guard import GUARD
from tests.core.driver import form, play


class Size(enum.Enum):
    SMALL = "s"
    LARGE = "l"


# Every kind of flat form field: (Python type, a right answer, the value the function receives).
FIELDS: dict[str, tuple[Any, Any, Any]] = {
    "str": (str, "tea", "tea"),
    "int": (int, 3, 3),
    "bounded int": (Annotated[int, Field(ge=1, le=10)], 4, 4),
    "float": (float, 2.5, 2.5),
    "decimal": (Decimal, 1.25, Decimal("1.25")),
    "bool": (bool, False, False),
    "date": (datetime.date, "2026-12-24", datetime.date(2026, 12, 24)),
    "datetime": (datetime.datetime, "2026-12-24T10:00:00Z",
                 datetime.datetime(2026, 12, 24, 10, tzinfo=datetime.UTC)),
    "literal": (Literal["s", "m"], "m", "m"),
    "enum": (Size, "l", Size.LARGE),
    "number choice": (Literal[1, 2, 3], "2", 2),
    "multi choice": (list[Literal["a", "b"]], ["b"], ["b"]),
}

INF = float("inf")
# By the JSON Schema type each field's form declares: values of another type (for its items, for an array).
WRONG: dict[str, list[Any]] = {
    "string": [5, 2.5, True, False, None, [], {}, ["tea"]],
    "integer": [True, False, "5", "3", "3.0", "1e3", 3.5, INF, -INF, math.nan, None, [3], {"n": 3}],
    "number": [True, "1.5", "1e309", "inf", "Infinity", "-inf", "NaN", "nan", INF, -INF, math.nan, None, [1]],
    "boolean": ["yes", "no", "true", "false", "1", 1, 0, 1.0, None, [True]],
    "array": ["b", 1, True, None, {"b": True}, [1], [True], [None], [["b"]]],
}


def _tool(annotation: Any) -> askback.App:
    app = askback.App("types")

    @app.tool()
    def take(value: annotation) -> str:  # type: ignore[valid-type]
        return repr(value)

    return app


def _declared(annotation: Any) -> tuple[askback.App, AskRound, dict[str, Any]]:
    app = _tool(annotation)
    first = play(app.tools["take"], {})
    assert isinstance(first, AskRound), first
    (q,) = first.questions
    return app, first, q.schema["properties"]["value"]


def _answer(app: askback.App, first: AskRound, value: Any) -> Any:
    return play(app.tools["take"], {}, responses={"value": form(value=value)}, progress=first.progress)


CASES = [(name, bad) for name, (annotation, _, _) in FIELDS.items()
         for bad in WRONG[_declared(annotation)[2]["type"]]]


@pytest.mark.parametrize(("name", "bad"), CASES, ids=[f"{n}-{b!r}" for n, b in CASES])
def test_an_answer_of_another_json_type_is_asked_again_with_the_reason(name: str, bad: Any) -> None:
    app, first, _ = _declared(FIELDS[name][0])
    out = _answer(app, first, bad)
    assert isinstance(out, AskRound), f"{name} took {bad!r}: {out}"
    (again,) = out.questions
    assert again.key == "value"
    assert again.note and again.note.startswith("The previous value was not accepted: "), again.note
    # The reason depends only on the two types, never on the value (an answer may be sensitive).
    assert again.note == _answer(app, first, _same_type(bad)).questions[0].note


def _same_type(value: Any) -> Any:
    """Another value of the same JSON type."""
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, float) and not math.isfinite(value):
        return -value if not math.isnan(value) else INF
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return value + 2
    if isinstance(value, list):
        return [_same_type(v) for v in value]
    return {k + "x": v for k, v in value.items()}


@pytest.mark.parametrize("name", FIELDS)
def test_an_answer_of_the_declared_type_completes_with_the_python_value(name: str) -> None:
    annotation, right, expected = FIELDS[name]
    app, first, _ = _declared(annotation)
    out = _answer(app, first, right)
    assert isinstance(out, Run), out
    assert out.values["value"] == expected and type(out.values["value"]) is type(expected)


@pytest.mark.parametrize("whole", [3.0, -0.0, 1e3])
def test_a_whole_float_is_an_integer_as_json_schema_says_and_as_a2a_delivers_it(whole: float) -> None:
    # protobuf's Value carries every number as a double: an integer field answered over A2A arrives as 3.0.
    for annotation in (int, float, Decimal):
        app, first, _ = _declared(annotation)
        out = _answer(app, first, whole)
        assert isinstance(out, Run), (annotation, whole, out)
        assert out.values["value"] == whole


def test_an_integer_is_a_number() -> None:
    app, first, _ = _declared(float)
    out = _answer(app, first, 5)
    assert isinstance(out, Run) and out.values["value"] == 5.0


def test_the_reason_names_the_types_without_echoing_the_value() -> None:
    app, first, _ = _declared(int)
    (q,) = _answer(app, first, True).questions  # type: ignore[union-attr]
    assert q.note == "The previous value was not accepted: it must be a whole number, not true or false."
    app, first, _ = _declared(float)
    (q,) = _answer(app, first, "1e309").questions  # type: ignore[union-attr]
    assert q.note == "The previous value was not accepted: it must be a finite number, not text."
    (q,) = _answer(app, first, INF).questions  # type: ignore[union-attr]
    assert q.note == ("The previous value was not accepted: it must be a finite number, "
                      "not an infinite or undefined number.")
    app, first, _ = _declared(bool)
    (q,) = _answer(app, first, 1).questions  # type: ignore[union-attr]
    assert q.note == "The previous value was not accepted: it must be true or false, not a number."


@pytest.mark.parametrize(("annotation", "sent", "received"), [
    (int, "5", 5), (int, True, 1), (bool, "yes", True), (bool, 1, True), (float, "1.5", 1.5), (float, "inf", INF),
])
def test_arguments_keep_the_lax_coercion_documented_for_arguments(annotation: Any, sent: Any, received: Any) -> None:
    out = play(_tool(annotation).tools["take"], {"value": sent})
    assert isinstance(out, Run), out
    assert out.values["value"] == received


def test_a_choice_among_the_callers_options_wants_the_option_as_its_form_declared_it() -> None:
    app = askback.App("choices")

    @app.tool()
    def pick(n: Annotated[int, askback.OneOf(lambda: [1, 2, 3])]) -> int:
        return n

    first = play(app.tools["pick"], {})
    assert isinstance(first, AskRound)
    assert first.questions[0].schema["properties"]["n"]["type"] == "string"
    for bad in (2, 2.0, True):
        again = play(app.tools["pick"], {}, responses={"n": form(n=bad)}, progress=first.progress)
        assert isinstance(again, AskRound), (bad, again)
    done = play(app.tools["pick"], {}, responses={"n": form(n="2")}, progress=first.progress)
    assert isinstance(done, Run) and done.values["n"] == 2


@pytest.mark.parametrize(("kind", "bad"), [(k, b) for k in (int, float, bool, str) for b in WRONG[
    {int: "integer", float: "number", bool: "boolean", str: "string"}[k]]])
def test_a_question_asked_during_the_work_checks_the_same_types(kind: Any, bad: Any) -> None:
    q = value_question("How many?", kind, guard=GUARD)
    reading = q.read({"action": "accept", "content": {"value": bad}})
    assert isinstance(reading, Again), (kind, bad, reading)
    assert reading.reason.startswith("it must be "), reading


def test_a_choice_asked_during_the_work_wants_the_option_text() -> None:
    q = choice_question("Keep how many?", [1, 2], guard=GUARD)
    assert isinstance(q.read({"action": "accept", "content": {"choice": 2}}), Again)
    assert q.read({"action": "accept", "content": {"choice": "2"}}) == Accepted(2)


# -- the rule itself, over any JSON value -------------------------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
SCALARS = ("string", "integer", "number", "boolean")


@settings(max_examples=300, deadline=None)
@given(value=JSON, declared=st.sampled_from(SCALARS))
def test_a_value_passes_exactly_when_json_schema_says_it_is_of_the_type(value: Any, declared: str) -> None:
    expected = {
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "integer": (type(value) is int) or (type(value) is float and math.isfinite(value) and value.is_integer()),
        "number": type(value) is int or (type(value) is float and math.isfinite(value)),
    }[declared]
    assert (type_problem({"type": declared}, value) is None) is expected, (declared, value)


@settings(max_examples=200, deadline=None)
@given(value=JSON, name=st.sampled_from(sorted(FIELDS)))
def test_any_json_answer_is_taken_only_when_of_the_declared_type_and_never_raises(value: Any, name: str) -> None:
    app, first, prop = _declared(FIELDS[name][0])
    out = _answer(app, first, value)
    if type_problem(prop, value) is not None:
        assert isinstance(out, AskRound), (name, value, out)
    if isinstance(out, Run):
        assert json_type(value) in (prop["type"], "integer") or prop["type"] == "array"
