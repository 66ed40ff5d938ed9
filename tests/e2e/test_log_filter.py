"""`askback.web.logs` on its own: what the ticket filter rewrites, and which levels `guard_logs` leaves alone."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from askback.web.logs import PAYLOAD_LOGGERS, TicketFilter, guard_logs, redact

TICKET = "q5nU12yJbg77V1qIW8GZjucO1663W77H"


def record(msg: str, args: object) -> logging.LogRecord:
    return logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, msg, args, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("msg", "args"), [
    ('%s - "%s %s HTTP/%s" %d', ("127.0.0.1:1", "GET", f"/askback/p/{TICKET}", "1.1", 200)),
    ('%s - "%s %s HTTP/%s" %d', ("127.0.0.1:1", "GET", f"/askback/p/{TICKET}/?x=1", "1.1", 200)),
    ("ASGI [%d] Started scope=%s", (3, {"path": f"/askback/p/{TICKET}", "raw_path": f"/askback/p/{TICKET}".encode()})),
    ("page %(url)s opened", ({"url": f"http://127.0.0.1:8000/askback/p/{TICKET}"},)),
    (f"open http://127.0.0.1:8000/askback/p/{TICKET} to enter the key", None),
], ids=["access line", "with slash and query", "trace scope", "mapping args", "in the message"])
def test_the_filter_leaves_no_ticket_and_keeps_the_line(msg: str, args: object) -> None:
    rec = record(msg, args)
    assert TicketFilter().filter(rec) is True
    text = rec.getMessage()
    assert TICKET not in text and "/askback/p/<ticket>" in text, text


def test_uvicorn_access_arguments_stay_a_five_tuple() -> None:
    rec = record('%s - "%s %s HTTP/%s" %d', ("127.0.0.1:1", "GET", f"/askback/p/{TICKET}", "1.1", 200))
    rec.color_message = f"GET /askback/p/{TICKET}"
    TicketFilter().filter(rec)
    assert isinstance(rec.args, tuple) and len(rec.args) == 5 and rec.args[4] == 200  # its formatter unpacks them
    assert TICKET not in rec.color_message


def test_text_without_a_page_is_untouched() -> None:
    for text in ("/askback/", "GET /mcp HTTP/1.1", "/askback/pay/123"):
        assert redact(text) == text


@pytest.fixture
def restored_levels() -> Iterator[None]:
    saved = {name: logging.getLogger(name).level for name in PAYLOAD_LOGGERS}
    yield
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


def test_payload_loggers_are_kept_at_warning_unless_set_explicitly(restored_levels: None) -> None:
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET)
    logging.getLogger("sqlalchemy").setLevel(logging.INFO)  # the operator's explicit choice
    logging.getLogger().setLevel(logging.DEBUG)
    try:
        guard_logs()
        assert not logging.getLogger("a2a.server.routes.jsonrpc_dispatcher").isEnabledFor(logging.INFO)
        assert not logging.getLogger("aiosqlite").isEnabledFor(logging.DEBUG)
        assert logging.getLogger("sqlalchemy.engine").isEnabledFor(logging.INFO)
        assert logging.getLogger("askback.serve").isEnabledFor(logging.DEBUG)  # askback's own stay verbose
    finally:
        logging.getLogger().setLevel(logging.WARNING)
