"""A loopback TCP relay in front of a real Redis that can answer one command itself, out of turn.

What a connection torn down mid-reply can hand redis-py: a reply that belongs to another command (`+OK` where a
script's list was due). `stray_after(k)` relays the next k command chunks, then answers one with `+OK` instead of
relaying it; with `relay_to=None` it answers everything so (a server that is not Redis at all).
"""

from __future__ import annotations

import socket
import threading


class StrayReply:
    def __init__(self, relay_to: int | None) -> None:
        self.relay_to = relay_to
        self._relay_first: int | None = None  # chunks still relayed before the stray answer; None: no stray
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._open: list[socket.socket] = []
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.relay_to)) if self.relay_to else None
            self._open += [client] + ([upstream] if upstream else [])
            threading.Thread(target=self._serve, args=(client, upstream), daemon=True).start()
            if upstream is not None:
                threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()

    def _serve(self, client: socket.socket, upstream: socket.socket | None) -> None:
        while True:
            try:
                chunk = client.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            if upstream is None or self._relay_first == 0:
                self._relay_first = None
                client.sendall(b"+OK\r\n" * max(1, chunk.count(b"\r\n*") + 1))
            else:
                if self._relay_first is not None:
                    self._relay_first -= 1
                upstream.sendall(chunk)

    def stray_after(self, relayed: int) -> None:
        self._relay_first = relayed

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        while True:
            try:
                chunk = source.recv(65536)
                if not chunk:
                    return
                sink.sendall(chunk)
            except OSError:
                return

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        for s in self._open:
            s.close()
