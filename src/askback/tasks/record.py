"""Task records at rest: sealed with the key ring, bound to the audience, the task's id and its principal.

Both wires keep their tasks this way, in askback's `Store` under the task's id: a task's state once its function
runs (`TaskRecords`), and an A2A task's rounds before that (`askback.tasks.holder`). Either way the bytes at rest
show nothing of the arguments or answers, a record copied onto another task does not open, and a principal
other than the one that created the task cannot open it: to that principal the task does not exist.

Store keys, per task (the store namespaces them per app; each wire has its own prefix, `task` for MCP and
`a2a-task` for A2A, and its own binding, so a task of one wire is never found through the other):

- `task:<id>` — the sealed `TaskState`, written only by the process running the task (or taking it over);
- `task-answer:<id>:<key>` — a sealed answer `tasks/update` delivered (any replica writes, the runner reads);
- `task-cancel:<id>` — a cancellation asked for (any replica writes, the runner reads);
- `task-lease:<id>` — which process runs the task, renewed while it does; gone means nobody runs it;
- `a2a-task-flow:<id>` — an A2A task's rounds before its function runs (`askback.tasks.holder`);
- claims `task-run:<id>:<n>` (`Store.claim`) — exactly one process takes over run `n` of a task whose lease
  lapsed (to settle it, or to resume it after a restart).
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from askback.core.errors import InvalidRequestState, Rejection
from askback.core.state import Binding, Keyring
from askback.core.tasks import TaskQuestion, TaskState
from askback.stores.base import Clock, Store

MISSING: Any = object()


def binding(purpose: str, audience: str, task_id: str, principal: str | None) -> Binding:
    """What a task's sealed bytes are valid for: this app, this task, this principal (and what they are)."""
    return Binding(audience, purpose, task_id, "", principal)


def seal_json(keyring: Keyring, body: Any, bound: Binding) -> str:
    plaintext = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    return keyring.seal(plaintext, bound)


def open_json(keyring: Keyring, token: Any, bound: Binding) -> Any:
    """The sealed body, or `InvalidRequestState` (the same for every cause; the reason is for the log)."""
    if not isinstance(token, str):
        raise InvalidRequestState(Rejection.NOT_A_STRING)
    plaintext = keyring.open(token, bound)
    try:
        return json.loads(plaintext)
    except ValueError:
        raise InvalidRequestState(Rejection.MALFORMED_BODY) from None


_STATE_FIELDS = tuple(f.name for f in fields(TaskState))
_QUESTION_FIELDS = tuple(f.name for f in fields(TaskQuestion))


def state_to_json(state: TaskState) -> dict[str, Any]:
    """The record's JSON body. Its values are JSON already (the record keeps nothing else), so the fields are
    taken as they are: `dataclasses.asdict` would deep-copy every nested dict of every write."""
    body = {name: getattr(state, name) for name in _STATE_FIELDS}
    body["asked"] = [{name: getattr(a, name) for name in _QUESTION_FIELDS} for a in state.asked]
    return body


def state_from_json(body: Any) -> TaskState:
    try:
        asked = tuple(TaskQuestion(**a) for a in body.pop("asked"))
        return TaskState(**body, asked=asked)
    except (TypeError, KeyError, AttributeError):
        raise InvalidRequestState(Rejection.MALFORMED_BODY) from None


class TaskRecords:
    """One app's task records of one wire (`"mcp"`, `"a2a"`) in its store."""

    def __init__(self, store: Store, keyring: Keyring, audience: str, clock: Clock, wire: str = "mcp") -> None:
        self.store = store
        self.keyring = keyring
        self.audience = audience
        self.clock = clock
        self._state_purpose = f"{wire}/task"
        self._answer_purpose = f"{wire}/task-answer"
        self._ns = "task" if wire == "mcp" else f"{wire}-task"  # MCP keeps the keys it always had

    async def write(self, task_id: str, principal: str | None, state: TaskState) -> None:
        bound = binding(self._state_purpose, self.audience, task_id, principal)
        token = seal_json(self.keyring, state_to_json(state), bound)
        await self.store.put(f"{self._ns}:{task_id}", token.encode(), state.expires_at())

    async def read(self, task_id: str, principal: str | None) -> TaskState | None:
        """The task, or None when there is none for this principal (unknown, expired, or someone else's)."""
        raw = await self.store.get(f"{self._ns}:{task_id}")
        if raw is None:
            return None
        try:
            bound = binding(self._state_purpose, self.audience, task_id, principal)
            body = open_json(self.keyring, raw.decode(), bound)
            return state_from_json(body)
        except (InvalidRequestState, UnicodeDecodeError):
            return None

    async def put_answer(self, task_id: str, principal: str | None, key: str, answer: Any, until: float) -> None:
        bound = binding(self._answer_purpose, self.audience, f"{task_id}:{key}", principal)
        token = seal_json(self.keyring, answer, bound)
        await self.store.put(f"{self._ns}-answer:{task_id}:{key}", token.encode(), until)

    async def answer(self, task_id: str, principal: str | None, key: str) -> Any:
        """The answer delivered for `key`, or `MISSING`."""
        raw = await self.store.get(f"{self._ns}-answer:{task_id}:{key}")
        if raw is None:
            return MISSING
        try:
            bound = binding(self._answer_purpose, self.audience, f"{task_id}:{key}", principal)
            return open_json(self.keyring, raw.decode(), bound)
        except (InvalidRequestState, UnicodeDecodeError):
            return MISSING

    async def has_answer(self, task_id: str, key: str) -> bool:
        return await self.store.get(f"{self._ns}-answer:{task_id}:{key}") is not None

    async def drop_answer(self, task_id: str, key: str) -> None:
        await self.store.take(f"{self._ns}-answer:{task_id}:{key}")

    async def ask_cancel(self, task_id: str, until: float) -> None:
        await self.store.put(f"{self._ns}-cancel:{task_id}", b"1", until)

    async def cancel_asked(self, task_id: str) -> bool:
        return await self.store.get(f"{self._ns}-cancel:{task_id}") is not None

    async def hold_lease(self, task_id: str, owner: str, seconds: float) -> None:
        await self.store.put(f"{self._ns}-lease:{task_id}", owner.encode(), self.clock() + seconds)

    async def lease_holder(self, task_id: str) -> str | None:
        raw = await self.store.get(f"{self._ns}-lease:{task_id}")
        return raw.decode(errors="replace") if raw is not None else None

    async def release_lease(self, task_id: str) -> None:
        await self.store.take(f"{self._ns}-lease:{task_id}")

    async def take_over(self, task_id: str, run: int, until: float) -> bool:
        """True for exactly one process asking to take over run `run` of this task."""
        return await self.store.claim(f"{self._ns}-run:{task_id}:{run}", until)
