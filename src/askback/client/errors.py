"""What can end a client call other than a result, each a named exception.

`Unfinished` and its subclasses carry `pending`: the questions still open and what is needed to continue
(save it with `pending.save(path)`, finish it later with `Client.resume`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from askback.client.pending import Pending


class ClientError(Exception):
    """Base of every error the askback client raises on purpose."""


class ProtocolError(ClientError):
    """The server sent something that is not valid MCP for this exchange."""


class ServerError(ClientError):
    """The server answered with a JSON-RPC error (or could not be reached)."""

    def __init__(self, message: str, *, code: int | None = None, data: object = None) -> None:
        super().__init__(message if code is None else f"{message} (JSON-RPC error {code})")
        self.message = message
        self.code = code
        self.data = data


class Unfinished(ClientError):
    """The call stopped before the server finished; `pending` holds the open questions (or None)."""

    def __init__(self, message: str, pending: Pending | None) -> None:
        if pending is not None and pending.questions:
            message += " Open questions: " + ", ".join(q.key for q in pending.questions) + "."
        super().__init__(message)
        self.pending = pending


class TooManyRounds(Unfinished):
    """The server asked for more rounds than the client's `max_rounds`."""


class DeadlineExceeded(Unfinished):
    """The call ran past the client's wall-clock `timeout`."""


class Postponed(Unfinished):
    """The answerer chose to answer later (e.g. `--save-pending`); continue with `Client.resume(pending)`."""


class AnswerError(ClientError):
    """An answerer could not answer a question."""


class UnknownQuestion(AnswerError):
    """An answers file (or mapping) has no answer for this question."""

    def __init__(self, key: str, fields: tuple[str, ...] = ()) -> None:
        where = f" (fields: {', '.join(fields)})" if fields and fields != (key,) else ""
        super().__init__(f"no answer for the question {key!r}{where}")
        self.key = key
        self.fields = fields


class InvalidAnswer(AnswerError):
    """A given answer does not fit its question."""

    def __init__(self, key: str, field: str | None, reason: str) -> None:
        where = f"{key!r}" if field is None or field == key else f"{key!r}, field {field!r}"
        super().__init__(f"the answer to {where} is not valid: {reason}")
        self.key = key
        self.field = field
        self.reason = reason


class AnswerRejected(AnswerError):
    """The server asked again a question already answered from a file: the answer it was given did not do."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"the server did not accept the answer to {key!r}; it asks again: {message}")
        self.key = key
        self.message = message


class NoMoreInput(AnswerError):
    """The person's input ended (end of file) before the question was answered."""
