"""askback inside an `MCPServer` app: a user `ServerMiddleware` that asks for what a `tools/call` lacks.

It sits inside the SDK's `RequestStateBoundary`, so it reads the plaintext of the state it wrote and what it
returns is sealed by the SDK (one seal, the SDK's, bound to the call as the SDK binds it). On 2026-07-28 a
round is an `input_required` result and the answers come back with the retry; on 2025-11-25 the same
questions go over the session's back-channel within the one request. Either way the tool's handler is then
called through the SDK as if the model had sent the values.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.request_state import authenticated_principal
from mcp.shared.exceptions import NoBackChannelError
from mcp_types.methods import is_input_required
from mcp_types.version import is_version_at_least

from askback.adoption.answers import Taken, take
from askback.adoption.choices import look_up
from askback.adoption.decide import KEYS, AskConfirm, AskValues, Decision, Go, Refuse, Tool, ToSdk, decide
from askback.adoption.options import ToolOptions
from askback.adoption.progress import LastRound, Progress, resume
from askback.core.markers import Option
from askback.core.outcomes import Refusal
from askback.core.schemacheck import problems
from askback.mcp import wire
from askback.mcp.calls import rpc_error, sdk_error
from askback.types import Capabilities

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

logger = logging.getLogger("askback.adoption")

_MODERN = "2026-07-28"
MAX_ROUNDS = 16  # back-channel rounds in one request: a client that never answers usably ends, it never loops

# A tool's name -> the tool as its server lists it, or None (unknown: the server's own error names it).
ToolLookup = Callable[[str], Awaitable["Tool | None"]]


def listed_tools(server: MCPServer[Any], per_tool: Mapping[str, ToolOptions]) -> ToolLookup:
    """The lookup of an `MCPServer`'s own tools: the schema the client was shown is the one its values must fit."""

    async def lookup(name: str) -> Tool | None:
        for listed in await server.list_tools():
            if listed.name == name:
                return Tool(name, listed.input_schema, per_tool.get(name, ToolOptions()),
                            listed.output_schema is not None)
        return None

    return lookup


def tool_call(ctx: ServerRequestContext[Any, Any]) -> tuple[Mapping[str, Any], str, Mapping[str, Any]] | None:
    """A `tools/call`'s raw params, tool name and arguments, before the SDK validates them; None for any other
    request, or a malformed call (the SDK's validation says what is wrong with it)."""
    params = ctx.params
    if ctx.method != "tools/call" or not isinstance(params, Mapping):
        return None
    name, arguments = params.get("name"), params.get("arguments")
    arguments = {} if arguments is None else arguments
    if not isinstance(name, str) or not isinstance(arguments, Mapping):
        return None
    return params, name, arguments


