"""The MCP adapter: askback apps on the official `mcp` SDK, 2026-07-28 and handshake-era clients alike.

Names are imported on first use: `http_app` serves without importing the SDK's server stack until a request
needs it, which `build_server` cannot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from askback.mcp.http import http_app
    from askback.mcp.server import build_server


def __getattr__(name: str) -> Any:
    if name == "http_app":
        from askback.mcp.http import http_app as value
    elif name == "build_server":
        from askback.mcp.server import build_server as value
    else:
        raise AttributeError(f"module 'askback.mcp' has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = ["build_server", "http_app"]
