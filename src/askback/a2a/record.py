"""A task's askback record: what it called, with which arguments, and its progress, sealed with the key ring.

The sealing is every task record's (`askback.tasks.record`, shared with MCP tasks). The record lives in the
task's metadata under `RECORD_KEY`, so the SDK's task store keeps it with the task (on
SQLite or PostgreSQL) without knowing what it is. It is AEAD-sealed and bound to the audience, the task's id
and the principal: a row at rest shows none of the answers, and a record copied onto another task, or read by
another principal, does not open. Inside it, the flow's own progress is the sealed `requestState` of the last
round (bound to the call's arguments, as on MCP).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from askback.core.errors import InvalidRequestState, Rejection
from askback.core.questions import FormQuestion, Question, UrlQuestion
from askback.core.state import Keyring
from askback.tasks.record import binding, open_json, seal_json

RECORD_KEY = "askback"
_METHOD = "a2a/task-record"


@dataclass(frozen=True)
class LastAsked:
    """What was asked last round, as much as reading the next answer needs: a form's fields, or a page."""

    key: str
    schema: dict[str, Any] | None = None  # a form question's schema
    url: str | None = None  # a page step

    @classmethod
    def of(cls, question: Question) -> LastAsked:
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


@dataclass(frozen=True)
class Record:
    kind: str  # "tool" or "prompt"
    name: str
    arguments: dict[str, Any]
    state: str | None = None
    asked: tuple[LastAsked, ...] = field(default=())
    running: bool = False  # the function runs on the task runner (`askback.a2a.work`), which keeps the rest

    def target(self, task_id: str) -> str:
        """The flow's binding target: the skill and the task, so a state cannot move to another task."""
        return f"{self.name}#{task_id}"


def seal(keyring: Keyring, record: Record, *, audience: str, task_id: str, principal: str | None) -> str:
    body = {
        "kind": record.kind,
        "name": record.name,
        "arguments": record.arguments,
        "state": record.state,
        "asked": [[a.key, a.schema, a.url] for a in record.asked],
        "running": record.running,
    }
    return seal_json(keyring, body, binding(_METHOD, audience, task_id, principal))


def open_record(keyring: Keyring, token: Any, *, audience: str, task_id: str, principal: str | None) -> Record:
    """The record, or `InvalidRequestState` (the same for every cause; the reason is for the log)."""
    body = open_json(keyring, token, binding(_METHOD, audience, task_id, principal))
    try:
        asked = tuple(LastAsked(str(k), s, u) for k, s, u in body["asked"])
        return Record(str(body["kind"]), str(body["name"]), dict(body["arguments"]), body["state"], asked,
                      bool(body.get("running", False)))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InvalidRequestState(Rejection.MALFORMED_BODY) from None
