"""Run the TypeScript SDK v2 client scripts in tests/e2e/ts/ against a server on loopback.

The pinned packages (tests/e2e/ts/package-lock.json) are installed from the npm registry with `npm ci` into a
cache directory keyed by the lock file, once per machine; the scripts are copied into a folder below them, so that
node resolves the packages from there. Without node or npm the tests skip locally, saying why; under
`CI=true` that is a failure, since a CI run that skipped the only non-Python client would prove nothing.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "e2e" / "ts"
CACHE = Path(os.environ.get("ASKBACK_TEST_CACHE", Path.home() / ".cache" / "askback-tests")) / "ts"
IN_CI = os.environ.get("CI") == "true"


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"TypeScript SDK client tests cannot run under CI: {reason}")
    pytest.skip(f"TypeScript SDK client tests skipped: {reason}")


def install() -> tuple[str, Path]:
    """The node executable and the directory holding the scripts, next to the installed client."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        _unavailable("node and npm must be on PATH (node >= 20)")
    assert node is not None and npm is not None
    version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    if int(version.lstrip("v").split(".")[0] or 0) < 20:
        _unavailable(f"node {version} is too old; @modelcontextprotocol/client needs node >= 20")
    lock = (SOURCE / "package-lock.json").read_bytes()
    home = CACHE / hashlib.sha256(lock).hexdigest()[:16]
    home.mkdir(parents=True, exist_ok=True)
    # Several checkouts on one machine share the cache: one installs, the others wait for it.
    with open(home.with_suffix(".lock"), "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not all((home / "node_modules" / "@modelcontextprotocol" / name / "package.json").is_file()
                   for name in ("client", "server-everything")):
            for name in ("package.json", "package-lock.json"):
                shutil.copyfile(SOURCE / name, home / name)
            done = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=home,
                                  capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                _unavailable(f"npm ci failed in {home}: {done.stderr.strip()[-1500:]}")
        # Node resolves the packages from the parent directory; a folder per script version keeps checkouts
        # with different scripts from overwriting each other's.
        scripts = sorted(SOURCE.glob("*.mjs"))
        digest = hashlib.sha256(b"".join(p.name.encode() + p.read_bytes() for p in scripts)).hexdigest()[:16]
        folder = home / f"scripts-{digest}"
        if not folder.is_dir():
            staging = home / f".staging-{digest}-{os.getpid()}"
            staging.mkdir()
            for script in scripts:
                shutil.copyfile(script, staging / script.name)
            staging.rename(folder)
    return node, folder


def everything_server() -> list[str]:
    """The command that serves the TypeScript SDK's example server (`@modelcontextprotocol/server-everything`,
    pinned with the client) over stdio."""
    node, folder = install()
    return [node, str(folder.parent / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist"
                      / "index.js"), "stdio"]


def run(script: str, *args: str) -> dict[str, Any]:
    """Run one script; its single line of JSON output."""
    node, folder = install()
    done = subprocess.run([node, script, *args], cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"node {script} exited {done.returncode}: {done.stderr[-3000:]}"
    lines = done.stdout.strip().splitlines()
    assert lines, f"node {script} printed nothing; stderr: {done.stderr[-3000:]}"
    output: dict[str, Any] = json.loads(lines[-1])
    return output
