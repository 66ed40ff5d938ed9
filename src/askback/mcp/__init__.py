"""The MCP adapter: askback apps on the official `mcp` SDK, 2026-07-28 and handshake-era clients alike."""

from askback.mcp.http import http_app
from askback.mcp.server import build_server

__all__ = ["build_server", "http_app"]
