"""The one reader of an MCP request body, shared by the fast route and the SDK path.

A body is read from the connection once: whoever reads it first (the fast route, or the SDK path for a request
the fast route left alone) keeps what it received in a `Body`, and whatever runs next replays that instead of
reading again. The check is askback's own, for both protocol eras: JSON exchanged between systems is UTF-8
(RFC 8259 §8.1), while the SDK's 2026-07-28 path parses with `json.loads(bytes)`, which detects UTF-16 and
UTF-32 (with or without a BOM) and decodes lone surrogates, so such a body would be parsed and run. A NUL byte
can never be in a UTF-8 JSON text (control characters in strings are escaped), and it is what UTF-16 and UTF-32
without a BOM look like. A UTF-8 BOM is dropped: RFC 8259 says a sender must not add one and a parser may
ignore it, which the SDK's modern path does already, so both eras agree.

A body over the SDK's own size limit (`DEFAULT_MAX_REQUEST_BODY_SIZE`, which its session managers enforce) is
not held here beyond that limit: it is passed on as received, and the SDK's limit refuses it.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from enum import Enum

from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope

from askback.core.errors import PARSE_ERROR

MAX_BODY = DEFAULT_MAX_REQUEST_BODY_SIZE
_BOM = b"\xef\xbb\xbf"

# The answer to a body that is not UTF-8 (or holds a NUL byte), as the SDK answers malformed JSON.
NOT_UTF8 = JSONResponse(
    {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": PARSE_ERROR, "message": "Parse error: the body is not UTF-8; JSON-RPC here is UTF-8 only"},
    },
    status_code=400,
)


class Verdict(Enum):
    COMPLETE = "complete"  # all of it, under the limit, UTF-8 without NUL: `data` holds it (BOM dropped)
    NOT_UTF8 = "not UTF-8"  # refuse with NOT_UTF8
    PASSED_ON = "passed on"  # over the limit, or the client went away: the SDK sees it as it is


@dataclass(frozen=True, slots=True)
class Body:
    """What was received of one request body, and what the check found."""

    verdict: Verdict
    messages: tuple[Message, ...]  # the ASGI messages received, replayed to whoever reads next
    data: bytes = b""

    def replay(self, receive: Receive) -> Receive:
        """A `receive` that gives the messages already received, then reads on from the connection."""
        pending = iter(self.messages)

        async def replayed() -> Message:
            return next(pending, None) or await receive()

        return replayed


async def read_body(scope: Scope, receive: Receive) -> Body:
    """Read and check the request body once (see the module's docstring)."""
    declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        return Body(Verdict.PASSED_ON, ())
    first = await receive()
    if first["type"] == "http.request" and not first.get("more_body", False):
        return _whole(first)  # the usual body: one message
    return await _chunked(first, receive)


def _whole(message: Message) -> Body:
    chunk: bytes = message.get("body", b"")
    if chunk.startswith(_BOM):
        chunk = message["body"] = chunk[len(_BOM) :]
    if len(chunk) > MAX_BODY:
        return Body(Verdict.PASSED_ON, (message,))
    try:
        chunk.decode("utf-8")
    except UnicodeDecodeError:
        return Body(Verdict.NOT_UTF8, (message,))
    if b"\x00" in chunk:
        return Body(Verdict.NOT_UTF8, (message,))
    return Body(Verdict.COMPLETE, (message,), chunk)


async def _chunked(message: Message, receive: Receive) -> Body:
    decoder = codecs.getincrementaldecoder("utf-8")()
    messages: list[Message] = []
    chunks: list[bytes] = []
    size = 0
    while True:
        messages.append(message)
        if message["type"] != "http.request":
            return Body(Verdict.PASSED_ON, tuple(messages))  # a disconnect: the SDK sees it in turn
        chunk: bytes = message.get("body", b"")
        more = bool(message.get("more_body", False))
        if size == 0 and chunk.startswith(_BOM):
            chunk = chunk[len(_BOM) :]
            message["body"] = chunk
        size += len(chunk)
        try:
            decoder.decode(chunk, final=not more)
        except UnicodeDecodeError:
            return Body(Verdict.NOT_UTF8, tuple(messages))
        if b"\x00" in chunk:
            return Body(Verdict.NOT_UTF8, tuple(messages))
        if size > MAX_BODY:
            return Body(Verdict.PASSED_ON, tuple(messages))
        chunks.append(chunk)
        if not more:
            return Body(Verdict.COMPLETE, tuple(messages), b"".join(chunks))
        message = await receive()
