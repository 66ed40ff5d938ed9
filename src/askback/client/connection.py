"""One connection to an MCP server, on the official SDK's transports and dispatcher.

The SDK does the transport work (streamable HTTP with its SSE parsing and session ids, stdio with its child
process) and the JSON-RPC bookkeeping (a fresh id for every request). This module adds what askback's client
needs and the SDK's `Client` does not give:

- the era: `server/discover` at 2026-07-28 first (again, once, with a version from the server's `supported`
  list when it answers `-32022`), else the 2025-11-25 `initialize` handshake;
- capabilities declared exactly as given (the handshake is sent here, not by `ClientSession.initialize`,
  which would declare URL-mode elicitation for any elicitation callback);
- raw result dicts (`JSONRPCDispatcher.send_raw_request`), so the client itself decides what a result is;
  the SDK's own validation refuses a 2026-07-28 result without `resultType`, which the spec reads as complete;
- tools whose `x-mcp-header` annotations break the spec's rules are left out of `list_tools()` and never
  called; on HTTP the tools are listed before the first `tools/call`, so that call already carries its
  `Mcp-Param-*` headers;
- an HTTP 401 is reported as `Unauthorized`, not as the SDK's stand-in internal error, and a plain HTTP 404 or
  405 to the handshake as `NoEndpoint` (nothing speaks MCP at that URL), not as "method not found" or an
  internal error;
- with `sign_in` (`askback.client.signin`), a server that answers 401 is signed in to (OAuth 2.1, the SDK's
  provider) and the request sent again; a sign-in that fails is `SignInFailed`, saying why;
- `headers` the caller gives go with every HTTP request (a principal an app reads from a header, say).

The SDK (and through it `cryptography`, `httpx` and the rest of its stack) is imported on first connection,
not when this module is: `import askback.client` stays light.

On a 2026-07-28 connection each request carries the protocol version, client info and capabilities in
`_meta`, and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers. On a handshake-era connection
the server asks its questions over the session (server-to-client requests): they reach `back_channel`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

import mcp_types as types
from mcp_types import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, METHOD_NOT_FOUND, PROTOCOL_VERSION_META_KEY
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from askback.client.errors import (
    InvalidTool,
    NoEndpoint,
    ProtocolError,
    ServerError,
    SignInFailed,
    Unauthorized,
    only_exception,
)
from askback.client.pending import Server
from askback.types import Capabilities

if TYPE_CHECKING:
    from mcp.client.session import ClientRequestContext, ClientSession
    from mcp.client.subscriptions import Subscription
    from mcp.shared.exceptions import MCPError
    from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

    from askback.client.signin import SignIn
    from askback.client.signin_auth import ReportingAuth

logger = logging.getLogger("askback.client")

Mode = Literal["auto", "modern", "legacy"]
BackChannel = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]
Notified = Callable[[str], Awaitable[None]]
_DISCOVER_TIMEOUT = 10.0
_HANDSHAKE_TIMEOUT = 30.0
# The header names of the 2026-07-28 HTTP transport (the SDK's spelling; repeated so that reading them needs no SDK).
_PROTOCOL_VERSION_HEADER = "mcp-protocol-version"
_METHOD_HEADER = "mcp-method"
_NAME_HEADER = "mcp-name"
# What `Mcp-Name` carries for each method (the tasks extension routes its methods by task id).
_NAME_KEYS = {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
    "tasks/get": "taskId",
    "tasks/update": "taskId",
    "tasks/cancel": "taskId",
}


def capabilities_wire(caps: Capabilities, extensions: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The `ClientCapabilities` object for `caps` and the `extensions` declared: only those, nothing more."""
    wire: dict[str, Any] = {}
    if extensions:
        wire["extensions"] = {name: dict(settings) for name, settings in extensions.items()}
    if caps.form or caps.url:
        elicitation: dict[str, Any] = {}
        if caps.form:
            elicitation["form"] = {}
        if caps.url:
            elicitation["url"] = {}
        wire["elicitation"] = elicitation
    if caps.sampling:
        wire["sampling"] = {}
    if caps.roots:
        wire["roots"] = {}
    return wire


