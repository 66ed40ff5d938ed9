"""The MRTR fixtures as an app written with FastMCP 4 alone, then adopted with `askback.adopt`.

The same fixtures as `adopted_server.py` (the `MCPServer` app), answered in FastMCP's own way
(`ctx.input_responses`, `ctx.request_state`, a returned `InputRequiredResult`): they stand for an existing
FastMCP app whose rounds must keep working once askback is in it. Names, keys and texts are fixed by the
harness. `python tests/conformance/run_adopted.py fastmcp` serves this module and runs the MRTR scenarios.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
from fastmcp import Context, FastMCP

import askback

server = FastMCP("adopted-fastmcp-conformance")


def _form(message: str, field: str, kind: str = "string") -> types.ElicitRequest:
    schema = {"type": "object", "properties": {field: {"type": kind}}, "required": [field]}
    return types.ElicitRequest(params=types.ElicitRequestFormParams(message=message, requested_schema=schema))


def _sample(text: str, max_tokens: int) -> types.CreateMessageRequest:
    message = types.SamplingMessage(role="user", content=types.TextContent(type="text", text=text))
    return types.CreateMessageRequest(params=types.CreateMessageRequestParams(messages=[message],
                                                                               max_tokens=max_tokens))


def _content(responses: Any, key: str) -> dict[str, Any] | None:
    """The accepted form content answering `key`, or None."""
    answer = (responses or {}).get(key)
    if isinstance(answer, types.ElicitResult) and answer.action == "accept":
        return dict(answer.content or {})
    return None


@server.tool
async def test_input_required_result_elicitation(ctx: Context) -> str | types.InputRequiredResult:
    """Asks for a name, then greets."""
    content = _content(ctx.input_responses, "user_name")
    if content is not None:
        return f"Hello, {content.get('name')}!"
    return types.InputRequiredResult(input_requests={"user_name": _form("What is your name?", "name")})


@server.tool
async def test_input_required_result_sampling(ctx: Context) -> str | types.InputRequiredResult:
    """Asks the client's model a question."""
    answer = (ctx.input_responses or {}).get("capital_question")
    if isinstance(answer, types.CreateMessageResult) and isinstance(answer.content, types.TextContent):
        return f"The model answered: {answer.content.text}"
    return types.InputRequiredResult(
        input_requests={"capital_question": _sample("What is the capital of France?", 100)})


@server.tool
async def test_input_required_result_list_roots(ctx: Context) -> str | types.InputRequiredResult:
    """Asks for the client's roots."""
    answer = (ctx.input_responses or {}).get("client_roots")
    if isinstance(answer, types.ListRootsResult):
        return "Roots: " + ", ".join(str(r.uri) for r in answer.roots)
    return types.InputRequiredResult(input_requests={"client_roots": types.ListRootsRequest()})


@server.tool
async def test_input_required_result_request_state(ctx: Context) -> str | types.InputRequiredResult:
    """Asks for a confirmation and keeps a state of its own across the round."""
    if ctx.request_state == "awaiting-confirmation" and _content(ctx.input_responses, "confirm") is not None:
        return "Confirmed."
    return types.InputRequiredResult(input_requests={"confirm": _form("Please confirm", "ok", "boolean")},
                                     request_state="awaiting-confirmation")


@server.tool
async def test_input_required_result_multiple_inputs(ctx: Context) -> str | types.InputRequiredResult:
    """Asks a person, a model and the client's roots in one round."""
    responses = ctx.input_responses or {}
    if {"user_name", "greeting", "client_roots"} <= responses.keys():
        return "Every input answered."
    return types.InputRequiredResult(
        input_requests={
            "user_name": _form("What is your name?", "name"),
            "greeting": _sample("Generate a greeting", 50),
            "client_roots": types.ListRootsRequest(),
        },
        request_state="all-three",
    )


@server.tool
async def test_input_required_result_multi_round(ctx: Context) -> str | types.InputRequiredResult:
    """Two questions in two rounds; the state says which round the call is in and holds the first answer."""
    state = json.loads(ctx.request_state) if ctx.request_state else {}
    first = _content(ctx.input_responses, "step1")
    if state.get("round") == 1 and first is not None:
        return types.InputRequiredResult(
            input_requests={"step2": _form("Step 2: What is your favorite color?", "color")},
            request_state=json.dumps({"round": 2, "name": first.get("name")}),
        )
    second = _content(ctx.input_responses, "step2")
    if state.get("round") == 2 and second is not None:
        return f"{state.get('name')} likes {second.get('color')}."
    return types.InputRequiredResult(input_requests={"step1": _form("Step 1: What is your name?", "name")},
                                     request_state=json.dumps({"round": 1}))


@server.tool
async def test_input_required_result_tampered_state(ctx: Context) -> str | types.InputRequiredResult:
    """Its state is sealed by the SDK's boundary FastMCP installs: an altered one never reaches this function."""
    if ctx.request_state == "sealed-round" and _content(ctx.input_responses, "confirm") is not None:
        return "Confirmed."
    return types.InputRequiredResult(input_requests={"confirm": _form("Please confirm", "ok", "boolean")},
                                     request_state="sealed-round")


@server.tool
async def test_input_required_result_capabilities(ctx: Context) -> str | types.InputRequiredResult:
    """Asks only what the client declared it can answer."""
    caps = ctx.session.client_capabilities
    requests: dict[str, types.InputRequest] = {}
    if caps is not None and caps.sampling is not None:
        requests["summary"] = _sample("Summarise the request in one sentence", 60)
    if caps is not None and caps.elicitation is not None:
        requests["user_name"] = _form("What is your name?", "name")
    if not requests or (ctx.input_responses or {}).keys() >= requests.keys():
        return "Nothing left to ask."
    return types.InputRequiredResult(input_requests=requests, request_state="declared-only")


@server.prompt
async def test_input_required_result_prompt(ctx: Context) -> str | types.InputRequiredResult:
    """A prompt that asks before it renders (askback adopts tools/call only: this round is FastMCP's alone)."""
    content = _content(ctx.input_responses, "user_context")
    if content is not None:
        return f"Use this context: {content.get('context')}"
    return types.InputRequiredResult(
        input_requests={"user_context": _form("What context should the prompt use?", "context")})


askback.adopt(server)
app = server.http_app()
