"""Subprocess helpers shared by tests that run `askback serve` for real."""

from __future__ import annotations

import subprocess


def stop(process: subprocess.Popen[bytes]) -> None:
    """Terminate, then kill if it does not exit in time; always reaped."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
