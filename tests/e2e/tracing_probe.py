"""Serve an askback app on loopback, send requests before and after a tracer provider is set; print what ran.

Run in its own process (`python -m tests.e2e.tracing_probe`): OpenTelemetry's tracer provider is set once per
process and cannot be unset, so the test that reads this output keeps the test process's own provider clean.

Two of OpenTelemetry's own extension points observe the SDK's span middleware: a tracer provider that records
the spans it is asked to start, and a propagator that counts how often a request's trace context is read (the
middleware reads it on every request, provider or not).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import httpx
from opentelemetry import propagate, trace
from opentelemetry.context import Context
from opentelemetry.propagators.textmap import CarrierT, Getter, TextMapPropagator, default_getter

import askback
from askback.mcp.tracing import tracer_provider_configured
from tests.conftest import LoopbackServer

HEADERS = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list",
           "Accept": "application/json, text/event-stream"}
BODY = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "tracing", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {}}}}

spans: list[str] = []
extracts: list[int] = []


class CountingPropagator(TextMapPropagator):
    def extract(self, carrier: CarrierT, context: Context | None = None,
                getter: Getter[CarrierT] = default_getter) -> Context:
        extracts.append(1)
        return context or Context()

    def inject(self, carrier: CarrierT, context: Context | None = None, setter: Any = None) -> None:
        return None

    @property
    def fields(self) -> set[str]:
        return set()


class RecordingTracer(trace.NoOpTracer):
    @contextmanager
    def start_as_current_span(self, name: str, *args: Any, **kwargs: Any) -> Iterator[trace.Span]:
        spans.append(name)
        yield trace.INVALID_SPAN


class RecordingProvider(trace.TracerProvider):
    def get_tracer(self, *args: Any, **kwargs: Any) -> trace.Tracer:
        return RecordingTracer()


def round_trip(url: str) -> dict[str, Any]:
    del spans[:], extracts[:]
    with httpx.Client(timeout=30) as http:
        response = http.post(url, json=BODY, headers=HEADERS)
    return {"status": response.status_code, "spans": list(spans), "extracts": len(extracts),
            "configured": tracer_provider_configured()}


def main() -> None:
    propagate.set_global_textmap(CountingPropagator())
    app = askback.App("tracing", keys="fCfM8QZeuyWJ3fCWOyk9fDv1vihu_gsBvHsQj0qHUVY", store="memory://")

    @app.tool()
    def greet(name: str) -> str:
        """Greet someone."""
        return f"Hello {name}"

    out: Mapping[str, Any]
    with LoopbackServer(app) as server:
        before = round_trip(server.url)
        trace.set_tracer_provider(RecordingProvider())  # after the app was built: the next request is traced
        after = round_trip(server.url)
    out = {"before": before, "after": after}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