class Adopter:
    """The middleware `askback.adopt` installs (one per server), and the gateway in front of its upstream.

    `tools` finds a tool by name; the middleware never lists tools itself, so any server (an `MCPServer`, an
    upstream reached over the network) can sit behind it.
    """

    def __init__(self, tools: ToolLookup) -> None:
        self._tool = tools

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        call = tool_call(ctx)
        if call is None:
            return await call_next(ctx)
        params, name, arguments = call
        tool = await self._tool(name)
        if tool is None:
            return await call_next(ctx)  # unknown: the SDK's "Unknown tool"
        caps = wire.capabilities(ctx.session.client_capabilities)
        if ctx.protocol_version and is_version_at_least(ctx.protocol_version, _MODERN):
            return await self._round(ctx, call_next, tool, params, dict(arguments), caps)
        return await self._back_channel(ctx, call_next, tool, params, dict(arguments), caps)

    async def _options(
        self, ctx: ServerRequestContext[Any, Any], tool: Tool, values: Mapping[str, Any]
    ) -> dict[str, list[Option]]:
        if not tool.options.choices:
            return {}
        return await look_up(tool, values, problems(tool.schema, values), authenticated_principal(ctx))

    async def _decide(
        self,
        ctx: ServerRequestContext[Any, Any],
        tool: Tool,
        arguments: Mapping[str, Any],
        progress: Progress,
        caps: Capabilities,
        notes: Mapping[str, str],
    ) -> tuple[Decision, Progress]:
        """The round's decision, with the choices' options looked up; a choice of one option is not asked."""
        offered = await self._options(ctx, tool, {**arguments, **progress.answers})
        single = {n: o[0].value for n, o in offered.items()
                  if len(o) == 1 and n not in arguments and n not in progress.answers}
        if single:
            progress = progress.answered(single)
            offered = await self._options(ctx, tool, {**arguments, **progress.answers})
        values = {**arguments, **progress.answers}
        decision = decide(tool, values, caps, confirmed=progress.confirmed, notes=notes, options=offered)
        return decision, progress

    async def _round(
        self,
        ctx: ServerRequestContext[Any, Any],
        call_next: CallNext,
        tool: Tool,
        params: Mapping[str, Any],
        arguments: dict[str, Any],
        caps: Capabilities,
    ) -> HandlerResult:
        """2026-07-28: one `input_required` round per question; progress rides the sealed `requestState`."""
        state, responses = params.get("requestState"), params.get("inputResponses")
        if not isinstance(state, str | None) or not isinstance(responses, Mapping | None):
            return await call_next(ctx)  # malformed retry fields: the SDK's own validation error
        progress = resume(state, tool.name, arguments)
        responses = responses or {}
        notes: dict[str, str] = {}
        if progress.asked is not None:
            response = responses.get(progress.asked.key)
            if isinstance(response, Mapping):
                offered = await self._options(ctx, tool, {**arguments, **progress.answers})
                taken = take(tool, progress.asked, response.get("action"), response.get("content"), offered)
                if taken.refusal is not None:
                    return wire.tool_refusal(taken.refusal, has_output_schema=tool.has_output_schema)
                progress, notes = _advance(progress, taken), taken.notes
        decision, progress = await self._decide(ctx, tool, arguments, progress, caps, notes)
        if isinstance(decision, AskValues | AskConfirm):
            asked = _asked(decision)
            return wire.input_required((decision.question,), progress.asking(asked).encode())
        if isinstance(decision, ToSdk):
            return await call_next(ctx)
        if isinstance(decision, Refuse):
            return _refused(decision, tool)
        inner = {k: v for k, v in responses.items() if k not in KEYS}
        onward = {k: v for k, v in params.items() if k not in ("requestState", "inputResponses")}
        onward["arguments"] = decision.arguments
        if progress.inner is not None:
            onward["requestState"] = progress.inner
        if inner:
            onward["inputResponses"] = inner
        result = await call_next(replace(ctx, params=onward))
        return _carried(result, progress)

    async def _back_channel(
        self,
        ctx: ServerRequestContext[Any, Any],
        call_next: CallNext,
        tool: Tool,
        params: Mapping[str, Any],
        arguments: dict[str, Any],
        caps: Capabilities,
    ) -> HandlerResult:
        """2025-11-25: the same questions as `elicitation/create` requests on the session, within this request."""
        progress = Progress.start(tool.name, arguments)
        notes: dict[str, str] = {}
        for _ in range(MAX_ROUNDS):
            decision, progress = await self._decide(ctx, tool, arguments, progress, caps, notes)
            if isinstance(decision, Go):
                return await call_next(replace(ctx, params={**params, "arguments": decision.arguments}))
            if isinstance(decision, ToSdk):
                return await call_next(ctx)
            if isinstance(decision, Refuse):
                return _refused(decision, tool)
            question = decision.question
            try:
                answer = await ctx.session.elicit_form(question.full_message, question.schema,
                                                       related_request_id=ctx.request_id)
            except NoBackChannelError:
                return await call_next(ctx)  # this connection cannot carry a question: the SDK answers as sent
            offered = await self._options(ctx, tool, {**arguments, **progress.answers})
            taken = take(tool, _asked(decision), answer.action, answer.content, offered)
            if taken.refusal is not None:
                return wire.tool_refusal(taken.refusal, has_output_schema=tool.has_output_schema)
            progress, notes = _advance(progress, taken), taken.notes
        refusal = Refusal("too_many_rounds", f"{tool.name} was not run: {MAX_ROUNDS} questions went unanswered.")
        return wire.tool_refusal(refusal, has_output_schema=tool.has_output_schema)


def _asked(decision: AskValues | AskConfirm) -> LastRound:
    if isinstance(decision, AskConfirm):
        return LastRound(decision.question.key, confirm=decision.digest)
    return LastRound(decision.question.key, decision.fields)


def _advance(progress: Progress, taken: Taken) -> Progress:
    if taken.confirmed is not None:
        return progress.confirming(taken.confirmed)
    return progress.answered(taken.values)


def _refused(decision: Refuse, tool: Tool) -> HandlerResult:
    if decision.capability is not None:
        raise sdk_error(rpc_error(decision.capability))
    return wire.tool_refusal(decision.refusal, has_output_schema=tool.has_output_schema)


def _carried(result: HandlerResult, progress: Progress) -> HandlerResult:
    """The tool's own resolvers asked something: their state goes back wrapped in this call's progress, so the
    retry brings both (the answers merged so far, a confirmation given) and the SDK gets its own state back."""
    if not is_input_required(result):
        return result
    if isinstance(result, Mapping):
        inner = result.get("requestState")
        return {**result, "requestState": progress.around(inner if isinstance(inner, str) else None).encode()}
    assert result is not None and not isinstance(result, dict)
    inner = getattr(result, "request_state", None)
    wrapped = progress.around(inner if isinstance(inner, str) else None).encode()
    return result.model_copy(update={"request_state": wrapped})
