"""Flows over real loopback HTTP with the OpenTelemetry SDK's in-memory exporter and reader; print what they recorded.

Run in its own process (`python -m tests.telemetry.inmemory_probe`): a tracer and a meter provider are set once
per process and cannot be unset, so the tests that read this output keep the test process's providers clean.
The same flows go to one app served twice, with the fast route on and off (every request on the SDK's path), so
the test can compare the spans of both entries.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Annotated, Any

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import askback
from askback.mcp.http import http_app
from tests.a2a.support import Agent, state
from tests.conftest import LoopbackServer
from tests.support.rawclient import RawClient, accept

KEYS = "fCfM8QZeuyWJ3fCWOyk9fDv1vihu_gsBvHsQj0qHUVY"
TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


def make_app() -> askback.App:
    app = askback.App("observed", keys=KEYS, store="memory://")

    @app.tool(once=True)
    def plan(first: Annotated[str, askback.Ask("First step?")],
             second: Annotated[str, askback.Ask("Second step, after {first}?")],
             ok: Annotated[bool, askback.Confirm("Run {first}, then {second}?")]) -> str:
        """Plan two steps and run them, once."""
        return f"planned {first} then {second}"

    @app.tool(task="optional")
    async def tidy(folder: Annotated[str, askback.Ask("Which folder?")]) -> str:
        """Tidies a folder as a task, once its folder is known."""
        return f"tidied {folder}"

    @app.tool()
    def broken(reason: str) -> str:
        """Always fails."""
        raise RuntimeError(reason)

    return app


def span_record(span: ReadableSpan) -> dict[str, Any]:
    ctx = span.get_span_context()
    parent = span.parent
    return {
        "name": span.name, "kind": span.kind.name, "trace": f"{ctx.trace_id:032x}", "span": f"{ctx.span_id:016x}",
        "parent": None if parent is None else f"{parent.span_id:016x}",
        "attributes": {k: list(v) if isinstance(v, tuple) else v for k, v in (span.attributes or {}).items()},
        "links": [{"trace": f"{link.context.trace_id:032x}", "span": f"{link.context.span_id:016x}",
                   "attributes": dict(link.attributes or {})} for link in span.links],
        "status": span.status.status_code.name, "events": [e.name for e in span.events],
    }


def flows(url: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with RawClient(url) as client:
        first = client.call("plan", {})["result"]
        second = client.call("plan", {}, responses={"first": accept(first="cut")},
                             state=first["requestState"])["result"]
        third = client.call("plan", {}, responses={"second": accept(second="paste")},
                            state=second["requestState"])["result"]
        done = client.call("plan", {}, responses={"ok": accept(ok=True)}, state=third["requestState"])["result"]
        out["plan"] = [first["resultType"], second["resultType"], third["resultType"], done["resultType"]]
        asked = client.call("plan", {})["result"]
        declined = client.call("plan", {}, responses={"first": {"action": "decline"}},
                               state=asked["requestState"])["result"]
        out["declined"] = declined.get("isError")
        out["broken"] = client.call("broken", {"reason": "boom"})["result"].get("isError")
        tampered = client.call("plan", {}, responses={"first": accept(first="x")}, state=asked["requestState"] + "A")
        out["tampered"] = tampered["error"]["code"]
        tasks = {"elicitation": {"form": {}}, "extensions": {"io.modelcontextprotocol/tasks": {}}}
        asked = client.call("tidy", {}, capabilities=tasks)["result"]
        created = client.call("tidy", {}, responses={"folder": accept(folder="/tmp/x")}, state=asked["requestState"],
                              capabilities=tasks)["result"]
        deadline = time.monotonic() + 20
        status = ""
        while status != "completed" and time.monotonic() < deadline:
            time.sleep(0.05)
            polled = client.http.post(client.url, json={
                "jsonrpc": "2.0", "id": 900, "method": "tasks/get", "params": {"taskId": created["taskId"], "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "1"},
                    "io.modelcontextprotocol/clientCapabilities": tasks}}},
                headers={"MCP-Protocol-Version": "2026-07-28", "Accept": "application/json, text/event-stream",
                         "Mcp-Method": "tasks/get", "Mcp-Name": created["taskId"]}).json()
            status = polled["result"]["status"]
        out["task"] = [asked["resultType"], created["resultType"], status]
        out["traced"] = client.send("tools/call", {"name": "plan", "arguments": {},
                                                   "_meta": {"traceparent": TRACEPARENT}})["result"]["resultType"]
    return out


async def a2a_flow(base: str) -> list[str]:
    """The same three questions over A2A: one task, four messages."""
    async with Agent(base) as agent:
        task = await agent.call("plan")
        states = [state(task)]
        for answer in ({"first": "cut"}, {"second": "paste"}, {"ok": True}):
            task = await agent.answer(task, answer)
            states.append(state(task))
    return states


def main() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    reader = InMemoryMetricReader()
    metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
    results: dict[str, Any] = {}
    spans: dict[str, list[dict[str, Any]]] = {}
    for entry, fast in (("fast", True), ("sdk", False)):
        with LoopbackServer(http_app(make_app(), fast_route=fast)) as server:
            results[entry] = flows(server.url)
        spans[entry] = [span_record(s) for s in exporter.get_finished_spans()]
        exporter.clear()
    with LoopbackServer(http_app(make_app())) as server:
        results["a2a"] = asyncio.run(a2a_flow(server.url.removesuffix("/mcp")))
    spans["a2a"] = [span_record(s) for s in exporter.get_finished_spans() if "askback.round" in (s.attributes or {})]
    exporter.clear()
    data = reader.get_metrics_data()
    points: dict[str, list[dict[str, Any]]] = {}
    for resource in data.resource_metrics if data else ():
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                for point in metric.data.data_points:
                    value = getattr(point, "value", None)
                    points.setdefault(metric.name, []).append({
                        "attributes": dict(point.attributes or {}), "value": value,
                        "count": getattr(point, "count", None), "sum": getattr(point, "sum", None)})
    print(json.dumps({"results": results, "spans": spans, "metrics": points}))


if __name__ == "__main__":
    main()
