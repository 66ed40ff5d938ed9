"""askback's tools and prompts as an A2A 1.0 agent (a2a-sdk), with askback's input-schema extension.

Names are imported on first use: `askback.a2a.paths` (where the agent is served) loads without the A2A SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from askback._lazy import lazy_names

if TYPE_CHECKING:
    from askback.a2a.paths import A2A_PATH
    from askback.a2a.server import A2AServer
    from askback.a2a.wire import EXTENSION_URI, SCHEMA_MEDIA_TYPE

_WHERE = {
    "A2A_PATH": "askback.a2a.paths",
    "A2AServer": "askback.a2a.server",
    "EXTENSION_URI": "askback.a2a.wire",
    "SCHEMA_MEDIA_TYPE": "askback.a2a.wire",
}


__getattr__ = lazy_names(__name__, _WHERE)


__all__ = ["A2A_PATH", "EXTENSION_URI", "SCHEMA_MEDIA_TYPE", "A2AServer"]
