"""What a server's log may hold: never an answer, a secret or a page's ticket, at any level.

Two kinds of line would carry them, both from libraries askback runs rather than from askback itself:

- A page's URL holds its ticket, a bearer capability: uvicorn's access log prints each request's path, and its
  trace log each scope. `TicketFilter` replaces the ticket in any record by `<ticket>`; `guard_logs` puts it on
  uvicorn's loggers (where those records are made) and on the root logger's handlers (where every other
  library's records end), and on Python's last-resort handler.
- Some libraries log whole payloads below WARNING: the A2A SDK each request body and task (answers, a token a
  person pasted), SQLAlchemy and aiosqlite each statement's parameters (the A2A task store's rows), httpx and
  httpcore each URL, the MCP SDK's client each message it sends (a gateway's forwarded arguments, a credential
  entered on a page among them). Those loggers are set to WARNING, unless a level was set for them explicitly: a verbose
  server log (`--log-level debug`) is then askback's, uvicorn's and the MCP SDK server's, without those payloads.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from askback.outofband import PAGE_PATH

# Loggers whose records below WARNING carry request bodies, task contents, SQL parameters or URLs.
PAYLOAD_LOGGERS = ("a2a", "sqlalchemy", "aiosqlite", "asyncpg", "httpx", "httpcore", "mcp.client")
# uvicorn's loggers that print a request's path: the access log (INFO) and the ASGI message log (TRACE).
_PATH_LOGGERS = ("uvicorn.access", "uvicorn.asgi", "uvicorn.error")
_TICKET = re.compile(re.escape(PAGE_PATH) + r"[^\s/?#\"'<>]+")
_REDACTED = PAGE_PATH + "<ticket>"


def redact(text: str) -> str:
    """`text` with every page ticket replaced (the path `/askback/p/<ticket>` stays, to say a page was used)."""
    return _TICKET.sub(_REDACTED, text) if PAGE_PATH in text else text


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, (int, float)) or value is None:
        return value
    text = str(value)  # a scope (uvicorn's trace log), bytes, a URL object: the ticket is in what it prints
    return redact(text) if PAGE_PATH in text else value


class TicketFilter(logging.Filter):
    """Rewrites a record's message and arguments so that no page ticket is in it; drops nothing.

    Arguments are rewritten in place of the message (not folded into it): uvicorn's access formatter reads the
    arguments themselves.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(_redacted(a) for a in args)
        elif isinstance(args, Mapping):
            record.args = {k: _redacted(v) for k, v in args.items()}
        color = getattr(record, "color_message", None)  # uvicorn's coloured copy of the message
        if isinstance(color, str):
            record.color_message = redact(color)
        return True


_FILTER = TicketFilter()


def _add(target: logging.Filterer) -> None:
    if not any(isinstance(f, TicketFilter) for f in target.filters):
        target.addFilter(_FILTER)


def guard_logs() -> None:
    """Keep tickets and payloads out of this process's log (idempotent; run each time a server is built)."""
    for name in _PATH_LOGGERS:
        _add(logging.getLogger(name))
    for handler in logging.getLogger().handlers:
        _add(handler)
    if logging.lastResort is not None:
        _add(logging.lastResort)
    for name in PAYLOAD_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:  # a level set explicitly for it is the operator's choice
            logger.setLevel(logging.WARNING)
