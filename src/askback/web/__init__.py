"""askback's own pages: where a person enters a secret or approves an action, out of band (MCP URL mode).

Names are imported on first use: a server whose app has no secret or approval never loads the pages.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from askback.web.pages import PageSettings, page_routes

_WHERE = {"PageSettings": "askback.web.pages", "page_routes": "askback.web.pages"}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'askback.web' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


__all__ = ["PageSettings", "page_routes"]
