"""The per-request shortcuts give exactly the answers of the general code they stand in for.

A bare `str`/`int`/`bool`/`float` form skips pydantic for a value of exactly its type; the fast route remembers
its reading of the few `clientCapabilities` shapes clients send. Each is checked here against the general path
on generated inputs, the traps included (`1 == True`, a float's JSON dump, a mutated request).
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

from askback.core.forms import NO_DEFAULT, AnswerInvalid, FieldForm, field_form
from askback.mcp import wire

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2**63, max_value=2**80), st.floats(),
    st.text(max_size=20), st.lists(st.text(max_size=3), max_size=3), st.dictionaries(st.text(max_size=3),
                                                                                   st.integers(), max_size=2),
)
ANNOTATIONS: list[Any] = [
    str, int, bool, float, Annotated[str, Field(description="City")], Annotated[str, Field(min_length=2)],
    Annotated[int, Field(gt=0)], Literal["a", "b"], str | None, list[str],
]


def _form(annotation: Any) -> FieldForm:
    return field_form(annotation, title="T", description=None, default=NO_DEFAULT)


def _general(form: FieldForm, value: Any) -> tuple[str, Any]:
    """What the form's adapter alone says (the path without the shortcut)."""
    plain = FieldForm(form.adapter, form.schema, form.unaskable, form.choices)
    try:
        return "ok", plain.validate(value)
    except AnswerInvalid as exc:
        return "invalid", str(exc)


def test_only_bare_scalars_take_the_shortcut() -> None:
    assert [_form(a).same for a in ANNOTATIONS] == [str, int, bool, float, str, None, None, None, None, None]


@pytest.mark.parametrize("annotation", ANNOTATIONS, ids=str)
@settings(max_examples=150, deadline=None)
@given(value=SCALARS)
def test_validate_is_the_adapters(annotation: Any, value: Any) -> None:
    form = _form(annotation)
    try:
        got: tuple[str, Any] = ("ok", form.validate(value))
    except AnswerInvalid as exc:
        got = ("invalid", str(exc))
    expected = _general(form, value)
    if got[0] == "ok" and isinstance(got[1], float) and math.isnan(got[1]):
        assert expected[0] == "ok" and math.isnan(expected[1])
    else:
        assert got == expected
        assert type(got[1]) is type(expected[1])


@pytest.mark.parametrize("annotation", [str, int, bool, float], ids=str)
@given(value=st.one_of(st.booleans(), st.integers(), st.floats(), st.text(max_size=20)))
def test_to_json_is_the_adapters(annotation: Any, value: Any) -> None:
    form = _form(annotation)
    try:
        python = form.validate(value)
    except AnswerInvalid:
        return
    plain = FieldForm(form.adapter, form.schema, form.unaskable, form.choices)
    dumped, expected = form.to_json(python), plain.to_json(python)
    assert dumped == expected or (dumped != dumped and expected != expected)
    assert type(dumped) is type(expected)


CAPABILITY_PARTS = st.one_of(st.none(), st.booleans(), st.integers(0, 1), st.text(max_size=2),
                             st.dictionaries(st.sampled_from(["form", "url", "listChanged", "x"]),
                                             st.one_of(st.none(), st.booleans(), st.integers(0, 1),
                                                       st.just({})), max_size=2))
CAPABILITIES = st.one_of(
    st.dictionaries(st.sampled_from(["elicitation", "sampling", "roots", "experimental", "extensions", "other"]),
                    CAPABILITY_PARTS, max_size=3),
    st.none(), st.integers(), st.lists(st.none(), max_size=1),
)


@settings(max_examples=400, deadline=None)
@given(raws=st.lists(CAPABILITIES, min_size=1, max_size=12))
def test_remembered_capability_shapes_read_as_before(raws: list[Any]) -> None:
    for raw in raws:  # in sequence: earlier shapes are remembered while later ones are read
        assert wire.plain_capabilities(raw) == wire._read_plain_capabilities(raw)


def test_a_true_never_stands_for_a_one() -> None:
    """`{"listChanged": True} == {"listChanged": 1}` in Python: a shape with such a leaf is never remembered."""
    assert wire.plain_capabilities({"roots": {"listChanged": True}}) is not None
    assert wire.plain_capabilities({"roots": {"listChanged": 1}}) is None


def test_a_remembered_shape_is_a_copy() -> None:
    raw: dict[str, Any] = {"elicitation": {"form": {}}}
    assert wire.plain_capabilities(raw) == wire.Capabilities(form=True)
    raw["elicitation"]["form"] = None
    raw["elicitation"]["url"] = {}
    assert wire.plain_capabilities(raw) == wire.Capabilities(url=True)
    assert wire.plain_capabilities({"elicitation": {"form": {}}}) == wire.Capabilities(form=True)


def test_a_deep_shape_is_read_and_not_remembered() -> None:
    deep: dict[str, Any] = {}
    inner = deep
    for _ in range(2000):
        inner["x"] = {}
        inner = inner["x"]
    raw = {"extensions": {"io.example/deep": deep}}
    before = len(wire._KNOWN_SHAPES)
    assert wire.plain_capabilities(raw) == wire.Capabilities()
    assert len(wire._KNOWN_SHAPES) <= max(before, wire._MAX_KNOWN_SHAPES)
    assert not any(shape == {"extensions": {"io.example/deep": {}}} for shape, _ in wire._KNOWN_SHAPES)
