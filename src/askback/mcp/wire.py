"""Translation between askback's neutral shapes and MCP wire dicts."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from askback.core.outcomes import Refusal
from askback.core.questions import FormQuestion, Question, RootsQuestion, SamplingQuestion, UrlQuestion
from askback.core.results import prompt_messages
from askback.receipts import RECEIPT_META
from askback.types import Capabilities

if TYPE_CHECKING:
    from mcp_types import ClientCapabilities


def capabilities(declared: ClientCapabilities | None) -> Capabilities:
    """Read what the client declared. `elicitation: {}` means form only (the spec's back-compat rule)."""
    if declared is None:
        return Capabilities()
    elicitation = declared.elicitation
    form = url = False
    if elicitation is not None:
        form = elicitation.form is not None or elicitation.url is None
        url = elicitation.url is not None
    return Capabilities(form=form, url=url, sampling=declared.sampling is not None, roots=declared.roots is not None)


_CAPABILITY_KEYS = frozenset({"elicitation", "sampling", "roots", "experimental", "extensions"})
_PARTS = {"elicitation": frozenset({"form", "url"}), "sampling": frozenset({"context", "tools"})}


_KNOWN_SHAPES: list[tuple[dict[str, Any], Capabilities]] = []  # the few shapes clients send, newest last
_MAX_KNOWN_SHAPES = 8


def plain_capabilities(raw: Any) -> Capabilities | None:
    """What a request's raw `clientCapabilities` declares, by the rule of `capabilities`; None for other shapes.

    The plain shape is the one the SDK's model reads the same way (known keys by their wire names, objects
    where objects go); any other shape (`null` parts aside) is left to the SDK's own reading.
    """
    for shape, known in _KNOWN_SHAPES:
        if raw == shape:
            return known
    caps = _read_plain_capabilities(raw)
    if caps is not None and _objects_only(raw):
        # Equal to a shape of objects and nulls only means the same shape (no `1 == True` among the leaves).
        if len(_KNOWN_SHAPES) >= _MAX_KNOWN_SHAPES:
            del _KNOWN_SHAPES[0]
        _KNOWN_SHAPES.append((_copied(raw), caps))
    return caps


def _objects_only(value: Any, depth: int = 4) -> bool:
    """Objects and nulls only, at most `depth` deep (a deeper shape is read each time, never remembered)."""
    if value is None:
        return True
    return depth > 0 and isinstance(value, dict) and len(value) <= 16 and all(
        type(k) is str and _objects_only(v, depth - 1) for k, v in value.items())


def _copied(value: Any) -> Any:
    return None if value is None else {k: _copied(v) for k, v in value.items()}


def _read_plain_capabilities(raw: Any) -> Capabilities | None:
    if not isinstance(raw, dict) or not raw.keys() <= _CAPABILITY_KEYS:
        return None
    for key, parts in _PARTS.items():
        value = raw.get(key)
        if value is None:
            continue
        if not isinstance(value, dict) or not value.keys() <= parts:
            return None
        if not all(v is None or isinstance(v, dict) for v in value.values()):
            return None
    roots = raw.get("roots")
    if roots is not None and (
        not isinstance(roots, dict) or not roots.keys() <= {"listChanged"}
        or not isinstance(roots.get("listChanged", False), bool | None)
    ):
        return None
    for key in ("experimental", "extensions"):
        value = raw.get(key)
        if value is not None and not (isinstance(value, dict) and all(isinstance(v, dict) for v in value.values())):
            return None
    elicitation = raw.get("elicitation")
    form = url = False
    if elicitation is not None:
        form = elicitation.get("form") is not None or elicitation.get("url") is None
        url = elicitation.get("url") is not None
    return Capabilities(form=form, url=url, sampling=raw.get("sampling") is not None, roots=roots is not None)


def input_request(question: Question) -> dict[str, Any]:
    """A question as an `InputRequest` (the same shape a handshake-era server sends as a request)."""
    if isinstance(question, FormQuestion):
        return {
            "method": "elicitation/create",
            "params": {"mode": "form", "message": question.full_message, "requestedSchema": question.schema},
        }
    if isinstance(question, UrlQuestion):
        params_url = {"mode": "url", "message": question.message, "url": question.url}
        return {"method": "elicitation/create", "params": params_url}
    if isinstance(question, SamplingQuestion):
        params: dict[str, Any] = {
            "messages": [{"role": "user", "content": {"type": "text", "text": question.prompt}}],
            "maxTokens": question.max_tokens,
        }
        if question.system_prompt is not None:
            params["systemPrompt"] = question.system_prompt
        if question.temperature is not None:
            params["temperature"] = question.temperature
        return {"method": "sampling/createMessage", "params": params}
    assert isinstance(question, RootsQuestion)
    return {"method": "roots/list", "params": {}}


def input_required(questions: tuple[Question, ...], state: str | None) -> dict[str, Any]:
    result: dict[str, Any] = {
        "resultType": "input_required",
        "inputRequests": {q.key: input_request(q) for q in questions},
    }
    if state is not None:
        result["requestState"] = state
    return result


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    from pydantic import TypeAdapter

    return TypeAdapter(type(value)).dump_python(value, mode="json")


def tool_result(value: Any, *, has_output_schema: bool) -> dict[str, Any]:
    """A function's return value as a `CallToolResult`."""
    if type(value) is str:  # the common case, before the ABC checks below
        return {"resultType": "complete", "content": [{"type": "text", "text": value}]}
    if isinstance(value, Mapping) and "content" in value and isinstance(value.get("content"), list):
        return {"resultType": "complete", **value}
    if value is None:
        return {"resultType": "complete", "content": []}
    if isinstance(value, str):
        return {"resultType": "complete", "content": [{"type": "text", "text": value}]}
    data = _jsonable(value)
    result: dict[str, Any] = {
        "resultType": "complete",
        "content": [{"type": "text", "text": json.dumps(data, ensure_ascii=False)}],
    }
    if has_output_schema or isinstance(data, dict):
        result["structuredContent"] = data
    return result


REFUSAL_META = "askback/refusal"  # `_meta` key carrying a refusal's outcome, on every refusal


def with_receipt(result: dict[str, Any], receipt: str | None) -> dict[str, Any]:
    """The result with its flow's receipt id in `_meta` (`askback.receipts.RECEIPT_META`), when it has one."""
    if receipt is None:
        return result
    return {**result, "_meta": {**result.get("_meta", {}), RECEIPT_META: receipt}}


def tool_refusal(refusal: Refusal, *, has_output_schema: bool) -> dict[str, Any]:
    """A refusal (decline, cancel, or a value that cannot be had) as a tool result that fits the tool's schema.

    A tool with an `outputSchema` must return conforming `structuredContent` unless the result is an error
    (clients validate every non-error result, and raise instead of showing the message). A refusal has no
    value of that shape, so for such a tool every refusal, a person's decline included, is a tool error with
    the message as its text and no `structuredContent`. A tool without a schema keeps the structured
    refusal, and there a decline or cancel is a deliberate outcome rather than an error. Either way the same
    refusal rides in `_meta`, so a program reads the outcome from one place.
    """
    refused: dict[str, Any] = {"outcome": refusal.reason, "message": refusal.message}
    if refusal.missing:
        refused["missing"] = [m.describe() for m in refusal.missing]
    result: dict[str, Any] = {
        "resultType": "complete",
        "content": [{"type": "text", "text": refusal.message}],
        "_meta": {REFUSAL_META: refused},
    }
    if has_output_schema:
        result["isError"] = True
    else:
        result["structuredContent"] = dict(refused)
        result["isError"] = refusal.is_error
    return result


def tool_error(message: str) -> dict[str, Any]:
    return {"resultType": "complete", "content": [{"type": "text", "text": message}], "isError": True}


def prompt_result(value: Any, description: str | None) -> dict[str, Any]:
    if isinstance(value, Mapping) and "messages" in value:
        return {"resultType": "complete", **value}
    result: dict[str, Any] = {"resultType": "complete", "messages": prompt_messages(value)}
    if description:
        result["description"] = description
    return result


def resource_result(value: Any, uri: str, mime_type: str | None) -> dict[str, Any]:
    if isinstance(value, Mapping) and "contents" in value:
        return {"resultType": "complete", "ttlMs": 0, "cacheScope": "private", **value}
    entry: dict[str, Any] = {"uri": uri}
    if mime_type:
        entry["mimeType"] = mime_type
    if isinstance(value, bytes | bytearray):
        entry["blob"] = base64.b64encode(bytes(value)).decode()
    elif isinstance(value, str):
        entry["text"] = value
    else:
        entry["text"] = json.dumps(_jsonable(value), ensure_ascii=False)
        entry["mimeType"] = "application/json"
    return {"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "contents": [entry]}
