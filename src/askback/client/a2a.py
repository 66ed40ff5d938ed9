"""The client side of A2A: call an agent's skill and answer its input-required and auth-required tasks.

The agent's questions (askback's A2A extension: a text part and an `application/schema+json` data part; or
pages for auth-required) become the same question types the MCP client asks, so the same answerers (terminal,
answers file, Python callable) answer both protocols. A completed task is returned in the shape of an MCP
`CallToolResult` (`content`, `structuredContent`, `isError`), so callers print either the same way.

An agent without askback's extension still works: an input-required (or auth-required) task with only text is
asked as one text field, sent back as a text part. Each new question of the call gets its own key, `reply-1`,
`reply-2`, … (so an answers file can answer each round); the same text asked again keeps its key, as a re-ask.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpx

from askback.client.answerers.base import Answerer, Asked, Postpone, ScreensSecrets
from askback.client.errors import ClientError, ProtocolError, SecretForm
from askback.client.loop import Limits
from askback.client.pending import DeadlineExceeded, TooManyRounds
from askback.client.questions import FormQuestion, Question, parse_questions
from askback.client.secret_forms import screen

CARD_PATH = "/.well-known/agent-card.json"
EXTENSION_URI = "https://askback.dev/extensions/input-schema/v1"
SCHEMA_MEDIA_TYPE = "application/schema+json"
_REPLY = "reply"  # the keys of an agent's free-text questions: reply-1, reply-2, …
_ASKING = ("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED")


async def agent_base(url: str, *, headers: Mapping[str, str] | None = None) -> str | None:
    """The agent's base URL if `url` is an A2A agent (its card URL, or a base URL that serves a card); else None.

    A URL ending in `/mcp` is taken for MCP without asking. `headers` go with the request for the card.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.path.rstrip("/").endswith("/mcp"):
        return None
    if parts.path.endswith(CARD_PATH):
        return url[: url.rindex(CARD_PATH)]
    base = url.rstrip("/")
    try:
        async with httpx.AsyncClient(timeout=10, headers=dict(headers or {})) as http:
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


def plain_text(task: Mapping[str, Any]) -> str | None:
    """The text of an interrupted task that asks in free text only (an agent without askback's extension), else None.

    Such a task has no schema part and no pages: its status message's text is the whole question, whether it is
    input-required or auth-required (A2A 1.0 gives auth-required no structured way to say where to sign in).
    """
    status = task.get("status", {})
    if status.get("state") not in _ASKING:
        return None
    message = status.get("message", {})
    parts = message.get("parts", [])
    if any(p.get("mediaType") == SCHEMA_MEDIA_TYPE for p in parts):
        return None
    if message.get("metadata", {}).get(EXTENSION_URI, {}).get("pages"):
        return None
    return "\n".join(p["text"] for p in parts if "text" in p)


def reply_key(text: str, asked: Sequence[str]) -> str:
    """The key of a free-text question, given the texts of those asked before it in the call, in order: a new
    question gets the next number; the same text as the last one is that question asked again (its key)."""
    if asked and asked[-1] == text:
        return f"{_REPLY}-{len(asked)}"
    return f"{_REPLY}-{len(asked) + 1}"


def questions_of(task: Mapping[str, Any], *, asked: Sequence[str] = ()) -> tuple[Question, ...]:
    """An interrupted task's status message as client questions (MCP `inputRequests` shapes, parsed).

    `asked`: the free-text questions asked earlier in the call, which number this one if it is one (`reply_key`).
    """
    status = task.get("status", {})
    plain = plain_text(task)
    if plain is not None:
        key = reply_key(plain, asked)
        return parse_questions({key: _free_text(key, plain, status.get("state"))})
    message = status.get("message", {})
    parts = message.get("parts", [])
    text = "\n".join(p["text"] for p in parts if "text" in p)
    meta = message.get("metadata", {}).get(EXTENSION_URI, {})
    requests: dict[str, Any] = {}
    for page in meta.get("pages", []):
        params = {"mode": "url", "message": page.get("message", ""), "url": page.get("url", "")}
        requests[str(page.get("name", "page"))] = {"method": "elicitation/create", "params": params}
    schema = next((p.get("data") for p in parts if p.get("mediaType") == SCHEMA_MEDIA_TYPE), None)
    if status.get("state") == "TASK_STATE_INPUT_REQUIRED" and isinstance(schema, Mapping) and schema.get("properties"):
        props = schema["properties"]
        key = next(iter(props)) if len(props) == 1 else "input"
        form_text = "\n\n".join(
            p["text"] for p in parts if "text" in p and not any(pg.get("url", "") in p["text"]
                                                                for pg in meta.get("pages", []))
        )
        params = {"mode": "form", "message": form_text or text, "requestedSchema": _in_order(_ints(dict(schema)))}
        requests[key] = {"method": "elicitation/create", "params": params}
    if not requests:
        raise ProtocolError(f"the agent's task is {status.get('state')} but asks nothing this client can read")
    return parse_questions(requests)


