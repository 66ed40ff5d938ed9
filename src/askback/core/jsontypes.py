"""An answer's JSON type against the JSON Schema type the question's form declared.

An answer is checked against what was asked, not coerced into it: the form said `integer`, so `true` and
`"5"` are wrong answers, asked again with the reason. (Arguments a caller sends are different: they keep
pydantic's lax coercion, documented in `docs/questions.md`.) Only the JSON Schema type keywords are judged
here; constraints and formats (`minimum`, `date`, the options of a choice) stay with the pydantic validation
that follows, which turns the JSON value into the Python one.

The JSON Schema rules, not Python's: a boolean is not a number, and a number with a zero fractional part
(`3.0`, the way A2A's protobuf `Value` carries every number) is an integer. JSON has no infinity or NaN,
so a non-finite float (Python's reader turns `1e309` into `inf`) is no number at all.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

_EXPECTED = {
    "string": "text",
    "integer": "a whole number",
    "number": "a finite number",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "null",
}


def json_type(value: Any) -> str:
    """The JSON Schema type name of a decoded JSON value (`number` for a float that is not whole)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        if not math.isfinite(value):
            return "non-finite number"
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _matches(declared: str, actual: str) -> bool:
    return actual == declared or (declared == "number" and actual == "integer")


def type_problem(prop: Mapping[str, Any], value: Any) -> str | None:
    """Why `value` is not of the type `prop` declares (a reason for the person, never echoing the value).

    None when it is, or when `prop` declares no type (nothing to judge here).
    """
    declared = prop.get("type")
    if isinstance(declared, str):
        actual = json_type(value)
        if not _matches(declared, actual):
            return f"it must be {_EXPECTED.get(declared, declared)}, not {_described(actual)}"
        if declared == "array" and isinstance(prop.get("items"), Mapping):
            for item in value:
                problem = type_problem(prop["items"], item)
                if problem is not None:
                    return f"each item {problem.removeprefix('it ')}"
        return None
    branches = prop.get("anyOf") or prop.get("oneOf")
    if isinstance(branches, list) and branches:
        problems = [type_problem(b, value) if isinstance(b, Mapping) else None for b in branches]
        return None if any(p is None for p in problems) else problems[0]
    if "const" in prop:
        return type_problem({"type": json_type(prop["const"])}, value)
    return None


def _described(actual: str) -> str:
    return {
        "boolean": "true or false",
        "integer": "a number",
        "number": "a number with a fraction",
        "non-finite number": "an infinite or undefined number",
        "string": "text",
        "null": "null",
        "array": "a list",
        "object": "an object",
    }.get(actual, "a value of another kind")
