"""Questions as typed values, and the local validation that lets a person fix an entry on the spot."""

from __future__ import annotations

from typing import Any

import pytest

from askback.client import InvalidAnswer, ProtocolError, response_for
from askback.client.questions import Field, FormQuestion, SamplingQuestion, UrlQuestion, parse_question


def field(schema: dict[str, Any], required: bool = True) -> Field:
    return Field.from_schema("f", schema, required=required)


def test_single_choice_by_number_value_or_title() -> None:
    f = field({"type": "string",
               "oneOf": [{"const": "DE89", "title": "Everyday"}, {"const": "DE02", "title": "Savings"}]})
    assert [f.parse("2"), f.parse("DE89"), f.parse("savings"), f.parse("every")] == ["DE02", "DE89", "DE02", "DE89"]
    with pytest.raises(ValueError, match="not one of the options"):
        f.parse("DE")  # the start of both: ambiguous
    with pytest.raises(ValueError, match="not one of the options \\(Everyday, Savings\\)"):
        f.parse("3")
    assert f.show("DE02") == "Savings" and f.constraints() == ["choose one"]


def test_multi_select_with_item_bounds() -> None:
    f = field({"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["py", "mcp", "ai"]}})
    assert f.parse("1, ai") == ["py", "ai"]
    for bad, reason in [("", "at least 1"), ("1,2,3", "at most 2"), ("py,1", "twice"), ("go", "not one of")]:
        with pytest.raises(ValueError, match=reason):
            f.parse(bad)
    assert f.constraints() == ["choose 1–2 options"]


def test_numbers_booleans_and_text_constraints() -> None:
    whole = field({"type": "integer", "minimum": 1, "maximum": 5})
    assert whole.parse(" 3 ") == 3 and whole.constraints() == ["a whole number", "at least 1", "at most 5"]
    for bad in ("0", "2.5", "three"):
        with pytest.raises(ValueError):
            whole.parse(bad)
    assert field({"type": "number", "minimum": 0.01}).parse("50") == 50
    assert field({"type": "boolean"}).parse("Yes") is True and field({"type": "boolean"}).parse("n") is False
    with pytest.raises(ValueError, match="yes or no"):
        field({"type": "boolean"}).parse("maybe")
    iban = field({"type": "string", "minLength": 15, "maxLength": 34})
    with pytest.raises(ValueError, match="at least 15 characters long \\(this one is 4\\)"):
        iban.parse("DE44")
    assert iban.constraints() == ["text", "15–34 characters"]


@pytest.mark.parametrize(("fmt", "good", "bad"), [
    ("email", "ann@example.org", "ann.example.org"),
    ("uri", "https://example.org/x", "example.org"),
    ("date", "2026-09-17", "17/09/2026"),
    ("date-time", "2026-09-17T19:00:00+02:00", "tomorrow"),
])
def test_string_formats(fmt: str, good: str, bad: str) -> None:
    f = field({"type": "string", "format": fmt})
    assert f.parse(good) == good
    with pytest.raises(ValueError):
        f.parse(bad)


def test_form_content_fills_defaults_and_names_the_bad_field() -> None:
    q = parse_question("palette", {"method": "elicitation/create", "params": {"message": "Colour?", "requestedSchema": {
        "type": "object", "required": ["shades"],
        "properties": {"colour": {"type": "string", "default": "blue"}, "shades": {"type": "integer", "maximum": 5}}}}})
    assert isinstance(q, FormQuestion)
    assert response_for(q, {"shades": 3}) == {"action": "accept", "content": {"colour": "blue", "shades": 3}}
    assert response_for(q, {"action": "decline"}) == {"action": "decline"}
    with pytest.raises(InvalidAnswer, match=r"'palette', field 'shades'.*at most 5"):
        response_for(q, {"shades": 9})
    with pytest.raises(InvalidAnswer, match=r"field 'shade'.*no such field"):
        response_for(q, {"shade": 3})
    with pytest.raises(InvalidAnswer, match="several fields"):
        response_for(q, 3)


def test_a_form_without_mode_is_a_form_and_other_kinds_parse() -> None:
    assert isinstance(parse_question("c", {"method": "elicitation/create", "params": {
        "message": "Confirm", "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}),
        FormQuestion)
    url = parse_question("u", {"method": "elicitation/create", "params": {
        "mode": "url", "message": "Connect", "url": "https://auth.example.com/x?y=1"}})
    assert isinstance(url, UrlQuestion) and url.host == "auth.example.com"
    assert response_for(url, True) == {"action": "accept"}
    sample = parse_question("s", {"method": "sampling/createMessage", "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": "Capital of France?"}}], "maxTokens": 9}})
    assert isinstance(sample, SamplingQuestion) and sample.prompt == "Capital of France?"
    assert response_for(sample, "Paris")["content"] == {"type": "text", "text": "Paris"}
    with pytest.raises(ProtocolError, match="URL elicitation without a URL"):
        parse_question("u", {"method": "elicitation/create", "params": {"mode": "url"}})


WORDS = [("yes", True), ("Y", True), (" true ", True), ("on", True), ("1", True),
         ("no", False), ("N", False), ("false", False), ("OFF", False), ("0", False)]


@pytest.mark.parametrize(("word", "meaning"), WORDS)
def test_a_yes_or_no_word_means_the_same_typed_or_in_a_file(word: str, meaning: bool) -> None:
    confirm = field({"type": "boolean"})
    assert confirm.parse(word) is meaning  # typed in the terminal
    assert confirm.check(word) is meaning  # written as text in an answers file (or returned by a function)
    question = parse_question("confirm", {"method": "elicitation/create", "params": {"message": "Send?",
                              "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}}}})
    assert response_for(question, word) == {"action": "accept", "content": {"confirm": meaning}}  # a JSON boolean


@pytest.mark.parametrize("value", ["maybe", "", "yess", 1, 0, None, [True], {"yes": True}])
def test_anything_else_is_not_a_yes_or_no(value: Any) -> None:
    confirm = field({"type": "boolean"})
    with pytest.raises(ValueError, match=r"^expected yes or no \(true or false\)$"):
        confirm.check(value)
