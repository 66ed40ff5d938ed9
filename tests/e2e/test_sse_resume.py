"""2025-11-25 sessions' SSE streams over real loopback HTTP: each opens with a priming event (an id, empty data,
a `retry`), and a client that drops a stream mid-call resumes it with `GET` and `Last-Event-ID`, receiving the
events it missed and the result (SEP-1699). Two sessions reuse the same request ids; a resumed stream carries
only its own session's events.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx

import askback
from askback.mcp.events import RETRY_MS

VERSION = "2025-11-25"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def slow_app() -> askback.App:
    app = askback.App("slow")

    @app.tool()
    async def count(to: int, ctx: askback.Context) -> str:
        for n in range(1, to + 1):
            await ctx.progress(n, to, f"counted {n}")
            await asyncio.sleep(0.15)
        return f"counted to {to}"

    return app


def _events(lines: Iterator[str]) -> Iterator[dict[str, str]]:
    """SSE events as dicts of their fields (`id`, `retry`, `data`), one per blank-line-terminated block."""
    event: dict[str, str] = {}
    for line in lines:
        if not line:
            if event:
                yield event
            event = {}
            continue
        name, _, value = line.partition(":")
        event[name] = event.get(name, "") + value.removeprefix(" ") if name == "data" else value.removeprefix(" ")


def _open_session(http: httpx.Client, url: str) -> str:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "resume-test", "version": "1"}}}
    response = http.post(url, json=init, headers=HEADERS)
    session = response.headers["mcp-session-id"]
    http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"},
              headers={**HEADERS, "mcp-session-id": session, "mcp-protocol-version": VERSION})
    return session


def _call(to: int) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "count", "arguments": {"to": to}, "_meta": {"progressToken": "p"}}}


def _data(event: dict[str, str]) -> Any:
    return json.loads(event["data"]) if event.get("data") else None


def test_a_dropped_stream_is_resumed_with_what_it_missed_and_only_its_own(serve: Any) -> None:
    url = serve(slow_app())
    with httpx.Client(timeout=15) as http:
        mine, theirs = _open_session(http, url), _open_session(http, url)
        session = {"mcp-protocol-version": VERSION}
        # Both sessions call with request id 2; the other session's call runs to its end alongside.
        with http.stream("POST", url, json=_call(3), headers={**HEADERS, **session, "mcp-session-id": mine}) as r:
            events = _events(r.iter_lines())
            priming = next(events)
            first = next(events)
            # The stream is dropped here, mid-call.
        assert priming.get("data", "") == "" and priming["id"] and priming["retry"] == str(RETRY_MS)
        assert _data(first)["params"]["message"] == "counted 1"
        other = http.post(url, json=_call(5), headers={**HEADERS, **session, "mcp-session-id": theirs})
        other_events = [_data(e) or {} for e in _events(iter(other.text.splitlines()))]
        assert "counted 5" in [e.get("params", {}).get("message") for e in other_events]

        resumed: list[Any] = []
        with http.stream("GET", url, headers={"Accept": "text/event-stream", **session, "mcp-session-id": mine,
                                              "last-event-id": first["id"]}) as r:
            for event in _events(r.iter_lines()):
                message = _data(event)
                if message is None:
                    continue
                resumed.append(message)
                if message.get("id") == 2:
                    break
    texts = [m["params"]["message"] for m in resumed if m.get("method") == "notifications/progress"]
    assert texts == ["counted 2", "counted 3"]  # what it missed, none of the other session's five
    assert resumed[-1]["result"]["content"][0]["text"] == "counted to 3"
