"""A tool call the server runs as a task (the MCP tasks extension), followed to its end without I/O.

A server that supports `io.modelcontextprotocol/tasks` may answer a `tools/call` of a client that declared the
extension with `resultType: "task"` (a `CreateTaskResult`) instead of the tool's result. The call then goes on
as a task: the client polls `tasks/get`, answers the questions a running task asks with `tasks/update`, and
ends with the task's result. `TaskLoop` is fed each `tasks/get` result and says what comes next, whatever
drives it:

- `Poll(seconds)`: ask `tasks/get` again after this long — the server's `pollIntervalMs` when it gives one
  (kept within 50 ms and 30 s, so neither a zero nor an hour stalls the call), else 0.5 s growing to 5 s;
- `InputNeeded(pending)`: the task waits for input: answer `pending.questions`, send them with `update_params`;
  a key already answered is never put to the person again (the server may still list it until it has read
  the update: the task's state is eventually consistent);
- `Done(result)`: the task completed; `result` is the tool's result, an `isError` one included;
- a failed task raises `TaskFailed` (the JSON-RPC error the task failed with), a cancelled one `TaskCancelled`.

The task's `requestState`, when the server sends one, is echoed exactly on the next task request and never
parsed. A task's questions count against `max_rounds` like the rounds of a plain call.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from askback.client.errors import ClientError, ProtocolError, ServerError
from askback.client.loop import Done, Limits
from askback.client.pending import Pending, TooManyRounds
from askback.client.questions import parse_questions

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
TASK_METHODS = ("tasks/get", "tasks/update", "tasks/cancel")
MIN_POLL = 0.05
MAX_POLL = 30.0
_STATUSES = ("working", "input_required", "completed", "failed", "cancelled")


class TaskFailed(ServerError):
    """The task failed: the server reports the JSON-RPC error it failed with."""

    def __init__(self, task_id: str, error: Mapping[str, Any]) -> None:
        code = error.get("code")
        message = error.get("message")
        self.task_id = task_id
        super().__init__(
            f"the task failed: {message if isinstance(message, str) and message else 'no reason given'}",
            code=code if isinstance(code, int) and not isinstance(code, bool) else None,
            data=error.get("data"),
        )


class TaskCancelled(ClientError):
    """The task was cancelled (by this client, another one, or the server)."""

    def __init__(self, task_id: str, message: str | None) -> None:
        self.task_id = task_id
        super().__init__(f"the task was cancelled{': ' + message if message else ''}")


@dataclass(frozen=True)
class Poll:
    """Send `tasks/get` after `seconds`."""

    seconds: float


@dataclass(frozen=True)
class InputNeeded:
    """The task waits for input: answer `pending.questions` (only the keys not answered before)."""

    pending: Pending


@dataclass(frozen=True)
class Status:
    """What the task says it is doing, for a person watching: its status and message, when either changes."""

    status: str
    message: str | None


Step = Poll | InputNeeded | Done


class TaskLoop:
    """One task, from its `CreateTaskResult` (or a saved pending task) to its result."""

    def __init__(self, created: Mapping[str, Any], call: Pending, *, limits: Limits | None = None) -> None:
        """`created` is the `CreateTaskResult` (or the last task state a pending file kept); `call` the call it
        belongs to (server, method, params), whose `rounds` counts the questions asked so far."""
        task_id = created.get("taskId")
        if not isinstance(task_id, str) or not task_id:
            raise ProtocolError("the server's task has no taskId")
        self.task_id = task_id
        self.call = call
        self.limits = limits or Limits()
        self.rounds = call.rounds
        self.status: Status | None = None
        self.changed: Status | None = None  # set by `receive` when the status or its message changed
        self._state: str | None = None
        self._answered: set[str] = set()
        self._polls_without_interval = 0
        self._note(created)

    # -- what to send -------------------------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        """The params of `tasks/get` and `tasks/cancel`: the task, and its latest `requestState` if any."""
        params: dict[str, Any] = {"taskId": self.task_id}
        if self._state is not None:
            params["requestState"] = self._state
        return params

    def update_params(self, responses: Mapping[str, Any]) -> dict[str, Any]:
        """The params of `tasks/update` carrying `responses`; their keys are never asked again."""
        self._answered.update(responses)
        return {**self.params(), "inputResponses": dict(responses)}

    def poll(self) -> Poll:
        interval = self._interval
        if interval is None:
            self._polls_without_interval += 1
            return Poll(min(5.0, 0.5 * 2 ** (self._polls_without_interval - 1)))
        return Poll(interval)

    # -- what came back -----------------------------------------------------------------------------------
    def receive(self, task: Any) -> Step:
        if not isinstance(task, Mapping):
            raise ProtocolError("tasks/get returned a result that is not an object")
        if task.get("taskId", self.task_id) != self.task_id:
            raise ProtocolError("tasks/get returned another task than the one asked for")
        self._note(task)
        status = task.get("status")
        if status not in _STATUSES:
            raise ProtocolError(f"the task has an unknown status {status!r}")
        if status == "completed":
            result = task.get("result")
            if not isinstance(result, Mapping):
                raise ProtocolError("the completed task carries no result object")
            return Done(dict(result))
        if status == "failed":
            error = task.get("error")
            raise TaskFailed(self.task_id, error if isinstance(error, Mapping) else {})
        if status == "cancelled":
            message = task.get("statusMessage")
            raise TaskCancelled(self.task_id, message if isinstance(message, str) else None)
        if status == "working":
            return self.poll()
        requests = task.get("inputRequests")
        if not isinstance(requests, Mapping):
            raise ProtocolError("the task waits for input but carries no inputRequests object")
        new = {key: value for key, value in requests.items() if key not in self._answered}
        if not new:  # every listed key was answered: the server has not read the update yet
            return self.poll()
        parse_questions(new)  # a malformed question fails here, before anything is asked
        self.rounds += 1
        pending = self.pending(new)
        if self.rounds > self.limits.max_rounds:
            raise TooManyRounds(
                f"The task asked for more than {self.limits.max_rounds} rounds of questions; the call stops here.",
                pending,
            )
        return InputNeeded(pending)

    def pending(self, requests: Mapping[str, Any] | None = None) -> Pending:
        """The task as a pending call: what `resume` needs to follow it (and answer `requests`) later."""
        return dataclasses.replace(
            self.call,
            input_requests=dict(requests or {}),
            request_state=self._state,
            rounds=self.rounds,
            task_id=self.task_id,
        )

    def _note(self, task: Mapping[str, Any]) -> None:
        state = task.get("requestState")
        if isinstance(state, str):
            self._state = state
        interval = task.get("pollIntervalMs")
        self._interval = (
            min(MAX_POLL, max(MIN_POLL, interval / 1000))
            if isinstance(interval, int | float) and not isinstance(interval, bool) and math.isfinite(interval)
            else None
        )
        status, message = task.get("status"), task.get("statusMessage")
        self.changed = None
        if isinstance(status, str):
            now = Status(status, message if isinstance(message, str) else None)
            if now != self.status:
                self.status = self.changed = now
