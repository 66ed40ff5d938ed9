"""askback's tools and prompts as an A2A 1.0 agent (a2a-sdk), with askback's input-schema extension."""

from askback.a2a.server import A2A_PATH, A2AServer
from askback.a2a.wire import EXTENSION_URI, SCHEMA_MEDIA_TYPE

__all__ = ["A2A_PATH", "EXTENSION_URI", "SCHEMA_MEDIA_TYPE", "A2AServer"]
