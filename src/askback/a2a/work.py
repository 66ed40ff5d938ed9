"""Questions during the work over A2A: a tool taking `askback.Work` runs on the task runner MCP tasks use.

Once the values missing before the work are known (asked by the executor's ordinary rounds), the function
runs on `askback.tasks.runner.TaskRunner`, keyed by the A2A task's id, its record in askback's store bound to
the principal: the same lease, answers and cancellation from any replica, and the same restart rules as an
MCP task. This module only translates: the runner's states into A2A status updates (`follow`), a client's
message into answers for the questions outstanding (`answers`), and the function's outcome into what the
executor publishes (`A2ATaskWire`).

A question the function asks is published as `TASK_STATE_INPUT_REQUIRED` with the text part and the schema
data part every A2A question has (`wire.input_required`); a secret it asks (`work.ask(text, secret=True)`), a
link to askback's page, as `TASK_STATE_AUTH_REQUIRED` with the page, as a Secret parameter's page step is
(`wire.auth_required`, spelled here by `page_request`); a `work.status(...)` text as a
`TASK_STATE_WORKING` message; the outcome as the artifact and `TASK_STATE_COMPLETED`, a decline as
`TASK_STATE_CANCELED` with the refusal, an exception as `TASK_STATE_FAILED` with a message naming the tool
only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from askback.a2a import wire
from askback.core.errors import AskbackError, Declined
from askback.core.questions import FormQuestion, Question, UrlQuestion
from askback.core.spec import Spec
from askback.core.tasks import TaskQuestion, TaskState
from askback.flow import declined_refusal
from askback.receipts import RECEIPT_META
from askback.tasks.runner import failure_text

INTERNAL_ERROR = -32603
ARTIFACT = "artifact"  # a result's kind: the function's value, as an artifact's parts


def _part_json(p: wire.PartOut) -> dict[str, Any]:
    if p.text is not None:
        return {"text": p.text}
    return {"data": p.data, "mediaType": p.media_type}


def _part_from(body: Mapping[str, Any]) -> wire.PartOut:
    if "text" in body:
        return wire.PartOut(text=str(body["text"]))
    return wire.PartOut(data=body.get("data"), media_type=str(body.get("mediaType", "")))


def _out_json(out: wire.MessageOut) -> dict[str, Any]:
    return {"parts": [_part_json(p) for p in out.parts], "metadata": out.metadata}


def _out_from(body: Mapping[str, Any]) -> wire.MessageOut:
    return wire.MessageOut(tuple(_part_from(p) for p in body.get("parts", [])), dict(body.get("metadata", {})))


class A2ATaskWire:
    """How a task's outcome and questions are kept for A2A (plain JSON in the sealed task record)."""

    name = "a2a"

    def result(self, spec: Spec, value: Any) -> dict[str, Any]:
        return {"kind": ARTIFACT, "parts": [_part_json(p) for p in wire.result_parts(value)]}

    def refusal(self, spec: Spec, exc: Declined) -> dict[str, Any]:
        return {"kind": "TASK_STATE_CANCELED", "message": _out_json(wire.refusal(declined_refusal(exc)))}

    def with_receipt(self, result: dict[str, Any], receipt: str) -> dict[str, Any]:
        """The receipt id in the artifact's metadata (a settled task's, `outcome`), or its status message's."""
        if result.get("kind") == ARTIFACT:
            return {**result, "metadata": {**result.get("metadata", {}), RECEIPT_META: receipt}}
        message = result.get("message")
        if isinstance(message, dict):
            message = {**message, "metadata": {**message.get("metadata", {}), RECEIPT_META: receipt}}
            return {**result, "message": message}
        return result

    def tool_error(self, spec: Spec, exc: AskbackError) -> dict[str, Any] | None:
        """A deliberate error ends the task in the state its type maps to on A2A, as on a call without work."""
        state, out = wire.failure(exc)
        return {"kind": state, "message": _out_json(out)}

    def error(self, spec: Spec, exc: BaseException) -> dict[str, Any]:
        return {"code": INTERNAL_ERROR, "message": failure_text(spec, exc)}

    def request(self, question: FormQuestion) -> dict[str, Any]:
        return {"message": question.message, "schema": question.schema, "note": question.note}


def page_request(question: UrlQuestion) -> dict[str, Any]:
    """A page link as the task record keeps it (the runner's `page_request`): only the link, never a value."""
    return {"message": question.message, "url": question.url}


def question_of(asked: TaskQuestion) -> Question:
    """One question of the record as the A2A wire puts it: a page link, or a form."""
    request = asked.request
    if "url" in request:
        return UrlQuestion(asked.key, str(request.get("message", "")), str(request["url"]))
    return FormQuestion(asked.key, str(request.get("message", "")), dict(request.get("schema") or {}),
                        note=request.get("note"))


def questions(state: TaskState) -> list[Question]:
    """The questions outstanding now, as the A2A wire asks (and reads the answers to) every question."""
    return [question_of(asked) for asked in state.outstanding]


def pages_only(state: TaskState) -> tuple[TaskQuestion, ...]:
    """The outstanding questions when every one is a page link (a page step: auth-required), else none."""
    outstanding = state.outstanding
    if outstanding and all(isinstance(question_of(a), UrlQuestion) for a in outstanding):
        return outstanding
    return ()


def outcome(state: TaskState) -> tuple[str, wire.MessageOut | None, tuple[wire.PartOut, ...]]:
    """A settled task as A2A shows it: its final state, its status message, and its artifact's parts (their
    metadata: `artifact_metadata`)."""
    if state.status == "cancelled":
        return "TASK_STATE_CANCELED", wire.error(state.status_message or "Cancelled."), ()
    if state.status == "failed":
        message = str((state.error or {}).get("message") or state.status_message or "The task failed.")
        return "TASK_STATE_FAILED", wire.error(message), ()
    result = state.result or {}
    if result.get("kind") == ARTIFACT:
        return "TASK_STATE_COMPLETED", None, tuple(_part_from(p) for p in result.get("parts", []))
    return str(result.get("kind") or "TASK_STATE_FAILED"), _out_from(result.get("message") or {}), ()


def artifact_metadata(state: TaskState) -> dict[str, Any] | None:
    """The metadata of a settled task's artifact (its receipt id), if it has any."""
    metadata = (state.result or {}).get("metadata")
    return dict(metadata) if isinstance(metadata, dict) and metadata else None
