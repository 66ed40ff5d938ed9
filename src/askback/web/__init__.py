"""askback's own pages: where a person enters a secret or approves an action, out of band (MCP URL mode).

Names are imported on first use: a server whose app has no secret or approval never loads the pages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from askback._lazy import lazy_names

if TYPE_CHECKING:
    from askback.web.pages import PageSettings, page_routes

_WHERE = {"PageSettings": "askback.web.pages", "page_routes": "askback.web.pages"}


__getattr__ = lazy_names(__name__, _WHERE)


__all__ = ["PageSettings", "page_routes"]
