"""The MRTR server scenarios against an adopted app: `.venv/bin/python tests/conformance/run_adopted.py [fastmcp]`.

Serves `tests/conformance/adopted_server.py` (an `MCPServer` app: the SDK's own `streamable_http_app()` under
uvicorn, with `askback.adopt` installed), or with `fastmcp` `tests/conformance/adopted_fastmcp_server.py` (a
FastMCP app: its own `http_app()`, adopted the same way), on a free loopback port and runs every scenario of
`scenarios.MRTR_SERVER` against it with the same harness, toolchain and strict verdicts as `run.py`. Prints one
line per scenario and a final `N passed, N failed`; exit status 0 when all passed, 1 otherwise, 2 when the harness
could not run.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if __package__ in (None, ""):  # run as a script: make `tests.conformance` importable
    sys.path.insert(0, str(ROOT))

from tests.conformance import scenarios, toolchain  # noqa: E402
from tests.conformance.results import Verdict, verdict  # noqa: E402
from tests.conformance.run import CannotRun, line_for, process_on_a_port, run_scenario  # noqa: E402

SERVERS = {"mcpserver": ("MCPServer", "tests.conformance.adopted_server:app"),
           "fastmcp": ("FastMCP", "tests.conformance.adopted_fastmcp_server:app")}


@contextmanager
def served(work: Path, target: str) -> Iterator[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    command = [sys.executable, "-m", "uvicorn", target, "--log-level", "warning"]
    with process_on_a_port(command, env, work / "server-adopted.log") as url:
        yield url


def main(argv: list[str]) -> int:
    which = argv[0] if argv else "mcpserver"
    if which not in SERVERS or len(argv) > 1:
        print(f"usage: run_adopted.py [{' | '.join(SERVERS)}]", flush=True)
        return 2
    kind, target = SERVERS[which]
    try:
        tools = toolchain.ensure(None, say=lambda text: print(text, flush=True))
    except toolchain.SetupError as exc:
        print(f"conformance: CANNOT RUN: {exc}", flush=True)
        return 2
    planned = scenarios.MRTR_SERVER
    width = max(len(s) for s in planned)
    results = []
    with tempfile.TemporaryDirectory(prefix="askback-adopted-conformance-") as tmp:
        work = Path(tmp)
        try:
            with served(work, target) as url:
                print(f"conformance: adopted {kind} app at {url}, {len(planned)} MRTR scenarios", flush=True)
                with ThreadPoolExecutor(max_workers=4) as pool:
                    futures = [pool.submit(run_scenario, tools, "server", s, url, work / "results") for s in planned]
                    for future in futures:
                        outcome = future.result()
                        result = verdict(outcome, None)
                        results.append(result)
                        print(line_for(outcome, result, width), flush=True)
        except CannotRun as exc:
            print(f"conformance: CANNOT RUN: {exc}", flush=True)
            return 2
    passed = sum(r is Verdict.PASS for r in results)
    print(f"\n{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
