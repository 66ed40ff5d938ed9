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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import NoBackChannelError
from mcp_types.methods import is_input_required
from mcp_types.version import is_version_at_least
from pydantic import BaseModel

from askback.adoption.answers import Taken, take
from askback.adoption.choices import look_up
from askback.adoption.decide import (
    AskConfirm,
    AskPage,
    AskValues,
    Decision,
    Go,
    NeedMark,
    Refuse,
    Tool,
    ToSdk,
    approval_asked,
    decide,
    ours,
    secret_step,
)
from askback.adoption.options import ToolOptions
from askback.adoption.pagesteps import PageSteps
from askback.adoption.progress import LastRound, Progress, resume
from askback.core.errors import AskbackError, InvalidRequestState, Rejection
from askback.core.markers import Option
from askback.core.marks import Mark
from askback.core.outcomes import Refusal
from askback.core.schemacheck import problems
from askback.core.text import one_line
from askback.incoming import page_origin, principal_of
from askback.mcp import wire
from askback.mcp.calls import rpc_error, sdk_error
from askback.mcp.incoming import incoming_of
from askback.outofband import NoPublicUrl
from askback.receipts import RECEIPT_META
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


@dataclass(frozen=True, slots=True)
class _Call:
    """One `tools/call` the adopter handles, as every round of it reads it."""

    ctx: ServerRequestContext[Any, Any]
    call_next: CallNext
    tool: Tool
    params: Mapping[str, Any]
    arguments: dict[str, Any]
    caps: Capabilities
    principal: str | None
    origin: str | None  # where page links point on a loopback server without a public URL

    def refused(self, refusal: Refusal) -> HandlerResult:
        return wire.tool_refusal(refusal, has_output_schema=self.tool.has_output_schema)


@dataclass(frozen=True, slots=True)
class _Onward:
    """What the call goes on with: its final arguments, and the receipt its run is recorded on (or None)."""

    arguments: dict[str, Any]
    receipt: str | None


