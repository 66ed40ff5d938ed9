"""Translation between askback's neutral shapes and A2A message parts (plain JSON; protobuf stays in the executor).

askback's A2A extension (`EXTENSION_URI`) fixes three shapes:

- invocation: a data part `{"tool": NAME, "arguments": {...}}` (or `{"prompt": NAME, ...}`); a plain text
  message to an agent with one skill calls that skill;
- input-required: a status message with a text part for people and a data part of media type
  `application/schema+json` holding the flat JSON Schema of exactly the values still missing (the same
  generator as MCP forms); the reasons for re-asked values ride in the message metadata under the extension URI;
- answers: a data part mapping field names to values, or `{"action": "decline"}` / `{"action": "cancel"}`.

Protobuf's `Value` carries every number as a double, so whole numbers arrive as floats (`50` as `50.0`):
`coerce` turns them back into integers where the schema says integer, before validation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, TypeAdapter

from askback.core.errors import AskbackError
from askback.core.outcomes import Refusal
from askback.core.questions import FormQuestion, Question, UrlQuestion
from askback.core.results import prompt_messages

EXTENSION_URI = "https://askback.dev/extensions/input-schema/v1"
SCHEMA_MEDIA_TYPE = "application/schema+json"
JSON_MEDIA_TYPE = "application/json"
DECLINE_ACTIONS = ("decline", "cancel")


class BadMessage(ValueError):
    """A message askback cannot read as an invocation or an answer; the text says what to send instead."""


@dataclass(frozen=True)
class Invocation:
    kind: str  # "tool" or "prompt"
    name: str
    arguments: dict[str, Any]
    unused_text: bool = False  # a plain text that no parameter could take


@dataclass(frozen=True)
class PartOut:
    """One part to send: text, or JSON data with a media type."""

    text: str | None = None
    data: Any = None
    media_type: str = ""


@dataclass(frozen=True)
class MessageOut:
    parts: tuple[PartOut, ...]
    metadata: dict[str, Any]


def coerce(value: Any, schema: Mapping[str, Any]) -> Any:
    """A JSON value as the schema's type expects it: whole floats back to int where an integer is wanted."""
    if isinstance(value, float) and value.is_integer() and schema.get("type") != "string":
        return int(value)  # JSON does not tell 50 from 50.0; an integer (or a Decimal) wants the former
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [coerce(v, schema["items"]) for v in value]
    return value


def coerce_all(values: Mapping[str, Any], properties: Mapping[str, Any]) -> dict[str, Any]:
    return {k: coerce(v, properties.get(k) or {}) for k, v in values.items()}


def read_invocation(data_parts: Sequence[Any], text: str, skills: Mapping[str, tuple[str, str | None]]) -> Invocation:
    """The call a first message asks for.

    `skills` maps each skill id to (kind, the single required string parameter a plain text can fill, if any).
    """
    for data in data_parts:
        if isinstance(data, Mapping) and ("tool" in data or "prompt" in data):
            kind = "tool" if "tool" in data else "prompt"
            name = data[kind]
            arguments = data.get("arguments", {})
            if not isinstance(name, str) or not name:
                raise BadMessage(f'"{kind}" must be the name of one of this agent\'s skills: {_names(skills)}.')
            if not isinstance(arguments, Mapping):
                raise BadMessage('"arguments" must be an object mapping parameter names to values.')
            known = {sid for sid, (k, _) in skills.items() if k == kind}
            if name not in known:
                raise BadMessage(f"There is no {kind} named {name!r} here. Skills: {_names(skills)}.")
            return Invocation(kind, name, dict(arguments))
    if len(skills) == 1:
        (sid, (kind, text_param)), = skills.items()
        arguments = {text_param: text} if text_param and text.strip() else {}
        return Invocation(kind, sid, arguments, unused_text=bool(text.strip()) and not text_param)
    raise BadMessage(
        "Say which skill to run with a data part {\"tool\": NAME, \"arguments\": {...}}; "
        f"this agent has several: {_names(skills)}."
    )


def _names(skills: Mapping[str, Any]) -> str:
    return ", ".join(sorted(skills)) or "(none)"


def read_answers(data_parts: Sequence[Any], questions: Sequence[Question]) -> dict[str, Any]:
    """The answers a continuation message carries, as the core's responses (by question key).

    A question whose fields the message does not mention gets no response: it is asked again, with the rest.
    """
    merged: dict[str, Any] = {}
    for data in data_parts:
        if not isinstance(data, Mapping):
            raise BadMessage("An answer is a data part mapping field names to values, or {\"action\": \"decline\"}.")
        action = data.get("action")
        if action in DECLINE_ACTIONS and set(data) <= {"action", "reason"} and not _asks_field(questions, "action"):
            return {q.key: {"action": action} for q in questions}
        if action == "accept" and isinstance(data.get("content"), Mapping):
            data = data["content"]
        merged.update(data)
    responses: dict[str, Any] = {}
    for q in questions:
        if isinstance(q, FormQuestion):
            props = q.schema.get("properties", {})
            given = {f: coerce(merged[f], props.get(f) or {}) for f in props if f in merged}
            if given:
                responses[q.key] = {"action": "accept", "content": given}
    return responses


def _asks_field(questions: Sequence[Question], name: str) -> bool:
    return any(isinstance(q, FormQuestion) and name in q.schema.get("properties", {}) for q in questions)


