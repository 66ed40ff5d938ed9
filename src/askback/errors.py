"""Errors that reach a client, each on purpose. Anything else is logged and becomes a generic error."""

from __future__ import annotations

INVALID_STATE_MESSAGE = "Invalid or expired requestState; start the request again without it."


class ToolError(Exception):
    """Raise from a tool to end the call with this message as a tool error the model can read."""


class InvalidRequestState(Exception):
    """The echoed requestState failed a check. The client only ever sees `INVALID_STATE_MESSAGE`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadInput(Exception):
    """The request itself is malformed (not a question to ask again); a JSON-RPC -32602 with this text."""
