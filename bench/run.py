"""The benchmark: askback against the official SDK's MCPServer, FastMCP 4, and three floors, on one machine.

    python bench/run.py            # full: 5 runs, writes the table into docs/benchmarks.md
    python bench/run.py --quick    # under two minutes: 2 short runs, prints the table, doc untouched

Each run starts every server in turn (bench/servers.py: uvicorn, one worker, loopback, JSON responses, log level
warning, every one on the same HTTP parser and event loop: httptools + uvloop when installed) and drives it from a
separate load-generator process (bench/load.py) at K = 1 and K = 16 concurrent flows. The headline is the server's
own CPU time per 1000 flows, read from /proc/PID/stat: on two cores the load generator saturates before a fast
server does, so flows/s mostly measures the load generator. Ratios are computed within each run, then the median
across runs is reported. The last line printed is

    vs_mcpserver=<MCPServer CPU per flow / askback CPU per flow>
        vs_floor=<same-work floor CPU per flow / askback CPU per flow>
        vs_mcpserver_2025=<the same as vs_mcpserver, both serving the 2025-11-25 session flow>

(on one line)

both at K = 16; higher is better for askback. Beside the servers, each run measures the knobs on askback
itself (h11 + asyncio instead of the default stack; the SDK's span middleware forced on) and, once, `askback
serve --workers 2` against one worker at K = 32. `askback-2025` and `mcpserver-2025` are askback and MCPServer
driven by a 2025-11-25 client (bench/load.py `--era 2025-11-25`: a session, the question on the back-channel).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: python bench/run.py
    sys.path.insert(0, str(ROOT))

from bench.wire import Connection, accept, call_body, single_request  # noqa: E402

DOC = ROOT / "docs" / "benchmarks.md"
LOGS = Path(tempfile.gettempdir()) / "askback-bench"  # each server's output, for when one fails to start


def server_env() -> dict[str, str]:
    """The environment a measured server starts in: imports read from bytecode, as an installed package's do.

    With PYTHONDONTWRITEBYTECODE set and no `__pycache__` beside a checkout's sources, every start compiles
    askback's modules from source (the SDK's, installed, have their bytecode): the compiler's transient memory
    stays in the process's RSS (~2 MiB once the answer guard is compiled, on the first answer), a cost no
    deployed server pays. `compile_checkout` writes the bytecode (to `__pycache__`, which git ignores) first.
    """
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def compile_checkout(python: str = sys.executable) -> None:
    """Bytecode for askback's and the benchmark's modules, before any measured server starts."""
    subprocess.run([python, "-m", "compileall", "-q", str(ROOT / "src"), str(ROOT / "bench")], cwd=ROOT,
                   env=server_env(), check=True, stdout=subprocess.DEVNULL)
BEGIN, END = "<!-- bench:results:begin -->", "<!-- bench:results:end -->"
FASTMCP_VENV = ROOT / "bench" / ".venv-fastmcp"
FASTMCP_PIN = ["fastmcp==4.2.3", "mcp==2.3.0", "httptools==0.9.0", "uvloop==0.23.0"]
SERVERS = ("askback", "mcpserver", "fastmcp", "floor", "lowlevel", "asgi", "askback-h11", "askback-otel",
           "askback-2025", "mcpserver-2025")
LEGACY = "2025-11-25"
# A variant is askback served another way, measured in the same run as the default: (server kind, its flags).
VARIANTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "askback-h11": ("askback", ("--http", "h11", "--loop", "asyncio")),
    "askback-otel": ("askback", ("--trace",)),
    "askback-2025": ("askback", ("--era", LEGACY)),
    "mcpserver-2025": ("mcpserver", ("--era", LEGACY)),
}
ERAS = {"askback-2025": LEGACY, "mcpserver-2025": LEGACY}  # the protocol each kind's load speaks, if not 2026-07-28
ROUNDS = {"askback": 2, "mcpserver": 2, "fastmcp": 2, "floor": 2, "lowlevel": 1, "asgi": 1, "askback-h11": 2,
          "askback-otel": 2, "askback-2025": 2, "mcpserver-2025": 2}
LABELS = {
    "askback": "askback",
    "mcpserver": "SDK MCPServer + Resolve/Elicit",
    "fastmcp": "FastMCP 4 guard pattern",
    "floor": "floor: same work by hand (parse, 1 SDK-model validation, AES-GCM seal/open), 2 rounds",
    "lowlevel": "floor: SDK low-level Server, 1 round",
    "asgi": "floor: bare ASGI app, 1 round",
    "askback-h11": "knob: askback on h11 + asyncio",
    "askback-otel": "knob: askback with a tracer provider (the SDK's span middleware on)",
    "askback-2025": "2025-11-25 session: askback (question on the back-channel)",
    "mcpserver-2025": "2025-11-25 session: SDK MCPServer + Resolve/Elicit (question on the back-channel)",
}
CONCURRENCY = (1, 16)
WORKERS_K = 32


@dataclass
class Settings:
    runs: int
    warmup: float
    seconds: float
    min_flows: int
    servers: tuple[str, ...]
    write_doc: bool
    stack: tuple[str, str] = ("auto", "auto")
    workers: bool = True


@dataclass
class Results:
    """Per run: server -> K -> the load generator's JSON; plus in-process figures and wire state sizes."""

    runs: list[dict[str, dict[int, dict[str, Any]]]] = field(default_factory=list)
    micro: list[dict[str, Any]] = field(default_factory=list)
    wire_states: dict[str, dict[str, int]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    workers: list[dict[int, dict[str, Any]]] = field(default_factory=list)  # per run: worker count -> load JSON
    workers_failed: list[str] = field(default_factory=list)  # per run left out of the --workers figure: why
    batches_failed: list[tuple[str, int, int, str]] = field(default_factory=list)  # (server, K, errors, why) left out


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- FastMCP lives in its own venv ------------------------------------------------------------------------
def fastmcp_python(install: bool) -> tuple[str | None, str]:
    """The interpreter of bench/.venv-fastmcp, creating it on first use; (None, why) if it cannot be had."""
    python = FASTMCP_VENV / "bin" / "python"
    probe = [str(python), "-c", "import fastmcp, mcp; print(fastmcp.__version__)"]
    if python.exists():
        done = subprocess.run(probe, capture_output=True, text=True, check=False)
        if done.returncode == 0:
            return str(python), done.stdout.strip()
    if not install:
        return None, f"{FASTMCP_VENV} is missing and --no-install was given"
    log(f"bench: creating {FASTMCP_VENV.relative_to(ROOT)} with {' '.join(FASTMCP_PIN)} (once) ...")
    try:
        subprocess.run([sys.executable, "-m", "venv", str(FASTMCP_VENV)], check=True, capture_output=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *FASTMCP_PIN], check=True,
                       capture_output=True, timeout=600)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        tail = detail.decode(errors="replace")[-400:] if isinstance(detail, bytes) else str(detail)[-400:]
        return None, f"could not install {' '.join(FASTMCP_PIN)}: {exc} {tail}".strip()
    done = subprocess.run(probe, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None, f"installed, but fastmcp does not import: {done.stderr[-400:]}"
    return str(python), done.stdout.strip()


# -- one server ---------------------------------------------------------------------------------------------
def resolved_stack(python: str, stack: tuple[str, str]) -> tuple[str, str]:
    """The explicit (parser, loop) for `stack`, as `python` can run it: every server gets the same pair."""
    http, loop = stack
    probe = "import importlib.util as u; print(bool(u.find_spec('httptools')), bool(u.find_spec('uvloop')))"
    has = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    if http == "auto":
        http = "httptools" if has[0] == "True" else "h11"
    if loop == "auto":
        loop = "uvloop" if has[1] == "True" else "asyncio"
    return http, loop


class Server:
    def __init__(self, kind: str, python: str, stack: tuple[str, str] = ("auto", "auto"),
                 extra: tuple[str, ...] = ()) -> None:
        self.kind = kind
        self.port = free_port()
        LOGS.mkdir(exist_ok=True)
        self.log_path = LOGS / f"{kind}.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        base, flags = VARIANTS.get(kind, (kind, ()))
        command = [python, "-m", "bench.servers", base, "--port", str(self.port), "--http", stack[0],
                   "--loop", stack[1], *flags, *extra]
        if "--http" in flags:  # a variant's own stack wins over the run's
            command = [python, "-m", "bench.servers", base, "--port", str(self.port), *flags, *extra]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=self._log, stderr=subprocess.STDOUT,
                                        env=server_env())

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.kind} exited: {self.log_path.read_text(errors='replace')[-1500:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.kind} did not start within {timeout:.0f} s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


async def wire_state_sizes(port: int) -> dict[str, int]:
    """`signup` over the wire: requestState chars after round 1 (nothing answered) and round 2 (one answered)."""
    conn = Connection("127.0.0.1", port)
    try:
        first = (await conn.rpc(call_body("signup", {}), name="signup"))["result"]
        key, answer_field = single_request(first)
        second = (await conn.rpc(call_body("signup", {}, responses={key: accept(**{answer_field: "alice"})},
                                           state=first.get("requestState")), name="signup"))["result"]
        assert second["resultType"] == "input_required" and "nickname" in json.dumps(second["inputRequests"])
        return {"round_1": len(first.get("requestState") or ""), "one_answered": len(second.get("requestState") or "")}
    finally:
        await conn.close()


def load(server: Server, concurrency: int, settings: Settings, rounds: int | None = None) -> dict[str, Any]:
    command = [sys.executable, "-m", "bench.load", "--port", str(server.port), "--pid", str(server.pid),
               "--rounds", str(rounds or ROUNDS[server.kind]), "--concurrency", str(concurrency),
               "--warmup", str(settings.warmup), "--seconds", str(settings.seconds),
               "--min-flows", str(settings.min_flows)]
    if server.kind in ERAS:
        command += ["--era", ERAS[server.kind]]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"load generator failed against {server.kind}: {done.stderr[-1500:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def micro(quick: bool) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "bench.micro"], cwd=ROOT, capture_output=True, text=True,
                          check=False, timeout=600, env={**os.environ, "ASKBACK_BENCH_QUICK": "1" if quick else ""})
    if done.returncode != 0:
        raise RuntimeError(f"bench.micro failed: {done.stderr[-1500:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


class ServeProcess(Server):
    """`askback serve bench/askback_target.py --workers N`, for the multi-worker measurement."""

    def __init__(self, workers: int, stack: tuple[str, str]) -> None:
        self.kind = f"serve-workers-{workers}"
        self.port = free_port()
        LOGS.mkdir(exist_ok=True)
        self.log_path = LOGS / f"{self.kind}.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        command = [sys.executable, "-m", "askback.cli", "serve", "bench.askback_target:app", "--port",
                   str(self.port), "--workers", str(workers), "--http", stack[0], "--loop", stack[1]]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=self._log, stderr=subprocess.STDOUT,
                                        env=server_env())

    def wait_ready(self, timeout: float = 60.0) -> None:
        super().wait_ready(timeout)
        time.sleep(3.0)  # the listener is bound before the workers have loaded the app


