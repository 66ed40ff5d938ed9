"""`askback serve` runs uvicorn on httptools and uvloop by default, and on h11 and asyncio when asked.

What the server says it runs is checked against what its process has really loaded (the C extensions show in
/proc/PID/maps), and each stack answers a real request.
"""

import os
from pathlib import Path

import pytest
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from askback.cli.stack import HttpStack, StackError
from tests.e2e.serving import started, statuses

TARGET = "tests/conformance/server.py"


def loaded(pid: int, package: str) -> bool:
    maps = Path(f"/proc/{pid}/maps").read_text()
    return f"/{package}/" in maps


def test_auto_is_what_uvicorn_itself_picks() -> None:
    parser, loop = HttpStack().resolved()
    assert AutoHTTPProtocol.__module__.endswith(f"{parser}_impl"), (parser, AutoHTTPProtocol)
    assert (parser, loop) == ("httptools", "uvloop")  # both are dependencies of askback


@pytest.mark.parametrize(("flags", "parser", "loop"), [
    ((), "httptools", "uvloop"),
    (("--http", "h11", "--loop", "asyncio"), "h11", "asyncio"),
    (("--http", "httptools", "--loop", "asyncio"), "httptools", "asyncio"),
])
def test_serve_runs_and_names_its_stack(tmp_path, flags, parser, loop) -> None:  # type: ignore[no-untyped-def]
    env = {**os.environ, "ASKBACK_DATA_DIR": str(tmp_path / "data")}
    with started([TARGET, "--port", "0", *flags], env) as server:
        assert f"askback: HTTP parser {parser}, event loop {loop}" in server.lines, server.lines
        assert statuses(server.url, [{}]) == [200]
        pid = server.process.pid
        assert loaded(pid, "httptools") == (parser == "httptools")
        assert loaded(pid, "uvloop") == (loop == "uvloop")


def test_an_unknown_stack_is_refused_in_words() -> None:
    with pytest.raises(StackError, match="--http must be one of"):
        HttpStack(http="zttp")
    with pytest.raises(StackError, match="--loop must be one of"):
        HttpStack(loop="trio")
