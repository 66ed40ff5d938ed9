"""What the terminal shows for results and tool listings: each parameter in words, lists as lists, no repeats."""

from __future__ import annotations

from typing import Any

import pytest

from askback.client import render
from askback.client.answerers.terminal import Style

PLAIN = Style(False)


@pytest.mark.parametrize(("schema", "words"), [
    ({"anyOf": [{"type": "number", "minimum": 0.01, "maximum": 10000.0}, {"type": "string"}]},
     "a number, at least 0.01, at most 10000"),  # a Decimal
    ({"type": "string", "minLength": 15, "maxLength": 34}, "text, 15–34 characters"),
    ({"type": "string", "enum": ["low", "normal", "high"], "default": "normal"},
     "one of low, normal, high [default normal]"),
    ({"type": "string", "oneOf": [{"const": "DE89", "title": "Everyday"}, {"const": "DE02", "title": "Savings"}]},
     "one of Everyday, Savings"),
    ({"type": "string", "format": "date"}, "a date (YYYY-MM-DD)"),
    ({"type": "string", "format": "email"}, "an email address"),
    ({"type": "integer", "minimum": 15, "maximum": 240}, "a whole number, at least 15, at most 240"),
    ({"type": "array", "items": {"type": "string", "enum": ["ada", "grace", "linus"]}, "minItems": 1,
      "maxItems": 3}, "1–3 options of ada, grace, linus (key=a,b)"),
    ({"type": "array", "items": {"type": "string"}}, "a list of text (key=a,b)"),
    ({"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None}, "a whole number, or null [default null]"),
    ({"type": "boolean", "default": False}, "yes or no [default false]"),
    ({"type": "string", "pattern": "^[a-z]+$"}, "text, matching ^[a-z]+$"),
    ({"type": "object"}, "an object"),
    ({}, "any value"),
])
def test_a_parameter_in_words(schema: dict[str, Any], words: str) -> None:
    assert render.parameter(schema) == words


def test_a_list_in_a_result_reads_as_a_list() -> None:
    shown = render.result("tools/call", {"structuredContent": {"attendees": ["ada", "grace"], "n": [1, 2],
                                                               "nested": [{"a": 1}]}}, PLAIN)
    assert "ada, grace" in shown and "1, 2" in shown and "['ada'" not in shown
    assert '[{"a": 1}]' in shown


def test_a_declined_result_says_its_message_once() -> None:
    message = "transfer was declined when asked for confirm. Nothing was done."
    data = {"content": [{"type": "text", "text": message}],
            "structuredContent": {"outcome": "declined", "message": message}}
    assert render.result("tools/call", data, PLAIN).count(message) == 1
