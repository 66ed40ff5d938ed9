"""Run `askback serve` as a new user would, and read what it says on stderr.

`started` waits for the "serving ... at URL" line and returns the URL it names (so `--port 0` works);
`refused` runs a command that must stop at start-up. `isolated_network` is a command prefix that runs a process
in a private network namespace, where `0.0.0.0` reaches nothing beyond that namespace's own loopback.
"""

from __future__ import annotations

import queue
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

import pytest

from tests.e2e.test_cli import ROOT, askback_command
from tests.support.processes import stop

if TYPE_CHECKING:
    import httpx

SERVING = re.compile(r"^askback: serving .* at (http://\S+)$")


@dataclass
class Started:
    process: subprocess.Popen[str]
    url: str
    lines: list[str] = field(default_factory=list)  # stderr up to and including the serving line


@contextmanager
def started(args: Sequence[str], env: dict[str, str], *, command: str = "serve", prefix: Sequence[str] = (),
            timeout: float = 60) -> Iterator[Started]:
    process = subprocess.Popen([*prefix, *askback_command(), command, *args], cwd=ROOT, env=env, text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    seen: list[str] = []
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"no 'serving' line within {timeout} s: {seen}")
            if line is None:
                pytest.fail(f"askback {command} exited with {process.wait()} before serving: {seen}")
            seen.append(line)
            match = SERVING.match(line)
            if match:
                break
        yield Started(process, match.group(1), seen)
    finally:
        stop(process)  # type: ignore[arg-type]


def refused(args: Sequence[str], env: dict[str, str], *, command: str = "serve", prefix: Sequence[str] = (),
            timeout: float = 60) -> str:
    """Run a command that must refuse to start: exit 2, one line on stderr, no traceback. Returns the line."""
    try:
        run = subprocess.run([*prefix, *askback_command(), command, *args], cwd=ROOT, env=env, text=True,
                             capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"askback {command} {list(args)} kept running instead of refusing: {exc.stderr!r}")
    assert "Traceback" not in run.stderr + run.stdout, run.stderr
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("askback"), lines
    assert "serving" not in lines[0]
    return lines[0]


@cache
def _namespace_prefix() -> tuple[str, ...] | None:
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    for flags in (("--net",), ("--map-root-user", "--net")):
        probe = subprocess.run([unshare, *flags, "sh", "-c", "ip link set lo up"], capture_output=True)
        if probe.returncode == 0:
            return (unshare, *flags, "sh", "-c", 'ip link set lo up && exec "$0" "$@"')
    return None


def isolated_network() -> tuple[str, ...]:
    """A prefix running a command in its own network namespace (loopback up), or a loud skip."""
    prefix = _namespace_prefix()
    if prefix is None:
        pytest.skip("binding 0.0.0.0 needs a private network namespace (`unshare --net` and `ip`), so that "
                    "nothing listens beyond loopback; neither root nor user namespaces are available here")
    return prefix


def statuses(url: str, headers: Sequence[dict[str, str]]) -> list[int]:
    """The HTTP status of a 2026-07-28 `tools/list` sent to `url` with each set of extra headers."""
    import httpx

    with httpx.Client(timeout=30) as http:
        return [response.status_code for response in responses(http, url, headers)]


def responses(http: httpx.Client, url: str, headers: Sequence[dict[str, str]]) -> list[httpx.Response]:
    """A 2026-07-28 `tools/list` sent to `url` over `http` with each set of extra headers, in order."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "serve-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}}}}
    base = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list",
            "Accept": "application/json, text/event-stream"}
    return [http.post(url, json=body, headers={**base, **extra}) for extra in headers]


def _main() -> None:
    """Inside a private network namespace: serve with the given arguments, send the requests, print the outcome.

    The test process cannot reach a server in another namespace, so this side of the test runs in it.
    """
    import json
    import os
    import sys

    job = json.loads(sys.argv[1])
    with started(job["args"], dict(os.environ)) as server:
        port = server.url.split(":")[2].split("/")[0]
        headers = [{k: v.replace("{port}", port) for k, v in h.items()} for h in job["headers"]]
        print(json.dumps({"lines": server.lines, "statuses": statuses(server.url, headers)}))


if __name__ == "__main__":
    _main()
