"""A bound on a request's head (request line and headers) for both HTTP/1.1 parsers uvicorn runs: over it, 431.

httptools accepts a head of any size (it buffers a 200 kB header whole), and h11 refuses one over its buffer
size with a plain 400. Here a head still incomplete at `MAX_HEAD_BYTES` is answered `431 Request Header Fields
Too Large` and the connection closed, and nothing more of it is parsed: each parser is fed a head only up to
the bound (`HeadBudget`; httptools would buffer it whole, h11 checks its own bound only between reads).
`askback serve` runs uvicorn with these protocols (`askback.cli.stack`): `headlimit_httptools` and
`headlimit_h11`, each a module of its own so that only the parser in use is imported.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

MAX_HEAD_BYTES = 64 * 1024
logger = logging.getLogger("askback.serve")
_BODY = b"Request header fields too large"
_431 = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_BODY), _BODY)
)


class HeadBudget:
    """The bytes of the current request's head fed so far, and the feeding that keeps them within the bound."""

    def __init__(self) -> None:
        self.used = 0

    def feed(self, data: bytes, *, in_head: Callable[[], bool], parse: Callable[[bytes], None],
             closing: Callable[[], bool], refuse: Callable[[], None]) -> None:
        while data and not closing():
            if not in_head():
                # A body: given whole. A next (pipelined) request may begin inside this read: its head counts
                # from the next read, so it may exceed the bound by at most one read.
                parse(data)
                return
            room = MAX_HEAD_BYTES - self.used
            if room <= 0:
                refuse()
                return
            piece, data = data[:room], data[room:]
            self.used += len(piece)
            parse(piece)
            if not in_head():
                self.used = 0  # the head is complete: the next one counts from zero


def refuse(transport: asyncio.Transport, peer: object) -> None:
    """Answer 431 and close; what the head held (an Authorization header, a cookie) is not logged."""
    logger.warning("refused a request from %s with 431: its head is over %d bytes", peer, MAX_HEAD_BYTES)
    transport.write(_431)
    transport.close()