def _free_text(key: str, text: str, state: Any) -> dict[str, Any]:
    """A free-text question as a one-field form: the agent's whole text is its message (shown inert, any URL in
    it included), and the one field takes the reply, sent back as a text part."""
    field: dict[str, Any] = {"type": "string", "title": "Reply"}
    if state == "TASK_STATE_AUTH_REQUIRED":
        field["description"] = "The agent needs a sign-in: do what it says above, then reply to go on"
    schema = {"type": "object", "properties": {key: field}, "required": [key]}
    message = text or f"The agent's task is {state} and says nothing more."
    return {"method": "elicitation/create", "params": {"mode": "form", "message": message, "requestedSchema": schema}}


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
    """One skill call on an A2A agent, from the first message to a finished task, answering what it asks.

    An agent's form or free-text question that asks for a credential goes through the client's guard as an MCP
    server's does (`askback.Client`): refused unless `allow_secret_forms` (the terminal asks the person), and
    then declined toward the agent.
    """

    def __init__(self, base: str, *, answerer: Answerer | None, limits: Limits | None = None,
                 headers: Mapping[str, str] | None = None, allow_secret_forms: bool = False) -> None:
        self.base = base.rstrip("/")
        self.allow_secret_forms = allow_secret_forms
        self.answerer = answerer
        self.limits = limits or Limits()
        self.headers = {"A2A-Version": "1.0", **dict(headers or {})}
        self._id = 0
        self._asked: list[str] = []  # the agent's free-text questions so far, in order (they number the keys)

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
                questions = questions_of(task, asked=self._asked)
                plain = plain_text(task)
                if plain is not None and reply_key(plain, self._asked) != f"{_REPLY}-{len(self._asked)}":
                    self._asked.append(plain)  # a new free-text question (not the last one asked again)
                if self.answerer is None:
                    raise ClientError(f"{name} asks {', '.join(q.key for q in questions)} and there is no answerer")
                asked = Asked(server=name, method="tools/call", target=skill, questions=questions, round=rounds,
                              arguments=arguments, server_url=self.base, allow_secret_forms=self.allow_secret_forms)
                try:
                    answers = await self.answerer.answer(asked)
                    if not isinstance(self.answerer, ScreensSecrets):
                        screen(questions, answers, allowed=self.allow_secret_forms)
                except Postpone:
                    raise ClientError("saving an A2A agent's questions for later is not supported yet; "
                                      "answer them now (without --save-pending)") from None
                except SecretForm as refused:
                    try:  # the agent hears no to its question; whatever it answers then, the call stops here
                        await self._send(http, endpoint, {"data": {"action": "decline"}}, task)
                    except (ClientError, httpx.HTTPError, ValueError):
                        pass
                    else:
                        refused.declined = True
                    raise refused from None
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
        elif _is_reply(q):
            return {"text": str(answer.get("content", {}).get(q.key, ""))}, False
        else:
            content.update(answer.get("content", {}))
    return {"data": content}, waiting and not content


def _is_reply(q: Question) -> bool:
    """A free-text question (`_free_text`): its one field is named as its key, `reply-N`."""
    return (isinstance(q, FormQuestion) and q.key.startswith(f"{_REPLY}-") and q.key[len(_REPLY) + 1:].isdigit()
            and [f.name for f in q.fields] == [q.key])


def _jsonrpc_url(card: Mapping[str, Any], base: str) -> str:
    for interface in card.get("supportedInterfaces", []):
        if interface.get("protocolBinding") == "JSONRPC" and interface.get("url"):
            return str(interface["url"])
    raise ProtocolError(f"the agent card at {base}{CARD_PATH} names no JSON-RPC interface")
