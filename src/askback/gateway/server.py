"""The gateway as an SDK low-level `Server`: the upstream's tools, each call checked before it is forwarded.

The middleware chain does the asking: `SealedState` (outermost) seals what the adopter writes, the adopter
(the same one `askback.adopt` installs) validates the arguments against the upstream's listed input schema
and asks for what is missing or refused, then hands the merged arguments to `call_tool`, which forwards them.
The upstream's result comes back as it sent it; an `input_required` of the upstream's own passes through to a
2026-07-28 caller (the adopter carries its `requestState` inside the gateway's sealed one), and is asked over
the session's back-channel of a 2025-11-25 caller, its answers forwarded on the upstream's next round.
When the upstream's lists change, the gateway's callers are told (`askback.gateway.listing`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import mcp_types as types
from mcp.server.caching import CacheHint
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ValidationError

from askback.adoption.middleware import MAX_ROUNDS, Adopter
from askback.adoption.pagesteps import PageSteps
from askback.app import App
from askback.client.errors import ClientError, ServerError
from askback.core.outcomes import Refusal
from askback.gateway.listing import ListChanges
from askback.gateway.sealing import SealedState
from askback.gateway.upstream import Upstream
from askback.mcp import wire
from askback.mcp.params import PromptGet, ResourceRead, ToolCall
from askback.mcp.tracing import spans_only_when_tracing
from askback.types import Capabilities

logger = logging.getLogger("askback.gateway")

# The upstream's list can change under it: a caller keeps the gateway's listing a short while only.
_LIST_HINT = CacheHint(ttl_ms=10_000, scope="public")
_FORWARDED = ("name", "arguments", "requestState", "inputResponses")
_BACK_CHANNEL: dict[str, tuple[type[BaseModel], type[types.Result]]] = {
    "elicitation/create": (types.ElicitRequest, types.ElicitResult),
    "sampling/createMessage": (types.CreateMessageRequest, types.CreateMessageResult),
    "roots/list": (types.ListRootsRequest, types.ListRootsResult),
}


class _FollowingServer(Server[Any]):
    """The SDK server, declaring `listChanged` to 2025-11-25 clients too: the gateway tells them of changes.
    (At 2026-07-28 the SDK derives it from `subscriptions/listen` being served.)"""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        following = notification_options or NotificationOptions(
            prompts_changed=True, resources_changed=True, tools_changed=True)
        return super().create_initialization_options(following, experimental_capabilities, extensions)


class GatewayServer:
    """`upstream`'s tools (and prompts and resources, where it has them) under `app`'s name, keys and store.

    `.server` is the SDK server. Call `mirror()` once the upstream is connected: the prompts and resources
    methods are served only if the upstream declared them, so the gateway declares no capability it lacks.
    """

    def __init__(self, app: App, upstream: Upstream) -> None:
        self.app = app
        self.upstream = upstream
        hints: dict[Any, CacheHint] = {
            "tools/list": _LIST_HINT, "prompts/list": _LIST_HINT, "resources/list": _LIST_HINT,
            "resources/templates/list": _LIST_HINT,
        }
        self.changes = ListChanges()
        upstream.on_change = self.changes.changed
        self.server: Server[Any] = _FollowingServer(app.name, version=app.version, instructions=app.instructions,
                                          cache_hints=hints,
                                          # The SDK's `Mcp-Param-*` check reads the listed schema, not tools/list.
                                          get_tool_input_schema=upstream.input_schema)
        spans_only_when_tracing(self.server.middleware)
        self.server.middleware.append(SealedState(app))
        # The owner's lifespan (or the stdio loop) starts the app: its store is open before the first call.
        self.server.middleware.append(Adopter(upstream.tool, PageSteps(app, started_elsewhere=True)))
        add = self.server.add_request_handler
        add("tools/list", types.PaginatedRequestParams, self.list_tools)
        add("tools/call", ToolCall, self.call_tool)
        add("subscriptions/listen", types.SubscriptionsListenRequestParams, self.changes.listen)

    def mirror(self) -> None:
        """Serve the upstream's prompts and resources as it serves them (forwarded, results unchanged)."""
        add = self.server.add_request_handler
        if self.upstream.serves("prompts"):
            add("prompts/list", types.PaginatedRequestParams, self._passed("prompts/list"))
            add("prompts/get", PromptGet, self._passed("prompts/get", asks=True))
        if self.upstream.serves("resources"):
            add("resources/list", types.PaginatedRequestParams, self._passed("resources/list"))
            add("resources/templates/list", types.PaginatedRequestParams, self._passed("resources/templates/list"))
            add("resources/read", ResourceRead, self._passed("resources/read", asks=True))

    async def list_tools(self, ctx: ServerRequestContext[Any], params: Any) -> dict[str, Any]:
        self.changes.listed(ctx)
        try:
            tools = await self.upstream.list_tools()
        except ClientError as exc:
            raise _upstream_error(exc) from None
        return {"resultType": "complete", "tools": tools}

    async def call_tool(self, ctx: ServerRequestContext[Any], params: ToolCall) -> dict[str, Any]:
        raw = ctx.params or {}
        onward = {k: raw[k] for k in _FORWARDED if raw.get(k) is not None}
        return await self._forward(ctx, "tools/call", onward, params.name)

    def _passed(self, method: str, *, asks: bool = False) -> Any:
        async def handler(ctx: ServerRequestContext[Any], params: Any) -> dict[str, Any]:
            onward = {k: v for k, v in (ctx.params or {}).items() if k != "_meta" and v is not None}
            if method.endswith("/list"):
                self.changes.listed(ctx)
            if not asks:
                result = await self._request(method, onward, wire.capabilities(ctx.session.client_capabilities))
                return _in_era(result, ctx.protocol_version)
            target = onward.get("name", onward.get("uri"))
            return await self._forward(ctx, method, onward, str(target))

        return handler

    async def _forward(
        self, ctx: ServerRequestContext[Any], method: str, onward: dict[str, Any], target: str
    ) -> dict[str, Any]:
        """A request that can ask, forwarded: as it is to a 2026-07-28 caller (an `input_required` of the
        upstream's goes back to it), over the back-channel of a 2025-11-25 caller."""
        caps = wire.capabilities(ctx.session.client_capabilities)
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return _in_era(await self._request(method, onward, caps), ctx.protocol_version)
        # A 2025-11-25 caller has no rounds of its own: the upstream's questions go over its back-channel.
        if not ctx.session.can_send_request:
            caps = Capabilities()  # nothing can be asked on this connection
        for _ in range(MAX_ROUNDS):
            result = await self._request(method, onward, caps)
            requests = result.get("inputRequests")
            if result.get("resultType") != "input_required" or not isinstance(requests, Mapping):
                return result
            responses = {key: await _ask_back(ctx, request) for key, request in requests.items()}
            onward = {k: v for k, v in onward.items() if k not in ("requestState", "inputResponses")}
            onward["inputResponses"] = responses
            if isinstance(result.get("requestState"), str):
                onward["requestState"] = result["requestState"]
        refusal = Refusal("too_many_rounds", f"{target} was not run: {MAX_ROUNDS} questions went unanswered.")
        if method == "tools/call":
            return wire.tool_refusal(refusal, has_output_schema=False)
        raise MCPError(code=types.INTERNAL_ERROR, message=refusal.message)

    async def _request(self, method: str, onward: Mapping[str, Any], caps: Capabilities) -> dict[str, Any]:
        try:
            return await self.upstream.request(method, onward, caps)
        except ClientError as exc:
            raise _upstream_error(exc) from None








