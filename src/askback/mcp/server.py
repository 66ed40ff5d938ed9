"""An askback `App` as an official-SDK low-level `Server`.

2026-07-28 requests get `input_required` results with a sealed `requestState`; handshake-era (2025-11-25)
sessions are asked the same questions through the session's back-channel within the one request.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

import mcp_types as types
from mcp.server.caching import CacheHint
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp.shared.uri_template import UriTemplate
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from askback.app import App
from askback.core.kinds import ChoiceParam
from askback.core.markers import Caller
from askback.core.questions import FormQuestion, Question, SamplingQuestion, UrlQuestion
from askback.core.spec import Spec
from askback.flow import Round, Step
from askback.incoming import page_origin, principal_of
from askback.mcp import wire
from askback.mcp.calls import Calls, Play, RpcError, sdk_error
from askback.mcp.checks import header_schemas
from askback.mcp.context import SessionLevels, progress_token, request_context
from askback.mcp.guard import RetryFieldsGuard
from askback.mcp.incoming import incoming_of
from askback.mcp.params import PromptGet, ResourceRead, ToolCall
from askback.mcp.subscriptions import ResourceSubscriptions
from askback.mcp.tasks import McpTasks, declared, missing_extension
from askback.mcp.tracing import spans_only_when_tracing
from askback.pagewait import Gone
from askback.types import Capabilities

logger = logging.getLogger("askback.mcp")
_LIST_HINT = CacheHint(ttl_ms=60_000, scope="public")


def build_server(app: App) -> Server[Any]:
    """The SDK server for `app`; serve it with `askback.mcp.http_app` or the SDK's own transports."""
    return AppServer(app).server


