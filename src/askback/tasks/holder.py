"""The task-record holder: a task's rounds before its function runs, kept in askback's store under the task's id.

A task-based wire (A2A) names the task in every message and echoes no `requestState`, so a flow's progress
between its rounds is kept here: one record per task, sealed with the key ring and bound to the audience, the
task's id and its principal (a record copied onto another task, or read by another principal, does not open),
under `<wire>-task-flow:<id>` in the store every replica shares (a restart or another replica continues it).

The record says what the task called, with which arguments, the flow's progress and the questions asked last
(as much of each as reading the next answer needs), the span context of the round that asked (while traced: the
next round's span links to it), and where the task is:

- `asking`: its rounds go on; a round and the whole flow expire as a sealed `requestState` does
  (`StatePolicy.round_ttl`, `flow_ttl`), and the final round is claimed once in the store (`Flow._claim`), so
  two replicas receiving the same answer run the function once;
- `running`: the function runs on the task runner, whose own record holds the values from then on;
- `done`: the function ran here; nothing of its arguments or answers is kept.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from askback.core.errors import InvalidRequestState, Rejection, StateTooLarge
from askback.core.progress import Progress
from askback.core.questions import FormQuestion, Question, UrlQuestion
from askback.core.state import Keyring, StatePolicy, b64url, b64url_decode_strict
from askback.flow import Loaded, Round, Runtime
from askback.stores.base import Store
from askback.tasks.record import binding, open_json, seal_json
from askback.telemetry.flows import current_link

Phase = Literal["asking", "running", "done"]


@dataclass(frozen=True, slots=True)
class Asked:
    """What was asked last round, as much as reading the next answer needs: a form's fields, or a page."""

    key: str
    schema: dict[str, Any] | None = None  # a form question's schema
    url: str | None = None  # a page step

    @classmethod
    def of(cls, question: Question) -> Asked:
        if isinstance(question, FormQuestion):
            return cls(question.key, schema=question.schema)
        if isinstance(question, UrlQuestion):
            return cls(question.key, url=question.url)
        return cls(question.key)

    def question(self) -> Question:
        """A stand-in question with this key and fields (for reading answers, never sent)."""
        if self.url is not None:
            return UrlQuestion(self.key, "", self.url)
        return FormQuestion(self.key, "", self.schema or {})


@dataclass(frozen=True, slots=True)
class FlowRecord:
    """One task's rounds: its call, its progress, the questions asked last and the flow's lifetimes."""

    kind: str  # "tool" or "prompt"
    name: str
    arguments: dict[str, Any]
    phase: Phase = "asking"
    asked: tuple[Asked, ...] = ()
    progress: Progress | None = None  # None: no round has asked anything yet
    flow_id: bytes = field(default_factory=lambda: os.urandom(12))
    expires: float = 0.0  # this round's end (0: not started)
    deadline: float = 0.0  # the flow's end (0: not started)
    store_id: str | None = None  # the store the flow started under (single-use: `Flow._claim` checks it)
    link: bytes | None = None  # the span context of the round that asked last, while traced (`askback.telemetry`)

    def target(self, task_id: str) -> str:
        """The flow's binding target: the skill and the task, so a claim cannot move to another task."""
        return f"{self.name}#{task_id}"

    def questions(self) -> list[Question]:
        return [a.question() for a in self.asked]


