"""Results and tool listings as a person reads them in a terminal (the CLI prints JSON to a pipe instead)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from askback.client.answerers.terminal import Style


def result(method: str, data: Mapping[str, Any], style: Style) -> str:
    """A final result, readable: structured content as fields, text as text, other content named."""
    if method == "prompts/get":
        return _prompt(data, style)
    if method == "resources/read":
        return _resource(data, style)
    lines: list[str] = []
    if data.get("isError"):
        lines.append(style.error(style.bold("The tool reported an error:")))
    structured = data.get("structuredContent")
    shown_structured = isinstance(structured, Mapping) and bool(structured)
    if shown_structured:
        assert isinstance(structured, Mapping)
        lines.extend(_fields(structured, style))
    for item in data.get("content") or []:
        if not isinstance(item, Mapping):
            continue
        if item.get("type") == "text":
            text = str(item.get("text", ""))
            if shown_structured and _same_json(text, structured):
                continue
            lines.append(text)
        else:
            lines.append(style.dim(_describe(item)))
    if not lines:
        lines.append(style.dim("(no content)"))
    return "\n".join(lines)


def tools(listing: list[dict[str, Any]], style: Style) -> str:
    lines: list[str] = []
    for tool in listing:
        title = tool.get("title")
        lines.append(style.bold(str(tool.get("name"))) + (f"  {title}" if title else ""))
        if tool.get("description"):
            lines.extend("    " + line for line in str(tool["description"]).splitlines())
        schema: Mapping[str, Any] = tool["inputSchema"] if isinstance(tool.get("inputSchema"), Mapping) else {}
        required = set(schema.get("required") or [])
        for name, prop in (schema.get("properties") or {}).items():
            prop = prop if isinstance(prop, Mapping) else {}
            kind = prop.get("type") or ("choice" if "enum" in prop or "anyOf" in prop else "value")
            note = style.dim(" (required)") if name in required else ""
            about = f" — {prop['description']}" if prop.get("description") else ""
            lines.append(f"    {style.label(name)}: {kind}{note}{about}")
        lines.append("")
    return "\n".join(lines).rstrip() or style.dim("(no tools)")


def _fields(data: Mapping[str, Any], style: Style) -> list[str]:
    width = min(24, max((len(str(k)) for k in data), default=0))
    out = []
    for key, value in data.items():
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        out.append(f"{style.label(str(key).ljust(width))}  {shown}")
    return out


def _prompt(data: Mapping[str, Any], style: Style) -> str:
    lines = [style.dim(str(data["description"]))] if data.get("description") else []
    for message in data.get("messages") or []:
        content = message.get("content") if isinstance(message, Mapping) else None
        text = content.get("text") if isinstance(content, Mapping) and content.get("type") == "text" else None
        role = message.get("role", "?") if isinstance(message, Mapping) else "?"
        lines.append(f"{style.label(str(role))}: {text if text is not None else _describe(content or {})}")
    return "\n".join(lines) or style.dim("(no messages)")


def _resource(data: Mapping[str, Any], style: Style) -> str:
    lines = []
    for item in data.get("contents") or []:
        if not isinstance(item, Mapping):
            continue
        mime = f" ({item['mimeType']})" if item.get("mimeType") else ""
        lines.append(style.dim(f"{item.get('uri', '')}{mime}"))
        lines.append(
            str(item["text"])
            if "text" in item
            else style.dim(f"[{len(str(item.get('blob', '')))} base64 characters of binary data]")
        )
    return "\n".join(lines) or style.dim("(no contents)")


def _describe(item: Mapping[str, Any]) -> str:
    kind = item.get("type", "content")
    if kind in ("image", "audio"):
        return f"[{kind} {item.get('mimeType', '')}, {len(str(item.get('data', '')))} base64 characters]"
    if kind == "resource_link":
        return f"[link: {item.get('uri')}]"
    if kind == "resource":
        resource = item.get("resource")
        return f"[resource: {resource.get('uri') if isinstance(resource, Mapping) else '?'}]"
    return f"[{kind}]"


def _same_json(text: str, value: Any) -> bool:
    try:
        return bool(json.loads(text) == value)
    except ValueError:
        return False
