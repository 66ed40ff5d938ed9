"""The `askback.Context` a running function reports through, for any entry.

An entry (the MCP SDK path, a task's runner) gives the function a `ReportingContext` with what it can send
(`ProgressSink`, `LogSink`); where it can send nothing (the fast route answers with one JSON body, A2A has no
such notifications) the function gets a `QuietContext`, so the same function runs everywhere. Both check what
the author passes in the same way, so a call is never accepted on one entry and refused on another.

What leaves goes through the answer guard first: a log message, its data or a progress message that looks like
a credential is replaced by `REDACTED` (a tool logging the token it was handed must not send it to the client).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pydantic import SecretStr

from askback.core.decide import AnswerGuard
from askback.core.markers import LOG_LEVELS, Context

logger = logging.getLogger("askback")

REDACTED = "[redacted]"
_DEPTH = 32  # deeper data is cut: a log entry is not a place for whole documents

ProgressSink = Callable[[float, float | None, str | None], Awaitable[None]]
LogSink = Callable[[str, Any], Awaitable[None]]


class QuietContext(Context):
    """A context that sends nothing: the entry has no way to (or the request asked for neither)."""

    def __init__(self, principal: str | None) -> None:
        self.principal = principal

    async def progress(self, done: float, total: float | None = None, message: str | None = None) -> None:
        _checked_progress(done, total, message)

    async def log(self, level: str, message: str, data: Any = None) -> None:
        _checked_level(level)


class ReportingContext(Context):
    """A context that sends progress and logs through the entry's sinks, each value guarded on its way out.

    `progress` values must grow (MCP requires it of each notification for a token): one that does not is
    dropped and logged here. A sink that fails (the client went away) is logged; the function goes on.
    """

    def __init__(
        self,
        principal: str | None,
        *,
        answer_guard: AnswerGuard,
        progress: ProgressSink | None = None,
        log: LogSink | None = None,
        tool: str = "",
    ) -> None:
        self.principal = principal
        self._guard = answer_guard
        self._progress = progress
        self._log = log
        self._tool = tool
        self._last: float | None = None

    async def progress(self, done: float, total: float | None = None, message: str | None = None) -> None:
        _checked_progress(done, total, message)
        if self._progress is None:
            return
        if self._last is not None and done <= self._last:
            logger.warning("%s: progress %s after %s dropped: progress must increase", self._tool, done, self._last)
            return
        self._last = done
        shown = None if message is None else guarded(message, self._guard)
        try:
            await self._progress(float(done), None if total is None else float(total), shown)
        except Exception:
            logger.debug("%s: a progress notification could not be sent", self._tool, exc_info=True)

    async def log(self, level: str, message: str, data: Any = None) -> None:
        _checked_level(level)
        if self._log is None:
            return
        text = guarded(str(message), self._guard)
        payload: Any = text if data is None else {"message": text, "data": guarded(data, self._guard)}
        try:
            await self._log(level, payload)
        except Exception:
            logger.debug("%s: a log notification could not be sent", self._tool, exc_info=True)


def guarded(value: Any, guard: AnswerGuard, depth: int = 0) -> Any:
    """`value` as JSON values, each string the answer guard reads as a credential (and every `Secret`) replaced."""
    if isinstance(value, SecretStr):
        return REDACTED
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if depth >= _DEPTH:
        return "…"
    if isinstance(value, str):
        return REDACTED if guard(value) is not None else value
    if isinstance(value, Mapping):
        return {guarded(str(k), guard, depth + 1): guarded(v, guard, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [guarded(v, guard, depth + 1) for v in value]
    return guarded(repr(value), guard, depth + 1)  # an object of the author's: its repr, read like any text


def _checked_level(level: str) -> None:
    if level not in LOG_LEVELS:
        raise ValueError(f"log level must be one of {', '.join(LOG_LEVELS)}, not {level!r}")


def _checked_progress(done: float, total: float | None, message: str | None) -> None:
    for name, number in (("done", done), ("total", total)):
        if number is None and name == "total":
            continue
        if isinstance(number, bool) or not isinstance(number, int | float) or not math.isfinite(number):
            raise ValueError(f"progress {name} must be a finite number, not {number!r}")
    if message is not None and not isinstance(message, str):
        raise ValueError(f"progress message must be a str, not {type(message).__name__}")


def status_context(
    status: Callable[[str], Awaitable[None]], principal: str | None, answer_guard: AnswerGuard, tool: str
) -> ReportingContext:
    """A context whose progress becomes a status text (an MCP task's status message, an A2A task's working
    status update): the message, else how much is done ("3 of 10"). A log has no such place, so it is not sent."""

    async def progress(done: float, total: float | None, message: str | None) -> None:
        await status(message if message is not None else _fraction(done, total))

    return ReportingContext(principal, answer_guard=answer_guard, progress=progress, tool=tool)


def _fraction(done: float, total: float | None) -> str:
    return f"{done:g} of {total:g}" if total is not None else f"{done:g}"
