"""uvicorn's h11 protocol with the head bound of `askback.web.headlimit`.

h11 bounds its buffer itself (`max_incomplete_event_size`, which `askback serve` sets to the same bound), but
checks it only when a read leaves a head incomplete, and uvicorn then answers 400 as for a malformed request.
Here a head is fed up to the bound, as with httptools, and a refusal for the size is a 431.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from askback.web.headlimit import MAX_HEAD_BYTES, HeadBudget, refuse


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, a head over the bound answered 431 rather than 400."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._head = HeadBudget()
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self._head.feed(  # h11 is IDLE until a request's head is complete, and again once its response is
            data, in_head=lambda: self.conn.their_state is h11.IDLE, parse=super().data_received,
            closing=self.transport.is_closing, refuse=lambda: refuse(self.transport, self.client),
        )

    def send_400_response(self, msg: str) -> None:
        # h11 raises "Receive buffer too long" once more than the bound is buffered without a complete head;
        # `trailing_data` is that unparsed buffer.
        if len(self.conn.trailing_data[0]) > MAX_HEAD_BYTES:
            refuse(self.transport, self.client)
            return
        super().send_400_response(msg)