class TaskFlows:
    """One wire's flow records in one app's store."""

    def __init__(self, store: Store, keyring: Keyring, audience: str, policy: StatePolicy, wire: str) -> None:
        self.store = store
        self.keyring = keyring
        self.audience = audience
        self.policy = policy
        self._purpose = f"{wire}/task-flow"
        self._ns = f"{wire}-task-flow"

    async def read(self, task_id: str, principal: str | None) -> FlowRecord:
        """The task's record, or `InvalidRequestState`: missing (expired, never written, another principal's),
        not authentic, or past its round's or flow's end. A `done` record is refused as a replay."""
        raw = await self.store.get(f"{self._ns}:{task_id}")
        if raw is None:
            raise InvalidRequestState(Rejection.FLOW_EXPIRED)
        try:
            token = raw.decode()
        except UnicodeDecodeError:
            raise InvalidRequestState(Rejection.MALFORMED_BODY) from None
        record = _from_json(open_json(self.keyring, token, self._binding(task_id, principal)))
        if record.phase == "done":
            raise InvalidRequestState(Rejection.REPLAYED)
        if record.phase == "asking":
            now = self.policy.now()
            if now > record.deadline:
                raise InvalidRequestState(Rejection.FLOW_EXPIRED)
            if now > record.expires:
                raise InvalidRequestState(Rejection.ROUND_EXPIRED)
        return record

    async def write(self, task_id: str, principal: str | None, record: FlowRecord, until: float) -> None:
        body = _to_json(record)
        token = seal_json(self.keyring, body, self._binding(task_id, principal))
        if len(token) > self.policy.max_bytes:
            raise StateTooLarge(
                f"the task's record would be {len(token)} bytes, over the cap of {self.policy.max_bytes}; "
                "ask for less per flow or raise the cap"
            )
        await self.store.put(f"{self._ns}:{task_id}", token.encode(), until)

    async def moved(self, task_id: str, principal: str | None, record: FlowRecord, phase: Phase,
                    until: float) -> None:
        """The rounds are over: keep only what the task is now (`running`, `done`), none of its values."""
        ended = FlowRecord(record.kind, record.name, {}, phase, flow_id=record.flow_id)
        await self.write(task_id, principal, ended, until)

    def _binding(self, task_id: str, principal: str | None) -> Any:
        return binding(self._purpose, self.audience, task_id, principal)


class TaskRecordHolder:
    """A `Holder` keeping one task's progress in its record (`TaskFlows`), so the client echoes nothing.

    `save` only notes the round's progress: the record is written by `keep`, once the round's questions are
    known (the next answer is read against them), in one write.
    """

    def __init__(self, flows: TaskFlows, task_id: str, principal: str | None, record: FlowRecord) -> None:
        self.flows = flows
        self.task_id = task_id
        self.principal = principal
        self.record = record
        self._saved: FlowRecord | None = None

    @property
    def flow_id(self) -> bytes:
        return self.record.flow_id

    async def load(self, runtime: Runtime, rnd: Round) -> Loaded:
        record = self.record
        deadline = record.deadline or runtime.codec.policy.now() + runtime.codec.policy.flow_ttl
        return Loaded(record.progress, record.flow_id, deadline, record.store_id, record.link)

    async def save(self, runtime: Runtime, rnd: Round, loaded: Loaded, progress: Progress, once: bool) -> str | None:
        now = runtime.codec.policy.now()
        store_id = loaded.store_id or (runtime.store.identity if once else None)
        self._saved = replace(self.record, progress=progress, flow_id=loaded.flow_id, deadline=loaded.deadline,
                              expires=min(now + runtime.codec.policy.round_ttl, loaded.deadline), store_id=store_id,
                              link=current_link())
        return None

    async def keep(self, questions: tuple[Question, ...] | list[Question]) -> None:
        """Write the round `save` noted, with the questions it asked."""
        saved = self._saved if self._saved is not None else self.record
        saved = replace(saved, asked=tuple(Asked.of(q) for q in questions))
        await self.flows.write(self.task_id, self.principal, saved, saved.deadline)
        self.record, self._saved = saved, None

    async def moved(self, phase: Phase, until: float) -> None:
        await self.flows.moved(self.task_id, self.principal, self.record, phase, until)


def _to_json(record: FlowRecord) -> dict[str, Any]:
    p = record.progress
    return {
        "kind": record.kind,
        "name": record.name,
        "arguments": record.arguments,
        "phase": record.phase,
        "asked": [[a.key, a.schema, a.url] for a in record.asked],
        "progress": None if p is None else [p.values, p.answered, p.asked, p.rounds],
        "flow": b64url(record.flow_id),
        "expires": record.expires,
        "deadline": record.deadline,
        "store": record.store_id,
        "link": None if record.link is None else b64url(record.link),
    }


def _from_json(body: Any) -> FlowRecord:
    try:
        raw = body["progress"]
        progress = None if raw is None else Progress(dict(raw[0]), dict(raw[1]), dict(raw[2]), int(raw[3]))
        phase = body["phase"]
        if phase not in ("asking", "running", "done"):
            raise ValueError(phase)
        return FlowRecord(
            str(body["kind"]), str(body["name"]), dict(body["arguments"]), phase,
            tuple(Asked(str(k), s, u) for k, s, u in body["asked"]), progress,
            b64url_decode_strict(body["flow"]), float(body["expires"]), float(body["deadline"]), body["store"],
            None if body.get("link") is None else b64url_decode_strict(body["link"]),
        )
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        raise InvalidRequestState(Rejection.MALFORMED_BODY) from None
