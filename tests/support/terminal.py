"""A command in a pseudo-terminal (pexpect) that gets Ctrl-C the way a person's terminal gives it.

A process started with SIGINT ignored passes that on to its children (a `&` job in a script, `nohup`, a CI
runner): a child that inherits it never sees Ctrl-C, and a test that types Ctrl-C then waits for nothing. So
the child sets SIGINT (and SIGQUIT) back to their defaults itself, before it runs the command: the test does
not depend on how the suite was started.
"""

from __future__ import annotations

import signal
from collections.abc import Mapping, Sequence
from pathlib import Path

import pexpect


def _default_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def spawn(command: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float = 30,
          dimensions: tuple[int, int] = (50, 140)) -> pexpect.spawn:
    """`command` in a pty, with the signals a terminal's keys send at their defaults (see the module's note)."""
    return pexpect.spawn(command[0], list(command[1:]), cwd=str(cwd), encoding="utf-8", timeout=timeout,
                         env=dict(env), dimensions=dimensions, preexec_fn=_default_signals)
