"""The lean 2026-07-28 path: a well-formed `tools/call`, `prompts/get` or `resources/read` answered directly.

An accelerator of the happy path, not a second transport. It takes a request only once it has recognised all
of it as well formed: POST, `Content-Type: application/json`, an Accept naming JSON, an allowed Host and Origin,
a UTF-8 body under the size cap holding one JSON-RPC request object (`jsonrpc` "2.0", an integer or string id),
one of the three methods for a target this app serves, routing headers that agree with the body (version,
`Mcp-Method`, decoded `Mcp-Name`, none repeated), a served protocol version, no `Mcp-Param-*` header and no tool
declaring `x-mcp-header`, no MCP tasks extension declared, retry fields of the plain shape, and the request
valid against the SDK's own 2026-07-28 model (one validation). Anything else goes, body replayed, to the SDK
path, which therefore keeps producing every error the spec defines and everything of the older protocol.

The round itself is askback's ordinary one (`askback.mcp.calls`, the flow, the codec, the wire builders). Errors
that arise once the target may have run (a state that does not open, a bad answer, a missing capability) are
written here, with the SDK's codes, messages and HTTP statuses: a call is never run twice. Results the builders
make from askback's own values are sent as built (tests pin them to the SDK's result models); a value shaped
by a tool's author goes through the SDK's result sieve, as on the SDK path.
"""

from __future__ import annotations

import codecs
import json
import logging
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from askback.app import App, Request
from askback.config import HostChecks
from askback.core import jsoncodec
from askback.core.errors import INTERNAL_ERROR
from askback.core.spec import Spec
from askback.flow import Round
from askback.mcp.calls import Calls, ResourceLookup, RpcError
from askback.mcp.checks import retry_fields_problem
from askback.mcp.sdkfacts import Facts, SdkFacts
from askback.mcp.wire import plain_capabilities

logger = logging.getLogger("askback.mcp.fast")

_PROTOCOL_META = "io.modelcontextprotocol/protocolVersion"
_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities"
_TASKS_EXTENSION = "io.modelcontextprotocol/tasks"  # task-capable calls are the SDK path's (`mcp/tasks`)
_ROUTING = frozenset({b"mcp-protocol-version", b"mcp-method", b"mcp-name"})
_SINGLE = frozenset({b"host", b"origin", b"content-type", b"accept", b"content-length", *_ROUTING})
_NAME_KEY = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
_ENVELOPE_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_HEADERS_JSON = [(b"content-type", b"application/json")]
_MAX_VERDICTS = 1024  # distinct header values remembered (a client repeats its own; a flood only clears it)


@dataclass
class FastPathCounts:
    """How many requests the lean path answered and how many it handed to the SDK path (for tests and debug)."""

    answered: int = 0
    handed_on: int = 0
    reasons: dict[str, int] = field(default_factory=dict)


class _HandOn(Exception):
    """The request is not one the lean path takes; `reason` says which check it failed (debug log, counts)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


class _NeedsResources(Exception):
    """A `resources/read` arrived before the SDK path's template lookup was loaded: load it, then recognise."""


