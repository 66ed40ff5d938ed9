"""The bench's resident-memory measurement (`bench/rss.py`) against real servers.

A measured server imports from bytecode, as an installed package does, whatever the calling shell says: a start
that compiles askback's checkout from source keeps the compiler's transient memory in its RSS (about 2 MiB once
the answer guard is compiled), a cost no deployed server pays and the SDK's installed modules never pay.
"""

from __future__ import annotations

import sys

import pytest
from bench import rss
from bench.run import Server


def _environ(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as fh:
        pairs = [item.decode().partition("=") for item in fh.read().split(b"\0") if item]
    return {name: value for name, _, value in pairs}


def test_a_measured_server_writes_and_reads_bytecode_even_when_the_shell_says_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    server = Server("asgi", sys.executable)
    try:
        server.wait_ready()
        assert "PYTHONDONTWRITEBYTECODE" not in _environ(server.pid)
    finally:
        server.stop()


def test_idle_and_steady_rss_are_read_from_a_server_that_completed_every_flow() -> None:
    row = rss.one("floor", 20, 4)
    assert row["idle_mib"] > 10 and row["steady_mib"] > 10


def test_a_batch_with_a_failed_flow_is_no_figure() -> None:
    # The bare ASGI server completes at once: a two-round flow's first answer is not the question it expects.
    with pytest.raises(RuntimeError, match="asgi: 0/5 flows"):
        rss.one("asgi", 5, 1)