def flat_schema(questions: Sequence[Question]) -> dict[str, Any]:
    """One flat JSON Schema of every form field asked this round (each question's own schema, merged)."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for q in questions:
        if isinstance(q, FormQuestion):
            properties.update(q.schema.get("properties", {}))
            required.extend(r for r in q.schema.get("required", []) if r not in required)
    return {"type": "object", "properties": properties, "required": required}


def reasons(questions: Sequence[Question]) -> dict[str, str]:
    """Why each re-asked field is asked again, by field name."""
    out: dict[str, str] = {}
    for q in questions:
        if isinstance(q, FormQuestion) and q.note:
            for name in q.schema.get("properties", {}):
                out[name] = q.note
    return out


def pages(questions: Sequence[Question]) -> list[dict[str, str]]:
    return [{"name": q.key, "url": q.url, "message": q.message} for q in questions if isinstance(q, UrlQuestion)]


def input_required(questions: Sequence[Question]) -> MessageOut:
    """The status message of `TASK_STATE_INPUT_REQUIRED`: text for people, the flat schema for programs."""
    texts = [q.full_message for q in questions if isinstance(q, FormQuestion)]
    page_list = pages(questions)
    texts.extend(f"{p['message']} {p['url']}" for p in page_list)
    why = reasons(questions)
    parts = [PartOut(text="\n\n".join(texts)), PartOut(data=flat_schema(questions), media_type=SCHEMA_MEDIA_TYPE)]
    meta: dict[str, Any] = {"kind": "input"}
    if why:
        meta["reasons"] = why
    if page_list:
        meta["pages"] = page_list
    return MessageOut(tuple(parts), {EXTENSION_URI: meta})


def auth_required(questions: Sequence[Question], still_waiting: bool) -> MessageOut:
    """The status message of `TASK_STATE_AUTH_REQUIRED`: each page a person must open, as text and data."""
    page_list = pages(questions)
    lines = [f"{p['message']} {p['url']}" for p in page_list]
    if still_waiting:
        lines.append("The page step is not finished yet. Continue this task once it is done.")
    parts = [PartOut(text="\n\n".join(lines)), PartOut(data={"pages": page_list}, media_type=JSON_MEDIA_TYPE)]
    return MessageOut(tuple(parts), {EXTENSION_URI: {"kind": "auth", "pages": page_list}})


def refusal(refused: Refusal) -> MessageOut:
    # A missing capability here is one A2A cannot carry (its clients answer forms and open pages, nothing else):
    # telling the client to declare an MCP capability would be advice it cannot follow.
    text = refused.capability.beyond("A2A") if refused.capability is not None else refused.message
    body: dict[str, Any] = {"outcome": refused.reason, "message": text}
    if refused.missing:
        body["missing"] = [m.describe() for m in refused.missing]
    parts = (PartOut(text=text), PartOut(data=body, media_type=JSON_MEDIA_TYPE))
    return MessageOut(parts, {EXTENSION_URI: {"kind": "refusal", "outcome": refused.reason}})


def progress(text: str) -> MessageOut:
    """The status message of `TASK_STATE_WORKING` while a function works: what it said it is doing."""
    return MessageOut((PartOut(text=text),), {EXTENSION_URI: {"kind": "status"}})


def error(message: str, *, retryable: bool = False) -> MessageOut:
    """The status message of a task that ended in error; `retryable`: the same message may simply be sent again."""
    meta: dict[str, Any] = {"kind": "error", "retryable": True} if retryable else {"kind": "error"}
    return MessageOut((PartOut(text=message),), {EXTENSION_URI: meta})


def failure(exc: AskbackError) -> tuple[str, MessageOut]:
    """The one A2A spelling of an askback error, from its wire mapping: the task state and the status message."""
    return exc.wire.a2a_state, error(exc.public_message, retryable=exc.wire.retryable)


def jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    return TypeAdapter(type(value)).dump_python(value, mode="json")


def result_parts(value: Any) -> tuple[PartOut, ...]:
    """A function's return value as an artifact's parts: text for people, JSON data when it has structure."""
    if value is None:
        return (PartOut(text="Done."),)
    if isinstance(value, str):
        return (PartOut(text=value),)
    data = jsonable(value)
    return (PartOut(text=json.dumps(data, ensure_ascii=False)), PartOut(data=data, media_type=JSON_MEDIA_TYPE))


def prompt_parts(value: Any) -> tuple[PartOut, ...]:
    """A prompt's messages as parts: each message's text, and the messages as data."""
    messages = prompt_messages(value)
    texts = [str(c.get("text", "")) for m in messages if isinstance(c := m.get("content"), Mapping)]
    return (PartOut(text="\n\n".join(texts)), PartOut(data={"messages": messages}, media_type=JSON_MEDIA_TYPE))


def with_problem(out: MessageOut, problem: str, *, retryable: bool = False) -> MessageOut:
    """The questions again, saying what went wrong first; `retryable`: the same answer may be sent again.

    `out` may be a message shown before with a problem of its own (shown again as it is): that one is replaced.
    """
    if not out.parts:
        return error(problem, retryable=retryable)
    first, *rest = out.parts
    text = first.text or ""
    said: dict[str, Any] = {"problem": problem, "retryable": True} if retryable else {"problem": problem}
    meta: dict[str, Any] = {}
    for key, value in out.metadata.items():
        earlier = value.get("problem") if isinstance(value, Mapping) else None
        if isinstance(earlier, str) and text.startswith(f"{earlier}\n\n"):
            text = text[len(earlier) + 2:]
        kept = {k: v for k, v in value.items() if k not in ("problem", "retryable")} if isinstance(value, Mapping) \
            else {}
        meta[key] = {**kept, **said}
    return MessageOut((PartOut(text=f"{problem}\n\n{text}"), *rest), meta)
