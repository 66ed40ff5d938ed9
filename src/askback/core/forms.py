"""Python types to flat elicitation form fields, and answers back to validated Python values.

MCP forms are flat: each property is a string (optionally with a format), a number or integer, a boolean,
a single-select enum or a multi-select array of enum values. A type that cannot be one of those cannot be
asked in a form; `FieldForm.unaskable` then says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

_STRING_FORMATS = frozenset({"email", "uri", "date", "date-time"})
_COMMON_KEYS = ("title", "description", "default")


class AnswerInvalid(ValueError):
    """A value failed its type or constraints; the message says what was wrong, for the person to read."""


@dataclass(frozen=True, slots=True)
class FieldForm:
    """How one Python type is asked for and checked."""

    adapter: TypeAdapter[Any]
    schema: dict[str, Any] | None
    unaskable: str | None = None
    # Forms offer choices as strings only; a choice among numbers maps its string back to the number.
    choices: dict[str, Any] = field(default_factory=dict)
    # For a bare `str`, `int`, `bool` or `float`: a value of exactly that type validates (and dumps) to itself,
    # so the common answer skips pydantic's call. Anything else, or any constraint, takes the adapter.
    same: type | None = None
    # A model asked as one form (`model_form`): `schema` is the whole form's, and each field maps its choices.
    whole: bool = False
    field_choices: dict[str, dict[str, Any]] = field(default_factory=dict)

    def validate(self, value: Any) -> Any:
        """Return the Python value, or raise `AnswerInvalid` with a short reason."""
        if type(value) is self.same:
            return value
        if self.choices:
            value = from_choice(self.choices, value)
        if self.field_choices and isinstance(value, Mapping):
            value = {k: from_choice(self.field_choices[k], v) if k in self.field_choices else v
                     for k, v in value.items()}
        try:
            return self.adapter.validate_python(value)
        except ValidationError as exc:
            raise AnswerInvalid(describe_validation_error(exc)) from None

    def to_json(self, value: Any) -> Any:
        if type(value) is self.same and self.same is not float:  # a float's JSON dump turns inf and nan to null
            return value
        return self.adapter.dump_python(value, mode="json")


def describe_validation_error(exc: ValidationError) -> str:
    """One readable sentence per problem, without echoing the rejected value back (it may be sensitive)."""
    parts = []
    for err in exc.errors(include_url=False, include_input=False):
        parts.append(str(err.get("msg", "invalid value")))
    return "; ".join(dict.fromkeys(parts)) or "invalid value"


def field_form(annotation: Any, *, title: str | None, description: str | None, default: Any) -> FieldForm:
    """Build the form field for `annotation` (an `Annotated[...]` carrying pydantic constraints is fine)."""
    adapter: TypeAdapter[Any] = TypeAdapter(annotation)
    try:
        raw = adapter.json_schema(mode="validation")
    except Exception as exc:  # pydantic raises several types for schemas it cannot render
        return FieldForm(adapter, None, f"its type has no JSON schema ({type(exc).__name__})")
    choices: dict[str, Any] = {}
    flat, reason = _flatten(raw, raw.get("$defs", {}), choices)
    if flat is None:
        return FieldForm(adapter, None, reason)
    if title:
        flat["title"] = title
    if description:
        flat["description"] = description
    if default is not _NO_DEFAULT:
        try:
            flat["default"] = adapter.dump_python(default, mode="json")
        except Exception:  # a default that cannot be shown is simply not pre-filled
            flat.pop("default", None)
    if choices and "default" in flat:
        flat["default"] = (
            [str(v) for v in flat["default"]] if isinstance(flat["default"], list) else str(flat["default"])
        )
    return FieldForm(adapter, flat, None, choices, None if choices else _self_validating(adapter))


def bare_form(annotation: Any) -> FieldForm:
    """`field_form` of a type with no title, description or default: a question asked while a function runs.

    The same type asked again (by every run of the same function) gets the form built the first time: building a
    pydantic adapter and its JSON schema is most of such a question's cost, and the form is immutable (its schema
    is copied by whoever adds to it). A type that cannot be hashed is built each time."""
    try:
        return _bare_form(annotation)
    except TypeError:
        return field_form(annotation, title=None, description=None, default=_NO_DEFAULT)


@lru_cache(maxsize=256)
def _bare_form(annotation: Any) -> FieldForm:
    return field_form(annotation, title=None, description=None, default=_NO_DEFAULT)


_BARE = {"str": str, "int": int, "bool": bool, "float": float}


def _self_validating(adapter: TypeAdapter[Any]) -> type | None:
    """The type whose values `adapter` returns unchanged: only a bare scalar schema (no constraint, no config)."""
    schema = adapter.core_schema
    if not schema.keys() <= {"type", "metadata"}:
        return None
    return _BARE.get(str(schema.get("type")))


def from_choice(choices: Mapping[str, Any], value: Any) -> Any:
    """A form's answer with each choice's string mapped back to its value (forms offer choices as strings)."""
    if isinstance(value, str):
        return choices.get(value, value)
    if isinstance(value, list):
        return [choices.get(v, v) if isinstance(v, str) else v for v in value]
    return value


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


_NO_DEFAULT: Any = _NoDefault()
NO_DEFAULT: Any = _NO_DEFAULT


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = defs.get(ref.removeprefix("#/$defs/"), {})
        merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return merged
    return node


def _flatten(
    node: dict[str, Any], defs: dict[str, Any], choices: dict[str, Any]
) -> tuple[dict[str, Any] | None, str | None]:
    node = _resolve(node, defs)
    if "anyOf" in node:
        branches = [_resolve(b, defs) for b in node["anyOf"] if _resolve(b, defs).get("type") != "null"]
        # Decimal renders as number-or-string; a form asks for the number.
        numeric = [b for b in branches if b.get("type") in ("number", "integer")]
        chosen = numeric[0] if numeric and len(branches) == 2 else (branches[0] if len(branches) == 1 else None)
        if chosen is None:
            return None, "a union of several types is not a single form field"
        extra = {k: node[k] for k in _COMMON_KEYS if k in node}
        return _flatten({**chosen, **extra}, defs, choices)
    kind = node.get("type")
    out: dict[str, Any] = {}
    titled = _titled(node.get("oneOf"))
    if titled is not None and kind in ("string", "number", "integer"):
        # A titled single choice (SEP-1330), as `askback.Titles` declares it: `oneOf` of const + title.
        out["type"] = "string"
        out["oneOf"] = [{"const": str(v), "title": t} for v, t in titled]
        if kind != "string":
            choices.update({str(v): v for v, _ in titled})
    elif kind == "string":
        out["type"] = "string"
        if "enum" in node:
            out["enum"] = [str(v) for v in node["enum"]]
            names = node.get("enumNames")
            if isinstance(names, list) and len(names) == len(out["enum"]) and all(isinstance(n, str) for n in names):
                out["enumNames"] = list(names)  # the older spelling of titles (SEP-1330 keeps it, deprecated)
        fmt = node.get("format")
        if fmt in _STRING_FORMATS:
            out["format"] = fmt
        elif fmt == "password":
            out["format"] = fmt  # kept so the secret guard sees it; never sent
        for key in ("minLength", "maxLength"):
            if key in node:
                out[key] = node[key]
    elif kind in ("number", "integer") and "enum" in node:
        out["type"] = "string"
        out["enum"] = [str(v) for v in node["enum"]]
        choices.update({str(v): v for v in node["enum"]})
    elif kind in ("number", "integer"):
        out["type"] = kind
        for key in ("minimum", "maximum"):
            if key in node:
                out[key] = node[key]
        step = 1 if kind == "integer" else 0
        if "exclusiveMinimum" in node and "minimum" not in out:
            out["minimum"] = node["exclusiveMinimum"] + step
        if "exclusiveMaximum" in node and "maximum" not in out:
            out["maximum"] = node["exclusiveMaximum"] - step
    elif kind == "boolean":
        out["type"] = "boolean"
    elif kind == "array":
        items = _resolve(node.get("items", {}), defs)
        titled_items = _titled(items.get("anyOf") or items.get("oneOf"))
        if titled_items is not None:
            # A titled multiple choice (SEP-1330): items are `anyOf` of const + title.
            choices.update({str(v): v for v, _ in titled_items if not isinstance(v, str)})
            out["type"] = "array"
            out["items"] = {"anyOf": [{"const": str(v), "title": t} for v, t in titled_items]}
            for key in ("minItems", "maxItems"):
                if key in node:
                    out[key] = node[key]
            items = {}
        elif items.get("type") in ("number", "integer") and "enum" in items:
            choices.update({str(v): v for v in items["enum"]})
            items = {**items, "type": "string"}
        if "items" not in out:
            if items.get("type") != "string" or "enum" not in items:
                return None, "a list is only a form field when its items are a fixed set of choices"
            out["type"] = "array"
            out["items"] = {"type": "string", "enum": [str(v) for v in items["enum"]]}
            for key in ("minItems", "maxItems"):
                if key in node:
                    out[key] = node[key]
    elif kind == "object" or "properties" in node:
        return None, "a nested object cannot be a flat form field"
    else:
        return None, f"type {kind or 'unknown'!r} cannot be a form field"
    for key in _COMMON_KEYS:
        if key in node and key not in out:
            out[key] = node[key]
    if node.get("writeOnly") is True:
        out["writeOnly"] = True  # kept so the secret guard sees it; a form that has it is refused, so it is never sent
    out.pop("title", None) if out.get("title") in (None, "") else None
    return out, None


def _titled(branches: Any) -> list[tuple[Any, str]] | None:
    """The (value, title) pairs of a `oneOf`/`anyOf` listing only `{"const": ..., "title": ...}`, else None."""
    if not isinstance(branches, list) or not branches:
        return None
    pairs = []
    for branch in branches:
        if not isinstance(branch, Mapping) or "const" not in branch or not isinstance(branch.get("title"), str):
            return None
        pairs.append((branch["const"], branch["title"]))
    return pairs


def model_form(model: type[BaseModel], *, description: str | None) -> FieldForm | None:
    """A pydantic model whose every field is a flat form field, as one form: a field per model field, each
    field's default pre-filled (SEP-1034), the fields without one required. None when the model is not flat (a
    nested model, a list of free values); `FieldForm.unaskable` of `field_form` then says why."""
    adapter: TypeAdapter[Any] = TypeAdapter(model)
    try:
        raw = adapter.json_schema(mode="validation")
    except Exception:  # pydantic raises several types for schemas it cannot render
        return None
    defs = raw.get("$defs", {})
    properties: dict[str, Any] = {}
    field_choices: dict[str, dict[str, Any]] = {}
    for name, node in raw.get("properties", {}).items():
        choices: dict[str, Any] = {}
        flat, _ = _flatten(node, defs, choices)
        if flat is None:
            return None
        if choices and "default" in flat:
            default = flat["default"]
            flat["default"] = [str(v) for v in default] if isinstance(default, list) else str(default)
        properties[name] = flat
        if choices:
            field_choices[name] = choices
    if not properties:
        return None
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    required = [n for n in raw.get("required", []) if n in properties]
    if required:
        schema["required"] = required
    if description:
        schema["description"] = description
    return FieldForm(adapter, schema, None, field_choices=field_choices, whole=True)


def schema_field(
    node: dict[str, Any], defs: dict[str, Any]
) -> tuple[dict[str, Any] | None, str | None, dict[str, Any]]:
    """One property of a JSON schema (a tool's input schema, written by another library) as a flat form field:
    the field or None, why not, and the choices whose strings map back to numbers (the rule `field_form` uses)."""
    choices: dict[str, Any] = {}
    flat, reason = _flatten(node, defs, choices)
    return flat, reason, choices


def choice_schema(
    options: list[tuple[Any, str | None]], *, title: str | None, description: str | None
) -> dict[str, Any]:
    """A single-select string field listing `options` (value, title) with their titles."""
    schema: dict[str, Any] = {"type": "string"}
    if any(t for _, t in options):
        schema["oneOf"] = [{"const": str(v), "title": t or str(v)} for v, t in options]
    else:
        schema["enum"] = [str(v) for v, _ in options]
    if title:
        schema["title"] = title
    if description:
        schema["description"] = description
    return schema


def multi_choice_schema(
    options: list[tuple[Any, str | None]],
    *,
    title: str | None,
    description: str | None,
    min_items: int | None = None,
    max_items: int | None = None,
) -> dict[str, Any]:
    """A multi-select field: an array of the option values, with titles (`anyOf` of const + title) when any."""
    items: dict[str, Any]
    if any(t for _, t in options):
        items = {"anyOf": [{"const": str(v), "title": t or str(v)} for v, t in options]}
    else:
        items = {"type": "string", "enum": [str(v) for v, _ in options]}
    schema: dict[str, Any] = {"type": "array", "items": items}
    if min_items is not None:
        schema["minItems"] = min_items
    if max_items is not None:
        schema["maxItems"] = max_items
    if title:
        schema["title"] = title
    if description:
        schema["description"] = description
    return schema