async def _ask_back(ctx: ServerRequestContext[Any], request: Any) -> dict[str, Any]:
    """One of the upstream's input requests, asked of a 2025-11-25 caller; its answer as an input response."""
    method = request.get("method") if isinstance(request, Mapping) else None
    kinds = _BACK_CHANNEL.get(method) if isinstance(method, str) else None
    if kinds is None:
        raise MCPError(code=types.INTERNAL_ERROR, message=f"the upstream asked with {method!r}, which the gateway "
                                                          "cannot relay over this session")
    model, result_type = kinds
    try:
        sent = model.model_validate({"method": method, "params": request.get("params") or {}})
    except ValidationError:
        raise MCPError(code=types.INTERNAL_ERROR, message=f"the upstream's {method} request is not valid") from None
    metadata = ServerMessageMetadata(related_request_id=ctx.request_id)
    answer = await ctx.session.send_request(sent, result_type, metadata=metadata)  # type: ignore[arg-type]
    return answer.model_dump(by_alias=True, mode="json", exclude_none=True)


def _in_era(result: dict[str, Any], version: str) -> dict[str, Any]:
    """The upstream's result as the caller's era has it: a 2025-11-25 upstream's result has no `resultType`,
    which a 2026-07-28 result must carry (the spec reads its absence as complete, and so does the gateway)."""
    if version in MODERN_PROTOCOL_VERSIONS and "resultType" not in result:
        return {**result, "resultType": "complete"}
    return result


def _upstream_error(exc: ClientError) -> MCPError:
    """The upstream's JSON-RPC error as the gateway's own (same code, message and data); any other failure
    to reach it as an internal error naming the upstream."""
    if isinstance(exc, ServerError) and exc.code is not None:
        return MCPError(code=exc.code, message=exc.message, data=exc.data)
    logger.warning("the upstream failed: %s", exc)
    return MCPError(code=types.INTERNAL_ERROR, message=f"the upstream server failed: {exc}")
