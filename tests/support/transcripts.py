"""Shell commands a page shows, run in a terminal and compared with the output the page shows.

A page opts a fenced block in with an HTML comment on the line just before it (invisible once rendered):

- `<!-- docs-test: compare -->` before a transcript: each line starting with `$ ` is a command (a line ending
  in a backslash continues it), and the lines up to the next command are what it prints;
- `<!-- docs-test: run -->` before a block of plain commands (`sh`/`bash`, each line a command, backslashes
  continue it): each is run, and what they print together is compared with the next block if that one is
  marked `<!-- docs-test: output -->` (else only their exit statuses are checked).

A command ending in `# exit N` must exit with N, every other one with 0. Commands run in bash, in a terminal
(a pty, so a program prints what a person would see: `askback` prints tables there, JSON into a pipe), with
no input, in one working directory per page. What must vary between runs is normalised on both sides before
comparing (`normalise`): the server's port, transfer references, page tickets and `requestState` tokens. When
the expected output is JSON, both sides are compared as JSON values, so a page may show it indented.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import shlex
import struct
import subprocess
import termios
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MARKER = re.compile(r"^[ \t]*<!--\s*docs-test:\s*(?P<kind>compare|run|output)\s*-->[ \t]*$")
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.MULTILINE | re.DOTALL)
EXIT = re.compile(r"\s+#\s*exit\s+(?P<status>\d+)\s*$")
PAGE_PORT = 8000  # the port the pages' commands name: the demo's default

# What differs from one run to the next, replaced by the same placeholder on both sides.
VARYING = (
    (re.compile(r"\bTX-[0-9A-F]{8}\b"), "TX-…"),
    (re.compile(r"/askback/p/[A-Za-z0-9_-]{16,}"), "/askback/p/…"),
    (re.compile(r'("requestState"\s*:\s*)"[^"]*"'), r'\1"…"'),
)


@dataclass(frozen=True)
class Command:
    line: int  # where the command starts on its page
    text: str
    status: int


@dataclass(frozen=True)
class Shown:
    """One opted-in block: its commands, and the output it shows (None: only exit statuses are checked)."""

    page: Path
    line: int
    commands: tuple[Command, ...]
    expected: str | None


def _blocks(text: str) -> list[tuple[str | None, int, str]]:
    """Each fenced block: the docs-test marker on the line before it (or None), its first line, its body."""
    found = []
    for match in FENCE.finditer(text):
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = MARKER.match(before)
        indent = len(match.group("indent"))
        body = "".join(line[indent:] if line[:indent].strip() == "" else line
                       for line in match.group("body").splitlines(keepends=True))
        found.append((marker.group("kind") if marker else None, text.count("\n", 0, match.start("body")) + 1, body))
    return found


def _command(line: int, text: str) -> Command:
    match = EXIT.search(text)
    if match:
        return Command(line, text[:match.start()], int(match.group("status")))
    return Command(line, text, 0)


def _complete(text: str) -> bool:
    """Whether a command's text is whole: no line continued by a backslash, no quote left open."""
    if text.endswith("\\"):
        return False
    try:
        shlex.split(text, comments=True)
    except ValueError:  # "No closing quotation": the quoted text goes on, on the next line
        return False
    return True


def _take(lines: list[str], i: int, first: str) -> tuple[str, int]:
    """The command starting with `first` (at `lines[i]`), the lines it continues onto, and the next index."""
    text = first
    while not _complete(text) and i + 1 < len(lines):
        i += 1
        text += "\n" + lines[i]
    return text, i + 1


def transcript(page: Path, first: int, body: str) -> list[Shown]:
    """A `compare` block: one `Shown` per command, with the lines it prints."""
    shown: list[Shown] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"{page.name}:{first + i}: a transcript line before any '$ ' command")
        start = i
        text, i = _take(lines, i, lines[i][2:])
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        shown.append(Shown(page, first + start, (_command(first + start, text),), "\n".join(output)))
    return shown


def commands(page: Path, first: int, body: str) -> tuple[Command, ...]:
    """A `run` block: its commands (continued lines joined), blank lines and comment lines left out."""
    found: list[Command] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        start = i
        text, i = _take(lines, i, lines[i])
        if text.strip() and not text.lstrip().startswith("#"):
            found.append(_command(first + start, text))
    return tuple(found)


def shown_on(page: Path) -> list[Shown]:
    """Every opted-in block of a page, in the page's order."""
    shown: list[Shown] = []
    pending: Shown | None = None
    for kind, line, body in _blocks(page.read_text(encoding="utf-8")):
        if pending is not None:
            shown.append(Shown(page, pending.line, pending.commands, body) if kind == "output" else pending)
            pending = None
            if kind == "output":
                continue
        if kind == "compare":
            shown.extend(transcript(page, line, body))
        elif kind == "run":
            pending = Shown(page, line, commands(page, line, body), None)
        elif kind == "output":
            raise ValueError(f"{page.name}:{line}: an output block must follow a 'run' block")
    if pending is not None:
        shown.append(pending)
    return shown


def normalise(text: str, port: int | None = None) -> str:
    if port is not None:
        text = re.sub(rf"(?<=127\.0\.0\.1:){port}\b|(?<=localhost:){port}\b", str(PAGE_PORT), text)
    for pattern, placeholder in VARYING:
        text = pattern.sub(placeholder, text)
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return "\n".join(lines).strip("\n")


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _normalised_json(value: Any) -> Any:
    """A JSON value with what varies replaced, key by key (a `requestState`) and inside every string."""
    if isinstance(value, dict):
        return {k: "…" if k == "requestState" else _normalised_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalised_json(v) for v in value]
    if isinstance(value, str):
        return normalise(value)
    return value


def same_output(expected: str, actual: str, port: int) -> tuple[bool, str, str]:
    """Whether `actual` shows what `expected` shows; both as compared (normalised, or as JSON values)."""
    want, got = normalise(expected), normalise(actual, port)
    want_json = _json(want)
    if want_json is not None:
        got_json = _json(got)
        want = json.dumps(_normalised_json(want_json), indent=2, ensure_ascii=False)
        got = json.dumps(_normalised_json(got_json), indent=2, ensure_ascii=False) if got_json is not None else got
    return want == got, want, got


def run_in_terminal(command: str, cwd: Path, env: dict[str, str], timeout: float = 120) -> tuple[int, str]:
    """Run `command` in bash with a pty as its standard output and error and no input: (status, output)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))  # 200 columns: nothing wraps
    process = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=slave,
                               stderr=slave, close_fds=True, start_new_session=True)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                process.kill()
                raise TimeoutError(f"{command!r} still ran after {timeout} s; it printed {b''.join(chunks)!r}")
            ready, _, _ = select.select([master], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: every writer has closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        status = process.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
    return status, b"".join(chunks).decode("utf-8", "replace")


def on_port(command: str, port: int) -> str:
    """The page's command, sent to the server that is really running."""
    return re.sub(rf"(?<=127\.0\.0\.1:){PAGE_PORT}\b|(?<=localhost:){PAGE_PORT}\b", str(port), command)
