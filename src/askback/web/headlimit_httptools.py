"""uvicorn's httptools protocol with the head bound of `askback.web.headlimit`: httptools buffers a header of
any length, so it is fed a head only up to the bound."""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from askback.web.headlimit import HeadBudget, refuse


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, its heads bounded: httptools itself buffers a header of any length."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._head = HeadBudget()
        self._head_open = True  # until the parser reports the headers complete; again once the message is
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self._head.feed(
            data, in_head=lambda: self._head_open, parse=super().data_received,
            closing=self.transport.is_closing, refuse=lambda: refuse(self.transport, self.client),
        )

    def on_headers_complete(self) -> None:
        self._head_open = False
        self._head.used = 0  # the next head counts from here (a pipelined one in this same read: from the next)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._head_open = True
        super().on_message_complete()