class Connection:
    """A connected MCP server: `request()` sends one request and returns its raw result dict."""

    def __init__(
        self,
        server: Server,
        *,
        capabilities: Capabilities,
        client_info: Mapping[str, str],
        mode: Mode = "auto",
        env: Mapping[str, str] | None = None,
        back_channel: BackChannel | None = None,
        extensions: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        sign_in: SignIn | None = None,
        notified: Notified | None = None,
    ) -> None:
        """`notified`: awaited with the method of each notification the server sends outside a listen stream."""
        self.server = server
        self.headers = dict(headers or {})
        self.sign_in = sign_in
        self.capabilities = capabilities
        self.client_info = dict(client_info)
        self.mode = mode
        self.env = dict(env) if env is not None else None
        self.back_channel = back_channel
        self.notified = notified
        self.protocol_version: str | None = None
        self.server_name: str | None = None
        self._caps_wire = capabilities_wire(capabilities, extensions)
        self._stack: AsyncExitStack | None = None
        self._dispatcher: JSONRPCDispatcher[Any] | None = None
        self._session: ClientSession | None = None
        self._listed = False
        self._header_maps: dict[str, dict[tuple[str, ...], str]] = {}
        self._invalid: dict[str, str] = {}  # tool name -> why its x-mcp-header annotations are invalid
        self._unauthorized = 0  # HTTP 401 and 403 answers seen
        self._status = 401  # the status of the last of them
        self._auth: ReportingAuth | None = None
        self._endpoint: Any = None  # the MCP URL as the HTTP client spells it (an httpx2.URL)
        self._challenge: str | None = None  # the last WWW-Authenticate header
        # HTTP 404 / 405 answers that are not MCP (no JSON-RPC body): a web server, not an MCP endpoint.
        self._not_found = 0
        self._not_found_status = 404

    @property
    def modern(self) -> bool:
        return self.protocol_version in MODERN_PROTOCOL_VERSIONS

    @property
    def server_capabilities(self) -> types.ServerCapabilities | None:
        """What the server declared (its `server/discover` or `initialize` result); None before connecting."""
        return self._session.server_capabilities if self._session is not None else None

    async def __aenter__(self) -> Connection:
        from mcp.client.session import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client
        from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

        stack = AsyncExitStack()
        await stack.__aenter__()
        try:
            if self.server.url is not None:
                import httpx2

                self._endpoint = httpx2.URL(self.server.url)
                self._auth = self.sign_in.auth(self.server.url, self._refused) if self.sign_in is not None else None
                http = await stack.enter_async_context(
                    create_mcp_http_client(headers=self.headers or None, auth=self._auth))
                http.event_hooks["response"].append(self._saw_response)
                transport = streamable_http_client(self.server.url, http_client=http)
            else:
                command, *args = self.server.command
                transport = stdio_client(StdioServerParameters(command=command, args=args, env=self.env))
            read, write = await stack.enter_async_context(transport)
            self._dispatcher = JSONRPCDispatcher(read, write)
            self._session = ClientSession(
                dispatcher=self._dispatcher,
                client_info=types.Implementation.model_validate(self.client_info),
                message_handler=self._message,
                **self._callbacks(),
            )
            await stack.enter_async_context(self._session)
            await self._negotiate()
        except BaseException:
            await stack.aclose()
            raise
        self._stack = stack
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        stack, self._stack = self._stack, None
        if stack is None:
            return
        try:
            await stack.__aexit__(exc_type, exc, tb)
        except BaseExceptionGroup as group:
            # The SDK's task groups wrap what the caller raised; give the caller its own exception back.
            inner = only_exception(group)
            if inner is None:
                raise
            raise inner from inner.__cause__

    async def _saw_response(self, response: Any) -> None:
        """httpx response hook: the SDK turns a 401 into a generic internal error, so note it here.

        A response to a request of the sign-in itself (metadata, registration, token) is not the server's
        answer to an MCP request; only those to a POST of the MCP endpoint count."""
        if response.request.url != self._endpoint:
            return
        if self._auth is None:  # with a sign-in, only the response a request finally got counts (`_refused`)
            self._refused(response)
        kind = response.headers.get("content-type", "").partition(";")[0].strip().lower()
        if response.status_code in (404, 405) and kind not in ("application/json", "text/event-stream"):
            self._not_found += 1
            self._not_found_status = response.status_code

    def _refused(self, response: Any) -> None:
        if response.status_code in (401, 403):
            self._unauthorized += 1
            self._status = response.status_code
            self._challenge = response.headers.get("www-authenticate")

    async def _message(self, message: Any) -> None:
        """The SDK session's notifications (and transport faults, which its own calls already report)."""
        if self.notified is not None and isinstance(message, types.Notification):
            await self.notified(message.method)

    def listen(self, *, tools: bool = False, prompts: bool = False,
               resources: bool = False) -> AbstractAsyncContextManager[Subscription]:
        """A `subscriptions/listen` stream (2026-07-28 only) of the lists named: the SDK's own driver; iterating
        it yields the change events the server sends."""
        from mcp.client.subscriptions import listen

        assert self._session is not None, "not connected"
        return listen(self._session, tools_list_changed=tools, prompts_list_changed=prompts,
                      resources_list_changed=resources)

    # -- requests -------------------------------------------------------------------------------------------
    async def request(
        self, method: str, params: Mapping[str, Any], *, capabilities: Capabilities | None = None
    ) -> dict[str, Any]:
        """Send one request (a new JSON-RPC id) and return its raw result; a JSON-RPC error is `ServerError`.

        `capabilities`: on a 2026-07-28 connection, what this one request declares instead of the connection's
        own (a gateway declares what its own caller can answer, request by request).
        """
        from mcp.shared.exceptions import MCPError

        if method == "tools/call":
            await self._check_tool(params.get("name"))
        for attempt in (1, 2):
            unauthorized = self._unauthorized
            try:
                return await self._send(method, params, capabilities)
            except MCPError as exc:
                if self._unauthorized != unauthorized:
                    raise self._needs_authorization() from None
                if attempt == 2 or not self.modern:
                    raise _server_error(exc) from None
                if exc.error.code == types.HEADER_MISMATCH and method == "tools/call":
                    # The tool's `x-mcp-header` arguments changed since they were listed: list again, resend once.
                    await self.list_tools()
                    await self._check_tool(params.get("name"))
                elif (version := _retry_version(exc)) is not None:
                    self.protocol_version = version  # the server speaks another modern version: resend once in it
                else:
                    raise _server_error(exc) from None
        raise AssertionError("unreachable")

    async def list_tools(self) -> list[dict[str, Any]]:
        """Every tool the server lists (all pages), less those with invalid `x-mcp-header` annotations."""
        from mcp.shared.inbound import find_invalid_x_mcp_header, x_mcp_header_map

        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(100):
            result = await self.request("tools/list", {"cursor": cursor} if cursor else {})
            page = result.get("tools")
            if not isinstance(page, list):
                raise ProtocolError("tools/list returned no list of tools")
            tools.extend(t for t in page if isinstance(t, dict))
            cursor = result.get("nextCursor") if isinstance(result.get("nextCursor"), str) else None
            if cursor is None:
                break
        kept: list[dict[str, Any]] = []
        self._header_maps, self._invalid = {}, {}
        for tool in tools:
            name, schema = tool.get("name"), tool.get("inputSchema")
            if not isinstance(name, str):
                continue
            reason = find_invalid_x_mcp_header(schema)
            if reason is not None:
                # The spec: a client MUST exclude such a tool (and SHOULD say which and why).
                logger.warning("tool %r left out: its x-mcp-header annotations are invalid: %s", name, reason)
                self._invalid[name] = reason
                continue
            self._header_maps[name] = x_mcp_header_map(schema)
            kept.append(tool)
        self._listed = True
        return kept

    async def _check_tool(self, name: Any) -> None:
        """Before a `tools/call`: know the tool's headers (list once, over HTTP), and never call an invalid tool."""
        if not self._listed and self.modern and self.server.url is not None and name not in self._header_maps:
            try:
                await self.list_tools()
            except Unauthorized:
                raise
            except (ServerError, ProtocolError) as exc:  # a server that cannot list its tools can still be called
                logger.debug("tools/list before the first tools/call failed (%s); calling without it", exc)
                self._listed = True
        if isinstance(name, str) and name in self._invalid:
            raise InvalidTool(name, self._invalid[name])

    async def _send(
        self, method: str, params: Mapping[str, Any], capabilities: Capabilities | None = None
    ) -> dict[str, Any]:
        assert self._dispatcher is not None, "not connected"
        data = dict(params)
        headers = self._headers(method, data)
        if self.modern:
            caps = None if capabilities is None else capabilities_wire(capabilities)
            data["_meta"] = {**dict(data.get("_meta") or {}), **self._meta(self.protocol_version or "", caps)}
        return await self._dispatcher.send_raw_request(method, data, {"headers": headers})

    def _meta(self, version: str, caps_wire: dict[str, Any] | None = None) -> dict[str, Any]:
        return {
            PROTOCOL_VERSION_META_KEY: version,
            CLIENT_INFO_META_KEY: self.client_info,
            CLIENT_CAPABILITIES_META_KEY: self._caps_wire if caps_wire is None else caps_wire,
        }

    def _headers(self, method: str, params: Mapping[str, Any]) -> dict[str, str]:
        from mcp.shared.inbound import encode_header_value, mcp_param_headers

        headers = {_PROTOCOL_VERSION_HEADER: self.protocol_version or LATEST_HANDSHAKE_VERSION}
        if not self.modern:
            return headers
        headers[_METHOD_HEADER] = method
        name_key = _NAME_KEYS.get(method)
        if name_key is not None and isinstance(name := params.get(name_key), str):
            headers[_NAME_HEADER] = encode_header_value(name)
        if method == "tools/call" and isinstance(name := params.get("name"), str) and name in self._header_maps:
            arguments = params.get("arguments")
            headers.update(mcp_param_headers(self._header_maps[name], arguments if isinstance(arguments, dict) else {}))
        return headers

    def _needs_authorization(self) -> Unauthorized:
        if self.sign_in is not None and self._auth is None and self._status == 401:
            from askback.client.signin import NOT_KEPT

            return SignInFailed(self.server.describe(), NOT_KEPT)  # "never", and nothing kept to sign in with
        failure = self._auth.failure if self._auth is not None else None
        if failure is not None:
            self._auth.failure = None  # type: ignore[union-attr]  # reported once; a later request may sign in anew
            return failure
        return Unauthorized(self.server.describe(), self._challenge, status=self._status,
                            signed_in=self._auth is not None)

    # -- era ------------------------------------------------------------------------------------------------
    async def _negotiate(self) -> None:
        from mcp.shared.exceptions import MCPError

        assert self._dispatcher is not None and self._session is not None
        if self.mode != "legacy":
            version = MODERN_PROTOCOL_VERSIONS[-1]
            refusal: str | None = None
            for attempt in (1, 2):
                unauthorized, not_found = self._unauthorized, self._not_found
                try:
                    raw = await self._dispatcher.send_raw_request(
                        "server/discover",
                        {"_meta": self._meta(version)},
                        {
                            "headers": {_PROTOCOL_VERSION_HEADER: version, _METHOD_HEADER: "server/discover"},
                            "timeout": _DISCOVER_TIMEOUT,
                            "cancel_on_abandon": False,
                        },
                    )
                    discovered = types.DiscoverResult.model_validate(raw)
                except MCPError as exc:
                    if self._unauthorized != unauthorized:
                        raise self._needs_authorization() from None
                    if self._not_found != not_found and self.mode == "modern":
                        raise NoEndpoint(self.server.describe(), self._not_found_status) from None
                    supported = _supported(exc)
                    retry = _retry_version(exc)
                    if retry is not None and attempt == 1:
                        version = retry  # "retry using the advertised supported versions" (the transport spec)
                        continue
                    if supported is not None and not any(v in HANDSHAKE_PROTOCOL_VERSIONS for v in supported):
                        raise ServerError(
                            f"the server supports only protocol versions {', '.join(supported)}", code=exc.error.code
                        ) from None
                    refusal = exc.error.message
                except ValidationError:
                    refusal = "its server/discover result is not valid"
                else:
                    mutual = [v for v in MODERN_PROTOCOL_VERSIONS if v in discovered.supported_versions]
                    if mutual:
                        self._session.adopt(discovered)
                        self.protocol_version = mutual[-1]
                        info = (discovered.meta or {}).get("io.modelcontextprotocol/serverInfo")
                        self.server_name = info.get("name") if isinstance(info, dict) else None
                        return
                    refusal = "it supports " + ", ".join(discovered.supported_versions)
                break
            if self.mode == "modern":
                raise ServerError(f"the server does not speak MCP {version}: {refusal}")
            logger.debug("server/discover refused (%s); falling back to the initialize handshake", refusal)
        await self._handshake()

    async def _handshake(self) -> None:
        from mcp.shared.exceptions import MCPError

        assert self._dispatcher is not None and self._session is not None
        params = {
            "protocolVersion": LATEST_HANDSHAKE_VERSION,
            # The tasks extension is a 2026-07-28 one: the handshake era declares none.
            "capabilities": capabilities_wire(self.capabilities),
            "clientInfo": self.client_info,
        }
        unauthorized, not_found = self._unauthorized, self._not_found
        try:
            raw = await self._dispatcher.send_raw_request(
                "initialize", params, {"timeout": _HANDSHAKE_TIMEOUT, "cancel_on_abandon": False}
            )
        except MCPError as exc:
            if self._unauthorized != unauthorized:
                raise self._needs_authorization() from None
            if self._not_found != not_found:  # a plain 404 to the handshake: no MCP server at this URL
                raise NoEndpoint(self.server.describe(), self._not_found_status) from None
            if exc.error.code == METHOD_NOT_FOUND:  # JSON-RPC that has no `initialize` is no MCP server
                raise NoEndpoint(self.server.describe(), speaks="not MCP's initialize (method not found)") from None
            raise _server_error(exc) from None
        try:
            result = types.InitializeResult.model_validate(raw)
        except ValidationError as exc:
            raise ProtocolError(f"the server's initialize result is not valid: {exc}") from None
        if result.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
            raise ProtocolError(f"the server answered initialize with protocol version {result.protocol_version}")
        self._session.adopt(result)
        self.protocol_version = result.protocol_version
        self.server_name = result.server_info.name
        await self._session.send_notification(types.InitializedNotification())

    # -- the handshake era's back-channel -------------------------------------------------------------------
    def _callbacks(self) -> dict[str, Any]:
        """SDK callbacks for exactly the declared capabilities; each hands the request to `back_channel`."""
        callbacks: dict[str, Any] = {}
        caps = self.capabilities

        async def elicit(ctx: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
            mode = getattr(params, "mode", None) or "form"
            if (mode == "url" and not caps.url) or (mode != "url" and not caps.form):
                return types.ErrorData(code=types.INVALID_PARAMS, message=f"{mode} elicitation was not declared")
            answer = await self._answer("elicitation/create", params)
            return (
                types.ErrorData.model_validate(answer["error"])
                if "error" in answer
                else types.ElicitResult.model_validate(answer)
            )

        async def sample(ctx: ClientRequestContext, params: types.CreateMessageRequestParams) -> Any:
            answer = await self._answer("sampling/createMessage", params)
            return (
                types.ErrorData.model_validate(answer["error"])
                if "error" in answer
                else types.CreateMessageResult.model_validate(answer)
            )

        async def list_roots(ctx: ClientRequestContext) -> Any:
            answer = await self._answer("roots/list", None)
            return (
                types.ErrorData.model_validate(answer["error"])
                if "error" in answer
                else types.ListRootsResult.model_validate(answer)
            )

        if caps.form or caps.url:
            callbacks["elicitation_callback"] = elicit
        if caps.sampling:
            callbacks["sampling_callback"] = sample
        if caps.roots:
            callbacks["list_roots_callback"] = list_roots
        return callbacks

    async def _answer(self, method: str, params: Any) -> dict[str, Any]:
        if self.back_channel is None:
            return {"error": {"code": types.INVALID_REQUEST, "message": "this client answers no questions here"}}
        data = params.model_dump(by_alias=True, mode="json", exclude_none=True) if params is not None else {}
        return await self.back_channel(method, data)


def _server_error(exc: MCPError) -> ServerError:
    return ServerError(exc.error.message, code=exc.error.code, data=exc.error.data)


def _supported(exc: MCPError) -> list[str] | None:
    if exc.error.code != types.UNSUPPORTED_PROTOCOL_VERSION:
        return None
    try:
        return types.UnsupportedProtocolVersionErrorData.model_validate(exc.error.data).supported
    except ValidationError:
        return None


def _retry_version(exc: MCPError) -> str | None:
    """For an unsupported-version error: the newest modern version in its `supported` list this client speaks."""
    mutual = [v for v in MODERN_PROTOCOL_VERSIONS if v in (_supported(exc) or [])]
    return mutual[-1] if mutual else None