def every_flow_completed(result: dict[str, Any], what: str) -> dict[str, Any]:
    """`result`, or a RuntimeError when a flow failed: flows/s and CPU per flow would describe fewer flows than
    were sent (32 of 100 two-worker flows once failed on stale connections and the ratio silently followed)."""
    if result["errors"]:
        raise RuntimeError(f"{what}: {result['errors']} flows failed ({result['measured_errors']} of them in the "
                           f"measured batch, {result['flows']} completed), so its figure is not reported: "
                           f"{result['error_samples'][:2]}")
    return result


def measure_workers(settings: Settings, stack: tuple[str, str]) -> dict[int, dict[str, Any]]:
    """`askback serve` with one worker and with two, at K = 32; CPU is the whole process tree's.

    Raises RuntimeError when a flow failed in either batch: the pair is then not a ratio of like with like."""
    out: dict[int, dict[str, Any]] = {}
    for workers in (1, 2):
        server = ServeProcess(workers, stack)
        try:
            server.wait_ready()
            out[workers] = every_flow_completed(load(server, WORKERS_K, settings, rounds=2),
                                                f"askback serve --workers {workers}")
            r = out[workers]
            log(f"askback serve --workers {workers} K={WORKERS_K}: {r['flows_per_s']:.0f} flows/s, "
                f"{r['cpu_ms_per_flow']:.3f} ms CPU/flow, p50 {r['p50_ms']:.1f} ms, {r['errors']} errors")
        finally:
            server.stop()
    return out


