"""What a function's return value means, whatever the wire: a prompt's messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def prompt_messages(value: Any) -> list[dict[str, Any]]:
    """A prompt function's return value (a string, a list of strings or message dicts, or a `{"messages": ...}`
    result) as MCP-shaped messages."""
    if isinstance(value, Mapping) and "messages" in value:
        value = value["messages"]
    items = value if isinstance(value, list | tuple) else [value]
    messages: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, Mapping):
            messages.append(dict(item))
        else:
            messages.append({"role": "user", "content": {"type": "text", "text": str(item)}})
    return messages
