"""Cold start: from spawning `askback serve` to its first answered request, min and median of N spawns.

    python bench/coldstart.py [--spawns 7] [--target bench/coldstart_app.py] [--compiled]

For each spawn: start `askback serve TARGET --port 0`, read its "serving ... at URL" line, then send one
2026-07-28 request at once and time the answer (wall time from the spawn). Two requests are measured, each on
fresh processes: the first `tools/call` (answered by the fast route when it is on) and the first `tools/list`
(always the SDK path), with the fast route on (the default) and off (`ASKBACK_FAST_ROUTE=0`). Also timed: the
"serving" line itself. Prints one table; nothing is asserted (a shared machine's figures move, compare within
one run).

The servers run a copy of this checkout's `askback` package, so that whether its modules have bytecode is
chosen here rather than left to chance: without it (the default) each start compiles them from source, as a
checkout does under `PYTHONDONTWRITEBYTECODE=1`, where nothing else would tell whether a test run had left
bytecode behind; `--compiled` byte-compiles the copy first, as `pip install` leaves an installed package.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVING = re.compile(r"serving .* at (http://\S+)")
V = "2026-07-28"


def _request(url: str, method: str, params: dict[str, object]) -> dict[str, object]:
    params = {**params, "_meta": {"io.modelcontextprotocol/protocolVersion": V,
                                  "io.modelcontextprotocol/clientInfo": {"name": "cold", "version": "1"},
                                  "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}}
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": V, "Mcp-Method": method}
    if "name" in params:
        headers["Mcp-Name"] = str(params["name"])
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=60) as response:
        answer: dict[str, object] = json.loads(response.read())
    if "result" not in answer:
        raise RuntimeError(f"{method} was not answered: {answer}")
    return answer


def package_copy(into: Path, compiled: bool) -> Path:
    """A copy of this checkout's `askback` (package data included, no bytecode), byte-compiled if asked."""
    shutil.copytree(ROOT / "src" / "askback", into / "askback", ignore=shutil.ignore_patterns("__pycache__"))
    if compiled:
        compileall.compile_dir(into / "askback", quiet=1)
    return into


def spawn_once(target: str, method: str, fast: bool, package: Path) -> tuple[float, float]:
    """(seconds to the "serving" line, seconds to the first answer), both from the spawn."""
    env = {**os.environ, "ASKBACK_FAST_ROUTE": "1" if fast else "0", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, (str(package), os.environ.get("PYTHONPATH"))))}
    env.pop("ASKBACK_KEYS", None)
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "askback.cli", "serve", target, "--port", "0"], cwd=ROOT,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        url = None
        for line in process.stderr:
            match = SERVING.search(line)
            if match:
                url = match.group(1)
                break
        if url is None:
            raise RuntimeError(f"askback serve exited with {process.wait()} before serving")
        serving = time.perf_counter() - started
        params: dict[str, object] = {"name": "greet", "arguments": {}} if method == "tools/call" else {}
        _request(url, method, params)
        return serving, time.perf_counter() - started
    finally:
        process.terminate()
        process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spawns", type=int, default=7)
    parser.add_argument("--target", default=str(ROOT / "bench" / "coldstart_app.py"))
    parser.add_argument("--compiled", action="store_true", help="byte-compile askback first, as pip install does")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="askback-coldstart-") as tmp:
        package = package_copy(Path(tmp), args.compiled)
        for fast in (True, False):
            for method in ("tools/call", "tools/list"):
                times = [spawn_once(args.target, method, fast, package) for _ in range(args.spawns)]
                first = [t[1] for t in times]
                serving = [t[0] for t in times]
                rows.append((("fast route on" if fast else "fast route off"), method, min(serving), min(first),
                             statistics.median(first)))
    modules = "byte-compiled, as pip install leaves them" if args.compiled else "compiled from source at each start"
    print(f"cold start, {args.spawns} spawns each (seconds from spawning `askback serve`; askback's modules "
          f"{modules})")
    print(f"{'configuration':<15} {'first request':<14} {'serving (min)':>14} {'answered (min)':>15} "
          f"{'answered (median)':>18}")
    for name, method, serving, low, median in rows:
        print(f"{name:<15} {method:<14} {serving:>14.3f} {low:>15.3f} {median:>18.3f}")


if __name__ == "__main__":
    main()
