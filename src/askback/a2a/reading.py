"""A client's message as askback reads it: its parts, the answers it carries to what was asked, and the note
that replaces it in the task's history (so the SDK's row at rest shows which fields were answered, not what).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from a2a.types import a2a_pb2 as pb
from google.protobuf import json_format

from askback.a2a import proto, wire
from askback.core.kinds import ValueParam
from askback.core.questions import Question
from askback.core.spec import Spec

NOTE_KEY = "askback"
_SEALED_NOTE = "answers sealed in the task record"


def parts(message: pb.Message) -> tuple[list[Any], str]:
    """The message's data parts (as JSON) and its text."""
    data = [json_format.MessageToDict(p.data) for p in message.parts if p.HasField("data")]
    text = "\n".join(p.text for p in message.parts if p.HasField("text"))
    return data, text


def answers(data_parts: Sequence[Any], text: str, asked: Sequence[Question]) -> tuple[dict[str, Any], str | None]:
    """The responses a message carries to `asked`, and what to tell the client about what was not used."""
    problem = None
    try:
        responses = wire.read_answers(data_parts, asked)
    except wire.BadMessage as exc:
        responses, problem = {}, str(exc)
    if not data_parts and text.strip():
        responses, problem = _text_answer(text, asked)
    unknown = _unasked(data_parts, asked)
    if unknown and problem is None:
        problem = f"Not asked, so not used: {', '.join(unknown)}. Answer the fields of the schema."
    return responses, problem


def answered_fields(responses: Mapping[str, Any]) -> list[str]:
    return sorted({f for r in responses.values() for f in r.get("content", {})})


def text_param(spec: Spec) -> str | None:
    """The parameter a plain text fills: the one required string argument, if there is exactly one."""
    strings = [
        p
        for p in spec.argument_params
        if isinstance(p, ValueParam) and p.required and (p.form.schema or {}).get("type") == "string"
    ]
    return strings[0].name if len(strings) == 1 else None


def redact(message: pb.Message, fields: Sequence[str]) -> None:
    """Replace the user's message with a note naming the fields it carried, before the SDK stores it in history.

    The values live only in the sealed task record: the task's row at rest shows which fields were answered.
    """
    note = {NOTE_KEY: _SEALED_NOTE, "fields": list(fields)}
    del message.parts[:]
    message.parts.append(proto.part(wire.PartOut(data=note, media_type=wire.JSON_MEDIA_TYPE)))


def shown(message: pb.Message) -> wire.MessageOut:
    """A status message askback published, back in askback's shapes (to show it again)."""
    out = [wire.PartOut(text=p.text) if p.HasField("text")
           else wire.PartOut(data=json_format.MessageToDict(p.data), media_type=p.media_type)
           for p in message.parts if p.HasField("text") or p.HasField("data")]
    return wire.MessageOut(tuple(out), json_format.MessageToDict(message.metadata))


def _text_answer(text: str, asked: Sequence[Question]) -> tuple[dict[str, Any], str | None]:
    """A plain text reply answers the one string field asked, if exactly one was; else it explains."""
    fields = [(q, f, s) for q in asked for f, s in (getattr(q, "schema", None) or {}).get("properties", {}).items()]
    if len(fields) == 1 and fields[0][2].get("type") == "string":
        q, name, _ = fields[0]
        return {q.key: {"action": "accept", "content": {name: text.strip()}}}, None
    return {}, ('A text reply cannot answer these fields; send a data part mapping field names to values, '
                'or {"action": "decline"}.')


def _unasked(data_parts: Sequence[Any], asked: Sequence[Question]) -> list[str]:
    """Names in an answer that no asked field has (a typo would otherwise be dropped without a word)."""
    fields = {f for q in asked for f in (getattr(q, "schema", None) or {}).get("properties", {})}
    given: set[str] = set()
    for data in data_parts:
        if isinstance(data, Mapping):
            content = data.get("content") if data.get("action") == "accept" else data
            if isinstance(content, Mapping):
                given.update(str(k) for k in content if k != "action")
    return sorted(given - fields)
