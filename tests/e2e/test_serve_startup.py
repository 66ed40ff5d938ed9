"""Defect 10 and the first things a new user types: every start-up failure is one line on stderr and exit 2.

Each case runs the installed `askback serve` as a subprocess, as a person would. The "serving ... at URL" line
comes only once the port is bound, so the URL it names answers at once (and `--port 0` names the real port).
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from askback import __version__
from tests.e2e.serving import refused, started
from tests.e2e.test_cli import ROOT, askback_command, serve_env
from tests.support.rawclient import RawClient


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    return serve_env(tmp_path / "data", **extra)


def store_env(tmp_path: Path, path: Path | str) -> dict[str, str]:
    return env_for(tmp_path, ASKBACK_STORE=f"sqlite:///{path}")


# -- the store --------------------------------------------------------------------------------------------
def test_a_store_file_that_is_not_sqlite(tmp_path: Path) -> None:
    store = tmp_path / "notes.txt"
    store.write_text("these are my notes, not a database\n" * 20)
    line = refused(["askback.demo:app", "--port", "0"], store_env(tmp_path, store))
    assert str(store) in line and "not an SQLite database" in line, line
    assert store.read_text().startswith("these are my notes"), "the file was changed"


@pytest.mark.parametrize("url", ["mysql://db/tasks", "tasks.db"])
def test_an_a2a_task_store_askback_cannot_open_is_refused_at_start(tmp_path: Path, url: str) -> None:
    # The A2A agent is built on first need; its store's URL is still read before the port is bound.
    line = refused(["askback.demo:app", "--port", "0"], env_for(tmp_path, ASKBACK_A2A_TASKS=url))
    assert "ASKBACK_A2A_TASKS" in line, line


def test_a_store_path_that_is_a_directory(tmp_path: Path) -> None:
    line = refused(["askback.demo:app", "--port", "0"], store_env(tmp_path, tmp_path))
    assert str(tmp_path) in line and "is a directory" in line, line


def test_a_store_path_under_a_regular_file(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    line = refused(["askback.demo:app", "--port", "0"], store_env(tmp_path, blocker / "store.sqlite3"))
    assert str(blocker) in line and "is a file, not a directory" in line, line


def read_only_prefix(directory: Path) -> tuple[str, ...]:
    """A command prefix under which `directory` cannot be written, even by root (modes do not stop root)."""
    if os.geteuid() != 0:
        directory.chmod(0o555)
        return ()
    unshare = shutil.which("unshare")
    probe = subprocess.run([unshare or "unshare", "--mount", "true"], capture_output=True) if unshare else None
    if probe is None or probe.returncode != 0:
        pytest.skip("as root, a directory is read-only only on a read-only mount, and `unshare --mount` "
                    "(to bind one for this process alone) is not available here")
    return (unshare or "unshare", "--mount", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"', str(directory))


@contextmanager
def immutable(path: Path) -> Iterator[None]:
    """`path` cannot be written: mode 0444, or for root (whom modes do not stop) the immutable attribute."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        yield
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("as root, a file is read-only only with the immutable attribute, and `chattr +i` does not "
                    "work here (no chattr, no CAP_LINUX_IMMUTABLE, or a file system without attributes)")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


def test_a_store_in_a_directory_that_is_not_writable(tmp_path: Path) -> None:
    directory = tmp_path / "ro"
    directory.mkdir()
    try:
        line = refused(["askback.demo:app", "--port", "0"], store_env(tmp_path, directory / "store.sqlite3"),
                       prefix=read_only_prefix(directory))
    finally:
        directory.chmod(0o755)
    assert str(directory / "store.sqlite3") in line and "cannot open" in line, line


