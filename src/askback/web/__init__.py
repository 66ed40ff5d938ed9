"""askback's own pages: where a person enters a secret or approves an action, out of band (MCP URL mode)."""

from askback.web.pages import PageSettings, page_routes

__all__ = ["PageSettings", "page_routes"]