class Adopter:
    """The middleware `askback.adopt` installs (one per server), and the gateway in front of its upstream.

    `tools` finds a tool by name; the middleware never lists tools itself, so any server (an `MCPServer`, an
    upstream reached over the network, a FastMCP app through `askback.adoption.fastmcp`) can sit behind it.
    `steps`: askback's pages and single-use runs, on an `askback.App`'s runtime (None: no tool needs them; a
    credential is then refused, never asked). `serves`: the adopted server's own HTTP app factory
    (`MCPServer.streamable_http_app`, `FastMCP.http_app`), for `streamable_http_app` to put the pages beside.
    """

    def __init__(self, tools: ToolLookup, steps: PageSteps | None = None,
                 serves: Callable[..., Any] | None = None) -> None:
        self._tool = tools
        self.steps = steps
        self.serves = serves

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        found = tool_call(ctx)
        if found is None:
            return await call_next(ctx)
        params, name, arguments = found
        tool = await self._tool(name)
        if tool is None:
            return await call_next(ctx)  # unknown: the SDK's "Unknown tool"
        incoming = incoming_of(ctx)
        hook = self.steps.app.principal_hook if self.steps is not None else None
        call = _Call(ctx, call_next, tool, params, dict(arguments), wire.capabilities(ctx.session.client_capabilities),
                     principal_of(incoming, hook), page_origin(incoming))
        try:
            if ctx.protocol_version and is_version_at_least(ctx.protocol_version, _MODERN):
                return await self._round(call)
            return await self._back_channel(call)
        except NoPublicUrl as exc:
            return call.refused(Refusal("cannot_ask", exc.public_message))
        except AskbackError as exc:  # a replayed single-use round, a store that did not confirm: the truth, said
            raise sdk_error(rpc_error(exc)) from None

    def streamable_http_app(self, **kwargs: Any) -> Any:
        """The adopted server's streamable-HTTP app with askback's pages beside it (`askback.adoption.serving`)."""
        from askback.adoption.serving import with_pages

        if self.serves is None:
            raise TypeError("this adopter serves no server of its own")
        return with_pages(self.steps, self.serves, **kwargs)

    @property
    def _pages(self) -> bool:
        return self.steps is not None and self.steps.served

    async def _options(self, call: _Call, values: Mapping[str, Any]) -> dict[str, list[Option]]:
        if not call.tool.options.choices:
            return {}
        return await look_up(call.tool, values, problems(call.tool.schema, values), call.principal)

    async def _decide(
        self, call: _Call, progress: Progress, notes: Mapping[str, str], marks: dict[str, Mark]
    ) -> tuple[Decision, Progress]:
        """The round's decision, with the choices' options and the page steps' marks looked up; a choice of one
        option is not asked."""
        arguments, tool = call.arguments, call.tool
        offered = await self._options(call, {**arguments, **progress.answers})
        single = {n: o[0].value for n, o in offered.items()
                  if len(o) == 1 and n not in arguments and n not in progress.answers}
        if single:
            progress = progress.answered(single)
            offered = await self._options(call, {**arguments, **progress.answers})
        values = {**arguments, **progress.answers}
        while True:
            decision = decide(tool, values, call.caps, confirmed=progress.confirmed, notes=notes, options=offered,
                              marks=marks, pages=self._pages)
            if not isinstance(decision, NeedMark):
                return decision, progress
            assert self.steps is not None  # a page step is decided only where pages are served
            progress = await self.steps.flow(progress)
            marks[decision.request.name] = await self.steps.mark(
                progress, decision.request, tool=tool.name, principal=call.principal, origin=call.origin)

    async def _round(self, call: _Call) -> HandlerResult:
        """2026-07-28: one `input_required` round per question; progress rides the sealed `requestState`."""
        params = call.params
        state, responses = params.get("requestState"), params.get("inputResponses")
        if not isinstance(state, str | None) or not isinstance(responses, Mapping | None):
            return await call.call_next(call.ctx)  # malformed retry fields: the SDK's own validation error
        progress = resume(state, call.tool.name, call.arguments)
        responses = responses or {}
        notes: dict[str, str] = {}
        accepted_page: str | None = None
        if progress.asked is not None:
            response = responses.get(progress.asked.key)
            if isinstance(response, Mapping):
                offered = await self._options(call, {**call.arguments, **progress.answers})
                taken = take(call.tool, progress.asked, response.get("action"), response.get("content"), offered)
                if taken.refusal is not None:
                    return call.refused(taken.refusal)
                if progress.asked.page is not None:
                    accepted_page = progress.asked.page
                progress, notes = _advance(progress, taken), taken.notes
        marks: dict[str, Mark] = {}
        decision, progress = await self._decide(call, progress, notes, marks)
        held = isinstance(decision, AskPage) and decision.step == accepted_page and self.steps is not None
        # The client accepted this page step and is back before it is done: held until the page finishes it.
        if held and self.steps is not None and await self.steps.hold(progress, accepted_page or ""):
            marks.clear()
            decision, progress = await self._decide(call, progress, notes, marks)
        if isinstance(decision, AskValues | AskConfirm | AskPage):
            if call.tool.options.once and self.steps is not None:
                progress = await self.steps.flow(progress)  # the flow its final round claims, named once
            asked = _asked(decision)
            return wire.input_required((decision.question,), progress.asking(asked).encode())
        if isinstance(decision, ToSdk):
            return await call.call_next(call.ctx)
        if isinstance(decision, Refuse):
            return await self._refused(decision, call, progress, marks)
        assert isinstance(decision, Go)
        final = await self._final(call, progress, decision, marks)
        if not isinstance(final, _Onward):
            return final
        inner = {k: v for k, v in responses.items() if not ours(k)}
        onward = {k: v for k, v in params.items() if k not in ("requestState", "inputResponses")}
        onward["arguments"] = final.arguments
        if progress.inner is not None:
            onward["requestState"] = progress.inner
        if inner:
            onward["inputResponses"] = inner
        result = await self._forward(call, replace(call.ctx, params=onward), final.receipt)
        return _carried(result, progress)

    async def _forward(self, call: _Call, ctx: ServerRequestContext[Any, Any], receipt: str | None) -> HandlerResult:
        """The call, gone on to the tool; what came back recorded on its receipt, whose id rides in `_meta`
        (a round of the tool's own resolvers is not an ending: its retry comes back here)."""
        try:
            result = await call.call_next(ctx)
        except Exception:
            if receipt is not None and self.steps is not None:
                await self.steps.returned(receipt, "failed")
            raise
        if receipt is None or self.steps is None or is_input_required(result):
            return result
        failed, value = _outcome(result)
        if failed:
            await self.steps.returned(receipt, "failed")
        else:
            await self.steps.returned(receipt, "complete", value, has_value=True)
        return _with_receipt(result, receipt)

    async def _refused(self, decision: Refuse, call: _Call, progress: Progress,
                       marks: Mapping[str, Mark]) -> HandlerResult:
        """The refusal; for one that follows an approval's page (rejected there), recorded on its receipt."""
        receipt = None
        if decision.capability is None and self.steps is not None and approval_asked(marks):
            receipt = await self.steps.receipt(progress, on_page=True, once=False)
            if receipt is not None:
                await self.steps.returned(receipt, decision.refusal.reason)
        return _with_receipt(_refused(decision, call), receipt)

    async def _final(self, call: _Call, progress: Progress, decision: Go,
                     marks: Mapping[str, Mark]) -> _Onward | HandlerResult:
        """The arguments the call goes on with: its single-use run claimed (on a retry: a first round has no
        earlier one a replay could repeat), then the credentials entered on the page taken from the store, then
        its start recorded on its receipt (`_started`)."""
        tool = call.tool
        if tool.options.once and progress.resumed and progress.pages is not None and progress.inner is None:
            # (A round of the tool's own resolvers after askback's is the SDK's: its retry is not claimed again.)
            assert self.steps is not None
            await self.steps.claim(progress, f"tools/call {one_line(tool.name)}")
        if not decision.secrets:
            return _Onward(decision.arguments, await self._started(call, progress, decision, marks))
        assert self.steps is not None and progress.pages is not None
        taken = await self.steps.take(progress, [(n, secret_step(n)) for n in decision.secrets])
        if taken is None:
            logger.warning("the secret for tools/call %s was already used", one_line(tool.name))
            raise InvalidRequestState(Rejection.REPLAYED)
        arguments = {**decision.arguments, **taken}
        # Checked here, never by the tool's own validation, whose error could repeat the value it refused.
        wrong = {n: why for n, why in problems(tool.schema, arguments).items() if n in taken}
        if wrong:
            name, why = next(iter(wrong.items()))
            return call.refused(Refusal("invalid_arguments", f"{tool.name} was not run: the value entered on the page "
                                                             f"for {name} was not accepted: {why}. Call it again."))
        return _Onward(arguments, await self._started(call, progress, decision, marks))

    async def _started(self, call: _Call, progress: Progress, decision: Go, marks: Mapping[str, Mark]) -> str | None:
        """The receipt the run goes on (an approval given on a page, a single-use run), its start recorded; a
        retry of the tool's own resolvers' round goes on the receipt whose start its first round recorded."""
        if self.steps is None:
            return None
        on_page, once = approval_asked(marks), call.tool.options.once
        if progress.inner is not None:
            return await self.steps.receipt(progress, on_page=on_page, once=once)
        if once:
            progress = await self.steps.flow(progress)  # a single-use run in its first round: the flow it is
        values = {n: v for n, v in decision.arguments.items() if n not in decision.secrets}
        return await self.steps.started(progress, on_page=on_page, once=once, tool=call.tool.name,
                                        principal=call.principal, values=values)

    async def _back_channel(self, call: _Call) -> HandlerResult:
        """2025-11-25: the same questions as `elicitation/create` requests on the session, within this request."""
        ctx = call.ctx
        progress = Progress.start(call.tool.name, call.arguments)
        notes: dict[str, str] = {}
        marks: dict[str, Mark] = {}
        for _ in range(MAX_ROUNDS):
            decision, progress = await self._decide(call, progress, notes, marks)
            if isinstance(decision, Go):
                final = await self._final(call, progress, decision, marks)
                if not isinstance(final, _Onward):
                    return final
                return await self._forward(call, replace(ctx, params={**call.params, "arguments": final.arguments}),
                                           final.receipt)
            if isinstance(decision, ToSdk):
                return await call.call_next(ctx)
            if isinstance(decision, Refuse):
                return await self._refused(decision, call, progress, marks)
            try:
                if isinstance(decision, AskPage):
                    refusal = await self._page_back(call, progress, decision)
                    if refusal is not None:
                        return call.refused(refusal)
                    marks.clear()  # decide again with the marks as the page left them
                    continue
                assert isinstance(decision, AskValues | AskConfirm)  # `_decide` looked every mark up
                question = decision.question
                answer = await ctx.session.elicit_form(question.full_message, question.schema,
                                                       related_request_id=ctx.request_id)
            except NoBackChannelError:
                return await call.call_next(ctx)  # this connection cannot carry a question: the SDK answers as sent
            offered = await self._options(call, {**call.arguments, **progress.answers})
            taken = take(call.tool, _asked(decision), answer.action, answer.content, offered)
            if taken.refusal is not None:
                return call.refused(taken.refusal)
            progress, notes = _advance(progress, taken), taken.notes
        refusal = Refusal("too_many_rounds", f"{call.tool.name} was not run: {MAX_ROUNDS} questions went unanswered.")
        return call.refused(refusal)

    async def _page_back(self, call: _Call, progress: Progress, decision: AskPage) -> Refusal | None:
        """A page step over the back-channel: the URL question (with its elicitation id); once the person
        accepts, wait for the page, then say the step is complete. A refusal if the person will not go, or the
        page is not finished within the flow."""
        ctx, question = call.ctx, decision.question
        answer = await ctx.session.elicit_url(question.message, question.url, question.elicitation_id,
                                              related_request_id=ctx.request_id)
        taken = take(call.tool, _asked(decision), answer.action, None)
        if taken.refusal is not None:
            return taken.refusal
        assert self.steps is not None
        if not await self.steps.wait(progress, decision.step):
            return Refusal("cancelled", f"{call.tool.name}: the page step was not finished in time. Nothing was done.")
        await ctx.session.send_elicit_complete(question.elicitation_id, related_request_id=ctx.request_id)
        return None


