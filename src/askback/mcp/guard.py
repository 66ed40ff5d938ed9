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

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from askback.mcp.checks import MAX_ANSWERS, max_answers, retry_fields_problem

if TYPE_CHECKING:
    from askback.app import App

_ASKING_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})


class RetryFieldsGuard:
    """SDK server middleware: refuse unknown targets, bound and validate `requestState` and `inputResponses`."""

    def __init__(self, app: App | None = None) -> None:
        self._app = app
        self.max_answers = max_answers(app)

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
    problem = retry_fields_problem(params, max_answers)
    if problem is not None:
        raise MCPError(code=INVALID_PARAMS, message=problem)
