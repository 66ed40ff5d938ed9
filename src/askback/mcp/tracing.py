"""The span and the duration of each MCP request: the SDK's OpenTelemetry middleware, for both entries.

The SDK puts an `OpenTelemetryMiddleware` on every server; it names the span as the MCP semantic conventions do
(`{mcp.method.name} {target}`, SERVER, `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name`,
`mcp.protocol.version`, `jsonrpc.request.id`, `error.type`, `tool_error` for `isError`) and takes the trace
context from `params._meta`. askback keeps it as the one span builder: on the SDK path in place, and on the fast
route (`askback.mcp.fast`, where most requests never reach the SDK's middleware chain) called with the fields the
SDK path's request context would carry. Around it, `mcp.server.operation.duration` is recorded as the
conventions name it.

Without a configured tracer provider the SDK's span is a no-op, but building it still reads the request's trace
context and attributes: about 6% of a flow's CPU. So it runs only while a provider is configured, decided at
each request's entry by `askback.telemetry.providers` (an answer kept for the provider object, so off costs a
lookup): one set after the app was built (in a lifespan hook, by `opentelemetry-instrument`, by `askback serve`
from the `OTEL_*` variables) starts the spans from its next request. Likewise the duration, for a meter provider.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, cast

from mcp.server._otel import OpenTelemetryMiddleware
from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from pydantic import ValidationError

from askback.telemetry.flows import DURATION
from askback.telemetry.providers import metering, tracing


def tracer_provider_configured() -> bool:
    """True once the process has a tracer provider that records (not the API's proxy or no-op default)."""
    return tracing()


class RequestSpans(ServerMiddleware[Any]):
    """The SDK's span middleware and the duration metric, run only while something records them."""

    def __init__(self, spans: ServerMiddleware[Any] | None = None) -> None:
        self._spans = spans if spans is not None else OpenTelemetryMiddleware()

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        traced, timed = tracing(), metering()
        if not traced and not timed:
            return await call_next(ctx)
        started = time.perf_counter()
        try:
            result = await (self._spans(ctx, call_next) if traced else call_next(ctx))
        except BaseException as exc:
            if timed:
                _record(ctx, started, _error_type(exc))
            raise
        if timed:
            _record(ctx, started, "tool_error" if _is_tool_error(ctx.method, result) else None)
        return result

    async def around(self, method: str, version: str, request_id: int | str, params: Mapping[str, Any],
                     answer: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        """The fast route's request under the same span: `answer` returns its result or raises the SDK's
        `MCPError`, as a handler on the SDK path does."""
        if not tracing() and not metering():
            return await answer()
        meta = params.get("_meta")
        # Only the fields the SDK's middleware reads; a fast-route request has no SDK session.
        ctx: ServerRequestContext[Any, Any] = ServerRequestContext(
            session=cast(Any, None), lifespan_context=None, protocol_version=version, method=method,
            params=params, request_id=request_id, meta=cast(Any, meta) if isinstance(meta, dict) else None)

        async def handler(_: ServerRequestContext[Any, Any]) -> HandlerResult:
            return await answer()

        return cast(dict[str, Any], await self(ctx, handler))


def spans_only_when_tracing(middleware: list[ServerMiddleware[Any]]) -> None:
    """Wrap, in place, each of the SDK's span middlewares in `middleware` so it runs only while recorded."""
    for index, layer in enumerate(middleware):
        if isinstance(layer, OpenTelemetryMiddleware):
            middleware[index] = RequestSpans(layer)


def _record(ctx: ServerRequestContext[Any, Any], started: float, error_type: str | None) -> None:
    attributes: dict[str, str] = {"mcp.method.name": ctx.method, "mcp.protocol.version": ctx.protocol_version}
    name = ctx.params.get("name") if ctx.params else None
    if isinstance(name, str) and ctx.method == "tools/call":
        attributes["gen_ai.tool.name"] = name
        attributes["gen_ai.operation.name"] = "execute_tool"
    elif isinstance(name, str) and ctx.method == "prompts/get":
        attributes["gen_ai.prompt.name"] = name
    if error_type is not None:
        attributes["error.type"] = error_type
    DURATION.record(time.perf_counter() - started, attributes)


def _error_type(exc: BaseException) -> str:
    """`error.type` as the SDK's span spells it: the JSON-RPC code, or the exception's class."""
    if isinstance(exc, MCPError):
        return str(exc.error.code)
    if isinstance(exc, ValidationError):
        return str(INVALID_PARAMS)
    return type(exc).__qualname__


def _is_tool_error(method: str, result: Any) -> bool:
    if method != "tools/call":
        return False
    if isinstance(result, Mapping):
        return result.get("isError") is True
    return getattr(result, "is_error", False) is True
