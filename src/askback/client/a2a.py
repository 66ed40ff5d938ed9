"""The client side of A2A: call an agent's skill and answer its input-required and auth-required tasks.

The agent's questions (askback's A2A extension: a text part and an `application/schema+json` data part; or
pages for auth-required) become the same question types the MCP client asks, so the same answerers (terminal,
answers file, Python callable) answer both protocols. A completed task is returned in the shape of an MCP
`CallToolResult` (`content`, `structuredContent`, `isError`), so callers print either the same way.

An agent without askback's extension still works: an input-required task with only text is asked as one text
field (`reply`), sent back as a text part.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpx

from askback.client.answerers.base import Answerer, Asked, Postpone
from askback.client.errors import ClientError, ProtocolError
from askback.client.loop import Limits
from askback.client.pending import DeadlineExceeded, TooManyRounds
from askback.client.questions import Question, parse_questions

CARD_PATH = "/.well-known/agent-card.json"
EXTENSION_URI = "https://askback.dev/extensions/input-schema/v1"
SCHEMA_MEDIA_TYPE = "application/schema+json"
_REPLY = "reply"


async def agent_base(url: str) -> str | None:
    """The agent's base URL if `url` is an A2A agent (its card URL, or a base URL that serves a card); else None.

    A URL ending in `/mcp` is taken for MCP without asking.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.path.rstrip("/").endswith("/mcp"):
        return None
    if parts.path.endswith(CARD_PATH):
        return url[: url.rindex(CARD_PATH)]
    base = url.rstrip("/")
    try:
        async with httpx.AsyncClient(timeout=10) as http:
            response = await http.get(base + CARD_PATH)
        card = response.json() if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None
    return base if isinstance(card, dict) and "skills" in card else None


def _ints(value: Any) -> Any:
    """Protobuf carries every number as a double: whole numbers back to int (a schema's `minLength: 15.0`)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _ints(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_ints(v) for v in value]
    return value


def _in_order(schema: dict[str, Any]) -> dict[str, Any]:
    """Properties in the order of `required` (a protobuf Struct keeps no key order; a list keeps its order)."""
    props = schema.get("properties", {})
    order = [n for n in schema.get("required", []) if n in props] + [n for n in props if n not in schema.get(
        "required", [])]
    return {**schema, "properties": {n: props[n] for n in order}}


def questions_of(task: Mapping[str, Any]) -> tuple[Question, ...]:
    """An interrupted task's status message as client questions (MCP `inputRequests` shapes, parsed)."""
    status = task.get("status", {})
    message = status.get("message", {})
    parts = message.get("parts", [])
    text = "\n".join(p["text"] for p in parts if "text" in p)
    meta = message.get("metadata", {}).get(EXTENSION_URI, {})
    requests: dict[str, Any] = {}
    for page in meta.get("pages", []):
        params = {"mode": "url", "message": page.get("message", ""), "url": page.get("url", "")}
        requests[str(page.get("name", "page"))] = {"method": "elicitation/create", "params": params}
    schema = next((p.get("data") for p in parts if p.get("mediaType") == SCHEMA_MEDIA_TYPE), None)
    if status.get("state") == "TASK_STATE_INPUT_REQUIRED":
        if isinstance(schema, Mapping) and schema.get("properties"):
            props = schema["properties"]
            key = next(iter(props)) if len(props) == 1 else "input"
            form_text = "\n\n".join(
                p["text"] for p in parts if "text" in p and not any(pg.get("url", "") in p["text"]
                                                                    for pg in meta.get("pages", []))
            )
            params = {"mode": "form", "message": form_text or text, "requestedSchema": _in_order(_ints(dict(schema)))}
            requests[key] = {"method": "elicitation/create", "params": params}
        elif not requests:  # an agent without the extension asks in free text
            reply = {"type": "object", "properties": {_REPLY: {"type": "string", "title": "Reply"}},
                     "required": [_REPLY]}
            requests[_REPLY] = {"method": "elicitation/create",
                                "params": {"mode": "form", "message": text, "requestedSchema": reply}}
    if not requests:
        raise ProtocolError(f"the agent's task is {status.get('state')} but asks nothing this client can read")
    return parse_questions(requests)


def result_of(task: Mapping[str, Any]) -> dict[str, Any]:
    """A finished task as a `CallToolResult`-shaped dict."""
    state = task.get("status", {}).get("state")
    texts: list[str] = []
    structured: Any = None
    if state == "TASK_STATE_COMPLETED":
        for artifact in task.get("artifacts", []):
            for part in artifact.get("parts", []):
                if "text" in part:
                    texts.append(part["text"])
                elif "data" in part and structured is None:
                    structured = part["data"]
    else:
        for part in task.get("status", {}).get("message", {}).get("parts", []):
            if "text" in part:
                texts.append(part["text"])
            elif "data" in part and structured is None:
                structured = part["data"]
    result: dict[str, Any] = {
        "content": [{"type": "text", "text": t} for t in texts],
        "isError": state not in ("TASK_STATE_COMPLETED", "TASK_STATE_CANCELED"),
    }
    if isinstance(structured, dict):
        result["structuredContent"] = structured
    return result


