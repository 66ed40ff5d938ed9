"""The MCP adapter: askback apps on the official `mcp` SDK, 2026-07-28 and handshake-era clients alike.

Names are imported on first use: `http_app` serves without importing the SDK's server stack until a request
needs it, which `build_server` cannot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from askback._lazy import lazy_names

if TYPE_CHECKING:
    from askback.mcp.http import http_app
    from askback.mcp.server import build_server

_WHERE = {"http_app": "askback.mcp.http", "build_server": "askback.mcp.server"}


__getattr__ = lazy_names(__name__, _WHERE)


__all__ = ["build_server", "http_app"]
