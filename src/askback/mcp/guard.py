"""Checks on the retry fields that run before the SDK's own parameter validation.

The SDK would refuse a malformed `requestState` or `inputResponses` with a bare "Invalid request parameters".
This middleware answers first, with the one frozen state error (its reason logged) or a message naming the
answer that is malformed, so a client knows what to fix and nothing reaches a handler half-checked.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, InputResponse
from pydantic import TypeAdapter, ValidationError

from askback.errors import INVALID_STATE_MESSAGE

logger = logging.getLogger("askback.mcp")
_ASKING_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
_ANSWER: TypeAdapter[Any] = TypeAdapter(InputResponse)


class RetryFieldsGuard:
    """SDK server middleware: validate `requestState` and `inputResponses` shapes with clear errors."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        params = ctx.params
        if ctx.method in _ASKING_METHODS and isinstance(params, Mapping):
            check_retry_fields(params)
        return await call_next(ctx)


def check_retry_fields(params: Mapping[str, Any]) -> None:
    state = params.get("requestState")
    if state is not None and not isinstance(state, str):
        logger.warning("rejected requestState: a %s, not a string", type(state).__name__)
        raise MCPError(code=INVALID_PARAMS, message=INVALID_STATE_MESSAGE)
    responses = params.get("inputResponses")
    if responses is None:
        return
    if not isinstance(responses, Mapping):
        raise MCPError(
            code=INVALID_PARAMS, message="inputResponses must be an object mapping each question's key to its answer"
        )
    for key, answer in responses.items():
        if _plain_elicitation_answer(answer):
            continue  # the common shape, checked without building pydantic models
        try:
            _ANSWER.validate_python(answer, by_name=False)
        except ValidationError:
            raise MCPError(
                code=INVALID_PARAMS,
                message=f"inputResponses[{key!r}] is not an answer: expected an elicitation result (action accept, "
                "decline or cancel), a sampling result or a roots list",
            ) from None


_PRIMITIVES = (str, int, float, bool, type(None))


def _plain_elicitation_answer(answer: Any) -> bool:
    """True for `{"action": "decline"|"cancel"}` or an accept whose content holds only flat form values."""
    if not isinstance(answer, dict) or not answer.keys() <= {"action", "content"}:
        return False
    action = answer.get("action")
    if action in ("decline", "cancel"):
        return "content" not in answer
    if action != "accept":
        return False
    content = answer.get("content")
    if content is None:
        return True
    return isinstance(content, dict) and all(
        isinstance(k, str)
        and (isinstance(v, _PRIMITIVES) or (isinstance(v, list) and all(isinstance(i, str) for i in v)))
        for k, v in content.items()
    )
