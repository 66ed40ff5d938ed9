"""Run the official MCP conformance harness against askback: `.venv/bin/python tests/conformance/run.py`.

It installs node 22 and the pinned harness from the npm registry into a cache on first use (see
`toolchain.py`), serves `tests/conformance/server.py` with `askback serve` on a free loopback port, runs every
2026-07-28 server scenario against it (the 2026-07-28 fast route on, the default) and every client scenario
`client.py` takes part in, then every 2025-11-25 server scenario against the same server (the harness's
`--spec-version 2025-11-25`, with its own expected failures), then the MRTR server scenarios once more
against a second server with the fast route off (`ASKBACK_FAST_ROUTE=0`, every request on the SDK path), and
prints one line per scenario as it finishes, the expected failures with their reasons, and a final line
`N passed, N failed, N expected to fail`. Warnings count as failures, and so does a scenario in which
no check succeeded or failed (`no-checks`): it verified nothing.

Exit status: 0 when every scenario passed or failed exactly as expected, 1 otherwise, 2 when the harness
could not run at all (no npm, no registry, the server did not start).
"""

from __future__ import annotations

import argparse
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if __package__ in (None, ""):  # run as a script: make `tests.conformance` importable
    sys.path.insert(0, str(ROOT))

from tests.conformance import scenarios, toolchain  # noqa: E402
from tests.conformance.results import Outcome, Verdict, read_outcome, verdict  # noqa: E402

HERE = Path(__file__).resolve().parent
SERVER_APP = HERE / "server.py"
CLIENT = HERE / "client.py"
SCENARIO_TIMEOUT = 120  # seconds, per scenario; the harness's own per-scenario limit is 30 s
START_TIMEOUT = 30


class CannotRun(Exception):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SDK_PATH = "SDK path"  # the label of the scenarios run against the server with the fast route off


@contextmanager
def served(work: Path, *, fast_route: bool = True) -> Iterator[str]:
    """`askback serve tests/conformance/server.py` on a free loopback port, with its own empty data dir.

    On the way out the server's own count of requests its fast route answered and handed on is printed.
    """
    name = "fast" if fast_route else "sdk"
    env = {k: v for k, v in os.environ.items() if k not in ("ASKBACK_KEYS", "ASKBACK_STORE")}
    env["ASKBACK_DATA_DIR"] = str(work / f"askback-data-{name}")
    env["ASKBACK_FAST_ROUTE"] = "1" if fast_route else "0"
    log_path = work / f"server-{name}.log"
    command = [sys.executable, "-m", "askback.cli", "serve", str(SERVER_APP), "--log-level", "info"]
    try:
        with process_on_a_port(command, env, log_path) as url:
            yield url
    finally:
        log = log_path.read_text(errors="replace") if log_path.exists() else ""
        counted = [line for line in log.splitlines() if "fast route answered" in line]
        if fast_route:
            said = counted[-1][counted[-1].index("fast route"):] if counted else "fast route: no count"
            print(f"conformance: {said}", flush=True)