def run_all(settings: Settings, quick: bool, install: bool) -> Results:
    compile_checkout()
    results = Results()
    pythons = dict.fromkeys(settings.servers, sys.executable)
    if "fastmcp" in settings.servers:
        python, detail = fastmcp_python(install)
        if python is None:
            results.missing["fastmcp"] = detail
            log("!" * 100 + f"\n!! FastMCP 4 NOT MEASURED: {detail}\n" + "!" * 100)
        else:
            pythons["fastmcp"] = python
            LABELS["fastmcp"] = f"FastMCP {detail} guard pattern"
    kinds = [k for k in settings.servers if k not in results.missing]
    stack = resolved_stack(sys.executable, settings.stack)
    if "fastmcp" in kinds and resolved_stack(pythons["fastmcp"], settings.stack) != stack:
        results.missing["fastmcp"] = f"its venv cannot run {stack[0]} + {stack[1]} like the others"
        kinds.remove("fastmcp")
    settings.stack = stack
    log(f"bench: every server on uvicorn with {stack[0]} + {stack[1]}")
    for number in range(settings.runs):
        order = kinds[number % len(kinds):] + kinds[: number % len(kinds)]  # rotate: spread drift over servers
        run: dict[str, dict[int, dict[str, Any]]] = {}
        for kind in order:
            server = Server(kind, pythons[kind], stack)
            try:
                server.wait_ready()
                if kind in ("askback", "mcpserver", "fastmcp") and kind not in results.wire_states:
                    results.wire_states[kind] = asyncio.run(wire_state_sizes(server.port))
                run[kind] = {}
                for k in CONCURRENCY:
                    r = load(server, k, settings)
                    log(f"run {number + 1}/{settings.runs} {kind:>9} K={k:<2}: {r['cpu_ms_per_flow']:.3f} ms CPU/flow, "
                        f"{r['flows_per_s']:.0f} flows/s, {r['flows']} flows, {r['errors']} errors")
                    try:
                        run[kind][k] = every_flow_completed(r, f"run {number + 1} {kind} K={k}")
                    except RuntimeError as exc:  # left out of every median and ratio, and said so under the table
                        results.batches_failed.append((kind, k, r["errors"], str(exc)))
                        log("!" * 100 + f"\n!! {exc}\n" + "!" * 100)
            except RuntimeError as exc:
                results.missing[kind] = str(exc)
                log("!" * 100 + f"\n!! {kind} NOT MEASURED: {exc}\n" + "!" * 100)
                run.pop(kind, None)
            finally:
                server.stop()
        results.runs.append(run)
        results.micro.append(micro(quick))
        if settings.workers:
            try:
                results.workers.append(measure_workers(settings, stack))
            except RuntimeError as exc:
                results.workers_failed.append(str(exc))
                log("!" * 100 + f"\n!! --workers NOT MEASURED in run {number + 1}: {exc}\n" + "!" * 100)
    return results


