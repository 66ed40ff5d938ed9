"""Errors a tool author raises or catches; the whole hierarchy, with wire mappings, is `askback.core.errors`."""

from __future__ import annotations

from askback.core.errors import INVALID_STATE_MESSAGE, AskbackError, InvalidRequestState, ToolError

__all__ = ["INVALID_STATE_MESSAGE", "AskbackError", "InvalidRequestState", "ToolError"]
