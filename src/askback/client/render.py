"""Results and tool listings as a person reads them in a terminal (the CLI prints JSON to a pipe instead).

Every string here came from the server, so each passes through `inert` on its way out: nothing a server
sends can move the cursor, rewrite a line or hide text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from askback.client.answerers.terminal import Style
from askback.client.errors import ProtocolError
from askback.client.inert import one_line, shown, shown_json
from askback.client.questions import Field


def result(method: str, data: Mapping[str, Any], style: Style) -> str:
    """A final result, readable: structured content as fields, text as text, other content named."""
    if method == "prompts/get":
        return _prompt(data, style)
    if method == "resources/read":
        return _resource(data, style)
    lines: list[str] = []
    refusal = (data.get("_meta") or {}).get("askback/refusal") if isinstance(data.get("_meta"), Mapping) else None
    chosen = isinstance(refusal, Mapping) and refusal.get("outcome") in ("declined", "cancelled")
    if data.get("isError") and not chosen:  # a person's own decline is not the tool failing
        lines.append(style.error(style.bold("The tool reported an error:")))
    structured = data.get("structuredContent")
    said: set[str] = set()  # texts already shown as a structured field, not to be printed a second time
    if isinstance(structured, Mapping) and structured:
        lines.extend(_fields(structured, style))
        said = {v.strip() for v in structured.values() if isinstance(v, str)}
    for item in data.get("content") or []:
        if not isinstance(item, Mapping):
            continue
        if item.get("type") == "text":
            text = str(item.get("text", ""))
            if said and (text.strip() in said or _same_json(text, structured)):
                continue
            lines.append(shown(text))
        else:
            lines.append(style.dim(_describe(item)))
    if not lines:
        lines.append(style.dim("(no content)"))
    return "\n".join(lines)


def tools(listing: list[dict[str, Any]], style: Style) -> str:
    lines: list[str] = []
    for tool in listing:
        title = tool.get("title")
        lines.append(style.bold(one_line(tool.get("name"))) + (f"  {one_line(title)}" if title else ""))
        if tool.get("description"):
            lines.extend("    " + line for line in shown(tool["description"]).splitlines())
        schema: Mapping[str, Any] = tool["inputSchema"] if isinstance(tool.get("inputSchema"), Mapping) else {}
        required = set(schema.get("required") or [])
        properties = schema.get("properties")
        for name, prop in (properties if isinstance(properties, Mapping) else {}).items():
            note = style.dim(" (required)") if name in required else ""
            about = parameter(prop if isinstance(prop, Mapping) else {})
            description = prop.get("description") if isinstance(prop, Mapping) else None
            tail = f" — {one_line(description)}" if description else ""
            lines.append(f"    {style.label(one_line(name))}{note}: {about}{tail}")
        lines.append("")
    return "\n".join(lines).rstrip() or style.dim("(no tools)")


def parameter(schema: Mapping[str, Any]) -> str:
    """What a tool parameter takes, in words: its type, choices, format, bounds and default."""
    branches = [b for b in schema.get("anyOf") or schema.get("oneOf") or [] if isinstance(b, Mapping)]
    typed = [b for b in branches if "const" not in b and b.get("type") != "null"]
    merged: dict[str, Any] = dict(schema)
    if typed and len(typed) == len([b for b in branches if b.get("type") != "null"]):
        # A union of types (a Decimal is `number` or `string`): describe the most specific one.
        rank = {"integer": 0, "number": 1, "boolean": 2, "array": 3, "object": 4, "string": 5}
        merged.pop("anyOf", None)
        merged.pop("oneOf", None)
        best: Mapping[str, Any] = min(typed, key=lambda b: rank.get(str(b.get("type")), 9))
        merged.update(best)
    nullable = any(b.get("type") == "null" for b in branches) or merged.get("type") == "null"
    kind = merged.get("type")
    if isinstance(kind, list):
        nullable = nullable or "null" in kind
        merged["type"] = next((k for k in kind if k != "null"), "string")
    if merged.get("type") == "object":
        words = "an object"
    elif merged.get("type") == "array" and not _has_choices(merged.get("items")):
        words = _list_of(merged)
    else:
        try:
            field = Field.from_schema("x", merged, required=False)
        except ProtocolError:
            return "a value"
        if field.choices:
            options = ", ".join(one_line(c.label) for c in field.choices)
            how_many = field.constraints()[0].removeprefix("choose ")
            words = f"{how_many} of {options} (key=a,b)" if field.multiple else f"one of {options}"
        elif "type" not in merged:
            words = "any value"
        else:
            words = ", ".join(field.constraints())
            if merged.get("pattern"):
                words += f", matching {one_line(merged['pattern'])}"
    if nullable:
        words += ", or null"
    if "default" in merged:
        default = merged["default"]
        words += f" [default {one_line(default if isinstance(default, str) else shown_json(default, indent=None))}]"
    return words


def _list_of(schema: Mapping[str, Any]) -> str:
    items = schema.get("items")
    inner = parameter(items) if isinstance(items, Mapping) and items else "values"
    words = f"a list of ({inner})" if "," in inner else f"a list of {inner.removeprefix('a ').removeprefix('an ')}"
    low, high = schema.get("minItems"), schema.get("maxItems")
    if isinstance(low, int) and isinstance(high, int):
        words += f", {low}–{high} items"
    elif isinstance(low, int):
        words += f", at least {low}"
    elif isinstance(high, int):
        words += f", at most {high}"
    return words + " (key=a,b)"


def _has_choices(items: Any) -> bool:
    return isinstance(items, Mapping) and any(k in items for k in ("enum", "oneOf", "anyOf"))


def value(data: Any) -> str:
    """A result value in one line: text as is, a list of plain values as `a, b`, anything else as JSON."""
    if isinstance(data, str):
        return one_line(data)
    if isinstance(data, list) and all(isinstance(v, str | int | float) and not isinstance(v, bool) for v in data):
        return ", ".join(one_line(v) for v in data) or "(none)"
    return shown_json(data, indent=None)


def _fields(data: Mapping[str, Any], style: Style) -> list[str]:
    width = min(24, max((len(str(k)) for k in data), default=0))
    return [f"{style.label(one_line(key).ljust(width))}  {value(v)}" for key, v in data.items()]


def _prompt(data: Mapping[str, Any], style: Style) -> str:
    lines = [style.dim(shown(data["description"]))] if data.get("description") else []
    for message in data.get("messages") or []:
        content = message.get("content") if isinstance(message, Mapping) else None
        text = content.get("text") if isinstance(content, Mapping) and content.get("type") == "text" else None
        role = message.get("role", "?") if isinstance(message, Mapping) else "?"
        shown_text = shown(text) if text is not None else _describe(content if isinstance(content, Mapping) else {})
        lines.append(f"{style.label(one_line(role))}: {shown_text}")
    return "\n".join(lines) or style.dim("(no messages)")


def _resource(data: Mapping[str, Any], style: Style) -> str:
    lines = []
    for item in data.get("contents") or []:
        if not isinstance(item, Mapping):
            continue
        mime = f" ({item['mimeType']})" if item.get("mimeType") else ""
        lines.append(style.dim(one_line(f"{item.get('uri', '')}{mime}")))
        lines.append(
            shown(item["text"])
            if "text" in item
            else style.dim(f"[{len(str(item.get('blob', '')))} base64 characters of binary data]")
        )
    return "\n".join(lines) or style.dim("(no contents)")


def _describe(item: Mapping[str, Any]) -> str:
    kind = one_line(item.get("type", "content"))
    if kind in ("image", "audio"):
        return f"[{kind} {one_line(item.get('mimeType', ''))}, {len(str(item.get('data', '')))} base64 characters]"
    if kind == "resource_link":
        return f"[link: {one_line(item.get('uri'))}]"
    if kind == "resource":
        resource = item.get("resource")
        return f"[resource: {one_line(resource.get('uri') if isinstance(resource, Mapping) else '?')}]"
    return f"[{kind}]"


def _same_json(text: str, data: Any) -> bool:
    import json

    try:
        return bool(json.loads(text) == data)
    except ValueError:
        return False
