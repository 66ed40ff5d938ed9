"""A tool's declared JSON Schema 2020-12 input schema, in place of the one its signature would give.

`@app.tool(input_schema={...})` lists the schema as written (`$schema`, `$defs`, `$ref`, `anyOf`, `if`/`then`,
`additionalProperties`, ...). The function's parameters are still how values reach it: each top-level property
is one parameter of that name, a property the schema requires is one without a default (so what askback asks
when it is missing is exactly what the schema requires), and each parameter's Python type converts the value.

The schema is read with the same `jsonschema` validator the adopted tools use (`askback.core.schemacheck`):
each field's value (sent or answered) is checked against its property, so a bad one is asked again with the
schema's reason; rules across fields (`allOf`, `if`/`then`/`else`) are checked once every value is known, and
a call that breaks one ends with a tool error saying which rule. A missing required field is asked in a form
built from its declared property (`core.forms.schema_field`), when it can be a flat field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from askback.core.forms import schema_field
from askback.core.kinds import ChoiceParam, Param, ValueParam
from askback.core.questions import FormQuestion
from askback.core.schemacheck import problems, reason

FieldCheck = Callable[[Any], "str | None"]


def checked_schema(where: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    """The declared schema, if it is a valid 2020-12 schema of an object; else the reason, raised as `ValueError`."""
    try:
        Draft202012Validator.check_schema(dict(schema))
    except SchemaError as exc:
        raise ValueError(f"{where}: input_schema is not a valid JSON Schema 2020-12: {exc.message}") from None
    if schema.get("type") != "object":
        raise ValueError(f'{where}: input_schema must describe an object ("type": "object")')
    return dict(schema)


def declared_params(where: str, endpoint: str, schema: Mapping[str, Any], params: Sequence[Param]) -> list[Param]:
    """`params` matched to the schema's properties, each value parameter checked (and asked) by its property."""
    props: Mapping[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    defs: dict[str, Any] = dict(schema.get("$defs") or {})
    arguments = {p.name: p for p in params if p.from_arguments}
    if unknown := sorted(set(props) - set(arguments)):
        raise ValueError(f"{where}: input_schema property {unknown[0]!r} is no parameter of the function")
    if unlisted := sorted(set(arguments) - set(props)):
        raise ValueError(f"{where}: parameter {unlisted[0]!r} is not a property of input_schema")
    out: list[Param] = []
    for p in params:
        if not p.from_arguments:
            out.append(p)
            continue
        if p.name in required and not p.required:
            raise ValueError(f"{where}: input_schema requires {p.name!r}, so its parameter cannot have a default")
        if p.name not in required and p.required:
            raise ValueError(f"{where}: parameter {p.name!r} has no default but input_schema does not require it")
        if not isinstance(p, ValueParam) or isinstance(p, ChoiceParam):
            out.append(p)
            continue
        out.append(_declared(endpoint, p, props[p.name], defs))
    return out


def _declared(endpoint: str, p: ValueParam, prop: Any, defs: dict[str, Any]) -> ValueParam:
    check = field_check(p.name, prop, defs)
    flat, _, choices = schema_field(dict(prop) if isinstance(prop, Mapping) else {}, defs)
    if flat is None:  # not a flat field: asked (if at all) as its Python type would be
        return replace(p, declared=check)
    flat.setdefault("title", p.title)
    if p.description:
        flat.setdefault("description", p.description)
    form = replace(p.form, schema=flat, choices={**p.form.choices, **choices})
    question = p.question
    if not p.deps:
        text = p.message or f'{endpoint} needs a value for "{p.description or p.title}".'
        asked = {k: v for k, v in flat.items() if k != "default" or not p.required}
        question = FormQuestion(key=p.name, message=text,
                                schema={"type": "object", "properties": {p.field: asked}, "required": [p.field]})
    return replace(p, form=form, question=question, declared=check)


def field_check(name: str, prop: Any, defs: Mapping[str, Any]) -> FieldCheck:
    """The check of one field's JSON value by its declared property (its `$ref`s resolved in the `$defs`)."""
    schema = {"type": "object", "properties": {name: prop}, "$defs": dict(defs)}

    def check(value: Any) -> str | None:
        return problems(schema, {name: value}).get(name)

    return check


def whole_check(schema: Mapping[str, Any]) -> Callable[[Mapping[str, Any]], str | None]:
    """The check of the whole arguments once every value is known (rules across fields): the first broken rule,
    in words, or None. An argument the schema does not list is ignored here, as askback ignores it anywhere."""
    rules = {k: v for k, v in schema.items() if k != "additionalProperties"}
    validator = Draft202012Validator(rules)

    def check(arguments: Mapping[str, Any]) -> str | None:
        present = {k: v for k, v in arguments.items() if v is not None}  # a parameter left at None was not sent
        error = next(iter(validator.iter_errors(present)), None)
        if error is None:
            return None
        if error.validator == "required":
            names = [n for n in error.validator_value if n not in present]
            return f"it needs {', '.join(map(str, names))} as well"
        if error.validator == "anyOf" and all(c.validator == "required" for c in error.context or ()):
            options = [" and ".join(map(str, c.validator_value)) for c in error.context or ()]
            return f"it needs one of: {'; '.join(dict.fromkeys(options))}"
        return reason(error, nested=bool(error.absolute_path))

    return check
