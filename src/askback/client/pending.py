"""A call waiting for answers, its file format, and the errors that end a call with one.

A `Pending` is everything needed to continue an `input_required` call later, in another process or on another
machine: where the server is, the request (method, tool name and arguments, or URI), the questions, and the
server's opaque `requestState`, echoed exactly as received.

The file is versioned JSON (`"format": "askback.pending", "version": 1`). It holds the **arguments in clear**
and the **answers given so far only inside the sealed `requestState`** (opaque to the client). It is written
with mode 0600, atomically. A call the server runs as a task (the MCP tasks extension) is saved as version 2:
the same fields plus `taskId`, so that `resume` follows the task (`tasks/get`, `tasks/update`) instead of
calling the tool again; a reader of version 1 refuses it rather than running the tool a second time.
"""

from __future__ import annotations

import json
import os
import shlex
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from askback.client.errors import ClientError
from askback.client.questions import Question, parse_questions

FORMAT = "askback.pending"
VERSION = 1
TASK_VERSION = 2  # a pending task: version 1's fields plus `taskId`
ASKING_METHODS = ("tools/call", "prompts/get", "resources/read")


def target_of(method: str, params: Mapping[str, Any]) -> str:
    """What an asking request is about: the tool or prompt name, or the resource URI."""
    return str(params.get("uri" if method == "resources/read" else "name", ""))


class PendingFileError(ClientError):
    """A pending file that cannot be read as version 1 of the format."""


@dataclass(frozen=True)
class Server:
    """Where the server is: an MCP URL (streamable HTTP) or a command (stdio)."""

    url: str | None = None
    command: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if (self.url is None) == (not self.command):
            raise ValueError("a server is either a url or a command")

    @classmethod
    def of(cls, server: str | Sequence[str] | Server, *, command_line: bool = False) -> Server:
        """A server from what a person gives: an http(s) URL, a command as a list, or (with `command_line`,
        as on the `askback` command line) a command as one shell-quoted string."""
        if isinstance(server, Server):
            return server
        if isinstance(server, str):
            if server.startswith(("http://", "https://")):
                return cls(url=server)
            if not command_line:
                raise ValueError(
                    f"{server!r} is not an http(s) URL; give a command as a list, e.g. ['askback', 'serve', "
                    "'app.py', '--stdio']"
                )
            server = shlex.split(server)
        if not server:
            raise ValueError("the server is neither an http(s) URL nor a command")
        return cls(command=tuple(server))

    def describe(self) -> str:
        return self.url if self.url is not None else " ".join(self.command)

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url} if self.url is not None else {"command": list(self.command)}

    @classmethod
    def from_json(cls, data: Any) -> Server:
        if isinstance(data, Mapping) and isinstance(data.get("url"), str):
            return cls(url=data["url"])
        command = data.get("command") if isinstance(data, Mapping) else None
        if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
            return cls(command=tuple(command))
        raise PendingFileError('\'server\' must be {"url": ...} or {"command": [...]}')


@dataclass(frozen=True)
class Pending:
    """An `input_required` call that waits for answers."""

    server: Server
    method: str
    params: Mapping[str, Any]
    input_requests: Mapping[str, Any]
    request_state: str | None
    rounds: int = 1
    protocol_version: str = "2026-07-28"
    server_name: str | None = None
    saved_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    options: Mapping[str, Any] = field(default_factory=dict)  # how the call was answered (the CLI's flags)
    task_id: str | None = None  # the server runs the call as this task: continue it, never call again

    @property
    def questions(self) -> tuple[Question, ...]:
        return parse_questions(self.input_requests)

    @property
    def target(self) -> str:
        """The tool or prompt name, or the resource URI."""
        return target_of(self.method, self.params)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION if self.task_id is None else TASK_VERSION,
            "savedAt": self.saved_at,
            "server": self.server.to_json(),
            "protocolVersion": self.protocol_version,
            "method": self.method,
            "params": dict(self.params),
            "rounds": self.rounds,
            "inputRequests": dict(self.input_requests),
        }
        if self.server_name is not None:
            data["serverName"] = self.server_name
        if self.request_state is not None:
            data["requestState"] = self.request_state
        if self.options:
            data["options"] = dict(self.options)
        if self.task_id is not None:
            data["taskId"] = self.task_id
        return data

    @classmethod
    def from_json(cls, data: Any) -> Pending:
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise PendingFileError(f'not an askback pending file (no "format": "{FORMAT}")')
        version = data.get("version")
        if version not in (VERSION, TASK_VERSION) or isinstance(version, bool):
            raise PendingFileError(
                f"pending file version {version!r} is not supported (only {VERSION} and {TASK_VERSION})"
            )
        task_id = data.get("taskId")
        if version == TASK_VERSION and (not isinstance(task_id, str) or not task_id):
            raise PendingFileError("a version 2 pending file (a task) must have a 'taskId' string")
        if version == VERSION and task_id is not None:
            raise PendingFileError("'taskId' needs version 2 of the format")
        method, params = data.get("method"), data.get("params")
        if method not in ASKING_METHODS:
            raise PendingFileError(f"'method' must be one of {', '.join(ASKING_METHODS)}")
        if not isinstance(params, Mapping):
            raise PendingFileError("'params' must be an object")
        requests = data.get("inputRequests", {})
        state = data.get("requestState")
        if not isinstance(requests, Mapping) or (state is not None and not isinstance(state, str)):
            raise PendingFileError("'inputRequests' must be an object and 'requestState' a string")
        rounds = data.get("rounds", 1)
        return cls(
            server=Server.from_json(data.get("server")),
            method=method,
            params=dict(params),
            input_requests=dict(requests),
            request_state=state,
            rounds=rounds if isinstance(rounds, int) and rounds >= 0 else 1,
            protocol_version=str(data.get("protocolVersion", "2026-07-28")),
            server_name=data.get("serverName") if isinstance(data.get("serverName"), str) else None,
            saved_at=str(data.get("savedAt", "")),
            options=dict(options) if isinstance(options := data.get("options"), Mapping) else {},
            task_id=task_id,
        )

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the pending file atomically, readable by its owner only (mode 0600)."""
        target = Path(path)
        text = json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"
        directory = target.parent if str(target.parent) else Path(".")
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.chmod(tmp, 0o600)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Pending:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise PendingFileError(f"cannot read {os.fspath(path)}: {exc.strerror or exc}") from None
        except json.JSONDecodeError as exc:
            raise PendingFileError(f"{os.fspath(path)}: not JSON ({exc})") from None
        try:
            return cls.from_json(data)
        except PendingFileError as exc:
            raise PendingFileError(f"{path}: {exc}") from None


class Unfinished(ClientError):
    """The call stopped before the server finished; `pending` holds the open questions (or None)."""

    def __init__(self, message: str, pending: Pending | None) -> None:
        if pending is not None and pending.questions:
            message += " Open questions: " + ", ".join(q.key for q in pending.questions) + "."
        super().__init__(message)
        self.pending = pending


class TooManyRounds(Unfinished):
    """The server asked for more rounds than the client's `max_rounds`."""


class DeadlineExceeded(Unfinished):
    """The call ran past the client's wall-clock `timeout`."""


class Postponed(Unfinished):
    """The answerer chose to answer later (e.g. `--save-pending`); continue with `Client.resume(pending)`."""


class PageNotFinished(Unfinished):
    """A page step the person agreed to take was still not finished after the client's `url_wait` seconds."""
