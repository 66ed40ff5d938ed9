"""What telemetry costs a two-round flow, in instructions counted by valgrind: off, on, and before it existed.

    python -m bench.telemetry_cost [--flows 100,300] [--baseline REF]

Three rows, each `bench/instructions.py`'s count per flow (callgrind inside the server's event loop, two runs
of different N, the difference divided by the flows between them):

- baseline: askback as it was at REF (default: the last commit of `main` this branch shares), before flows told
  OpenTelemetry anything; extracted with `git archive` into a temporary directory and put first on the path;
- off: askback now, with the OpenTelemetry SDK installed and no `OTEL_*` variable (the default);
- on: askback now, with `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a receiver in this process that drops what it
  gets (traces and metrics, batch exported: the exporters' threads run outside the event loop and are not
  counted, so the row is the cost on the request's path: spans, attributes, links, metric records).

Prints the table and the ratios to the baseline; with `--write-doc` (as `make bench` runs it) also writes it into
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.instructions import count  # noqa: E402
from bench.run import write_doc  # noqa: E402

BEGIN, END = "<!-- bench:telemetry:begin -->", "<!-- bench:telemetry:end -->"


class _Sink(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", "0")))
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return None


def _baseline_tree(ref: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def per_flow(flows: tuple[int, int], concurrency: int, env: dict[str, str]) -> float:
    (low, _), (high, _) = (count("askback", n, concurrency, env_extra=env) for n in flows)
    return (high - low) / (flows[1] - flows[0])


def _row(rows: list[tuple[str, float]], name: str, value: float) -> None:
    rows.append((name, value))
    print(f"{name}: {value / 1e6:.3f} M instructions per flow", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flows", default="100,300", help="the two flow counts, N1,N2")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--baseline", default="", help="the git ref askback is compared with (default: merge base)")
    parser.add_argument("--write-doc", action="store_true", help="also write the table into docs/benchmarks.md")
    args = parser.parse_args()
    flows = tuple(int(n) for n in args.flows.split(","))
    assert len(flows) == 2 and flows[0] < flows[1]
    ref = args.baseline or subprocess.run(["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], check=True,
                                          capture_output=True, text=True).stdout.strip()
    sink = ThreadingHTTPServer(("127.0.0.1", 0), _Sink)
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    no_otel = {"OTEL_TRACES_EXPORTER": "", "OTEL_METRICS_EXPORTER": "", "OTEL_EXPORTER_OTLP_ENDPOINT": ""}
    rows: list[tuple[str, float]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            old = _baseline_tree(ref, Path(tmp))
            _row(rows, f"baseline (askback at {ref[:10]})",
                 per_flow(flows, args.concurrency, {**no_otel, "PYTHONPATH": str(old)}))
        _row(rows, "off (SDK installed, no OTEL_* variable)",
             per_flow(flows, args.concurrency, {**no_otel, "PYTHONPATH": str(ROOT / "src")}))
        _row(rows, "on (OTLP/HTTP traces and metrics)", per_flow(flows, args.concurrency, {
            "PYTHONPATH": str(ROOT / "src"), "OTEL_SERVICE_NAME": "bench",
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{sink.server_address[1]}"}))
    finally:
        sink.shutdown()
    base = rows[0][1]
    lines = [f"Flows {flows[0]} and {flows[1]}, concurrency {args.concurrency} (`python -m bench.telemetry_cost`).", "",
             "| askback, two-round flow | M instructions per flow | / baseline |", "|---|---|---|"]
    lines += [f"| {name} | {value / 1e6:.3f} | {value / base:.3f} |" for name, value in rows]
    text = "\n".join(lines)
    print(text)
    if args.write_doc:
        write_doc(text, begin=BEGIN, end=END)


if __name__ == "__main__":
    main()
