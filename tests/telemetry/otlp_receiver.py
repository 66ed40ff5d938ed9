"""A small OTLP/HTTP receiver for tests: it decodes what exporters POST to /v1/traces and /v1/metrics."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

KINDS = {0: "UNSPECIFIED", 1: "INTERNAL", 2: "SERVER", 3: "CLIENT", 4: "PRODUCER", 5: "CONSUMER"}


def plain(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [plain(v) for v in value.array_value.values]
    return getattr(value, kind) if kind else None


class Receiver:
    """Listens on 127.0.0.1 (a free port); `spans` and `metrics` are what arrived, decoded."""

    def __init__(self) -> None:
        self.spans: list[dict[str, Any]] = []
        self.metrics: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                if self.path == "/v1/traces":
                    receiver.traces_arrived(body)
                elif self.path == "/v1/metrics":
                    receiver.metrics_arrived(body)
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def traces_arrived(self, body: bytes) -> None:
        request = ExportTraceServiceRequest.FromString(body)
        with self.lock:
            for resource in request.resource_spans:
                service = {a.key: plain(a.value) for a in resource.resource.attributes}.get("service.name")
                for scope in resource.scope_spans:
                    for span in scope.spans:
                        self.spans.append({
                            "service": service, "scope": scope.scope.name, "name": span.name,
                            "kind": KINDS.get(span.kind, str(span.kind)), "trace": span.trace_id.hex(),
                            "span": span.span_id.hex(), "parent": span.parent_span_id.hex() or None,
                            "start": span.start_time_unix_nano,
                            "attributes": {a.key: plain(a.value) for a in span.attributes},
                            "links": [{"trace": link.trace_id.hex(), "span": link.span_id.hex(),
                                       "attributes": {a.key: plain(a.value) for a in link.attributes}}
                                      for link in span.links],
                            "events": [e.name for e in span.events], "status": span.status.code,
                        })

    def metrics_arrived(self, body: bytes) -> None:
        request = ExportMetricsServiceRequest.FromString(body)
        with self.lock:
            for resource in request.resource_metrics:
                for scope in resource.scope_metrics:
                    for metric in scope.metrics:
                        kind = metric.WhichOneof("data")
                        for point in getattr(metric, kind).data_points:
                            self.metrics.append({
                                "name": metric.name, "kind": kind,
                                "attributes": {a.key: plain(a.value) for a in point.attributes},
                                "value": getattr(point, "as_int", None) or getattr(point, "as_double", None),
                                "count": getattr(point, "count", None), "sum": getattr(point, "sum", None)})