@contextmanager
def process_on_a_port(command: list[str], env: dict[str, str], log_path: Path) -> Iterator[str]:
    """`command --port N` (N a free loopback port) started with `env`, its output in `log_path`; its MCP URL
    once it answers, and the process stopped on the way out. The one way every runner starts the server."""
    port = free_port()
    with log_path.open("wb") as log:
        server = subprocess.Popen([*command, "--port", str(port)], cwd=ROOT, env=env, stdout=log,
                                  stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        _wait_until_answering(url, server, log_path)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_until_answering(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    """Some checks only warn when a request fails, so an unreachable server must never reach the harness."""
    deadline = time.monotonic() + START_TIMEOUT
    request = urllib.request.Request(url, data=b"{}", method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise CannotRun(f"askback serve exited with {server.returncode} before listening:\n{log.read_text()}")
        try:
            urllib.request.urlopen(request, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return  # any HTTP answer will do: the server is up
        except OSError:
            time.sleep(0.1)
    raise CannotRun(f"askback serve did not answer at {url} within {START_TIMEOUT} s:\n{log.read_text()}")


def run_scenario(tools: toolchain.Toolchain, kind: str, scenario: str, target: str, out_root: Path,
                 label: str = "") -> Outcome:
    """Run one scenario; `label` names a run other than the default one (the SDK path, or the 2025-11-25 era,
    which runs with the harness's `--spec-version`)."""
    suffix = {"": "", scenarios.LEGACY: "-" + scenarios.LEGACY}.get(label, "-sdk-path")
    out = out_root / (kind + suffix) / scenario.replace("/", "_")
    out.mkdir(parents=True, exist_ok=True)
    flag = "--url" if kind == "server" else "--command"
    # A sign-in scenario runs at the wire its requirement set names (the harness's default is the older one).
    wire = scenarios.LEGACY if label == scenarios.LEGACY else scenarios.MODERN if scenario.startswith("auth/") else None
    era = ["--spec-version", wire] if wire else []
    started = time.monotonic()
    try:
        run = subprocess.run(tools.command(kind, flag, target, "--scenario", scenario, "-o", str(out), *era),
                             cwd=out, env=tools.env(), capture_output=True, text=True, timeout=SCENARIO_TIMEOUT)
    except subprocess.TimeoutExpired:
        outcome = Outcome(kind, scenario, problem=f"did not finish within {SCENARIO_TIMEOUT} s")
    else:
        log = run.stdout + run.stderr
        (out / "harness.log").write_text(log)
        outcome = read_outcome(kind, scenario, out, run.returncode, log)
    outcome.label = label
    outcome.seconds = time.monotonic() - started
    return outcome


def absent(kind: str, scenario: str) -> Outcome:
    """A scenario the pinned harness does not have fails loudly instead of being skipped."""
    return Outcome(kind, scenario, problem=f"not in harness {toolchain.HARNESS_VERSION}")


def available_scenarios(tools: toolchain.Toolchain) -> set[str]:
    listing = subprocess.run(tools.command("list"), env=tools.env(), capture_output=True, text=True, timeout=60)
    if listing.returncode != 0:
        raise CannotRun(f"`conformance list` failed (exit {listing.returncode}): {listing.stderr.strip()}")
    return {line.strip()[2:].split(" ")[0] for line in listing.stdout.splitlines() if line.strip().startswith("- ")}


def line_for(outcome: Outcome, result: Verdict, width: int) -> str:
    counts = (f"{outcome.passed} ok, {outcome.failed} failed, {outcome.warned} warnings"
              if outcome.problem is None else outcome.problem)
    where = f"{outcome.scenario} ({outcome.label})" if outcome.label else outcome.scenario
    text = f"{result.value:<5}  {outcome.kind:<6}  {where:<{width}}  {counts}  ({outcome.seconds:.1f} s)"
    expected = scenarios.expected_for(outcome.scenario, outcome.label)
    if result is Verdict.XPASS:
        text += ("\n       ^ listed as expected to fail but PASSES now: remove it from EXPECTED_FAILURES in "
                 "tests/conformance/scenarios.py")
    elif result is Verdict.XFAIL and expected is not None:
        text += f"\n       expected to fail: {expected.reason}"
    for check, message in outcome.bad.items():
        tag = "expected" if expected is not None and check in expected.checks else "UNEXPECTED"
        text += "\n       " + textwrap.shorten(f"{tag} {check}: {message}", width=190, placeholder=" ...")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cache", type=Path, default=None,
                        help=f"where node and the harness are installed (env {toolchain.CACHE_ENV}; "
                        f"default {toolchain.default_cache()})")
    parser.add_argument("--only", nargs="+", metavar="SCENARIO", help="run only these scenarios")
    parser.add_argument("--jobs", type=int, default=4, help="scenarios run at the same time (default 4)")
    parser.add_argument("--results", type=Path, help="keep each scenario's checks.json and log here")
    parser.add_argument("--install-only", action="store_true", help="install node and the harness, then stop")
    args = parser.parse_args(argv)

    started = time.monotonic()
    try:
        tools = toolchain.ensure(args.cache, say=lambda text: print(text, flush=True))
    except toolchain.SetupError as exc:
        print(f"conformance: CANNOT RUN: {exc}", flush=True)
        return 2
    ready = time.monotonic() - started
    if args.install_only:
        print(f"conformance: node {toolchain.NODE_VERSION} and harness {toolchain.HARNESS_VERSION} ready "
              f"({ready:.1f} s): {tools.cli}")
        return 0

    planned = [("server", s) for s in scenarios.SERVER] + [("client", s) for s in scenarios.CLIENT]
    legacy_planned = [("server", s) for s in scenarios.LEGACY_SERVER] + [
        ("client", s) for s in scenarios.LEGACY_AUTH_CLIENT]
    if args.only:
        planned = [(kind, s) for kind, s in planned if s in args.only]
        legacy_planned = [(kind, s) for kind, s in legacy_planned if s in args.only]
        unknown = set(args.only) - {s for _, s in planned} - {s for _, s in legacy_planned}
        if unknown:
            print(f"conformance: CANNOT RUN: not a scenario this runner knows: {', '.join(sorted(unknown))}")
            return 2
    with tempfile.TemporaryDirectory(prefix="askback-conformance-") as tmp:
        work = Path(tmp)
        out_root = args.results.resolve() if args.results else work / "results"
        try:
            missing = ({s for _, s in planned} | {s for _, s in legacy_planned}) - available_scenarios(tools)
            print(f"conformance: harness {toolchain.HARNESS_VERSION}, node {toolchain.NODE_VERSION}, "
                  f"{len(planned)} scenarios, then {len(legacy_planned)} for {scenarios.LEGACY}, strict "
                  "(warnings fail)", flush=True)
            with served(work) as url:
                print(f"conformance: askback serving {SERVER_APP.relative_to(ROOT)} at {url}", flush=True)
                client = f"{shlex.quote(sys.executable)} {shlex.quote(str(CLIENT))}"
                width = max((len(s) for _, s in planned), default=28)
                outcomes: list[tuple[Outcome, Verdict]] = []
                with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                    futures = [
                        pool.submit(absent, kind, s) if s in missing
                        else pool.submit(run_scenario, tools, kind, s, url if kind == "server" else client, out_root)
                        for kind, s in planned
                    ]
                    for future in futures:  # in plan order, each as soon as it (and those before it) finished
                        outcome = future.result()
                        result = verdict(outcome, scenarios.EXPECTED_FAILURES.get(outcome.scenario))
                        outcomes.append((outcome, result))
                        print(line_for(outcome, result, width), flush=True)
                if legacy_planned:
                    print(f"conformance: the {scenarios.LEGACY} server scenarios (same server), and the sign-in "
                          "client scenarios at that wire", flush=True)
                    era = scenarios.LEGACY
                    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                        futures = [
                            pool.submit(absent, kind, s) if s in missing
                            else pool.submit(run_scenario, tools, kind, s, url if kind == "server" else client,
                                             out_root, era)
                            for kind, s in legacy_planned
                        ]
                        for future in futures:
                            outcome = future.result()
                            outcome.label = era
                            result = verdict(outcome, scenarios.expected_for(outcome.scenario, era))
                            outcomes.append((outcome, result))
                            print(line_for(outcome, result, max(width, 28) + len(era) + 3), flush=True)
            sdk_planned = [s for kind, s in planned if kind == "server" and s in scenarios.MRTR_SERVER]
            if sdk_planned:
                with served(work, fast_route=False) as url:
                    print(f"conformance: the MRTR scenarios again, {SDK_PATH} only, at {url}", flush=True)
                    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                        futures = [
                            pool.submit(absent, "server", s) if s in missing
                            else pool.submit(run_scenario, tools, "server", s, url, out_root, SDK_PATH)
                            for s in sdk_planned
                        ]
                        for future in futures:
                            outcome = future.result()
                            outcome.label = SDK_PATH
                            result = verdict(outcome, scenarios.EXPECTED_FAILURES.get(outcome.scenario))
                            outcomes.append((outcome, result))
                            print(line_for(outcome, result, width + len(SDK_PATH) + 3), flush=True)
        except CannotRun as exc:
            print(f"conformance: CANNOT RUN: {exc}", flush=True)
            return 2
    return report(outcomes, ready, time.monotonic() - started)


def report(outcomes: list[tuple[Outcome, Verdict]], ready: float, total: float) -> int:
    expected = [o for o, r in outcomes if r is Verdict.XFAIL]
    if expected:
        print(f"\nEXPECTED TO FAIL ({len(expected)}), each until its feature lands "
              "(then remove it from EXPECTED_FAILURES in tests/conformance/scenarios.py):")
        for outcome in expected:
            listed = scenarios.expected_for(outcome.scenario, outcome.label)
            where = f"{outcome.scenario} ({outcome.label})" if outcome.label else outcome.scenario
            print(f"  {where}: {listed.reason if listed else ''}")
    print("NOT RUN:")
    for what, why in scenarios.NOT_RUN.items():
        print(f"  {what}: {why}")
    passed = sum(r is Verdict.PASS for _, r in outcomes)
    failed = sum(r.counts_as_failure for _, r in outcomes)
    print(f"conformance: toolchain ready in {ready:.1f} s, {len(outcomes)} scenarios in {total:.1f} s")
    print(f"{passed} passed, {failed} failed, {len(expected)} expected to fail")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
