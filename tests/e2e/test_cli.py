"""`askback serve` as a real subprocess: targets, several workers sharing one generated key, and clear errors."""


import base64
import os
import shutil
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from askback.config import load_or_create_key_file
from askback.core.state import Binding, Keyring, StateCodec, arguments_digest
from tests.conftest import free_port
from tests.e2e.workers import pin_workers, probed, release
from tests.support.processes import stop
from tests.support.rawclient import RawClient, accept

ROOT = Path(__file__).resolve().parents[2]
FROZEN = "Invalid or expired requestState; start the request again without it."
TO_IBAN = "DE44500105175407324931"
SAVINGS = "DE02120300000000202051"


def askback_command() -> list[str]:
    """The installed `askback` console script, else the module."""
    script = shutil.which("askback", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "askback.cli"]


def serve_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("ASKBACK_KEYS", "ASKBACK_STORE")}
    env["ASKBACK_DATA_DIR"] = str(data_dir)
    env.update(extra)
    return env


class Served:
    def __init__(self, process: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.process = process
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.log = log


@contextmanager
def served(args: list[str], env: dict[str, str], log: Path, timeout: float = 30) -> Iterator[Served]:
    """Run `askback serve ARGS --port P`, wait until it answers tools/list, stop it afterwards."""
    port = free_port()
    with log.open("wb") as sink:
        process = subprocess.Popen([*askback_command(), "serve", *args, "--port", str(port)], cwd=ROOT, env=env,
                                   stdout=sink, stderr=subprocess.STDOUT)
        server = Served(process, port, log)
        try:
            deadline = time.monotonic() + timeout
            while True:
                if process.poll() is not None:
                    pytest.fail(f"askback serve exited with {process.returncode}:\n{log.read_text()}")
                try:
                    with RawClient(server.url) as c:
                        if "result" in c.send("tools/list"):
                            break
                except (httpx.HTTPError, ValueError):
                    pass
                if time.monotonic() > deadline:
                    pytest.fail(f"askback serve did not answer within {timeout} s:\n{log.read_text()}")
                time.sleep(0.1)
            yield server
        finally:
            stop(process)


def fresh_call(url: str, *args: Any, **kw: Any) -> dict[str, Any]:
    """One tools/call on a new connection, so consecutive rounds may land on different workers."""
    with RawClient(url) as c:
        c.http.headers["Connection"] = "close"
        return c.call(*args, **kw)


def result_of(response: dict[str, Any]) -> dict[str, Any]:
    assert "error" not in response, response
    result: dict[str, Any] = response["result"]
    return result


# -- (1) a file target -------------------------------------------------------------------------------------
def test_serve_a_file_target_answers_tools_list(tmp_path: Path) -> None:
    with served(["tests/conformance/server.py"], serve_env(tmp_path / "data"), tmp_path / "log") as server, \
            RawClient(server.url) as c:
        listing = result_of(c.send("tools/list"))
        names = {t["name"] for t in listing["tools"]}
        assert {"test_input_required_result_elicitation", "test_input_required_result_multi_round",
                "test_input_required_result_tampered_state"} <= names
        asked = result_of(c.call("test_input_required_result_elicitation"))
        assert asked["resultType"] == "input_required"
        done = result_of(c.call("test_input_required_result_elicitation", state=asked["requestState"],
                                responses={"user_name": accept(name="Alice")}))
        assert done["content"][0]["text"] == "Hello, Alice!"


# -- (2) several workers, one generated key ----------------------------------------------------------------
def transfer_rounds(urls: list[str], amount: int) -> tuple[dict[str, Any], str]:
    """A 3-round demo transfer, round i sent to urls[i]; returns the final result and the last state."""
    r1 = result_of(fresh_call(urls[0], "transfer", {"amount": amount}))
    assert set(r1["inputRequests"]) == {"to", "from_account"}, r1
    r2 = result_of(fresh_call(urls[1], "transfer", {"amount": amount}, state=r1["requestState"], responses={
        "to": accept(to=TO_IBAN), "from_account": accept(from_account=SAVINGS)}))
    assert list(r2["inputRequests"]) == ["confirm"], r2
    final = result_of(fresh_call(urls[2], "transfer", {"amount": amount}, state=r2["requestState"],
                                 responses={"confirm": accept(confirm=True)}))
    state: str = r2["requestState"]
    return final, state


def assert_key_file(data_dir: Path) -> str:
    key_file = data_dir / "keys"
    assert key_file.is_file(), sorted(p.name for p in data_dir.iterdir())
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    text = key_file.read_text()
    assert len(text.split()) == 1, "one generated key"
    assert len(base64.urlsafe_b64decode(text.strip() + "=" * (-len(text.strip()) % 4))) >= 32
    return text


def test_two_workers_share_the_generated_key_and_finish_flows(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    env = serve_env(data_dir)
    with served(["askback.demo:app", "--workers", "2"], env, tmp_path / "log") as server:
        key_text = assert_key_file(data_dir)
        url = server.url
        last_state = ""
        for i in range(10):
            final, last_state = transfer_rounds([url, url, url], amount=10 + i)
            assert final["structuredContent"]["status"] == "sent", final
            assert final["structuredContent"]["amount"] in (10 + i, str(10 + i)), final
        # Single-use holds across workers: the store is shared too.
        replay = fresh_call(url, "transfer", {"amount": 19}, state=last_state,
                            responses={"confirm": accept(confirm=True)})
        assert replay.get("error") == {"code": -32602, "message": FROZEN}, replay
        # The key the workers seal with is the one in the file.
        pending = result_of(fresh_call(url, "transfer", {"amount": 7}))["requestState"]
        codec = StateCodec(Keyring.from_text(key_text))
        binding = Binding("askback-demo", "tools/call", "transfer", arguments_digest({"amount": 7}), None)
        assert codec.open(pending, binding).progress.rounds == 1
    assert (data_dir / "keys").read_text() == key_text, "the key file was rewritten"

    # A restart keeps the key: a flow begun before it finishes after it.
    with served(["askback.demo:app", "--workers", "2"], env, tmp_path / "log2") as server:
        r2 = result_of(fresh_call(server.url, "transfer", {"amount": 7}, state=pending, responses={
            "to": accept(to=TO_IBAN), "from_account": accept(from_account=SAVINGS)}))
        assert list(r2["inputRequests"]) == ["confirm"]
    assert (data_dir / "keys").read_text() == key_text


def test_rounds_of_one_flow_cross_workers(tmp_path: Path) -> None:
    """Pin one keep-alive connection to each worker, then alternate a flow's rounds between them."""
    data_dir = tmp_path / "data"
    with served([probed(tmp_path, "askback.demo"), "--workers", "2"], serve_env(data_dir), tmp_path / "log") as server:
        workers = pin_workers(server.url, 2)
        try:
            a, b = (w.client for w in workers)
            for i in range(5):
                first, second = (a, b) if i % 2 == 0 else (b, a)
                r1 = result_of(first.call("transfer", {"amount": 5}))
                r2 = result_of(second.call("transfer", {"amount": 5}, state=r1["requestState"], responses={
                    "to": accept(to=TO_IBAN), "from_account": accept(from_account=SAVINGS)}))
                assert list(r2["inputRequests"]) == ["confirm"], r2
                final = result_of(first.call("transfer", {"amount": 5}, state=r2["requestState"],
                                             responses={"confirm": accept(confirm=True)}))
                assert final["structuredContent"]["status"] == "sent", final
                replay = second.call("transfer", {"amount": 5}, state=r2["requestState"],
                                     responses={"confirm": accept(confirm=True)})
                assert replay.get("error") == {"code": -32602, "message": FROZEN}, replay
            # Still the same two processes on the same connections: every round above really alternated.
            for worker in workers:
                assert worker.pid_now() == worker.pid
        finally:
            release(workers)
    assert_key_file(data_dir)


def test_a_worker_starting_while_another_writes_the_key_gets_the_same_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deterministic replay of the start-up race between two workers with no configured key."""
    data_dir = tmp_path / "data"
    real_fdopen = os.fdopen
    created, may_write = threading.Event(), threading.Event()

    def slow_fdopen(fd: int, *args: Any, **kw: Any) -> Any:
        created.set()  # worker A created the file and is about to write the key
        may_write.wait(timeout=5)
        return real_fdopen(fd, *args, **kw)

    found: dict[str, Any] = {}

    def worker_a() -> None:
        found["a"] = load_or_create_key_file(data_dir)

    monkeypatch.setattr(os, "fdopen", slow_fdopen)  # the os module askback.config uses
    first = threading.Thread(target=worker_a)
    first.start()
    assert created.wait(timeout=5)
    monkeypatch.setattr(os, "fdopen", real_fdopen)
    try:
        reader = threading.Thread(target=lambda: found.__setitem__("b", _try_load(data_dir)))
        reader.start()
        reader.join(timeout=1)  # a correct implementation may wait for the writer instead of answering now
    finally:
        may_write.set()
        first.join(timeout=10)
    reader.join(timeout=10)
    b = found.get("b")
    assert isinstance(b, Keyring), f"worker B failed: {b!r}"
    assert b.sealing_key_id == found["a"].sealing_key_id


def _try_load(data_dir: Path) -> Keyring | Exception:
    try:
        return load_or_create_key_file(data_dir)
    except Exception as exc:
        return exc


# -- (3) and (4) errors at start-up -----------------------------------------------------------------------
def run_serve(args: list[str], env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run([*askback_command(), "serve", *args, "--port", str(free_port())], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"askback serve {args} kept running instead of exiting with an error: {exc.stderr!r}")


@pytest.mark.parametrize(("target", "expected"), [
    ("nosuch.py", "nosuch.py"),
    ("askback.demo:nothing", "nothing"),
    ("nosuchmodule:app", "nosuchmodule"),
    ("tests/conformance/server.py:nothing", "nothing"),
    ("tests/conformance", "tests/conformance"),
], ids=["missing file", "missing attribute", "missing module", "missing attribute in a file", "a directory"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_bad_target_is_a_one_line_error(tmp_path: Path, target: str, expected: str, workers: str) -> None:
    run = run_serve([target, "--workers", workers], serve_env(tmp_path / "data"))
    assert run.returncode != 0, run
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("askback: ") and expected in lines[0], lines
    assert "Traceback" not in run.stderr + run.stdout
    assert not (tmp_path / "data" / "keys").exists()


SHORT_KEY = base64.urlsafe_b64encode(b"k" * 16).decode().rstrip("=")


@pytest.mark.parametrize("keys", ["abc", SHORT_KEY], ids=["3 chars", "16 bytes"])
def test_too_short_key_stops_the_server(tmp_path: Path, keys: str) -> None:
    run = run_serve(["askback.demo:app"], serve_env(tmp_path / "data", ASKBACK_KEYS=keys))
    assert run.returncode != 0, run
    assert "at least 32 bytes" in run.stderr, run.stderr
    assert not (tmp_path / "data" / "keys").exists(), "a bad ASKBACK_KEYS must not fall back to a generated key"


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("setting", [("ASKBACK_KEYS", SHORT_KEY, "32 bytes"),
                                     ("ASKBACK_KEYS", "*" * 44, "base64url"),
                                     ("ASKBACK_STORE", "postgres://db/x", "postgres")],
                         ids=["short key", "key not base64url", "unknown store"])
def test_bad_configuration_is_a_one_line_error(tmp_path: Path, setting: tuple[str, str, str], workers: str) -> None:
    name, value, says = setting
    run = run_serve(["askback.demo:app", "--workers", workers], serve_env(tmp_path / "data", **{name: value}))
    assert run.returncode != 0, run
    assert "Traceback" not in run.stderr, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("askback: ") and says in lines[0], run.stderr
