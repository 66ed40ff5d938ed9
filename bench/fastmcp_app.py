"""The FastMCP 4 comparator: its documented guard pattern for multi-round tools.

Each round the tool re-runs from the top; on the first it returns an `InputRequiredResult`, on the retry it
reads `ctx.input_responses`. `request_state` (sealed by the framework under `RequestStateSecurity(keys=[...])`)
names the question asked, so an answer counts only for the question it answers, as in the other servers.
Module level, without `from __future__ import annotations`: FastMCP evaluates the annotations here.
Runs from bench/.venv-fastmcp (see bench/run.py).
"""

import json
from typing import Any

from fastmcp import Context, FastMCP
from mcp.server.request_state import RequestStateSecurity
from mcp_types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult


def ask(key: str, message: str, field: str, request_state: str) -> InputRequiredResult:
    """An InputRequiredResult eliciting one text field (the docs' helper)."""
    params = ElicitRequestFormParams(
        message=message,
        requested_schema={"type": "object", "properties": {field: {"type": "string"}}, "required": [field]},
    )
    return InputRequiredResult(
        result_type="input_required",
        input_requests={key: ElicitRequest(method="elicitation/create", params=params)},
        request_state=request_state,
    )


def accepted_text(responses: Any, key: str) -> str | None:
    answer = (responses or {}).get(key)
    if answer is None or answer.action != "accept":
        return None
    value = (answer.content or {}).get(key)
    return value if isinstance(value, str) else None


async def greet(name: str, ctx: Context) -> str | InputRequiredResult:
    """Greet someone from a city."""
    city = accepted_text(ctx.input_responses, "city") if ctx.request_state == "asked=city" else None
    if city is None:
        return ask("city", "Which city?", "city", "asked=city")
    return f"Hello {name} from {city}"


async def signup(ctx: Context) -> str | InputRequiredResult:
    """Sign up: two questions, the second after the first."""
    state = ctx.request_state or ""
    if state.startswith("user_name="):
        user_name = json.loads(state.split("=", 1)[1])
        nickname = accepted_text(ctx.input_responses, "nickname")
        if nickname is not None:
            return f"{user_name} ({nickname})"
        return ask("nickname", f"A nickname for {user_name}?", "nickname", state)
    user_name = accepted_text(ctx.input_responses, "user_name") if state == "asked=user_name" else None
    if user_name is None:
        return ask("user_name", "Your user name?", "user_name", "asked=user_name")
    return ask("nickname", f"A nickname for {user_name}?", "nickname", "user_name=" + json.dumps(user_name))


def http_app(name: str, key: bytes) -> Any:
    server = FastMCP(name, request_state_security=RequestStateSecurity(keys=[key]))
    server.tool(greet)
    server.tool(signup)
    return server.http_app(json_response=True, stateless_http=True)
