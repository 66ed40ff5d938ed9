"""What is wrong with a call's arguments, by the tool's own input schema: each field missing or not accepted.

The schema is the one the server lists for the tool, read with the maintained `jsonschema` validator, never
the SDK's error text (which changes with pydantic's wording). A reason says what the schema wants and never
repeats the value it refused: the value may be something the caller should not see echoed (a token pasted
into the wrong field).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from askback.core.questions import canonical_json

MISSING = "missing"  # the reason of a required field that was not sent


def _validator(schema: Mapping[str, Any]) -> Draft202012Validator:
    return _cached_validator(canonical_json(schema).decode())


@lru_cache(maxsize=256)
def _cached_validator(schema_json: str) -> Draft202012Validator:
    import json

    return Draft202012Validator(json.loads(schema_json))


def problems(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> dict[str, str]:
    """The fields of `arguments` the schema does not accept, each with its reason (`MISSING` when not sent).

    Only top-level fields are named: a field is what a form asks and an answer replaces, so a nested problem
    is the problem of the field that holds it. Problems of the arguments as a whole that no field answers
    (an extra argument the schema forbids) are the SDK's to report and are left out.
    """
    found: dict[str, str] = {}
    for error in _validator(schema).iter_errors(dict(arguments)):
        path = list(error.absolute_path)
        if not path:
            if error.validator == "required":
                for name in error.validator_value:
                    if name not in arguments:
                        found.setdefault(str(name), MISSING)
            continue
        found.setdefault(str(path[0]), reason(error, nested=len(path) > 1))
    return found


def reason(error: ValidationError, *, nested: bool = False) -> str:
    """What the schema wants of the value, in words; the value itself is never part of it."""
    keyword, want = error.validator, error.validator_value
    text = _REASONS.get(str(keyword))
    said = text(want) if text is not None else f"it does not satisfy the schema's {keyword!r} rule"
    if nested:
        where = ".".join(str(p) for p in list(error.absolute_path)[1:])
        return f"{where}: {said}"
    return said


def _names(values: Any) -> str:
    items = values if isinstance(values, list) else [values]
    return ", ".join(canonical_json(v).decode() if not isinstance(v, str) else v for v in items)


_REASONS: dict[str, Any] = {
    "type": lambda want: f"it must be of type {' or '.join(want) if isinstance(want, list) else want}",
    "enum": lambda want: f"it must be one of: {_names(want)}",
    "const": lambda want: f"it must be {_names(want)}",
    "minimum": lambda want: f"it must be at least {want}",
    "maximum": lambda want: f"it must be at most {want}",
    "exclusiveMinimum": lambda want: f"it must be greater than {want}",
    "exclusiveMaximum": lambda want: f"it must be less than {want}",
    "multipleOf": lambda want: f"it must be a multiple of {want}",
    "minLength": lambda want: f"it must be at least {want} characters long",
    "maxLength": lambda want: f"it must be at most {want} characters long",
    "pattern": lambda want: f"it must match the pattern {want}",
    "format": lambda want: f"it must be a valid {want}",
    "minItems": lambda want: f"it must have at least {want} items",
    "maxItems": lambda want: f"it must have at most {want} items",
    "uniqueItems": lambda want: "its items must all be different",
    "required": lambda want: f"it must have {_names(want)}",
    "additionalProperties": lambda want: "it has a part the schema does not allow",
    "anyOf": lambda want: "it matches none of the allowed shapes",
    "oneOf": lambda want: "it must match exactly one of the allowed shapes",
}
