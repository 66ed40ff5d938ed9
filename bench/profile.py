"""Where askback's server CPU per flow goes: cProfile on the askback bench server under K = 16 load.

    python bench/profile.py [--seconds 8] [--top 25] [--write-doc]

Starts the askback bench server with `--profile FILE` (the profiler is off until SIGUSR1 and written at SIGUSR2),
warms it up with one load run, profiles exactly one more, and summarises (start-up, imports and warm-up are not
in the profile at all):

- self time by area (who runs the CPU): HTTP server, Starlette, the SDK's transport and dispatch, pydantic,
  JSON, crypto, askback's engine / state / guards / adapter, the event loop;
- inclusive time of askback's entry points (what askback's own calls cost, everything they call included);
- the top functions by self time.

Time waiting in epoll is idle, not CPU, and is left out. cProfile slows Python code more than C code, so shares
of pure-Python areas are somewhat inflated; the µs column scales the shares to the CPU per flow the same server
spends without the profiler (measured here first, in the same way as bench/run.py).
"""

from __future__ import annotations

import argparse
import pstats
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.run import DOC, LOGS, Server, Settings, free_port, load, log, write_doc  # noqa: E402

BEGIN, END = "<!-- bench:profile:begin -->", "<!-- bench:profile:end -->"
Key = tuple[str, int, str]

# (area, test on "filename:function"); the first match wins, so specific before general.
IDLE = "idle (epoll wait)"
STARTUP = "start-up (imports, compiling; one-off)"
OTHER = "other (stdlib, builtins)"
AREAS: list[tuple[str, tuple[str, ...]]] = [
    (IDLE, ("select.epoll' objects>",)),
    (STARTUP, ("<frozen importlib", "marshal.loads", "builtins.exec", "builtins.compile", "__build_class__",
               "/re/_parser.py", "/re/_compiler.py", "/re/__init__.py:_compile", "<frozen zipimport")),
    ("askback state: seal/open (core/state.py, excl. AEAD)", ("/askback/core/state.py",)),
    ("askback secret guard (guard/)", ("/askback/guard/",)),
    ("askback engine (core/decide, spec, forms, questions, markers)", ("/askback/core/",)),
    ("askback flow + MCP adapter (flow.py, mcp/, app.py)", ("/askback/",)),
    ("AEAD + hashing (cryptography, hashlib, os.urandom)", ("/cryptography/", "AESGCM", "_hashlib", "openssl_",
                                                          "posix.urandom", "built-in method posix.urandom")),
    ("pydantic validation / serialisation", ("/pydantic/", "pydantic_core", "/typing_inspection/")),
    ("JSON encode/decode (json, _json)", ("/json/", "_json", "json.")),
    ("SDK types (mcp_types)", ("/mcp_types/",)),
    ("SDK transport + dispatch (mcp, its OpenTelemetry span)", ("/mcp/", "/opentelemetry/")),
    ("Starlette (routing, requests, responses)", ("/starlette/",)),
    ("HTTP server (uvicorn, httptools or h11)", ("/uvicorn/", "/h11/", "httptools")),
    ("event loop + tasks (asyncio, uvloop, anyio, contextvars)", ("/asyncio/", "uvloop", "/anyio/", "/sniffio/",
                                                                "_asyncio", "contextvars", "select.", "socket")),
    ("logging", ("/logging/",)),
]
ENTRY_POINTS: list[tuple[str, str, str]] = [
    ("askback: the tools/call handler (everything askback does in it)", "/askback/mcp/server.py", "call_tool"),
    ("askback: Flow.step (engine + state + function)", "/askback/flow.py", "step"),
    ("askback: decide (the engine)", "/askback/core/decide.py", "decide"),
    ("askback: StateCodec.open", "/askback/core/state.py", "open"),
    ("askback: StateCodec.seal", "/askback/core/state.py", "seal"),
    ("askback: Flow.binding (arguments digest)", "/askback/flow.py", "binding"),
    ("askback: guard_form (secret guard per asked form)", "/askback/guard/names.py", "guard_form"),
    ("askback: check_retry_fields (inputResponses shape check)", "/askback/mcp/guard.py", "check_retry_fields"),
    ("askback: wire.capabilities", "/askback/mcp/wire.py", "capabilities"),
    ("SDK: modern request handling, all of it", "/mcp/server/_streamable_http_modern.py", "handle_modern_request"),
]


def where(key: Key) -> str:
    filename, _, function = key
    return f"{filename}:{function}"


def area_of(key: Key) -> str:
    text = where(key)
    for area, needles in AREAS:
        if any(n in text for n in needles):
            return area
    return OTHER


def attributed(raw: dict[Key, tuple[Any, ...]]) -> dict[str, float]:
    """Self time by area, with stdlib and builtin calls charged to the areas that made them.

    A builtin such as `isinstance` or `dict.get` runs for everyone; its time is split over its callers in
    proportion to the time each call site spent in it (cProfile records that per caller), walking up through
    callers that are themselves stdlib. What cannot be traced stays in "other".
    """
    memo: dict[Key, dict[str, float]] = {}

    def shares(key: Key, depth: int) -> dict[str, float]:
        """How one second of `key`'s own time divides over areas."""
        area = area_of(key)
        if area != OTHER or depth > 8:
            return {area: 1.0}
        if key in memo:
            return memo[key]
        memo[key] = {OTHER: 1.0}  # a cycle resolves to "other"
        callers: dict[Key, tuple[Any, ...]] = raw[key][4]
        total = sum(v[2] for v in callers.values())
        if total <= 0:
            return memo[key]
        out: dict[str, float] = {}
        for caller, v in callers.items():
            if caller not in raw:
                continue
            for a, f in shares(caller, depth + 1).items():
                out[a] = out.get(a, 0.0) + f * v[2] / total
        memo[key] = out or {OTHER: 1.0}
        return memo[key]

    result: dict[str, float] = {}
    for key, value in raw.items():
        for a, f in shares(key, 0).items():
            result[a] = result.get(a, 0.0) + f * value[2]
    return result


