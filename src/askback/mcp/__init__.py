"""The MCP adapter: askback apps on the official `mcp` SDK, 2026-07-28 and handshake-era clients alike.

Names are imported on first use: `http_app` serves without importing the SDK's server stack until a request
needs it, which `build_server` cannot.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from askback.mcp.http import http_app
    from askback.mcp.server import build_server

_WHERE = {"http_app": "askback.mcp.http", "build_server": "askback.mcp.server"}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'askback.mcp' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


__all__ = ["build_server", "http_app"]
