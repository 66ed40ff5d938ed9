"""The fast route for 2026-07-28: a well-formed `tools/call`, `prompts/get`, `resources/read` or `tasks/*` answered
directly.

An accelerator of the happy path, not a second transport: every rule it applies is the SDK's, called through
the SDK's public functions and models, never a copy (`docs/fast-route.md`). It takes a request in two steps.

First by its headers alone, before the body is read: POST, a modern `MCP-Protocol-Version`, an `Mcp-Method` of
the three, an `Mcp-Name` (decoded by the SDK's `decode_header_value`) naming a target this app answers here (no
tool declaring `x-mcp-header`), or one of the tasks extension's `tasks/get`, `tasks/update`, `tasks/cancel` with
the task's id in `Mcp-Name`, no `Mcp-Param-*` header, no routing header repeated (the SDK's
`find_duplicated_routing_header`), an Accept naming JSON (the SDK's `check_accept_headers`), and the SDK's own
Host, Origin and Content-Type check (`TransportSecurityMiddleware`, whose refusal is sent as it is). Anything
else goes on to the SDK path untouched: the body is read there, once, and parsed once, by the SDK.

Then by its body, read once (`askback.mcp.body`) and parsed once: one JSON-RPC request (the SDK's
`JSONRPCRequest`), agreeing with its headers and carrying a served version (the SDK's ladder,
`classify_inbound_request`), retry fields of the plain shape, and valid against the SDK's own model of the
method (`validate_client_request`; a `tasks/*` request: the params model the SDK path registers for it, its
`taskId` the one `Mcp-Name` names, from a client that declared the extension). A body that fails here goes on,
replayed, to the SDK path, which writes the error the spec defines; being malformed, it is the one kind of
request the SDK parses a second time.

The round itself is askback's ordinary one (`askback.mcp.calls`, the flow, the codec, the wire builders). Errors
that arise once the target may have run (a state that does not open, a bad answer, a missing capability) are
written here, with the SDK's HTTP status for their code (`ERROR_CODE_HTTP_STATUS`): a call is never run twice.
Results the builders make from askback's own values are sent as built (tests pin them to the SDK's result
models); a value shaped by a tool's author goes through the SDK's result sieve, as on the SDK path.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from mcp.server.streamable_http import check_accept_headers
from mcp.server.transport_security import TransportSecurityMiddleware
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import (
    ERROR_CODE_HTTP_STATUS,
    MCP_METHOD_HEADER,
    MCP_NAME_HEADER,
    MCP_PARAM_HEADER_PREFIX,
    MCP_PROTOCOL_VERSION_HEADER,
    NAME_BEARING_METHODS,
    InboundModernRoute,
    classify_inbound_request,
    decode_header_value,
    find_duplicated_routing_header,
)
from mcp_types import SERVER_INFO_META_KEY, Implementation, JSONRPCRequest, methods
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError
from starlette.requests import Request as HttpRequest
from starlette.types import Receive, Scope, Send

from askback.app import App
from askback.asgi_incoming import incoming_of_scope, token_principal
from askback.config import HostChecks
from askback.core import jsoncodec
from askback.core.capabilities import TASKS_EXTENSION
from askback.core.errors import INTERNAL_ERROR
from askback.core.spec import Spec
from askback.flow import Round
from askback.incoming import page_origin, principal_of
from askback.mcp.body import Body, Verdict, read_body
from askback.mcp.calls import Calls, ResourceLookup, RpcError, from_sdk, sdk_error
from askback.mcp.checks import retry_fields_problem
from askback.mcp.context import wants_notifications
from askback.mcp.tasks import PARAMS as TASK_PARAMS
from askback.mcp.tasks import McpTasks, TaskParams
from askback.mcp.tracing import RequestSpans
from askback.mcp.wire import plain_capabilities
from askback.pagewait import Gone
from askback.telemetry.providers import observing
from askback.web.hostcheck import security

logger = logging.getLogger("askback.mcp.fast")

_MODERN = frozenset(MODERN_PROTOCOL_VERSIONS)
_PARAM_PREFIX = MCP_PARAM_HEADER_PREFIX.lower()
_HEADERS_JSON = [(b"content-type", b"application/json")]
# Distinct (Content-Type, Accept, Host, Origin) combinations whose verdict is remembered: a client repeats its own,
# and a flood of new ones only clears the memo.
_MAX_VERDICTS = 1024


class Fallback(Protocol):
    """The SDK path's endpoint: `body` is what the fast route already read of the request, or None."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send, body: Body | None = None) -> None: ...