def test_an_existing_store_that_is_not_writable(tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite3"
    with sqlite3.connect(store) as conn:
        conn.execute("CREATE TABLE used_flows (flow_id TEXT PRIMARY KEY, expires_at REAL NOT NULL)")
    conn.close()
    with immutable(store):
        line = refused(["askback.demo:app", "--port", "0"], store_env(tmp_path, store))
    assert str(store) in line and "read-only" in line, line


# -- the app file -----------------------------------------------------------------------------------------
def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_an_app_file_with_a_syntax_error(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.py", "import askback\n\napp = askback.App('b')\n\nif True\n    pass\n")
    line = refused([str(path), "--port", "0"], env_for(tmp_path))
    assert f"{path}:5" in line and "SyntaxError" in line, line


def test_an_app_file_with_an_import_error(tmp_path: Path) -> None:
    path = write(tmp_path, "needs.py", "import askback\nimport nosuchdependency_xyz\n\napp = askback.App('n')\n")
    line = refused([str(path), "--port", "0"], env_for(tmp_path))
    assert "No module named 'nosuchdependency_xyz'" in line and f"{path}:2" in line, line


def test_an_app_file_that_fails_while_registering(tmp_path: Path) -> None:
    path = write(tmp_path, "login.py", "import askback\n\napp = askback.App('l')\n\n\n@app.tool()\n"
                                       "def login(user: str, password: str) -> str:\n    return user\n")
    line = refused([str(path), "--port", "0"], env_for(tmp_path))
    assert "password" in line and str(path) in line, line


def test_a_module_target_with_a_syntax_error(tmp_path: Path) -> None:
    write(tmp_path, "brokenmod.py", "app = (\n")
    env = env_for(tmp_path, PYTHONPATH=str(tmp_path))
    line = refused(["brokenmod:app", "--port", "0"], env)
    assert "brokenmod" in line and "SyntaxError" in line, line


def test_a_file_without_app_names_the_apps_it_has(tmp_path: Path) -> None:
    path = write(tmp_path, "named.py", "import askback\n\napplication = askback.App('n')\n")
    line = refused([str(path), "--port", "0"], env_for(tmp_path))
    assert "no 'app'" in line and "application" in line and "NoneType" not in line, line


# -- the port ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("port", ["99999", "65536", "-1", "eighty"])
@pytest.mark.parametrize("command", ["serve", "demo"])
def test_a_port_out_of_range_is_a_one_line_usage_error(tmp_path: Path, port: str, command: str) -> None:
    args = ["--port", port] if command == "demo" else ["askback.demo:app", "--port", port]
    line = refused(args, env_for(tmp_path), command=command)
    assert "--port" in line and "0-65535" in line, line


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use_is_one_line_and_no_serving_claim(tmp_path: Path, workers: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = refused(["askback.demo:app", "--port", str(port), "--workers", workers], env_for(tmp_path))
    assert f"127.0.0.1:{port}" in line and "already in use" in line, line


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_serving_line_comes_once_the_port_answers(tmp_path: Path, workers: str) -> None:
    """`--port 0` picks a free port; the URL printed is the real one, and it answers without a retry."""
    with started(["askback.demo:app", "--port", "0", "--workers", workers], env_for(tmp_path)) as server:
        assert not server.url.startswith("http://127.0.0.1:0/"), server.url
        with RawClient(server.url) as client:
            assert "result" in client.send("tools/list")


def test_the_demo_takes_its_port_from_make(tmp_path: Path) -> None:
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    venv = Path(askback_command()[0]).parent.parent if len(askback_command()) == 1 else None
    if venv is None:
        pytest.skip("the askback console script is not installed in a venv")
    env = {**os.environ, "HOST": "somewhere.example", "PORT": "1"}  # a shell's HOST must not leak in
    plain = subprocess.run([make, "-n", "demo", f"VENV={venv}"], cwd=ROOT, env=env, capture_output=True,
                           text=True, check=True).stdout
    assert "demo --host 127.0.0.1 --port 8000" in plain, plain
    chosen = subprocess.run([make, "-n", "demo", f"VENV={venv}", "PORT=8010", "HOST=localhost"], cwd=ROOT,
                            env=env, capture_output=True, text=True, check=True).stdout
    assert "demo --host localhost --port 8010" in chosen, chosen


# -- what a new user types first --------------------------------------------------------------------------
def test_version() -> None:
    run = subprocess.run([*askback_command(), "--version"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"askback {__version__}"


@pytest.mark.parametrize(("command", "flags"), [
    ("serve", ["--host", "--port", "--stdio", "--workers", "--log-level", "--allowed-host", "--allowed-origin",
               "--allow-any-origin"]),
    ("demo", ["--host", "--port", "--log-level", "--allowed-host", "--allowed-origin", "--allow-any-origin"]),
])
def test_every_serve_flag_has_help_and_its_default(command: str, flags: list[str]) -> None:
    run = subprocess.run([*askback_command(), command, "--help"], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "COLUMNS": "200"})
    assert run.returncode == 0, run.stderr
    options = run.stdout.split("options:", 1)[1]
    entries: dict[str, str] = {}
    flag = ""
    for line in options.splitlines():
        stripped = line.strip()
        if stripped.startswith("-"):  # a flag, its help on this line or the next ones
            invocation, _, text = stripped.partition("  ")
            flag = invocation.split()[0].rstrip(",")
            entries[flag] = text.strip()
        elif stripped and flag and line.startswith(" " * 10):
            entries[flag] = f"{entries[flag]} {stripped}".strip()
        else:
            flag = ""
    for flag in flags:
        assert entries.get(flag), f"{flag} has no help text: {options}"
    for flag in ("--host", "--port", "--log-level"):
        assert "(default: " in entries[flag], entries[flag]
    if command == "serve":
        assert "(default: 1)" in entries["--workers"]
        assert "target" in run.stdout.split("options:", 1)[0].split("positional arguments:", 1)[1]