class AppServer:
    """`app` on the SDK's low-level `Server` (`.server`), with what the fast route shares with it."""

    def __init__(self, app: App, calls: Calls | None = None, tasks: McpTasks | None = None) -> None:
        self.app = app
        self.calls = calls or Calls(app)  # the fast route's, when it has one: one flow per app for both entries
        self.flow = self.calls.flow  # one flow per app: its cache of guarded forms is shared by both entries
        self.header_schemas = header_schemas(app)
        self.templates = [(UriTemplate.parse(s.uri_template or ""), s) for s in app.resources.values()]
        self.tasks = tasks or McpTasks(app)  # the fast route's too, when it has one: one task runner per app
        self._tools = {
            "resultType": "complete",
            "tools": [self.tasks.tool_entry(s, self._tool_entry(s)) for s in app.tools.values()],
        }
        self._prompts = {"resultType": "complete", "prompts": [self._prompt_entry(s) for s in app.prompts.values()]}
        self._resources = {
            "resultType": "complete",
            "resources": [self._resource_entry(s) for t, s in self.templates if not t.variable_names],
        }
        self._templates = {
            "resultType": "complete",
            "resourceTemplates": [
                self._resource_entry(s, "uriTemplate") for t, s in self.templates if t.variable_names
            ],
        }
        # Clients may subscribe to resources: on 2025-11-25 with resources/subscribe, on 2026-07-28 with a
        # subscriptions/listen stream; `App.resource_updated` tells both.
        self.subscriptions = ResourceSubscriptions() if app.resources else None
        if self.subscriptions is not None:
            app.on_resource_updated(self.subscriptions.updated)
        self.server: Server[Any] = _FixedListsServer(
            app.name,
            version=app.version,
            instructions=app.instructions,
            cache_hints={
                "tools/list": _LIST_HINT,
                "prompts/list": _LIST_HINT,
                "resources/list": _LIST_HINT,
                "resources/templates/list": _LIST_HINT,
            },
            # The SDK checks `Mcp-Param-*` headers against a tool's schema; without this lookup it re-runs
            # tools/list inside every tools/call. Only schemas that declare `x-mcp-header` have anything to check.
            get_tool_input_schema=self.header_schemas.get,
            on_subscriptions_listen=self.subscriptions.listen if self.subscriptions is not None else None,
        )
        spans_only_when_tracing(self.server.middleware)
        self.guard = RetryFieldsGuard(app)
        self.server.middleware.append(self.guard)
        # Handlers return wire dicts (the SDK validates them per protocol version before sending).
        add = self.server.add_request_handler
        add("tools/list", types.PaginatedRequestParams, self.list_tools)
        add("tools/call", ToolCall, self.call_tool)
        self.levels = SessionLevels()
        if any(s.context_param is not None for s in app.tools.values()):
            # A tool can log: a 2025-11-25 client may say which levels it wants (and sees the capability).
            add("logging/setLevel", types.SetLevelRequestParams, self.levels.set_level)
        self.tasks.install(self.server)
        if app.prompts:
            add("prompts/list", types.PaginatedRequestParams, self.list_prompts)
            add("prompts/get", PromptGet, self.get_prompt)
        if app.prompts or app.resources:  # a choice's provider suggests values; other arguments get none
            add("completion/complete", types.CompleteRequestParams, self.complete)
        if app.resources:
            add("resources/list", types.PaginatedRequestParams, self.list_resources)
            add("resources/templates/list", types.PaginatedRequestParams, self.list_resource_templates)
            add("resources/read", ResourceRead, self.read_resource)
            assert self.subscriptions is not None
            add("resources/subscribe", types.SubscribeRequestParams, self.subscriptions.subscribe)
            add("resources/unsubscribe", types.UnsubscribeRequestParams, self.subscriptions.unsubscribe)

    # -- listings (static: built once) -------------------------------------------------------------------
    @staticmethod
    def _tool_entry(spec: Spec) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": spec.name, "inputSchema": spec.input_schema}
        if spec.title:
            entry["title"] = spec.title
        if spec.description:
            entry["description"] = spec.description
        if spec.output_schema:
            entry["outputSchema"] = spec.output_schema
        return entry

    @staticmethod
    def _prompt_entry(spec: Spec) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "name": spec.name,
            "arguments": [
                {"name": p.name, "description": p.description or p.title, "required": p.required}
                for p in spec.argument_params
            ],
        }
        if spec.title:
            entry["title"] = spec.title
        if spec.description:
            entry["description"] = spec.description
        return entry

    @staticmethod
    def _resource_entry(spec: Spec, uri_key: str = "uri") -> dict[str, Any]:
        """A `resources/list` entry, or with `uri_key="uriTemplate"` a `resources/templates/list` one."""
        entry: dict[str, Any] = {"name": spec.name, uri_key: spec.uri_template}
        if spec.description:
            entry["description"] = spec.description
        if spec.mime_type:
            entry["mimeType"] = spec.mime_type
        return entry

    async def list_tools(self, ctx: ServerRequestContext[Any], params: Any) -> dict[str, Any]:
        return dict(self._tools)

    async def list_prompts(self, ctx: ServerRequestContext[Any], params: Any) -> dict[str, Any]:
        return dict(self._prompts)

    async def list_resources(self, ctx: ServerRequestContext[Any], params: Any) -> dict[str, Any]:
        return dict(self._resources)

    async def list_resource_templates(self, ctx: ServerRequestContext[Any], params: Any) -> dict[str, Any]:
        return dict(self._templates)

    # -- the three methods that can ask (what they decide is shared with the fast route: `calls`) -------------
    async def call_tool(self, ctx: ServerRequestContext[Any], params: ToolCall) -> dict[str, Any]:
        spec = self.app.tools.get(params.name)
        if spec is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        rnd = self._round(ctx, spec, "tools/call", params.name, params.arguments or {})
        if spec.context_param is not None:
            context = request_context(ctx, spec, rnd.principal, self.app.runtime.answer_guard, self.levels)
            rnd = replace(rnd, context=context)
        if spec.task is not None:
            if declared(ctx):
                return await self.tasks.call(spec, rnd, self.flow)
            if spec.task == "required":
                raise missing_extension(f"{spec.name} runs only as a task: it")
        return await _sdk_errors(self.calls.tool(spec, rnd, self._player(ctx)))

    async def get_prompt(self, ctx: ServerRequestContext[Any], params: PromptGet) -> dict[str, Any]:
        spec = self.app.prompts.get(params.name)
        if spec is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {params.name}")
        rnd = self._round(ctx, spec, "prompts/get", params.name, dict(params.arguments or {}))
        return await _sdk_errors(self.calls.prompt(spec, rnd, self._player(ctx)))

    async def read_resource(
        self, ctx: ServerRequestContext[Any], params: ResourceRead
    ) -> dict[str, Any]:
        uri = str(params.uri)
        found = self.resource_for(uri)
        if found is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Resource not found: {uri}", data={"uri": uri})
        spec, variables = found
        rnd = self._round(ctx, spec, "resources/read", uri, variables)
        return await _sdk_errors(self.calls.resource(spec, rnd, self._player(ctx)))

    def resource_for(self, uri: str) -> tuple[Spec, dict[str, Any]] | None:
        """The resource template `uri` matches, first registered first, and its variables."""
        for template, spec in self.templates:
            variables = template.match(uri)
            if variables is not None:
                return spec, dict(variables)
        return None

    # -- one request, either era -------------------------------------------------------------------------
    def _round(
        self, ctx: ServerRequestContext[Any], spec: Spec, method: str, target: str, arguments: Mapping[str, Any]
    ) -> Round:
        raw = ctx.params or {}
        modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
        caps = wire.capabilities(ctx.session.client_capabilities)
        if not modern and not ctx.session.can_send_request:
            caps = Capabilities()  # no back-channel on this connection: nothing can be asked
        incoming = incoming_of(ctx)
        pages = self.calls.has_pages(spec)
        # The request's own address serves only to build a page link, so it is read only for tools that have pages.
        origin = page_origin(incoming) if pages else None
        # The retry fields' shapes are already checked by `RetryFieldsGuard`.
        return Round(method, target, dict(arguments), raw.get("inputResponses"), raw.get("requestState"), caps,
                     principal_of(incoming, self.app.principal_hook), origin, _gone(ctx) if pages else None)

    def _player(self, ctx: ServerRequestContext[Any]) -> Play | None:
        """2026-07-28 plays one round (`Flow.step`); a session asks over its back-channel within this request."""
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return None

        async def converse(spec: Spec, rnd: Round) -> Step:
            return await self.flow.converse(
                spec,
                rnd,
                lambda question: self._ask_back(ctx, question),
                lambda question: ctx.session.send_elicit_complete(question.elicitation_id, ctx.request_id),
                status=_progress(ctx),
                pages=self.app.pages_served,
            )

        return converse

    # -- completion/complete: a choice's options, suggested before they would be asked ---------------------
    async def complete(self, ctx: ServerRequestContext[Any], params: types.CompleteRequestParams) -> dict[str, Any]:
        ref = params.ref
        spec: Spec | None
        if isinstance(ref, types.PromptReference):
            spec = self.app.prompts.get(ref.name)
        else:
            spec = next((s for t, s in self.templates if s.uri_template == ref.uri), None)
        choice = _choices(spec).get(params.argument.name) if spec is not None else None
        values: list[str] = []
        if spec is not None and choice is not None:
            known = dict(params.context.arguments or {}) if params.context else {}
            if all(d in known for d in choice.deps):
                caller = Caller(principal=principal_of(incoming_of(ctx), self.app.principal_hook), values=known)
                try:
                    options = await self.flow.options(spec, choice.name, caller)
                except Exception:
                    logger.exception("completion for %s.%s raised", spec.name, choice.name)
                    options = []
                typed = params.argument.value.casefold()
                values = [str(o.value) for o in options if str(o.value).casefold().startswith(typed)]
        return {
            "resultType": "complete",
            "completion": {"values": values[:100], "total": len(values), "hasMore": len(values) > 100},
        }

    async def _ask_back(self, ctx: ServerRequestContext[Any], question: Question) -> dict[str, Any]:
        request = wire.input_request(question)
        if isinstance(question, UrlQuestion):  # 2025-11-25 names each URL elicitation
            request["params"]["elicitationId"] = question.elicitation_id
        metadata = ServerMessageMetadata(related_request_id=ctx.request_id)
        model: types.ServerRequest
        result_type: type[types.Result]
        if isinstance(question, FormQuestion | UrlQuestion):
            model, result_type = types.ElicitRequest.model_validate(request), types.ElicitResult
        elif isinstance(question, SamplingQuestion):
            model, result_type = types.CreateMessageRequest.model_validate(request), types.CreateMessageResult
        else:
            model, result_type = types.ListRootsRequest(), types.ListRootsResult
        result = await ctx.session.send_request(model, result_type, metadata=metadata)
        return result.model_dump(by_alias=True, mode="json", exclude_none=True)


