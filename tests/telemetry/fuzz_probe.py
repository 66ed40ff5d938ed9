"""10,000 generated flows with canary values through the fast route, in process; print what telemetry recorded.

Run in its own process (`python -m tests.telemetry.fuzz_probe N SEED`): the tracer and meter providers (the SDK's
in-memory exporter and reader) are set once per process. Requests go to the app's ASGI application directly
(`http_app`, its lifespan run by hand), with no sockets and no HTTP client, so 10,000 flows fit in `make test`:
the fast route, the flow, the core, the sealing and the spans all run as they do when served.

Every value a caller sends or a person answers carries a canary (`cnry` and a random tail): arguments, answers,
garbage in place of answers, values a tool returns and raises, tampered states. The output lists every string
that reached a span (name, attributes, events, links; apart, the status texts) or a metric label, with the
states and page tickets that were minted, for the test to check against.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from typing import Annotated, Any

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import askback
from askback.mcp.http import http_app

KEYS = "fCfM8QZeuyWJ3fCWOyk9fDv1vihu_gsBvHsQj0qHUVY"
CAPS = {"elicitation": {"form": {}, "url": {}}}


def make_app() -> askback.App:
    app = askback.App("fuzzed", keys=KEYS, store="memory://", public_url="http://127.0.0.1:9", page_wait=0)

    @app.tool(once=True)
    def plan(first: Annotated[str, askback.Ask("First step?")],
             second: Annotated[int, askback.Ask("How many times {first}?")],
             ok: Annotated[bool, askback.Confirm("Run {first} {second} times?")]) -> str:
        """Plan a step and run it, once."""
        return f"planned {first} x{second}"

    @app.tool()
    def echo(text: str, note: Annotated[str, askback.Ask("A note?")]) -> dict[str, str]:
        """Return what it was given."""
        if text.endswith("!"):
            raise ValueError(f"refusing {text} {note}")
        return {"text": text, "note": note}

    @app.tool()
    def connect(bank: str, api_key: Annotated[askback.Secret, askback.Ask("the API key of {bank}")]) -> str:
        """Takes a key on a page."""
        return f"connected {bank}"

    return app


class Asgi:
    """The app's ASGI application, called directly; its lifespan started and stopped by hand."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.ids = 0

    async def __aenter__(self) -> Asgi:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task = asyncio.ensure_future(self.app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}},
                                                   self.inbox.get, self.outbox.put))
        await self.inbox.put({"type": "lifespan.startup"})
        assert (await self.outbox.get())["type"] == "lifespan.startup.complete"
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.inbox.put({"type": "lifespan.shutdown"})
        await self.outbox.get()
        await self.task

    async def call(self, name: str, params: dict[str, Any]) -> dict[str, Any]:
        self.ids += 1
        params = {**params, "name": name, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": CAPS}}
        body = json.dumps({"jsonrpc": "2.0", "id": self.ids, "method": "tools/call", "params": params}).encode()
        headers = [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json"),
                   (b"accept", b"application/json, text/event-stream"), (b"mcp-protocol-version", b"2026-07-28"),
                   (b"mcp-method", b"tools/call"), (b"mcp-name", name.encode()),
                   (b"content-length", str(len(body)).encode())]
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": "/mcp", "raw_path": b"/mcp", "query_string": b"", "root_path": "",
                 "headers": headers, "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000), "state": {}}
        sent: list[bytes] = []
        chunks = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> dict[str, Any]:
            return chunks.pop() if chunks else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body":
                sent.append(message.get("body", b""))

        await self.app(scope, receive, send)
        answer: dict[str, Any] = json.loads(b"".join(sent))
        return answer


def canary(rng: random.Random) -> str:
    return f"cnry{rng.getrandbits(40):010x}"


def an_answer(rng: random.Random, key: str, good: Any) -> Any:
    roll = rng.random()
    if roll < 0.08:
        return {"action": "decline"}
    if roll < 0.12:
        return {"action": "cancel"}
    if roll < 0.20:
        return {"action": "accept", "content": {key: [canary(rng)], canary(rng): canary(rng)}}  # garbage
    if roll < 0.24:
        return canary(rng)  # not even an answer
    return {"action": "accept", "content": {key: good}}


async def one_flow(asgi: Asgi, rng: random.Random, states: list[str], urls: list[str]) -> str:
    tool = rng.choice(("plan", "plan", "echo", "connect"))
    if tool == "plan":
        arguments: dict[str, Any] = {} if rng.random() < 0.7 else {"first": canary(rng)}
    elif tool == "echo":
        arguments = {"text": canary(rng) + ("!" if rng.random() < 0.2 else "")}
    else:
        arguments = {"bank": canary(rng)}
    if rng.random() < 0.05:
        arguments[canary(rng)] = canary(rng)  # an argument the tool does not have
    state: str | None = None
    responses: dict[str, Any] | None = None
    for _ in range(8):
        params: dict[str, Any] = {"arguments": arguments}
        if state is not None:
            params["requestState"] = state
        if responses is not None:
            params["inputResponses"] = responses
        answer = await asgi.call(tool, params)
        result = answer.get("result")
        if result is None or result.get("resultType") != "input_required":
            return "ended"
        state = result.get("requestState")
        if state is not None:
            states.append(state)
            if rng.random() < 0.03:
                state = state[:-2] + canary(rng)[:2]  # tampered
        responses = {}
        for key, request in result["inputRequests"].items():
            if request["params"].get("mode") == "url":
                urls.append(request["params"]["url"])
                responses[key] = {"action": "accept"} if rng.random() < 0.7 else {"action": "decline"}
                continue
            good: Any = rng.randrange(1, 99) if key == "second" else (
                rng.random() < 0.8 if key == "ok" else canary(rng))
            responses[key] = an_answer(rng, key, good)
        if rng.random() < 0.03:
            responses[canary(rng)] = {"action": "accept", "content": {canary(rng): canary(rng)}}  # never asked
    return "abandoned"


def strings_of(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings_of(v)]
    return [str(value)]


async def main(flows: int, seed: int) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    reader = InMemoryMetricReader()
    metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
    rng = random.Random(seed)
    states: list[str] = []
    urls: list[str] = []
    seen: set[str] = set()
    statuses: set[str] = set()  # the JSON-RPC error message the client was sent, as the SDK's span keeps it
    spans = 0
    outcomes: dict[str, int] = {}
    async with Asgi(http_app(make_app())) as asgi:
        for number in range(flows):
            await one_flow(asgi, rng, states, urls)
            if number % 500 == 499 or number == flows - 1:  # drain the exporter as it fills
                for span in exporter.get_finished_spans():
                    spans += 1
                    seen.add(span.name)
                    statuses.add(span.status.description or "")
                    for key, value in (span.attributes or {}).items():
                        seen.add(key)
                        seen.update(strings_of(value))
                        if key == "askback.outcome":
                            outcomes[str(value)] = outcomes.get(str(value), 0) + 1
                    for event in span.events:
                        seen.add(event.name)
                        for key, value in (event.attributes or {}).items():
                            seen.update((key, *strings_of(value)))
                    for link in span.links:
                        for key, value in (link.attributes or {}).items():
                            seen.update((key, *strings_of(value)))
                exporter.clear()
    labels: set[str] = set()
    data = reader.get_metrics_data()
    for resource in data.resource_metrics if data else ():
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                labels.add(metric.name)
                for point in metric.data.data_points:
                    for key, value in (point.attributes or {}).items():
                        labels.update((key, *strings_of(value)))
    print(json.dumps({"flows": flows, "spans": spans, "requests": asgi.ids, "outcomes": outcomes,
                      "seen": sorted(seen), "statuses": sorted(statuses), "labels": sorted(labels),
                      "states": states, "urls": urls}))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
