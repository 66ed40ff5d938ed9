"""An askback `App` as an official-SDK low-level `Server`.

2026-07-28 requests get `input_required` results with a sealed `requestState`; handshake-era (2025-11-25)
sessions are asked the same questions through the session's back-channel within the one request.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import mcp_types as types
from mcp.server.caching import CacheHint
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.request_state import authenticated_principal
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp.shared.uri_template import UriTemplate
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ConfigDict

from askback.app import App
from askback.core.questions import FormQuestion, Question, SamplingQuestion
from askback.core.secrets import SecretInForm
from askback.core.spec import Spec
from askback.core.state import StateTooLarge
from askback.errors import INVALID_STATE_MESSAGE, BadInput, InvalidRequestState, ToolError
from askback.flow import Asking, Finished, Flow, Refused, Round, Step
from askback.mcp import wire
from askback.mcp.guard import RetryFieldsGuard
from askback.types import Capabilities

logger = logging.getLogger("askback.mcp")
_LIST_HINT = CacheHint(ttl_ms=60_000, scope="public")


def build_server(app: App) -> Server[Any]:
    """The SDK server for `app`; serve it with `askback.mcp.http_app` or the SDK's own transports."""
    return _McpServer(app).server


class _McpServer:
    def __init__(self, app: App) -> None:
        self.app = app
        self.flow = Flow(app)
        self._header_schemas = {
            name: spec.input_schema
            for name, spec in app.tools.items()
            if "x-mcp-header" in json.dumps(spec.input_schema)
        }
        self.templates = [(UriTemplate.parse(s.uri_template or ""), s) for s in app.resources.values()]
        self._tools = {"resultType": "complete", "tools": [self._tool_entry(s) for s in app.tools.values()]}
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
        self.server: Server[Any] = Server(
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
            get_tool_input_schema=self._header_schemas.get,
        )
        self.server.middleware.append(RetryFieldsGuard(app))
        # Handlers return wire dicts (the SDK validates them per protocol version before sending).
        add = self.server.add_request_handler
        add("tools/list", types.PaginatedRequestParams, self.list_tools)
        add("tools/call", _ToolCall, self.call_tool)
        if app.prompts:
            add("prompts/list", types.PaginatedRequestParams, self.list_prompts)
            add("prompts/get", _PromptGet, self.get_prompt)
        if app.resources:
            add("resources/list", types.PaginatedRequestParams, self.list_resources)
            add("resources/templates/list", types.PaginatedRequestParams, self.list_resource_templates)
            add("resources/read", _ResourceRead, self.read_resource)

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
                for p in spec.params
                if p.from_arguments
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

    # -- the three methods that can ask ------------------------------------------------------------------
    async def call_tool(self, ctx: ServerRequestContext[Any], params: _ToolCall) -> dict[str, Any]:
        spec = self.app.tools.get(params.name)
        if spec is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        try:
            step = await self._play(ctx, spec, "tools/call", params.name, params.arguments or {})
        except (ToolError, StateTooLarge, SecretInForm) as exc:
            return wire.tool_error(str(exc))
        except _Internal:
            return wire.tool_error(
                f"{spec.name} failed with an internal error. Nothing more is known here; "
                "the server log has the details."
            )
        if isinstance(step, Finished):
            return wire.tool_result(step.value, has_output_schema=spec.output_schema is not None)
        if isinstance(step, Refused):
            return wire.tool_refusal(step.refusal, has_output_schema=spec.output_schema is not None)
        return wire.input_required(step.questions, step.state)

    async def get_prompt(self, ctx: ServerRequestContext[Any], params: _PromptGet) -> dict[str, Any]:
        spec = self.app.prompts.get(params.name)
        if spec is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {params.name}")
        step = await self._play_or_raise(ctx, spec, "prompts/get", params.name, dict(params.arguments or {}))
        if isinstance(step, Finished):
            return wire.prompt_result(step.value, spec.description)
        assert isinstance(step, Asking)
        return wire.input_required(step.questions, step.state)

    async def read_resource(
        self, ctx: ServerRequestContext[Any], params: _ResourceRead
    ) -> dict[str, Any]:
        uri = str(params.uri)
        for template, spec in self.templates:  # noqa: B007 - the matching spec is used after the loop
            variables = template.match(uri)
            if variables is not None:
                break
        else:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Resource not found: {uri}")
        step = await self._play_or_raise(ctx, spec, "resources/read", uri, dict(variables))
        if isinstance(step, Finished):
            return wire.resource_result(step.value, uri, spec.mime_type)
        assert isinstance(step, Asking)
        return wire.input_required(step.questions, step.state)

    async def _play_or_raise(
        self, ctx: ServerRequestContext[Any], spec: Spec, method: str, target: str, arguments: dict[str, Any]
    ) -> Step:
        """Prompts and resources have no tool-error result: a refusal is a deliberate JSON-RPC error."""
        try:
            step = await self._play(ctx, spec, method, target, arguments)
        except (ToolError, StateTooLarge, SecretInForm) as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
        except _Internal:
            raise MCPError(code=types.INTERNAL_ERROR, message="Internal error") from None
        if isinstance(step, Refused):
            data: dict[str, Any] = {"outcome": step.refusal.reason}
            if step.refusal.missing:
                data["missing"] = [m.describe() for m in step.refusal.missing]
            raise MCPError(code=types.INVALID_PARAMS, message=step.refusal.message, data=data)
        return step

    # -- one request, either era -------------------------------------------------------------------------
    async def _play(
        self, ctx: ServerRequestContext[Any], spec: Spec, method: str, target: str, arguments: Mapping[str, Any]
    ) -> Step:
        raw = ctx.params or {}
        responses = raw.get("inputResponses")
        state = raw.get("requestState")
        if responses is not None and not isinstance(responses, Mapping):
            raise MCPError(code=types.INVALID_PARAMS, message="inputResponses must be an object")
        if state is not None and not isinstance(state, str):
            raise MCPError(code=types.INVALID_PARAMS, message=INVALID_STATE_MESSAGE)
        # The SDK's authentication, when the server uses it, names the principal; the app's hook covers the rest.
        principal = authenticated_principal(ctx)
        if principal is None and self.app.principal_hook is not None:
            principal = self.app.principal_hook(ctx)
        modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
        caps = wire.capabilities(ctx.session.client_capabilities)
        if not modern and not ctx.session.can_send_request:
            caps = Capabilities()  # no back-channel on this connection: nothing can be asked
        rnd = Round(method, target, dict(arguments), responses, state, caps, principal)
        try:
            if modern:
                return await self.flow.step(spec, rnd)
            return await self._play_back_channel(ctx, spec, rnd)
        except InvalidRequestState:
            raise MCPError(code=types.INVALID_PARAMS, message=INVALID_STATE_MESSAGE) from None
        except BadInput as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
        except (ToolError, StateTooLarge, SecretInForm, MCPError):
            raise
        except Exception as exc:
            logger.exception("%s %s raised", method, target)
            raise _Internal() from exc

    async def _play_back_channel(self, ctx: ServerRequestContext[Any], spec: Spec, rnd: Round) -> Step:
        """Handshake era: ask each round's questions over the session and loop until the flow ends."""
        progress = None
        responses: dict[str, Any] | None = None
        while True:
            step = await self.flow.step(
                spec,
                Round(rnd.method, rnd.target, rnd.arguments, responses, None, rnd.caps, rnd.principal),
                progress=progress,
                sealed=False,
            )
            if not isinstance(step, Asking):
                return step
            responses = {}
            for question in step.questions:
                responses[question.key] = await self._ask_back(ctx, question)
            progress = step.progress

    async def _ask_back(self, ctx: ServerRequestContext[Any], question: Question) -> dict[str, Any]:
        request = wire.input_request(question)
        metadata = ServerMessageMetadata(related_request_id=ctx.request_id)
        model: types.ServerRequest
        result_type: type[types.Result]
        if isinstance(question, FormQuestion):
            model, result_type = types.ElicitRequest.model_validate(request), types.ElicitResult
        elif isinstance(question, SamplingQuestion):
            model, result_type = types.CreateMessageRequest.model_validate(request), types.CreateMessageResult
        else:
            model, result_type = types.ListRootsRequest(), types.ListRootsResult
        result = await ctx.session.send_request(model, result_type, metadata=metadata)
        return result.model_dump(by_alias=True, mode="json", exclude_none=True)


# The SDK has already checked each request against the protocol's schema, answers and state included, before a
# handler's params model is built; these models read only what the handlers use, instead of parsing every answer
# into result models a second time. The answers and state are read raw from the request (`_play`).
class _ToolCall(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str
    arguments: dict[str, Any] | None = None


class _PromptGet(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str
    arguments: dict[str, str] | None = None


class _ResourceRead(BaseModel):
    model_config = ConfigDict(extra="ignore")
    uri: str


class _Internal(Exception):
    """An unexpected failure, already logged; the client gets a generic message."""