class _FixedListsServer(Server[Any]):
    """The SDK's `Server`, saying that askback's lists of tools, prompts and resources never change.

    On 2026-07-28 the SDK derives every `listChanged` flag from whether `subscriptions/listen` is served; askback
    serves it for resource subscriptions, but its lists are fixed when the server is built, so no list-changed
    notification is ever sent, and the capabilities say so (a client then does not wait for one).
    """

    def get_capabilities(self, *args: Any, **kwargs: Any) -> types.ServerCapabilities:
        caps = super().get_capabilities(*args, **kwargs)
        update: dict[str, Any] = {}
        for name in ("tools", "prompts", "resources"):
            part = getattr(caps, name)
            if part is not None and part.list_changed:
                update[name] = part.model_copy(update={"list_changed": False})
        return caps.model_copy(update=update) if update else caps


# The SDK has already checked each request against the protocol's schema, answers and state included, before a
# handler's params model is built; these models read only what the handlers use, instead of parsing every answer
# into result models a second time. The answers and state are read raw from the request (`_round`).






async def _sdk_errors(call: Awaitable[dict[str, Any]]) -> dict[str, Any]:
    """A shared call's `RpcError` as the SDK's `MCPError` (the SDK writes it, with its HTTP status)."""
    try:
        return await call
    except RpcError as exc:
        raise sdk_error(exc) from None


def _progress(ctx: ServerRequestContext[Any]) -> Callable[[str], Awaitable[None]] | None:
    """A session call's `work.status` texts as progress notifications, if its request carried a progress token."""
    token = progress_token(ctx.params)
    if token is None:
        return None
    sent = 0

    async def status(text: str) -> None:
        nonlocal sent
        sent += 1  # progress must grow with each notification; how much of the work is done is not known
        related = None if ctx.request_id is None else str(ctx.request_id)
        await ctx.session.send_progress_notification(token, sent, message=text, related_request_id=related)

    return status


def _choices(spec: Spec | None) -> dict[str, ChoiceParam]:
    if spec is None:
        return {}
    return {p.name: p for p in spec.argument_params if isinstance(p, ChoiceParam)}


def _gone(ctx: ServerRequestContext[Any]) -> Gone | None:
    """Whether the client closed the connection of this HTTP request (ends a held retry: `askback.pagewait`)."""
    check = getattr(ctx.request, "is_disconnected", None)
    return check if callable(check) else None
