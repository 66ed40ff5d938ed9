"""Checks on the retry fields that run before the SDK's own parameter validation.

The SDK would refuse a malformed `requestState` or `inputResponses` with a bare "Invalid request parameters".
This middleware answers first, with the one frozen state error (its reason logged) or a message naming the
answer that is malformed, so a client knows what to fix and nothing reaches a handler half-checked.

It is also where a request built to cost the server stops. The SDK validates every entry of `inputResponses`
against its result models right after this middleware, whichever keys the tool will read, so the number of
entries is bounded here, before that: no round asks more questions than a tool, prompt or resource has
parameters, so more answers than that (and at least `MAX_ANSWERS`) cannot all be wanted. And a request for a
tool or prompt that does not exist is refused before any answer is looked at.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, InputResponse
from pydantic import TypeAdapter, ValidationError

from askback.errors import INVALID_STATE_MESSAGE

if TYPE_CHECKING:
    from askback.app import App

logger = logging.getLogger("askback.mcp")
_ASKING_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
_ANSWER: TypeAdapter[Any] = TypeAdapter(InputResponse)
MAX_ANSWERS = 64  # the bound on inputResponses entries, raised for an app whose largest target has more params


class RetryFieldsGuard:
    """SDK server middleware: refuse unknown targets, bound and validate `requestState` and `inputResponses`."""

    def __init__(self, app: App | None = None) -> None:
        self._app = app
        specs = [] if app is None else [*app.tools.values(), *app.prompts.values(), *app.resources.values()]
        self.max_answers = max([MAX_ANSWERS, *(len(spec.params) for spec in specs)])

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        params = ctx.params
        if ctx.method in _ASKING_METHODS and isinstance(params, Mapping):
            self._check_target(ctx.method, params)
            check_retry_fields(params, self.max_answers)
        return await call_next(ctx)

    def _check_target(self, method: str, params: Mapping[str, Any]) -> None:
        """The handler's own "Unknown ..." error, raised before the answers are examined."""
        name = params.get("name")
        if self._app is None or not isinstance(name, str):
            return  # nothing to compare with, or a malformed name the SDK's validation reports
        if method == "tools/call" and name not in self._app.tools:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {name}")
        # Without prompts the method is not served at all: the SDK answers "Method not found".
        if method == "prompts/get" and self._app.prompts and name not in self._app.prompts:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {name}")


def check_retry_fields(params: Mapping[str, Any], max_answers: int = MAX_ANSWERS) -> None:
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
    if len(responses) > max_answers:
        raise MCPError(
            code=INVALID_PARAMS,
            message=f"inputResponses has more than {max_answers} entries; send only the answers to the questions "
            "the last result asked",
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