# -- aggregation and output ---------------------------------------------------------------------------------
def median_of(results: Results, kind: str, k: int, key: str) -> float:
    values = [run[kind][k][key] for run in results.runs if kind in run and k in run[kind]]
    return statistics.median(values) if values else float("nan")


def ratio(results: Results, numerator: str, k: int, factor: float = 1.0, denominator: str = "askback") -> float:
    """Median over runs of (factor x numerator CPU per flow) / (denominator's CPU per flow), each run on its own."""
    values = [factor * run[numerator][k]["cpu_ms_per_flow"] / run[denominator][k]["cpu_ms_per_flow"]
              for run in results.runs
              if numerator in run and denominator in run and k in run[numerator] and k in run[denominator]]
    return statistics.median(values) if values else float("nan")


def micro_median(results: Results, *path: str) -> float:
    values = []
    for m in results.micro:
        node: Any = m
        for p in path:
            node = node[p]
        values.append(float(node))
    return statistics.median(values) if values else float("nan")


def table(results: Results) -> str:
    lines = [
        "| server | K | server CPU s / 1000 flows | flows/s | p50 ms | p99 ms | RSS MiB | requestState chars "
        "| errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for kind in SERVERS:
        if kind in results.missing:
            lines.append(f"| {LABELS[kind]} | – | **not measured**: {results.missing[kind][:160]} | | | | | | |")
            continue
        if not any(kind in run for run in results.runs):
            continue
        for k in CONCURRENCY:
            def m(key: str, kind: str = kind, k: int = k) -> float:
                return median_of(results, kind, k, key)

            errors = sum(n for failed, at, n, _ in results.batches_failed if (failed, at) == (kind, k))
            state = f"{m('state_bytes'):.0f}" if ROUNDS[kind] == 2 and kind not in ERAS else "–"
            lines.append(
                f"| {LABELS[kind]} | {k} | {m('cpu_ms_per_flow'):.2f} | {m('flows_per_s'):.0f} | {m('p50_ms'):.2f} "
                f"| {m('p99_ms'):.2f} | {m('rss_mib'):.0f} | {state} | {errors} |"
            )
    if results.batches_failed:
        lines += ["", f"**{len(results.batches_failed)} batches had failed flows and are left out of every figure** "
                  "(the errors column counts their failed flows):",
                  *(f"- {why[:300]}" for _, _, _, why in results.batches_failed)]
    return "\n".join(lines)


def ratios_table(results: Results) -> str:
    lines = ["| ratio (CPU per flow; higher favours askback) | K = 1 | K = 16 |", "|---|---:|---:|"]
    rows = [
        ("MCPServer / askback (`vs_mcpserver`)", "mcpserver", 1.0, "askback"),
        ("FastMCP / askback", "fastmcp", 1.0, "askback"),
        ("same-work floor / askback (`vs_floor`)", "floor", 1.0, "askback"),
        ("2 x low-level call / askback", "lowlevel", 2.0, "askback"),
        ("2 x bare ASGI call / askback", "asgi", 2.0, "askback"),
        ("askback on h11 + asyncio / askback (the parser and loop knob)", "askback-h11", 1.0, "askback"),
        ("askback with the SDK's span middleware / askback (the tracing knob)", "askback-otel", 1.0, "askback"),
        ("MCPServer / askback, 2025-11-25 session flow (`vs_mcpserver_2025`)", "mcpserver-2025", 1.0,
         "askback-2025"),
    ]
    for label, kind, factor, base in rows:
        if any(kind in run and base in run for run in results.runs):
            lines.append(f"| {label} | {ratio(results, kind, 1, factor, base):.2f} "
                         f"| {ratio(results, kind, 16, factor, base):.2f} |")
    return "\n".join(lines)


def state_table(results: Results) -> str:
    lines = [
        "| requestState, same content | askback | SDK (MCPServer) |",
        "|---|---:|---:|",
        f"| in-process, one answered question + one asked (shortest SDK keys) | "
        f"{micro_median(results, 'askback', 'state_chars'):.0f} chars "
        f"| {micro_median(results, 'sdk', 'state_chars'):.0f} chars |",
        f"| in-process, first round (one question asked) "
        f"| {micro_median(results, 'askback', 'first_round_chars'):.0f} chars "
        f"| {micro_median(results, 'sdk', 'first_round_chars'):.0f} chars |",
        f"| seal + open incl. binding, in-process | {micro_median(results, 'askback', 'seal_open_us'):.1f} µs "
        f"| {micro_median(results, 'sdk', 'boundary_us'):.1f} µs (boundary) / "
        f"{micro_median(results, 'sdk', 'seal_open_us'):.1f} µs (with state encode/decode) |",
        f"| seal + open, codec only (no binding digest) | {micro_median(results, 'askback', 'codec_only_us'):.1f} µs "
        f"| {micro_median(results, 'sdk', 'codec_only_us'):.1f} µs |",
    ]
    if results.wire_states:
        lines += ["", "Over the wire (`signup`: each framework's own question keys):", "",
                  "| server | round 1 (one asked) | round 2 (one answered + one asked) |", "|---|---:|---:|"]
        for kind, sizes in results.wire_states.items():
            lines.append(f"| {LABELS[kind]} | {sizes['round_1']} chars | {sizes['one_answered']} chars |")
    return "\n".join(lines)


def layers_table(results: Results) -> str:
    if not results.micro:
        return ""
    names = list(results.micro[0]["askback_layers_us"])
    lines = ["| askback layer, in-process, per two-round flow | µs |", "|---|---:|"]
    for name in names:
        label = name.replace("_", " ")
        if name == "secret_guard_uncached":
            label += " (Flow memoises it per question, so ~0 in a server)"
        lines.append(f"| {label} | {micro_median(results, 'askback_layers_us', name):.1f} |")
    return "\n".join(lines)


def workers_table(results: Results) -> str:
    failed: list[str] = []
    if results.workers_failed:  # said in the table itself: a figure from fewer runs than asked is not the same figure
        runs = len(results.workers) + len(results.workers_failed)
        failed = [f"**{len(results.workers_failed)} of {runs} runs of the `--workers` measurement failed and are "
                  "left out of it**:", *(f"- {why[:300]}" for why in results.workers_failed)]
    if not results.workers:
        return "\n".join(["`askback serve --workers N`: **not measured**.", *failed] if failed else [])

    def m(workers: int, key: str) -> float:
        return statistics.median(run[workers][key] for run in results.workers if workers in run)

    speedups = [run[2]["flows_per_s"] / run[1]["flows_per_s"] for run in results.workers if 1 in run and 2 in run]
    lines = [f"`askback serve --workers N` (the bench app, K = {WORKERS_K}, the load generator on the same cores; "
             "CPU is the whole process tree's):", "",
             "| workers | flows/s | server CPU ms / flow | p50 ms | p99 ms | errors |",
             "|---:|---:|---:|---:|---:|---:|"]
    for workers in (1, 2):
        errors = sum(run[workers]["errors"] for run in results.workers if workers in run)
        lines.append(f"| {workers} | {m(workers, 'flows_per_s'):.0f} | {m(workers, 'cpu_ms_per_flow'):.2f} "
                     f"| {m(workers, 'p50_ms'):.2f} | {m(workers, 'p99_ms'):.2f} | {errors} |")
    if speedups:
        lines += ["", f"Two workers / one, flows/s (median of per-run ratios): **{statistics.median(speedups):.2f}** "
                  "(target ≥ 1.3)."]
    if failed:
        lines += ["", *failed]
    return "\n".join(lines)


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import importlib.metadata as md

    packages = ("mcp", "uvicorn", "httptools", "uvloop", "starlette", "pydantic", "cryptography")
    versions = ", ".join(f"{p} {md.version(p)}" for p in packages if _installed(p))
    return f"{os.cpu_count()} cores ({cpu}), Python {sys.version.split()[0]}, {versions}"


def _installed(package: str) -> bool:
    import importlib.metadata as md

    try:
        md.version(package)
    except md.PackageNotFoundError:
        return False
    return True


def report(results: Results, settings: Settings) -> str:
    vs_mcp = ratio(results, "mcpserver", 16)
    vs_floor = ratio(results, "floor", 16)
    parts = [
        f"Measured {time.strftime('%Y-%m-%d')} on {machine()}; every server on uvicorn with {settings.stack[0]} + "
        f"{settings.stack[1]}; {settings.runs} runs, each server warmed "
        f"{settings.warmup:g} s then measured over a batch sized for ~{settings.seconds:g} s; medians over runs.",
        "",
        table(results),
        "",
        ratios_table(results),
        "",
        f"Headline (K = 16): **vs_mcpserver = {vs_mcp:.2f}** (target ≥ 5), **vs_floor = {vs_floor:.2f}** "
        "(target ≥ 0.6).",
        "",
        workers_table(results),
        "",
        state_table(results),
        "",
        layers_table(results),
    ]
    return "\n".join(parts)


def write_doc(text: str, doc: Path = DOC, begin: str = BEGIN, end: str = END) -> None:
    """Replace what stands between the page's `begin` and `end` markers with `text` (the bench scripts' one way
    of writing their tables into the docs)."""
    current = doc.read_text(encoding="utf-8")
    if begin not in current or end not in current:
        raise SystemExit(f"{doc} has no {begin} ... {end} section to fill")
    head, rest = current.split(begin, 1)
    _, tail = rest.split(end, 1)
    doc.write_text(f"{head}{begin}\n{text}\n{end}{tail}", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2 short runs (< 2 minutes); the doc is not written")
    parser.add_argument("--runs", type=int)
    parser.add_argument("--seconds", type=float, help="target length of each measured batch")
    parser.add_argument("--warmup", type=float)
    parser.add_argument("--servers", default=",".join(SERVERS), help="comma-separated subset of " + ",".join(SERVERS))
    parser.add_argument("--no-doc", action="store_true", help="do not write docs/benchmarks.md")
    parser.add_argument("--no-install", action="store_true", help="never create the FastMCP venv")
    parser.add_argument("--json", type=Path, help="also write every raw figure here")
    parser.add_argument("--stack", choices=("auto", "h11"), default="auto",
                        help="auto: httptools + uvloop when installed (askback's default); h11: h11 + asyncio")
    parser.add_argument("--no-workers", action="store_true", help="skip the --workers 2 vs 1 measurement")
    args = parser.parse_args()
    servers = tuple(s for s in args.servers.split(",") if s)
    if "askback" not in servers or any(s not in SERVERS for s in servers):
        parser.error(f"--servers must include askback and name only {', '.join(SERVERS)}")
    settings = Settings(
        runs=args.runs or (2 if args.quick else 5),
        warmup=args.warmup or (0.5 if args.quick else 1.5),
        seconds=args.seconds or (1.5 if args.quick else 5.0),
        min_flows=100 if args.quick else 300,
        servers=servers,
        write_doc=not (args.quick or args.no_doc),
        stack=("h11", "asyncio") if args.stack == "h11" else ("auto", "auto"),
        workers=not args.no_workers,
    )
    results = run_all(settings, args.quick, install=not args.no_install)
    text = report(results, settings)
    print(text)
    if args.json:
        args.json.write_text(json.dumps({"runs": results.runs, "micro": results.micro, "workers": results.workers,
                                         "wire_states": results.wire_states, "missing": results.missing}, indent=1))
    if settings.write_doc:
        write_doc(text)
        log(f"bench: wrote {DOC.relative_to(ROOT)}")
    for kind, why in results.missing.items():
        log(f"!! {kind} was NOT measured: {why}")
    for why in [*results.workers_failed, *(why for _, _, _, why in results.batches_failed)]:
        log(f"!! left out: {why}")
    print(f"vs_mcpserver={ratio(results, 'mcpserver', 16):.2f} vs_floor={ratio(results, 'floor', 16):.2f} "
          f"vs_mcpserver_2025={ratio(results, 'mcpserver-2025', 16, denominator='askback-2025'):.2f}")


if __name__ == "__main__":
    main()