def summarise(path: Path, cpu_ms_per_flow: float, flows: int, top: int) -> str:
    stats = pstats.Stats(str(path))
    raw = stats.stats  # type: ignore[attr-defined]
    self_time = attributed(raw)
    idle = self_time.pop(IDLE, 0.0)
    startup = self_time.pop(STARTUP, 0.0)
    busy = sum(self_time.values())
    us_per_flow = cpu_ms_per_flow * 1e3
    lines = [
        f"cProfile of the askback bench server (default parser, asyncio loop) over the measured window only, {flows} "
        "two-round flows at K = 16 "
        f"({busy:.2f} s profiled CPU; {idle:.2f} s idle and {startup:.2f} s of lazy imports left out). "
        "Stdlib and builtin "
        "calls are charged to the area that made them. Without the profiler this server spends "
        f"**{us_per_flow:.0f} µs of CPU per flow**; the µs column scales each share to that.",
        "",
        "| area (self time, builtins charged to their callers) | share | ≈ µs per flow |",
        "|---|---:|---:|",
    ]
    for area, t in sorted(self_time.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {area} | {t / busy * 100:.1f}% | {t / busy * us_per_flow:.0f} |")
    lines += ["", "| entry point (inclusive) | share | ≈ µs per flow |", "|---|---:|---:|"]
    for label, file_part, function in ENTRY_POINTS:
        cum = sum(v[3] for k, v in raw.items() if file_part in k[0] and k[2] == function)
        lines.append(f"| {label} | {cum / busy * 100:.1f}% | {cum / busy * us_per_flow:.0f} |")
    lines += ["", f"Top {top} functions by self time:", "", "| function | self share | calls per flow |",
              "|---|---:|---:|"]
    ranked = sorted(raw.items(), key=lambda kv: -kv[1][2])
    shown = 0
    for key, (_, ncalls, tottime, _, _) in ranked:
        if area_of(key) in (IDLE, STARTUP):
            continue
        filename, line, function = key
        short = re.sub(r"^.*/lib/python3\.\d+/", "", filename.split("site-packages/")[-1].split("/src/")[-1])
        lines.append(f"| `{short}:{line} {function}` | {tottime / busy * 100:.1f}% | {ncalls / max(flows, 1):.1f} |")
        shown += 1
        if shown >= top:
            break
    return "\n".join(lines)


def profile(seconds: float, top: int, keep: Path | None = None) -> str:
    settings = Settings(runs=1, warmup=1.0, seconds=3.0, min_flows=300, servers=("askback",), write_doc=False)
    log("profile: measuring CPU per flow without the profiler ...")
    # asyncio, not uvloop: uvloop waits for events inside one C call that cProfile cannot split into idle and busy
    # time, so the whole wait would be charged to uvicorn. The parser is the default one (httptools when installed).
    plain = Server("askback", sys.executable, ("auto", "asyncio"))
    try:
        plain.wait_ready()
        baseline = load(plain, 16, settings)
    finally:
        plain.stop()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "askback.prof"
        port = free_port()
        LOGS.mkdir(exist_ok=True)
        log_path = LOGS / "profile.log"
        with open(log_path, "wb") as log_file:
            process = subprocess.Popen(
                [sys.executable, "-m", "bench.servers", "askback", "--port", str(port), "--loop", "asyncio",
                 "--profile", str(out)],
                cwd=ROOT, stdout=log_file, stderr=subprocess.STDOUT)
            try:
                server = Server.__new__(Server)
                server.kind, server.port, server.process, server.log_path = "askback", port, process, log_path
                server.wait_ready()
                log("profile: warming the server up (not profiled) ...")
                load(server, 16, Settings(runs=1, warmup=0.5, seconds=1.0, min_flows=300, servers=("askback",),
                                          write_doc=False))
                process.send_signal(signal.SIGUSR1)
                log(f"profile: driving the profiled server for ~{seconds:g} s ...")
                profiled = load(server, 16, Settings(runs=1, warmup=0.5, seconds=seconds, min_flows=300,
                                                      servers=("askback",), write_doc=False))
                process.send_signal(signal.SIGUSR2)
                deadline = time.monotonic() + 30
                while not out.exists() and time.monotonic() < deadline:
                    time.sleep(0.1)
            finally:
                process.send_signal(signal.SIGINT)
                process.wait(timeout=60)
        flows = profiled["flows"] + profiled["warmup_flows"]  # that load run's own warm-up is in the window too
        if keep is not None:
            keep.write_bytes(out.read_bytes())
        return summarise(out, baseline["cpu_ms_per_flow"], flows, top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--keep", type=Path, help="also keep the raw cProfile output here")
    parser.add_argument("--write-doc", action="store_true", help="fill the profile section of docs/benchmarks.md")
    args = parser.parse_args()
    text = profile(args.seconds, args.top, args.keep)
    print(text)
    if args.write_doc:
        write_doc(text, DOC, BEGIN, END)
        log(f"profile: wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
