"""The SDK's OpenTelemetry span per request, paid for only while a tracer provider is configured.

The SDK puts an `OpenTelemetryMiddleware` on every server. Without a configured tracer provider its span is a
no-op, but building it still reads the request's trace context and attributes on every request: about 6% of a
flow's CPU. Here the SDK's middleware is kept, unchanged, behind a check made per request, so a provider set
after the app was built (in a lifespan hook, by `opentelemetry-instrument`, through
`OTEL_PYTHON_TRACER_PROVIDER`) starts the spans from its next request.
"""

from __future__ import annotations

from typing import Any

from mcp.server._otel import OpenTelemetryMiddleware
from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext
from opentelemetry import trace


def tracer_provider_configured() -> bool:
    """True once the process has a tracer provider that records (not the API's proxy or no-op default)."""
    provider = trace.get_tracer_provider()
    return not isinstance(provider, trace.ProxyTracerProvider | trace.NoOpTracerProvider)


class SpansWhenTracing(ServerMiddleware[Any]):
    """The SDK's span middleware, run only while a tracer provider is configured."""

    def __init__(self, spans: ServerMiddleware[Any]) -> None:
        self._spans = spans

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if tracer_provider_configured():
            return await self._spans(ctx, call_next)
        return await call_next(ctx)


def spans_only_when_tracing(middleware: list[ServerMiddleware[Any]]) -> None:
    """Wrap, in place, each of the SDK's span middlewares in `middleware` so it runs only while tracing."""
    for index, layer in enumerate(middleware):
        if isinstance(layer, OpenTelemetryMiddleware):
            middleware[index] = SpansWhenTracing(layer)
