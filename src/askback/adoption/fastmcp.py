"""askback inside a FastMCP app: the one `Adopter`, run from FastMCP's own `Middleware.on_call_tool`.

    mcp = FastMCP("shop")
    askback.adopt(mcp)                  # needs the `askback[fastmcp]` extra; `import askback` never imports FastMCP

FastMCP serves on the official SDK and installs the SDK's `RequestStateBoundary` on its low-level server, so
its middleware sees the plaintext of the state the adopter wrote and FastMCP seals what it returns: one seal,
the SDK's, as for an `MCPServer`. This module only translates: the SDK's request context of the call
(`context.fastmcp_context.request_context`) goes to the adopter; the adopter's way on goes down FastMCP's chain
with the merged arguments, under a request context whose params are the ones the tool must see (its own
round's `requestState` and `inputResponses`, never askback's); the adopter's answer comes back as the
`ToolResult` FastMCP expects (`InputRequiredToolResult` for a round).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import mcp_types as mt
from fastmcp import FastMCP
from fastmcp.server.dependencies import bind_request_context
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import InputRequiredToolResult, ToolResult
from mcp.server.context import HandlerResult, ServerRequestContext
from mcp_types.methods import is_input_required

from askback.adoption.decide import Tool
from askback.adoption.middleware import Adopter, ToolLookup
from askback.adoption.options import ToolOptions
from askback.app import App


def adopt_fastmcp(server: FastMCP[Any], *, tools: Mapping[str, ToolOptions] | None = None,
                  app: App | None = None) -> Adopter:
    """`askback.adopt` for a FastMCP app: the adopter as the app's innermost middleware (`add_middleware`
    appends, and FastMCP runs its list outermost first), so the app's other middleware see each round."""
    from askback.adoption import prepared

    if any(isinstance(m, AskbackMiddleware) for m in server.middleware):
        raise ValueError("askback.adopt was already called for this server")
    per_tool, steps = prepared(server.name, tools, app)
    adopter = Adopter(fastmcp_tools(server, per_tool), steps, server.http_app)
    server.add_middleware(AskbackMiddleware(adopter))
    return adopter


def fastmcp_tools(server: FastMCP[Any], per_tool: Mapping[str, ToolOptions]) -> ToolLookup:
    """The lookup of a FastMCP app's tools as it lists them (its transforms, visibility and auth applied)."""

    async def lookup(name: str) -> Tool | None:
        found = await server.get_tool(name)
        if found is None:
            return None
        return Tool(name, found.parameters, per_tool.get(name, ToolOptions()), found.output_schema is not None)

    return lookup


class AskbackMiddleware(Middleware):
    """The FastMCP middleware that runs `adopter` on each `tools/call` a client sent."""

    def __init__(self, adopter: Adopter) -> None:
        self.adopter = adopter

    async def on_call_tool(self, context: MiddlewareContext[mt.CallToolRequestParams],
                           call_next: CallNext[mt.CallToolRequestParams, ToolResult]) -> ToolResult:
        call = _wire_call(context)
        if call is None:
            return await call_next(context)  # a call made in code (a tool calling a tool): nobody to ask

        async def onward(ctx: ServerRequestContext[Any, Any]) -> HandlerResult:
            return await _down_the_chain(ctx, context, call_next)

        return _tool_result(await self.adopter(call, onward))


def _wire_call(context: MiddlewareContext[mt.CallToolRequestParams]) -> ServerRequestContext[Any, Any] | None:
    """The SDK's context of the client's `tools/call` this middleware sees, its arguments as the chain above
    left them; None when the call is not the wire request's own (made in code, or outside a request)."""
    fastmcp_context = context.fastmcp_context
    request = fastmcp_context.request_context if fastmcp_context is not None else None
    if request is None:
        return None
    # FastMCP's escape hatch to the SDK's request context (docs/upstream.md): the one private read.
    sdk_context: ServerRequestContext[Any, Any] = request._srctx
    params = sdk_context.params
    if sdk_context.method != "tools/call" or not isinstance(params, Mapping) \
            or params.get("name") != context.message.name:
        return None
    return replace(sdk_context, params={**params, "arguments": dict(context.message.arguments or {})})


async def _down_the_chain(ctx: ServerRequestContext[Any, Any], context: MiddlewareContext[mt.CallToolRequestParams],
                          call_next: CallNext[mt.CallToolRequestParams, ToolResult]) -> HandlerResult:
    """The adopter's way on: the rest of FastMCP's chain, with the params the adopter chose bound as the
    request's, so the tool's `ctx.request_state` / `ctx.input_responses` read its own round, not askback's."""
    params = ctx.params if isinstance(ctx.params, Mapping) else {}
    continued = mt.InputResponseRequestParams.model_validate(
        {k: params[k] for k in ("inputResponses", "requestState") if k in params})
    message = context.message.model_copy(update={
        "arguments": params.get("arguments"),
        "input_responses": continued.input_responses,
        "request_state": continued.request_state,
    })
    with bind_request_context(ctx):
        result = await call_next(context.copy(message=message))
    if isinstance(result, InputRequiredToolResult):
        return result.input_required  # the tool's own round: the adopter carries its state inside its progress
    return result


def _tool_result(result: HandlerResult) -> ToolResult:
    """What the adopter answered, as FastMCP's `ToolResult`: a round as `InputRequiredToolResult` (FastMCP's
    wire handler hands it on as `input_required`), a result of the tool as it came, a refusal as a tool result."""
    if isinstance(result, ToolResult):
        return result
    if is_input_required(result):
        typed = result if isinstance(result, mt.InputRequiredResult) else mt.InputRequiredResult.model_validate(result)
        return InputRequiredToolResult(typed)
    assert result is not None, "every way through the adopter answers"
    raw = result if isinstance(result, Mapping) else result.model_dump(by_alias=True, exclude_none=True)
    typed_result = mt.CallToolResult.model_validate(raw)
    return ToolResult(content=typed_result.content, structured_content=typed_result.structured_content,
                      meta=typed_result.meta, is_error=bool(typed_result.is_error))