@dataclass
class FastRouteCounts:
    """How many requests the fast route answered, refused (the SDK's Host/Origin check) or handed to the SDK path."""

    answered: int = 0
    refused: int = 0
    handed_on: int = 0
    reasons: dict[str, int] = field(default_factory=dict)


class _HandOn(Exception):
    """The request is not one the fast route takes; `reason` says which check it failed (debug log, counts)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


class FastRoute:
    """ASGI endpoint in front of `fallback` (the SDK path) for one app's MCP endpoint."""

    def __init__(
        self,
        app: App,
        fallback: Fallback,
        *,
        checks: HostChecks,
        calls: Calls,
        tasks: McpTasks | None = None,
        header_tools: frozenset[str],
        resource_lookup: Callable[[], Awaitable[ResourceLookup | None]],
        max_answers: int,
    ) -> None:
        self.app = app
        self.fallback = fallback
        self.calls = calls
        self.tasks = tasks  # the app's `tasks/*` (None: it has no task tool, and the SDK path answers -32601)
        self.counts = FastRouteCounts()
        self._security = TransportSecurityMiddleware(security(checks))
        self._header_tools = header_tools
        self._resource_lookup = resource_lookup  # the SDK path's own template matching, loaded with it
        self._resource_for: ResourceLookup | None = None
        self._max_answers = max_answers
        self._spans = RequestSpans()  # the SDK path's span builder, called here with the same fields
        # The SDK's verdict on a combination of the four headers its checks read (`TransportSecurityMiddleware`:
        # Content-Type, Host, Origin; `check_accept_headers`: Accept): "" accepted, or the reason to hand on.
        self._verdicts: dict[tuple[str | None, ...], str] = {}
        # The SDK's `serverInfo` stamp for this identity (`Server.server_info_stamp` dumps the same model).
        self._server_info = Implementation(name=app.name, version=app.version).model_dump(
            by_alias=True, mode="json", exclude_none=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self._hand_on("not a POST", scope, receive, send, None)
            return
        raw = scope["headers"]
        headers, params_sent = _first_values(raw)
        try:
            if params_sent:
                raise _HandOn("Mcp-Param header")
            method, target, spec, found = await self._by_headers(raw, headers)
        except _HandOn as exc:
            await self._hand_on(exc.reason, scope, receive, send, None)
            return
        key = (headers.get("content-type"), headers.get("accept"), headers.get("host"), headers.get("origin"))
        verdict = self._verdicts.get(key)
        if verdict is None:
            request = HttpRequest(scope)
            refused = await self._security.validate_request(request, is_post=True)
            if refused is not None:  # not remembered: the SDK logs each refusal, and so it is here
                self.counts.refused += 1
                await refused(scope, receive, send)  # the SDK's own answer (it has logged why)
                return
            verdict = "" if check_accept_headers(request)[0] else "accept"
            if len(self._verdicts) >= _MAX_VERDICTS:
                self._verdicts.clear()
            self._verdicts[key] = verdict
        if verdict:
            await self._hand_on(verdict, scope, receive, send, None)
            return
        body = await read_body(scope, receive)
        if body.verdict is not Verdict.COMPLETE:
            await self._hand_on(f"body {body.verdict.value}", scope, receive, send, body)
            return
        try:
            call = self._by_body(headers, body.data, method, target, spec, found)
        except _HandOn as exc:
            await self._hand_on(exc.reason, scope, receive, send, body)
            return
        self.counts.answered += 1
        if isinstance(call, _TaskCall):
            await self._answer_task(call, scope, send)
            return
        await self._answer(call, scope, receive, send)

    async def _hand_on(self, reason: str, scope: Scope, receive: Receive, send: Send, body: Body | None) -> None:
        counts = self.counts
        counts.handed_on += 1
        counts.reasons[reason] = counts.reasons.get(reason, 0) + 1
        logger.debug("handed to the SDK path: %s", reason)
        await self.fallback(scope, receive, send, body)

    # -- recognising ------------------------------------------------------------------------------------------
    async def _by_headers(self, raw: list[tuple[bytes, bytes]], headers: Mapping[str, str],
                          ) -> tuple[str, str, Spec | None, Mapping[str, Any]]:
        """Method, target, its spec and arguments from a resource's URI, named by the headers alone; or `_HandOn`.
        A `tasks/*` request names its task in `Mcp-Name` (the extension's routing header) and has no spec."""
        if headers.get(MCP_PROTOCOL_VERSION_HEADER) not in _MODERN:
            raise _HandOn("version header")
        method = headers.get(MCP_METHOD_HEADER)
        tasks = method is not None and self.tasks is not None and method in TASK_PARAMS
        if method is None or not (tasks or method in NAME_BEARING_METHODS):
            raise _HandOn("method")
        target = decode_header_value(headers.get(MCP_NAME_HEADER))
        if target is None:
            raise _HandOn("Mcp-Name")
        # Only a name seen twice can be a repeated routing header: the SDK's check runs when one is.
        if len(headers) != len(raw) and find_duplicated_routing_header(
                (name.decode("latin-1"), value.decode("latin-1")) for name, value in raw) is not None:
            raise _HandOn("repeated routing header")
        if tasks:
            return method, target, None, {}
        spec, found = await self._target(method, target)
        return method, target, spec, found

    async def _target(self, method: str, target: str) -> tuple[Spec, Mapping[str, Any]]:
        app = self.app
        if method == "tools/call":
            spec = app.tools.get(target)
            if spec is None or target in self._header_tools:
                raise _HandOn("tool")
            if spec.task is not None and self.tasks is None:
                raise _HandOn("task tool")
            return spec, {}
        if method == "prompts/get":
            prompt = app.prompts.get(target)
            if prompt is None:
                raise _HandOn("prompt")
            return prompt, {}
        if not app.resources:
            raise _HandOn("resource")
        if self._resource_for is None:
            self._resource_for = await self._resource_lookup()
            if self._resource_for is None:
                raise _HandOn("resource lookup unavailable")
        found = self._resource_for(target)
        if found is None:
            raise _HandOn("resource")
        return found[0], found[1]

    def _by_body(self, headers: Mapping[str, str], data: bytes, method: str, target: str, spec: Spec | None,
                 found: Mapping[str, Any]) -> _Call | _TaskCall:
        try:
            decoded = json.loads(data)
        except (ValueError, RecursionError):
            raise _HandOn("parse error") from None
        try:
            request = JSONRPCRequest.model_validate(decoded)
        except ValidationError:
            raise _HandOn("not one request") from None
        verdict = classify_inbound_request(decoded, headers=headers)
        if not isinstance(verdict, InboundModernRoute):
            raise _HandOn("ladder")
        params = request.params
        if request.method != method or not isinstance(params, dict):
            raise _HandOn("method")
        if spec is None:
            return self._task_call(request.id, method, verdict, target, params)
        if retry_fields_problem(params, self._max_answers) is not None:
            raise _HandOn("retry fields")
        try:
            methods.validate_client_request(method, verdict.protocol_version, params)
        except ValidationError:
            raise _HandOn("request model") from None
        if params.get(NAME_BEARING_METHODS[method]) != target:
            raise _HandOn("target")  # `classify_inbound_request` compares only a name that is present
        caps = plain_capabilities(verdict.client_capabilities)
        if caps is None:
            raise _HandOn("capabilities shape")
        if spec.context_param is not None and wants_notifications(params):
            raise _HandOn("notifications")  # they ride an SSE response, which the SDK path writes
        as_task = spec.task is not None and _declares_tasks(verdict.client_capabilities)
        if spec.task == "required" and not as_task:
            raise _HandOn("task tool without the extension")  # the SDK path's -32021
        arguments = dict(found) if method == "resources/read" else dict(params.get("arguments") or {})
        return _Call(request.id, method, verdict.protocol_version, target, spec, arguments, params, caps, as_task)

    def _task_call(self, request_id: int | str, method: str, verdict: InboundModernRoute, target: str,
                   params: dict[str, Any]) -> _TaskCall:
        """A `tasks/*` request the SDK path would hand to the same handler: its params valid by the model the SDK
        path validates them with, naming the task its `Mcp-Name` names, from a client declaring the extension.
        Anything else (the SDK path's -32602, -32020 or -32021) goes on to the SDK path."""
        try:
            checked = TASK_PARAMS[method].model_validate(params)
        except ValidationError:
            raise _HandOn("task params") from None
        if checked.taskId != target:
            raise _HandOn("target")
        if plain_capabilities(verdict.client_capabilities) is None:
            raise _HandOn("capabilities shape")
        if not _declares_tasks(verdict.client_capabilities):
            raise _HandOn("tasks extension not declared")
        return _TaskCall(request_id, method, verdict.protocol_version, checked, params)

    # -- answering --------------------------------------------------------------------------------------------
    async def _answer_task(self, call: _TaskCall, scope: Scope, send: Send) -> None:
        tasks = self.tasks
        assert tasks is not None
        principal, _ = self._principal_and_origin(scope, call.version, False)
        try:
            result = await self._spans.around(
                call.method, call.version, call.request_id, call.raw,
                lambda: tasks.serve(call.method, call.params, principal))
        except MCPError as exc:
            rpc = from_sdk(exc)
            await _write(_error(call.request_id, rpc), ERROR_CODE_HTTP_STATUS.get(rpc.code, 200), send)
            return
        result["_meta"] = {SERVER_INFO_META_KEY: self._server_info}
        await _write({"jsonrpc": "2.0", "id": call.request_id, "result": result}, 200, send)

    async def _answer(self, call: _Call, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            if observing():
                result = await self._spans.around(call.method, call.version, call.request_id, call.params,
                                                  lambda: self._result(call, scope, receive))
            else:  # the same, without a frame for each layer of the span's wrapping
                result = await self._result(call, scope, receive)
        except MCPError as exc:
            rpc = from_sdk(exc)
            await _write(_error(call.request_id, rpc), ERROR_CODE_HTTP_STATUS.get(rpc.code, 200), send)
            return
        meta = result.get("_meta")
        if meta is None:
            result["_meta"] = {SERVER_INFO_META_KEY: self._server_info}  # shared: only ever serialised
        elif isinstance(meta, dict) and meta.get(SERVER_INFO_META_KEY) is None:
            result["_meta"] = {**meta, SERVER_INFO_META_KEY: self._server_info}
        await _write({"jsonrpc": "2.0", "id": call.request_id, "result": result}, 200, send)

    async def _result(self, call: _Call, scope: Scope, receive: Receive) -> dict[str, Any]:
        """The call's result, or the SDK's `MCPError` for the error to send (as a handler on the SDK path)."""
        spec = call.spec
        pages = self.calls.has_pages(spec)
        principal, origin = self._principal_and_origin(scope, call.version, pages)
        rnd = Round(call.method, call.target, call.arguments, call.params.get("inputResponses"),
                    call.params.get("requestState"), call.caps, principal, origin,
                    _gone(scope, receive) if pages else None)
        try:
            if call.as_task:
                assert self.tasks is not None
                result, built = await self.tasks.call(spec, rnd, self.calls.flow), True
            elif call.method == "tools/call":
                result, built = await self.calls.tool_result(spec, rnd)
            elif call.method == "prompts/get":
                result = await self.calls.prompt(spec, rnd)
                built = result.get("resultType") == "input_required"
            else:
                result, built = await self.calls.resource_result(spec, rnd)
            if not built:
                result = self._sieved(call, result)
        except RpcError as exc:
            raise sdk_error(exc) from None
        return result

    def _principal_and_origin(self, scope: Scope, version: str, pages: bool) -> tuple[str | None, str | None]:
        """The request's principal and page origin, read from an `Incoming` only when something needs one:
        without a principal hook and without pages, the principal is the authentication's alone (or none)."""
        authenticated = token_principal()
        hook = self.app.principal_hook
        if hook is None and not pages:
            return authenticated, None
        incoming = incoming_of_scope(scope, protocol=version, authenticated=authenticated)
        return principal_of(incoming, hook), page_origin(incoming) if pages else None

    def _sieved(self, call: _Call, result: dict[str, Any]) -> dict[str, Any]:
        """A result shaped by a tool's author, through the SDK's own sieve (what the SDK path sends)."""
        try:
            return methods.serialize_server_result(call.method, call.version, result)
        except ValidationError:
            logger.exception("handler for %r returned an invalid result", call.method)
            raise RpcError(INTERNAL_ERROR, "Handler returned an invalid result") from None


@dataclass(frozen=True, slots=True)
class _Call:
    request_id: int | str
    method: str
    version: str
    target: str
    spec: Spec
    arguments: dict[str, Any]
    params: Mapping[str, Any]
    caps: Any
    as_task: bool = False  # a task tool's call from a client declaring the extension: it starts a task


@dataclass(frozen=True, slots=True)
class _TaskCall:
    request_id: int | str
    method: str
    version: str
    params: TaskParams
    raw: Mapping[str, Any]  # the request's params as sent (the span reads its `_meta`)


def _declares_tasks(raw: Any) -> bool:
    """Whether capabilities of the plain shape (`plain_capabilities` read them: objects or null) declare the tasks
    extension, as the SDK's model reads them (`askback.mcp.tasks.declared`)."""
    extensions = raw.get("extensions") if isinstance(raw, dict) else None
    return isinstance(extensions, dict) and TASKS_EXTENSION in extensions


def _gone(scope: Scope, receive: Receive) -> Gone:
    """Whether the client closed the connection: a held retry (`askback.pagewait`) looks now and then.

    The body is read by now, so what the connection still sends is its disconnect (Starlette's check)."""
    request: list[HttpRequest] = []

    async def gone() -> bool:
        if not request:
            request.append(HttpRequest(scope, receive))
        return await request[0].is_disconnected()

    return gone


def _first_values(raw: list[tuple[bytes, bytes]]) -> tuple[dict[str, str], bool]:
    """The request's headers by (ASGI's lowercase) name, the first value of each (what Starlette's `Headers`, and
    so the SDK, reads), and whether any is an `Mcp-Param-*` header."""
    headers: dict[str, str] = {}
    params_sent = False
    for name, value in raw:
        key = name.decode("latin-1")
        if key not in headers:
            headers[key] = value.decode("latin-1")
            params_sent = params_sent or key.startswith(_PARAM_PREFIX)
    return headers, params_sent


def _error(request_id: int | str, exc: RpcError) -> dict[str, Any]:
    error: dict[str, Any] = {"code": exc.code, "message": exc.message}
    if exc.data is not None:
        error["data"] = exc.data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


async def _write(message: dict[str, Any], status: int, send: Send) -> None:
    body = jsoncodec.message(message).encode()
    headers = [(b"content-length", str(len(body)).encode()), *_HEADERS_JSON]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