class FastPath:
    """ASGI endpoint in front of `fallback` (the SDK path) for one app's MCP endpoint."""

    def __init__(
        self,
        app: App,
        fallback: ASGIApp,
        *,
        checks: HostChecks,
        calls: Calls,
        facts: Facts,
        header_tools: frozenset[str],
        resource_lookup: Callable[[], Awaitable[ResourceLookup | None]],
        max_body: int,
        max_answers: int,
    ) -> None:
        self.app = app
        self.fallback = fallback
        self.calls = calls
        self.facts = facts
        self.counts = FastPathCounts()
        self._hosts = checks.hosts
        self._origins = tuple(checks.origins or ())
        self._header_tools = header_tools
        self._resource_lookup = resource_lookup  # the SDK path's own template matching, loaded with it
        self._resource_for: ResourceLookup | None = None
        self._max_body = max_body
        self._max_answers = max_answers
        self._verdicts: dict[tuple[bytes | None, ...], str] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self._hand_on("not a POST", scope, receive, send)
            return
        try:
            headers = self._headers(scope)
        except _HandOn as exc:
            await self._hand_on(exc.reason, scope, receive, send)
            return
        messages: list[Message] = []
        try:
            body = await self._body(scope, receive, messages)
            facts = self.facts.loaded() or await self._facts()
            try:
                request = self._recognise(headers, body, facts)
            except _NeedsResources:
                self._resource_for = await self._resource_lookup()
                if self._resource_for is None:
                    raise _HandOn("resource lookup unavailable") from None
                request = self._recognise(headers, body, facts)
        except _HandOn as exc:
            await self._hand_on(exc.reason, scope, _replaying(messages, receive), send)
            return
        self.counts.answered += 1
        await self._answer(request, headers, scope, facts, send)

    async def _facts(self) -> SdkFacts:
        """The SDK's facts, waiting for them on the first requests; if they cannot load, the SDK path answers."""
        try:
            return await self.facts.get()
        except Exception:
            raise _HandOn("SDK facts unavailable") from None

    async def _hand_on(self, reason: str, scope: Scope, receive: Receive, send: Send) -> None:
        counts = self.counts
        counts.handed_on += 1
        counts.reasons[reason] = counts.reasons.get(reason, 0) + 1
        logger.debug("handed to the SDK path: %s", reason)
        await self.fallback(scope, receive, send)

    # -- recognising ------------------------------------------------------------------------------------------
    def _headers(self, scope: Scope) -> dict[bytes, bytes]:
        """The headers the checks read, each at most once; any `Mcp-Param-*` or repeated one hands the request on."""
        seen: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            if name in _SINGLE:
                if name in seen:
                    raise _HandOn(f"repeated {name.decode('latin-1')} header")
                seen[name] = value
            elif name.startswith(b"mcp-param-"):
                raise _HandOn("Mcp-Param header")
        # A client sends the same few values on every request: the verdict is kept per combination of them.
        key = (seen.get(b"content-type"), seen.get(b"accept"), seen.get(b"host"), seen.get(b"origin"))
        refused = self._verdicts.get(key)
        if refused is None:
            refused = self._verdict(key)
        if refused:
            raise _HandOn(refused)
        if b"mcp-protocol-version" not in seen or b"mcp-method" not in seen:
            raise _HandOn("routing headers")
        declared = seen.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self._max_body):
            raise _HandOn("content length")
        return seen

    def _verdict(self, key: tuple[bytes | None, ...]) -> str:
        """Which check the Content-Type, Accept, Host and Origin values fail ("" for none), remembered."""
        content_type, accept, host, origin = (b"" if v is None else v for v in key)
        refused = ""
        if not content_type.decode("latin-1").lower().startswith("application/json"):
            refused = "content type"
        elif not _accepts_json(accept.decode("latin-1")):
            refused = "accept"
        elif self._hosts is not None and not _allowed(host.decode("latin-1"), self._hosts):
            refused = "host"
        elif self._hosts is not None and origin and not _allowed(origin.decode("latin-1"), self._origins):
            refused = "origin"
        if len(self._verdicts) >= _MAX_VERDICTS:
            self._verdicts.clear()
        self._verdicts[key] = refused
        return refused

    async def _body(self, scope: Scope, receive: Receive, messages: list[Message]) -> str:
        """The whole body as text (kept in `messages` to replay); over the cap or not UTF-8 hands it on."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                raise _HandOn("disconnected")
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > self._max_body:
                raise _HandOn("body size")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        raw = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        try:
            text = codecs.decode(raw, "utf-8")
        except UnicodeDecodeError:
            raise _HandOn("not UTF-8") from None
        if "\x00" in text or text.startswith("\ufeff"):
            raise _HandOn("NUL or BOM")
        return text

    def _recognise(self, headers: Mapping[bytes, bytes], body: str, facts: SdkFacts) -> _Call:
        try:
            decoded = json.loads(body)
        except (ValueError, RecursionError):
            raise _HandOn("parse error") from None
        if not isinstance(decoded, dict) or not decoded.keys() <= _ENVELOPE_KEYS:
            raise _HandOn("not one request object")
        if type(decoded.get("id")) not in (int, str) or decoded.get("jsonrpc") != "2.0":
            raise _HandOn("envelope")
        request_id: int | str = decoded["id"]
        method = decoded.get("method")
        params = decoded.get("params")
        if method not in _NAME_KEY or not isinstance(params, dict):
            raise _HandOn("method")
        meta = params.get("_meta")
        if not isinstance(meta, dict) or _CAPABILITIES_META not in meta:
            raise _HandOn("_meta")
        version = meta.get(_PROTOCOL_META)
        if version not in facts.modern_versions or headers[b"mcp-protocol-version"].decode("latin-1") != version:
            raise _HandOn("version")
        if headers[b"mcp-method"].decode("latin-1") != method:
            raise _HandOn("Mcp-Method")
        target = params.get(_NAME_KEY[method])
        if not isinstance(target, str) or _decoded_name(headers.get(b"mcp-name")) != target:
            raise _HandOn("Mcp-Name")
        raw_caps = meta[_CAPABILITIES_META]
        caps = plain_capabilities(raw_caps)
        if caps is None:
            raise _HandOn("capabilities shape")
        if _TASKS_EXTENSION in (raw_caps.get("extensions") or {}):
            raise _HandOn("tasks extension")
        spec, arguments = self._target(method, target, params)
        if retry_fields_problem(params, self._max_answers) is not None:
            raise _HandOn("retry fields")
        try:
            facts.validate_request(method, version, params)  # the one validation: the SDK's 2026-07-28 model
        except facts.invalid:
            raise _HandOn("request model") from None
        return _Call(request_id, method, version, target, spec, arguments, params, caps)

    def _target(self, method: str, target: str, params: Mapping[str, Any]) -> tuple[Spec, dict[str, Any]]:
        app = self.app
        if method == "tools/call":
            spec = app.tools.get(target)
            if spec is None or target in self._header_tools:
                raise _HandOn("tool")
            if app.takes_task(target):
                raise _HandOn("task tool")  # a task, or a required task's -32021: the SDK path decides
            arguments = params.get("arguments")
            if arguments is None:
                arguments = {}
            if not isinstance(arguments, dict):
                raise _HandOn("arguments")
            return spec, arguments
        if method == "prompts/get":
            spec = app.prompts.get(target)
            arguments = params.get("arguments")
            if spec is None or not (arguments is None or isinstance(arguments, dict)):
                raise _HandOn("prompt")
            return spec, dict(arguments or {})
        if not app.resources:
            raise _HandOn("resource")
        if self._resource_for is None:
            raise _NeedsResources
        found = self._resource_for(target)
        if found is None:
            raise _HandOn("resource")
        return found[0], dict(found[1])

    # -- answering --------------------------------------------------------------------------------------------
    async def _answer(self, call: _Call, headers: Mapping[bytes, bytes], scope: Scope, facts: SdkFacts,
                      send: Send) -> None:
        spec = call.spec
        origin = _origin(scope) if self.calls.has_pages(spec) else None
        rnd = Round(call.method, call.target, call.arguments, call.params.get("inputResponses"),
                    call.params.get("requestState"), call.caps, self._principal(scope, call.version), origin)
        try:
            if call.method == "tools/call":
                result, built = await self.calls.tool_result(spec, rnd)
            elif call.method == "prompts/get":
                result = await self.calls.prompt(spec, rnd)
                built = result.get("resultType") == "input_required"
            else:
                result, built = await self.calls.resource_result(spec, rnd)
            if not built:
                result = await self._sieved(call, result, facts)
        except RpcError as exc:
            await _write(_error(call.request_id, exc), await self.facts.error_status(exc.code), send)
            return
        meta = result.get("_meta")
        if meta is None:
            result["_meta"] = {facts.server_info_key: facts.server_info}  # shared: only ever serialised
        elif isinstance(meta, dict) and meta.get(facts.server_info_key) is None:
            result["_meta"] = {**meta, facts.server_info_key: facts.server_info}
        await _write({"jsonrpc": "2.0", "id": call.request_id, "result": result}, 200, send)

    async def _sieved(self, call: _Call, result: dict[str, Any], facts: SdkFacts) -> dict[str, Any]:
        """A result shaped by a tool's author, through the SDK's own sieve (what the SDK path sends)."""
        try:
            return await self.facts.serialize_result(call.method, call.version, result)
        except facts.invalid:
            logger.exception("handler for %r returned an invalid result", call.method)
            raise RpcError(INTERNAL_ERROR, "Handler returned an invalid result") from None

    def _principal(self, scope: Scope, version: str) -> str | None:
        """The principal the SDK path computes: its authentication's, else the app's hook (`server._principal`)."""
        principal = None
        # Nobody authenticated if the SDK's auth context was never loaded (or is still loading, in the background:
        # then no middleware of the user's set it either).
        auth = sys.modules.get("mcp.server.auth.middleware.auth_context")
        get_token = getattr(auth, "get_access_token", None)
        token = get_token() if get_token is not None else None
        if token is not None:
            from mcp.server.auth.provider import principal_components
            from mcp.server.request_state import compact_json

            principal = compact_json(principal_components(token))
        if principal is None and self.app.principal_hook is not None:
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            principal = self.app.principal_hook(Request(protocol=version, headers=headers, user=scope.get("user")))
        return principal


@dataclass(slots=True)  # made per request: see `askback.core.progress`
class _Call:
    request_id: int | str
    method: str
    version: str
    target: str
    spec: Spec
    arguments: dict[str, Any]
    params: Mapping[str, Any]
    caps: Any


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


def _replaying(messages: list[Message], receive: Receive) -> Receive:
    pending = iter(messages)

    async def replay() -> Message:
        return next(pending, None) or await receive()

    return replay


def _accepts_json(accept: str) -> bool:
    """The SDK's reading of Accept (`check_accept_headers`): JSON, `application/*` or `*/*` listed."""
    types = {part.strip().split(";")[0].strip().lower() for part in accept.split(",")}
    return bool(types & {"application/json", "application/*", "*/*"})


def _allowed(value: str, allowed: tuple[str, ...]) -> bool:
    """The SDK's Host/Origin match: exact, or `name:*` for any port."""
    if not value:
        return False
    return value in allowed or any(a.endswith(":*") and value.startswith(a[:-1]) for a in allowed)


def _decoded_name(raw: bytes | None) -> str | None:
    """`Mcp-Name` as the SDK reads it: the `=?base64?...?=` sentinel decoded (canonical base64, UTF-8 only)."""
    if raw is None:
        return None
    value = raw.decode("latin-1")
    if not (value.startswith("=?base64?") and value.endswith("?=")) or len(value) < 11:
        return value
    import base64
    import binascii

    payload = value[9:-2]
    try:
        decoded = base64.b64decode(payload, validate=True)
        if base64.b64encode(decoded).decode("ascii") != payload:
            return None
        return decoded.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def _origin(scope: Scope) -> str | None:
    """scheme://host of the request when it came to a loopback address (`server._origin`, from the scope)."""
    from starlette.requests import Request as HttpRequest

    url = HttpRequest(scope).url
    if url.hostname not in _LOOPBACK:
        return None
    return f"{url.scheme}://{url.netloc}"
