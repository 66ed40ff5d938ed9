"""Issue 17 §5: a request's head (request line and headers) is bounded on both HTTP parsers `askback serve` runs.

Over `MAX_HEAD_BYTES` the answer is 431 and the connection closes; under it, and for any body size the endpoint
accepts, requests are served as before. Raw sockets against a real `askback serve`, with httptools and with h11.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from askback.web.headlimit import MAX_HEAD_BYTES
from tests.e2e.serving import Started, started
from tests.e2e.test_serve_exposure import env_for
from tests.e2e.workers import probed

BODY = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "head-test", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {}}}}).encode()


@pytest.fixture(params=["httptools", "h11"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Started]:
    with started(["askback.demo:app", "--port", "0", "--http", request.param], env_for(tmp_path)) as running:
        assert any(f"HTTP parser {request.param}" in line for line in running.lines), running.lines
        yield running


def port_of(server: Started) -> int:
    return int(server.url.split(":")[2].split("/")[0])


def request(port: int, *, extra: list[tuple[str, str]] = (), path: str = "/mcp", body: bytes = BODY,  # type: ignore[assignment]
            method: str = "tools/list") -> bytes:
    lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Type: application/json",
             "Accept: application/json, text/event-stream", "MCP-Protocol-Version: 2026-07-28",
             f"Mcp-Method: {method}", f"Content-Length: {len(body)}", *(f"{k}: {v}" for k, v in extra)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def exchange(port: int, *payloads: bytes) -> list[bytes]:
    """Send each payload on one connection and read one response after each (b"" once the server closed)."""
    answers = []
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        for payload in payloads:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # closed at the bound: read the answer
                conn.sendall(payload)
            answers.append(read_response(conn))
    return answers


def read_response(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = conn.recv(65536)
        except ConnectionResetError:
            return data
        if not chunk:
            return data
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length")), 0)
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        rest += chunk
    return head + b"\r\n\r\n" + rest


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer else 0


def closed_after(port: int, payload: bytes) -> tuple[int, bool]:
    """The status of `payload`'s answer, and whether the server then closed the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            conn.sendall(payload)
        answer = read_response(conn)
        try:
            rest = conn.recv(1)
        except ConnectionResetError:
            rest = b""
    return status(answer), rest == b""


def test_a_200_kb_header_is_refused_with_431_and_the_connection_closes(server: Started) -> None:
    code, closed = closed_after(port_of(server), request(port_of(server), extra=[("X-Big", "a" * 200_000)]))
    assert (code, closed) == (431, True)


@pytest.mark.parametrize("shape", ["one header", "many headers", "long target"])
def test_just_over_the_bound_is_431_and_just_under_is_served(server: Started, shape: str) -> None:
    port = port_of(server)
    base = len(request(port)) - len(BODY)

    def sized(total: int) -> bytes:
        room = total - base
        if shape == "one header":
            return request(port, extra=[("X-Pad", "b" * (room - len("X-Pad: \r\n")))])
        if shape == "many headers":
            count, each = divmod(room, 100)
            pads = [(f"X-P{i:05d}", "c" * (100 - len(f"X-P{i:05d}: \r\n"))) for i in range(count)]
            return request(port, extra=pads + ([("X-R", "d" * (each - len("X-R: \r\n")))] if each > 10 else []))
        return request(port, path="/mcp?" + "e" * (room - len("?")))

    under, over = sized(MAX_HEAD_BYTES - 200), sized(MAX_HEAD_BYTES + 200)
    assert len(under) - len(BODY) < MAX_HEAD_BYTES < len(over) - len(BODY)
    assert status(exchange(port, under)[0]) == 200
    assert status(exchange(port, over)[0]) == 431


def test_the_bound_is_per_request_on_a_kept_alive_connection(server: Started) -> None:
    port = port_of(server)
    near = request(port, extra=[("X-Pad", "f" * (MAX_HEAD_BYTES - 1000))])
    answers = exchange(port, near, near, near, request(port, extra=[("X-Big", "g" * (MAX_HEAD_BYTES + 10))]))
    assert [status(a) for a in answers] == [200, 200, 200, 431]


def test_a_large_body_is_not_a_large_head(server: Started) -> None:
    # The body is the endpoint's to bound (4 MiB): a 1 MB JSON-RPC request with small headers is answered.
    port = port_of(server)
    padded = json.loads(BODY)
    padded["params"]["_meta"]["pad"] = "h" * 1_000_000
    answer = exchange(port, request(port, body=json.dumps(padded).encode()))[0]
    assert status(answer) == 200 and b'"tools"' in answer


def test_the_server_keeps_serving_after_refusing(server: Started) -> None:
    port = port_of(server)
    for _ in range(3):
        assert closed_after(port, request(port, extra=[("X-Big", "i" * 300_000)]))[0] == 431
    assert status(exchange(port, request(port))[0]) == 200
    log = "\n".join(server.lines)
    assert "iiii" not in log


def worker_pid_request(port: int) -> bytes:
    call = json.loads(BODY)
    call.update(method="tools/call", id=2)
    call["params"].update(name="worker_pid", arguments={})
    return request(port, body=json.dumps(call).encode(), method="tools/call", extra=[("Mcp-Name", "worker_pid")])


def pinned_sockets(port: int, count: int, tries: int = 60) -> dict[int, socket.socket]:
    """Kept-open connections until `count` workers answered the probe: {pid: a connection to that worker}."""
    held: list[socket.socket] = []
    pinned: dict[int, socket.socket] = {}
    for _ in range(tries):
        conn = socket.create_connection(("127.0.0.1", port), timeout=30)
        held.append(conn)
        conn.sendall(worker_pid_request(port))
        pid = re.search(rb'"text": ?"(\d+)"', read_response(conn))
        assert pid is not None, "no pid in the probe's answer"
        pinned.setdefault(int(pid.group(1)), conn)
        if len(pinned) == count:
            break
        time.sleep(0.05)  # pacing only: a worker still starting gets its turn at the listener
    for conn in held:
        if conn not in pinned.values():
            conn.close()
    return pinned


@pytest.mark.parametrize("parser", ["httptools", "h11"])
def test_each_worker_bounds_heads_too(tmp_path: Path, parser: str) -> None:
    # Each big head goes on a connection whose worker is known: both workers must be seen refusing.
    with started([probed(tmp_path, "askback.demo"), "--port", "0", "--workers", "2", "--http", parser],
                 env_for(tmp_path)) as s:
        port = port_of(s)
        refusals: dict[int, int] = {}
        for pid, conn in pinned_sockets(port, 2).items():
            with conn:
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # closed at the bound
                    conn.sendall(request(port, extra=[("X-Big", "j" * 200_000)]))
                refusals[pid] = status(read_response(conn))
        served = [status(exchange(port, request(port))[0]) for _ in range(4)]
    assert len(refusals) == 2, f"only worker {sorted(refusals)} ever answered"
    assert list(refusals.values()) == [431, 431], refusals
    assert served == [200] * 4