def _asked(decision: AskValues | AskConfirm | AskPage) -> LastRound:
    if isinstance(decision, AskConfirm):
        return LastRound(decision.question.key, confirm=decision.digest)
    if isinstance(decision, AskPage):
        return LastRound(decision.question.key, page=decision.step)
    return LastRound(decision.question.key, decision.fields)


def _advance(progress: Progress, taken: Taken) -> Progress:
    if taken.confirmed is not None:
        return progress.confirming(taken.confirmed)
    return progress.answered(taken.values)


def _refused(decision: Refuse, call: _Call) -> HandlerResult:
    if decision.capability is not None:
        raise sdk_error(rpc_error(decision.capability))
    return call.refused(decision.refusal)


def _outcome(result: HandlerResult) -> tuple[bool, Any]:
    """Whether the tool's result is an error, and its value (structured, else its content) as a receipt's
    digest is taken of it."""
    if isinstance(result, Mapping):
        structured = result.get("structuredContent")
        return bool(result.get("isError")), structured if structured is not None else result.get("content")
    structured = getattr(result, "structured_content", None)
    return bool(getattr(result, "is_error", False)), structured if structured is not None else getattr(
        result, "content", None)


def _with_receipt(result: HandlerResult, receipt: str | None) -> HandlerResult:
    """The result with its flow's receipt id in `_meta` (`askback.receipts.RECEIPT_META`), when it has one."""
    if receipt is None:
        return result
    if isinstance(result, Mapping):
        return wire.with_receipt(dict(result), receipt)
    if isinstance(result, BaseModel) and "meta" in type(result).model_fields:
        meta = getattr(result, "meta", None) or {}
        return result.model_copy(update={"meta": {**meta, RECEIPT_META: receipt}})
    return result


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
