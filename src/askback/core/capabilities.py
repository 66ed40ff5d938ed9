"""The client capabilities askback can need, each as MCP's `ClientCapabilities` shape and as a person reads it.

One table, so what an error says a client lacks and what its `requiredCapabilities` carries come from the
same entry (a `-32021` whose text named one capability while its data named another misled every client).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"


@dataclass(frozen=True, slots=True)
class Capability:
    declared: dict[str, Any]  # the `ClientCapabilities` fragment a client declares to have it
    text: str  # its name in a sentence


CAPABILITIES: dict[str, Capability] = {
    "form": Capability({"elicitation": {"form": {}}}, "form elicitation"),
    "url": Capability({"elicitation": {"url": {}}}, "URL elicitation"),
    "sampling": Capability({"sampling": {}}, "sampling"),
    "roots": Capability({"roots": {}}, "roots"),
    "tasks": Capability({"extensions": {TASKS_EXTENSION: {}}}, f"the tasks extension ({TASKS_EXTENSION})"),
}


def required_capabilities(keys: Iterable[str]) -> dict[str, Any]:
    """The `ClientCapabilities` fragments of `keys`, merged (form and URL share `elicitation`)."""
    required: dict[str, Any] = {}
    for key in keys:
        for name, detail in CAPABILITIES[key].declared.items():
            required.setdefault(name, {}).update(detail)
    return required