class AgentCall:
    """One skill call on an A2A agent, from the first message to a finished task, answering what it asks."""

    def __init__(self, base: str, *, answerer: Answerer | None, limits: Limits | None = None,
                 headers: Mapping[str, str] | None = None) -> None:
        self.base = base.rstrip("/")
        self.answerer = answerer
        self.limits = limits or Limits()
        self.headers = {"A2A-Version": "1.0", **dict(headers or {})}
        self._id = 0

    async def call(self, skill: str, arguments: Mapping[str, Any], *, kind: str = "tool") -> dict[str, Any]:
        timeout = self.limits.timeout
        with anyio.move_on_after(timeout if timeout is not None else float("inf")):
            return await self._drive(skill, dict(arguments), kind)
        raise DeadlineExceeded(f"The call ran past its deadline of {timeout:g} s.", None)

    async def _drive(self, skill: str, arguments: dict[str, Any], kind: str) -> dict[str, Any]:
        # No read timeout: a stream waits while a person is on a page; `limits.timeout` bounds the call.
        async with httpx.AsyncClient(headers=self.headers, timeout=httpx.Timeout(30.0, read=None)) as http:
            card = (await http.get(self.base + CARD_PATH)).json()
            endpoint = _jsonrpc_url(card, self.base)
            name = card.get("name", self.base)
            task = await self._send(http, endpoint, {"data": {kind: skill, "arguments": arguments}}, None)
            rounds = 0
            while True:
                state = task.get("status", {}).get("state")
                if state not in ("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"):
                    return result_of(task)
                rounds += 1
                if rounds > self.limits.max_rounds:
                    raise TooManyRounds(f"The agent asked for more than {self.limits.max_rounds} rounds.", None)
                questions = questions_of(task)
                if self.answerer is None:
                    raise ClientError(f"{name} asks {', '.join(q.key for q in questions)} and there is no answerer")
                asked = Asked(server=name, method="tools/call", target=skill, questions=questions, round=rounds,
                              arguments=arguments, server_url=self.base)
                try:
                    answers = await self.answerer.answer(asked)
                except Postpone:
                    raise ClientError("saving an A2A agent's questions for later is not supported yet; "
                                      "answer them now (without --save-pending)") from None
                part, streaming = _reply(questions, answers)
                task = await self._send(http, endpoint, part, task, streaming=streaming)

    async def _send(self, http: httpx.AsyncClient, endpoint: str, part: dict[str, Any],
                    task: Mapping[str, Any] | None, *, streaming: bool = False) -> dict[str, Any]:
        message: dict[str, Any] = {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [part]}
        if task is not None:
            message["taskId"], message["contextId"] = task["id"], task["contextId"]
        self._id += 1
        body = {"jsonrpc": "2.0", "id": self._id, "method": "SendStreamingMessage" if streaming else "SendMessage",
                "params": {"message": message}}
        if not streaming:
            reply = (await http.post(endpoint, json=body)).json()
            return _task_of(reply)
        # A page step: the agent keeps the stream open and continues by itself once the page is done.
        task_id = task["id"] if task is not None else ""
        async with http.stream("POST", endpoint, json=body, headers={"Accept": "text/event-stream"}) as response:
            async for line in response.aiter_lines():
                if line.startswith("data:"):
                    event = json.loads(line[5:])
                    if "error" in event:
                        _task_of(event)
        got = (await http.post(endpoint, json={"jsonrpc": "2.0", "id": self._id + 1, "method": "GetTask",
                                               "params": {"id": task_id}})).json()
        self._id += 1
        return _task_of(got)


def _task_of(reply: Mapping[str, Any]) -> dict[str, Any]:
    if "error" in reply:
        error = reply["error"]
        raise ClientError(f"the agent refused the message: {error.get('message')} (A2A error {error.get('code')})")
    result = reply.get("result", {})
    task = result.get("task", result)
    if not isinstance(task, dict) or "status" not in task:
        raise ProtocolError("the agent answered with something that is not a task")
    return task


def _reply(questions: tuple[Question, ...], answers: Mapping[str, Mapping[str, Any]]) -> tuple[dict[str, Any], bool]:
    """The answers as one message part, and whether to wait over a stream (a page step accepted)."""
    content: dict[str, Any] = {}
    waiting = False
    for q in questions:
        answer = answers.get(q.key, {})
        action = answer.get("action")
        if action in ("decline", "cancel"):
            return {"data": {"action": action}}, False
        if q.kind == "url":
            waiting = True
        elif q.key == _REPLY and q.kind == "form":
            return {"text": str(answer.get("content", {}).get(_REPLY, ""))}, False
        else:
            content.update(answer.get("content", {}))
    return {"data": content}, waiting and not content


def _jsonrpc_url(card: Mapping[str, Any], base: str) -> str:
    for interface in card.get("supportedInterfaces", []):
        if interface.get("protocolBinding") == "JSONRPC" and interface.get("url"):
            return str(interface["url"])
    raise ProtocolError(f"the agent card at {base}{CARD_PATH} names no JSON-RPC interface")
