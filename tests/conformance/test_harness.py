"""The official MCP conformance harness: the 14 MRTR server scenarios against `askback serve
tests/conformance/server.py`, and the MRTR client scenario (`sep-2322-client-request-state`) against
askback's client, `tests/conformance/client.py` (the harness's `CLIENT_COMMAND`): 15 scenarios in all.

The harness script lives next to the project (`../shared/conformance/run-mrtr.sh`); it installs node 22 and
`@modelcontextprotocol/conformance` from the npm registry on first use and caches them. Warnings count as
failures (`STRICT_WARNINGS=1`): three scenarios only ever warn.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import IN_CI, free_port
from tests.support.processes import stop

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "run-mrtr.sh"
SERVER_SCENARIOS = 14
CLIENT_SCENARIO = "sep-2322-client-request-state"
CLIENT = Path(__file__).resolve().parent / "client.py"
EXPECTED = f"{SERVER_SCENARIOS + 1} passed, 0 failed"
HARNESS_TIMEOUT = 15 * 60


def _wait_for_port(port: int, server: subprocess.Popen[bytes], log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"askback serve exited with {server.returncode} before listening:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"askback serve did not listen on port {port} within {timeout} s:\n{log.read_text()}")


@pytest.mark.conformance
def test_official_harness_passes_every_mrtr_scenario_server_and_client(tmp_path: Path) -> None:
    if not SCRIPT.is_file():
        reason = (f"CONFORMANCE HARNESS NOT RUN: {SCRIPT} is missing. It ships in the shared directory next to "
                  "the project; without it askback's MRTR conformance is unchecked.")
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)

    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    env = {**os.environ, "ASKBACK_DATA_DIR": str(tmp_path / "askback-data")}
    env.pop("ASKBACK_KEYS", None)
    env.pop("ASKBACK_STORE", None)
    log = tmp_path / "server.log"
    with log.open("wb") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "askback.cli", "serve", "tests/conformance/server.py", "--port", str(port)],
            cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
        try:
            _wait_for_port(port, server, log)
            try:
                harness_env = {**env, "STRICT_WARNINGS": "1", "CLIENT_COMMAND": f"{sys.executable} {CLIENT}"}
                run = subprocess.run(["bash", str(SCRIPT), url], cwd=ROOT, env=harness_env,
                                     capture_output=True, text=True, timeout=HARNESS_TIMEOUT)
            except subprocess.TimeoutExpired as exc:
                pytest.fail(f"the harness did not finish within {HARNESS_TIMEOUT} s:\n{exc.stdout!r}\n{exc.stderr!r}")
        finally:
            stop(server)

    report = (f"--- harness stdout (exit {run.returncode}) ---\n{run.stdout}\n--- harness stderr ---\n{run.stderr}\n"
              f"--- server log ---\n{log.read_text()}")
    passed = re.search(rf"^{re.escape(EXPECTED)}$", run.stdout, re.MULTILINE) is not None
    if not passed or run.returncode != 0:
        print(report)  # shown by pytest with the failure
    assert passed, f"expected the line {EXPECTED!r}\n{report}"
    lines = run.stdout.splitlines()
    assert sum(line.startswith("PASS  input-required-result-") for line in lines) == SERVER_SCENARIOS, report
    assert any(line.startswith(f"PASS  {CLIENT_SCENARIO}:") for line in lines), report
    assert run.returncode == 0, report
