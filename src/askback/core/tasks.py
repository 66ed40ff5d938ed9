"""A task's lifecycle, for any wire, without I/O: statuses, legal moves, and the questions it asks while it works.

A task starts `working`; it is `input_required` while one of its questions is outstanding, and ends in exactly
one terminal status: `completed` (the function returned, a tool error included), `failed` (a protocol-level
error: an exception, a server that stopped under it) or `cancelled`. A terminal task never moves again.

Every question a task asks gets a key that is never used again for the task's whole life (`q1`, `q2`, ...):
an answer is only taken for a key that is outstanding now, so a stale, repeated or invented key is ignored, and
an answer that was not usable supersedes its key with a new one (the question asked again, saying why). Several
questions may be outstanding at once; answering some leaves the others outstanding.

`TaskState` is the whole record the runner keeps in the store (sealed): what was called with which values,
where the task is, the questions in the order the function asked them with their answers, and the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

Status = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "cancelled"})
_MOVES: dict[str, frozenset[str]] = {
    "working": frozenset({"working", "input_required", *TERMINAL}),
    "input_required": frozenset({"working", "input_required", *TERMINAL}),
}


class IllegalMove(ValueError):
    """A status change the lifecycle does not allow (a terminal task never moves)."""


def can_move(current: str, target: str) -> bool:
    return target in _MOVES.get(current, frozenset())


@dataclass(frozen=True, slots=True)
class TaskQuestion:
    """One question the function asked: under which key, what it was, and its answer once one was usable.

    `request` is the question as the wire sends it (an MCP `InputRequest`); `fingerprint` identifies the
    question itself, so a re-run of the function from the start recognises the questions it asked before.
    `superseded`: the answer under this key was not usable and the question was asked again under a new key.
    """

    key: str
    fingerprint: str
    request: dict[str, Any]
    ordinal: int = 0  # which of the function's questions this is (0 for its first); a re-ask keeps it
    answer: Any = None  # the accepted answer (JSON), or None while outstanding
    answered: bool = False
    superseded: bool = False

    @property
    def outstanding(self) -> bool:
        return not self.answered and not self.superseded


@dataclass(frozen=True, slots=True)
class TaskState:
    tool: str
    values: dict[str, Any]  # parameter -> JSON value, everything the MRTR phase resolved
    created_at: float
    updated_at: float
    ttl_seconds: int
    poll_ms: int
    status: Status = "working"
    status_message: str | None = None
    asked: tuple[TaskQuestion, ...] = ()
    next_key: int = 1
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    runs: int = 1  # how many times the function was started (a re-run after a restart adds one)
    resumable: bool = True  # False: a parked task cannot be re-run (a secret was read once, or resume="fail")
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL

    @property
    def outstanding(self) -> tuple[TaskQuestion, ...]:
        return tuple(a for a in self.asked if a.outstanding)

    def expires_at(self) -> float:
        return self.created_at + self.ttl_seconds

    def moved(self, status: Status, now: float, message: str | None = None) -> TaskState:
        if not can_move(self.status, status):
            raise IllegalMove(f"a {self.status} task cannot become {status}")
        return replace(self, status=status, status_message=message, updated_at=now)


def ask(
    state: TaskState, fingerprint: str, request: dict[str, Any], now: float, ordinal: int
) -> tuple[TaskState, str]:
    """Record a new question; its key is fresh for the task's life. The task waits for input."""
    key = f"q{state.next_key}"
    asked = TaskQuestion(key, fingerprint, request, ordinal)
    moved = state.moved("input_required", now, state.status_message if state.status == "input_required" else None)
    return replace(moved, asked=(*state.asked, asked), next_key=state.next_key + 1), key


def answered(state: TaskState, key: str, answer: Any, now: float) -> TaskState:
    """The question under `key` got a usable answer (kept, so a re-run answers it from the record)."""
    asked = tuple(replace(a, answer=answer, answered=True) if a.key == key else a for a in state.asked)
    return _settle_waiting(replace(state, asked=asked), now)


def superseded(state: TaskState, key: str, now: float) -> TaskState:
    """The answer under `key` was not usable: the key is spent (the question is asked again under a new one)."""
    asked = tuple(replace(a, superseded=True) if a.key == key else a for a in state.asked)
    return replace(state, asked=asked, updated_at=now)


def _settle_waiting(state: TaskState, now: float) -> TaskState:
    if state.status == "input_required" and not state.outstanding:
        return state.moved("working", now)
    return replace(state, updated_at=now)


def accepted_keys(state: TaskState, keys: list[str]) -> list[str]:
    """The keys of an update that are outstanding now; every other key (stale, answered, invented) is ignored."""
    live = {a.key for a in state.outstanding}
    return [k for k in keys if k in live]


def completed(state: TaskState, result: dict[str, Any], now: float) -> TaskState:
    return replace(state.moved("completed", now), result=result, asked=_closed(state.asked))


def failed(state: TaskState, error: dict[str, Any], now: float, message: str | None = None) -> TaskState:
    return replace(state.moved("failed", now, message or str(error.get("message", ""))), error=error,
                   asked=_closed(state.asked))


def cancelled(state: TaskState, now: float, message: str = "Cancelled by the client.") -> TaskState:
    return replace(state.moved("cancelled", now, message), asked=_closed(state.asked))


def _closed(asked: tuple[TaskQuestion, ...]) -> tuple[TaskQuestion, ...]:
    """A finished task keeps no answers (nothing left to re-run): only which keys were asked."""
    return tuple(replace(a, answer=None, request={}, superseded=a.superseded or not a.answered) for a in asked)


def recorded(state: TaskState, ordinal: int, fingerprint: str) -> tuple[TaskState, TaskQuestion | None]:
    """For a re-run from the start: the question asked before as the function's `ordinal`-th, if it is the same.

    When the re-run asks something else there (its work took another path), that question and every later
    one are superseded: their answers belonged to the other path.
    """
    mine = [a for a in state.asked if a.ordinal == ordinal and not a.superseded]
    if not mine:
        return state, None
    if mine[-1].fingerprint == fingerprint:
        return state, mine[-1]
    asked = tuple(
        replace(a, superseded=True, answered=False, answer=None) if a.ordinal >= ordinal else a for a in state.asked
    )
    return replace(state, asked=asked), None
