"""Flows with no tracer or meter provider, then with both set while the servers run; print what each did.

Run in its own process (`python -m tests.telemetry.off_probe`): providers are set once per process and cannot
be unset, so the test that reads this output keeps the test process's providers clean.

Off, a profile hook on the servers' threads counts every call into the OpenTelemetry packages while the flows
run (a two-round flow, a declined one, a tampered state, on the fast route and on the SDK's path): off costs
nothing only if that count is nil. Then an SDK tracer and meter provider are set, as a lifespan hook or
`opentelemetry-instrument` would, after the apps were built and served: the next flow must be traced and
counted in full, askback's attributes included.
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import opentelemetry
from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import askback
from askback.mcp.http import http_app
from tests.conftest import LoopbackServer
from tests.support.rawclient import RawClient, accept

KEYS = "fCfM8QZeuyWJ3fCWOyk9fDv1vihu_gsBvHsQj0qHUVY"
# Every OpenTelemetry distribution package installs under the one `opentelemetry` namespace package.
OTEL_DIRS = tuple(str(Path(p).resolve()) for p in opentelemetry.__path__)


class Calls:
    """Calls into OpenTelemetry's code made on the servers' threads while `counting` is set, by function."""

    def __init__(self) -> None:
        self.counting = False
        self.seen: dict[str, int] = {}

    def hook(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and self.counting:
            code = frame.f_code
            if code.co_filename.startswith(OTEL_DIRS):
                where = f"{Path(code.co_filename).name}:{code.co_name}"
                self.seen[where] = self.seen.get(where, 0) + 1


def make_app() -> askback.App:
    app = askback.App("off", keys=KEYS, store="memory://")

    @app.tool()
    def greet(name: str, city: Annotated[str, askback.Ask("Which city?")]) -> str:
        """Greet someone from a city."""
        return f"Hello {name} from {city}"

    return app


def flows(url: str) -> dict[str, Any]:
    with RawClient(url) as client:
        asked = client.call("greet", {"name": "Ada"})["result"]
        done = client.call("greet", {"name": "Ada"}, responses={"city": accept(city="Paris")},
                           state=asked["requestState"])["result"]
        again = client.call("greet", {"name": "Ada"})["result"]
        declined = client.call("greet", {"name": "Ada"}, responses={"city": {"action": "decline"}},
                               state=again["requestState"])["result"]
        tampered = client.call("greet", {"name": "Ada"}, responses={"city": accept(city="Rome")},
                               state=again["requestState"] + "A")
    return {"asked": asked["resultType"], "done": done["content"][0]["text"], "declined": declined.get("isError"),
            "tampered": tampered["error"]["code"]}


def main() -> None:
    calls = Calls()
    threading.setprofile(calls.hook)  # the servers' threads, started below, run with it
    servers = {entry: LoopbackServer(http_app(make_app(), fast_route=entry == "fast")) for entry in ("fast", "sdk")}
    out: dict[str, Any] = {}
    try:
        for server in servers.values():
            server.__enter__()
        for entry, server in servers.items():
            flows(server.url)  # warm: first requests build what later ones reuse
        calls.counting = True
        out["off"] = {entry: flows(server.url) for entry, server in servers.items()}
        calls.counting = False
        out["off_calls"] = calls.seen
        exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        trace.set_tracer_provider(provider)
        reader = InMemoryMetricReader()
        metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
        out["on"] = {entry: flows(server.url) for entry, server in servers.items()}
    finally:
        threading.setprofile(None)  # type: ignore[arg-type]
        for server in servers.values():
            server.__exit__(None, None, None)
    out["spans"] = [{"name": s.name, "attributes": {k: list(v) if isinstance(v, tuple) else v
                                                    for k, v in (s.attributes or {}).items()}}
                    for s in exporter.get_finished_spans()]
    data = reader.get_metrics_data()
    found = [m for r in (data.resource_metrics if data else ()) for s in r.scope_metrics for m in s.metrics]
    out["metrics"] = sorted({m.name for m in found})
    out["flows"] = {str(p.attributes.get("askback.outcome")): getattr(p, "value", None)
                    for m in found if m.name == "askback.flows" for p in m.data.data_points if p.attributes}
    print(json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
