"""A small raw asyncio client for one MCP 2025-11-25 session: initialize once, then back-channel flows.

A flow is what a 2025-11-25 client does for `greet {"name": "Ada"}`: it POSTs `tools/call`, reads the SSE
stream the server answers with until the server's `elicitation/create` request arrives on it, POSTs the
response to that request, and keeps reading the same stream until the call's result. The stream stays open
while the answer is posted, so a session holds two keep-alive connections: one for calls, one for answers.
One session per pair, made once (as a real client keeps its session for all its calls); flows on it are
sequential. Cheap on purpose, as bench/wire.py: the generator shares the cores with the server it measures.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from typing import Any

from bench.wire import WireError

PROTOCOL = "2025-11-25"
_ids = itertools.count(1)
_DUMPS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
INITIALIZE = {"protocolVersion": PROTOCOL, "capabilities": {"elicitation": {"form": {}}},
              "clientInfo": {"name": "askback-bench", "version": "1"}}


def request(method: str, params: dict[str, Any]) -> tuple[int, bytes]:
    ident = next(_ids)
    return ident, _DUMPS({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}).encode()


def greet_body() -> tuple[int, bytes]:
    return request("tools/call", {"name": "greet", "arguments": {"name": "Ada"}})


def answer_body(ident: Any, content: dict[str, Any]) -> bytes:
    return _DUMPS({"jsonrpc": "2.0", "id": ident, "result": {"action": "accept", "content": content}}).encode()


class Stream:
    """One keep-alive HTTP/1.1 connection; a response is read whole (JSON) or event by event (SSE)."""

    def __init__(self, host: str, port: int, path: str) -> None:
        self.host, self.port, self.path = host, port, path
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self._buffer = b""
        self._chunked = False
        self._done = True

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    async def send(self, body: bytes, session: str | None) -> tuple[int, bytes]:
        """POST `body`; return (status, lower-cased head). The body is then read with `whole` or `event`.

        A kept-alive connection the server closed while it idled (uvicorn's keep-alive timeout is 5 s, which a
        session's answer connection can outlast while a slow server works) is reopened once and the body sent
        again: the server never read it."""
        fresh = self.writer is None
        if fresh:
            await self.open()
        try:
            return await self._send(body, session)
        except ConnectionResetError:
            if fresh:
                raise
            await self.close()
            await self.open()
            return await self._send(body, session)

    async def _send(self, body: bytes, session: str | None) -> tuple[int, bytes]:
        assert self.reader is not None and self.writer is not None
        session_header = f"Mcp-Session-Id: {session}\r\n" if session else ""
        self.writer.write((
            f"POST {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            f"MCP-Protocol-Version: {PROTOCOL}\r\n{session_header}Content-Length: {len(body)}\r\n\r\n"
        ).encode("latin-1") + body)
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            raise ConnectionResetError("connection closed before a response") from exc
        if not head.startswith(b"HTTP/1."):
            raise WireError(f"not an HTTP response: {head[:80]!r}")
        lower = head.lower()
        self._buffer, self._done = b"", False
        self._chunked = b"\r\ntransfer-encoding: chunked" in lower
        at = lower.find(b"\r\ncontent-length:")
        if at >= 0:
            end = lower.index(b"\r\n", at + 2)
            self._buffer = await self.reader.readexactly(int(lower[at + 17 : end]))
            self._done = True
        elif not self._chunked:
            raise WireError(f"neither a length nor chunks: {head[:200]!r}")
        return int(head[9:12]), lower

    async def _more(self) -> bool:
        """Read one more chunk into the buffer; False at the end of the body."""
        if self._done:
            return False
        assert self.reader is not None
        size = int((await self.reader.readuntil(b"\r\n")).strip().split(b";")[0], 16)
        if size == 0:
            await self.reader.readuntil(b"\r\n")
            self._done = True
            return False
        # SSE lines may end in CRLF (the SDK's streams do): kept as LF, an event ends at the first blank line.
        self._buffer += (await self.reader.readexactly(size)).replace(b"\r\n", b"\n")
        await self.reader.readexactly(2)
        return True

    async def whole(self) -> bytes:
        while await self._more():
            pass
        body, self._buffer = self._buffer, b""
        return body

    async def event(self) -> dict[str, Any] | None:
        """The next SSE event's JSON `data` (events without data, such as priming ones, are skipped)."""
        while True:
            end = self._buffer.find(b"\n\n")
            while end < 0:
                if not await self._more():
                    return None
                end = self._buffer.find(b"\n\n")
            raw, self._buffer = self._buffer[:end], self._buffer[end + 2 :]
            data = b"\n".join(line[5:].lstrip() for line in raw.split(b"\n")
                              if line.startswith(b"data:"))
            if data:
                message = json.loads(data)
                if not isinstance(message, dict):
                    raise WireError(f"an SSE event that is not a JSON-RPC object: {data[:200]!r}")
                return message


class Session:
    """One initialized 2025-11-25 session over two connections (calls, and answers to the server's requests)."""

    def __init__(self, host: str, port: int, path: str = "/mcp") -> None:
        self.calls = Stream(host, port, path)
        self.answers = Stream(host, port, path)
        self.id: str | None = None

    async def open(self) -> None:
        await asyncio.gather(self.calls.open(), self.answers.open())
        ident, body = request("initialize", INITIALIZE)
        status, head = await self.calls.send(body, None)
        reply = await self._reply(ident, head)
        if status != 200 or "result" not in reply:
            raise WireError(f"initialize: HTTP {status}: {json.dumps(reply)[:300]}")
        at = head.index(b"\r\nmcp-session-id:") + 17
        self.id = head[at : head.index(b"\r\n", at)].strip().decode()
        note = _DUMPS({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode()
        status, _ = await self.calls.send(note, self.id)
        await self.calls.whole()
        if status != 202:
            raise WireError(f"notifications/initialized: HTTP {status}")

    async def close(self) -> None:
        await asyncio.gather(self.calls.close(), self.answers.close())
        self.id = None

    async def _reply(self, ident: int, head: bytes) -> dict[str, Any]:
        if b"text/event-stream" not in head:
            data = json.loads(await self.calls.whole())
            if not isinstance(data, dict):
                raise WireError("a response that is not a JSON-RPC object")
            return data
        while (message := await self.calls.event()) is not None:
            if message.get("id") == ident and "method" not in message:
                await self.calls.whole()
                return message
        raise WireError(f"the stream ended without the response to {ident}")

    async def call(self, body: bytes, ident: int, answer: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """POST a call; answer each `elicitation/create` on its stream with `answer`; return (its response, asks)."""
        if self.id is None:
            await self.open()
        status, head = await self.calls.send(body, self.id)
        if status != 200:
            raise WireError(f"HTTP {status}: {(await self.calls.whole())[:300]!r}")
        if b"text/event-stream" not in head:
            return await self._reply(ident, head), 0
        asked = 0
        while (message := await self.calls.event()) is not None:
            if message.get("method") == "elicitation/create":
                asked += 1
                posted, _ = await self.answers.send(answer_body(message["id"], answer), self.id)
                await self.answers.whole()
                if posted != 202:
                    raise WireError(f"the answer was refused: HTTP {posted}")
            elif message.get("id") == ident and "method" not in message:
                await self.calls.whole()
                return message, asked
        raise WireError(f"the stream ended without the response to {ident}")
