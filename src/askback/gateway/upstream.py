"""The server behind the gateway, spoken to with askback's own client (either era, whichever it speaks).

One connection serves every request: a 2026-07-28 upstream is stateless, so concurrent calls share it, each
declaring what the gateway's own caller can answer. The tool listing is kept from the last `tools/list` and
listed again when a call names a tool it does not hold (the upstream's list may have changed since).

The connection lives in a task of its own (`running()`): when the upstream goes away, the client's transport
fails there, not in the server's lifespan, so the gateway keeps serving (each call meanwhile gets an error
naming the upstream) and connects again, and lists again, once the upstream is back.

A list the upstream says changed (`askback.gateway.listing`) is listed again, and `on_change` is told: on a
2025-11-25 connection the notification arrives on the session, on a 2026-07-28 one on a `subscriptions/listen`
stream the gateway opens if the upstream declared `listChanged`.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import anyio
from anyio.abc import TaskGroup, TaskStatus

from askback._version import __version__
from askback.adoption.decide import Tool
from askback.adoption.options import ToolOptions
from askback.client.connection import Connection
from askback.client.errors import ClientError, ServerError, only_exception
from askback.client.pending import Server
from askback.gateway.listing import KINDS, kind_of, kind_of_event
from askback.gateway.policy import PolicyError, check_against
from askback.types import Capabilities

if TYPE_CHECKING:
    from askback.client.signin import SignIn

CLIENT_INFO = {"name": "askback-gateway", "version": __version__}
# What the gateway can relay back to its own callers; each request declares its caller's own instead.
RELAYED = Capabilities(form=True, url=True)
# The waits between attempts while the upstream is away (the last one repeats).
RECONNECT_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)
OnChange = Callable[[str], Awaitable[None]]
logger = logging.getLogger("askback.gateway")


class Upstream:
    """The connection to one upstream server and what it lists."""

    def __init__(
        self,
        server: Server,
        *,
        headers: Mapping[str, str] | None = None,
        policy: Mapping[str, ToolOptions] | None = None,
        policy_source: str = "the policy",
        sign_in: SignIn | None = None,
        on_change: OnChange | None = None,
    ) -> None:
        """`policy`: options per tool (`askback.gateway.policy`), checked against each listing at connection;
        `sign_in`: how to sign in (OAuth) when the upstream answers HTTP 401, the client's own way;
        `on_change`: awaited with `tools`, `prompts` or `resources` once that list of the upstream changed."""
        self.server = server
        self.on_change = on_change
        self._headers = dict(headers or {})
        self._sign_in = sign_in
        self._policy = dict(policy or {})
        self._policy_source = policy_source
        self._connection: Connection | None = None
        self._tools: dict[str, dict[str, Any]] = {}
        self._header_schemas: dict[str, Mapping[str, Any]] = {}
        self._group: TaskGroup | None = None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Connected (and listed, the policy checked) on entry, or the reason it cannot be; kept connected."""
        async with anyio.create_task_group() as group:
            self._group = group
            await group.start(self._hold)
            try:
                yield
            finally:
                group.cancel_scope.cancel()

    async def _hold(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        attempt = 0
        started = False
        while True:
            try:
                async with Connection(self.server, capabilities=RELAYED, client_info=CLIENT_INFO,
                                      headers=self._headers, sign_in=self._sign_in,
                                      notified=self._notified) as connection:
                    self._connection = connection
                    check_against(self._policy, await self.list_tools(), self._policy_source)
                    attempt = 0
                    if not started:
                        started = True
                        task_status.started()
                    else:
                        logger.warning("connected to the upstream %s again", self.server.describe())
                        await self._changed("tools")  # what changed while it was away is not replayed
                    await self._follow(connection)
            except Exception as exc:
                self._connection = None
                if not started:
                    raise  # at start: the reason the gateway cannot serve
                inner = only_exception(exc) if isinstance(exc, BaseExceptionGroup) else exc
                logger.warning("lost the upstream %s (%s); connecting again", self.server.describe(),
                               inner if inner is not None else exc)
            await anyio.sleep(RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)])
            attempt += 1

    async def _follow(self, connection: Connection) -> None:
        """At 2026-07-28, the upstream's list changes on a `subscriptions/listen` stream, opened again if it
        drops; at 2025-11-25 they come on the session (`_notified`), and this only waits."""
        declared = connection.server_capabilities
        flags = {kind: True for kind in KINDS if getattr(getattr(declared, kind, None), "list_changed", None)}
        if not connection.modern or not flags:
            await anyio.sleep_forever()
        from mcp.client.subscriptions import SubscriptionLost

        attempt = 0
        while True:
            try:
                async with connection.listen(**flags) as subscription:
                    attempt = 0
                    async for event in subscription:
                        kind = kind_of_event(event)
                        if kind is not None:
                            await self._changed(kind)
                logger.info("the upstream closed its subscriptions/listen stream; listening again")
            except SubscriptionLost as exc:
                logger.warning("the upstream's subscriptions/listen stream dropped (%s); listening again", exc)
            except Exception as exc:
                # Refused before it was acknowledged (an error, a timeout): the upstream is still there and
                # serves calls, so serve on without following its changes (a `tools/list` still reaches it).
                logger.warning("the upstream refused subscriptions/listen (%s): its list changes are not followed",
                               only_exception(exc) if isinstance(exc, BaseExceptionGroup) else exc)
                await anyio.sleep_forever()
            await anyio.sleep(RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)])
            attempt += 1
            await self._changed("tools")  # a stream is not replayed: list again after it

    async def _notified(self, method: str) -> None:
        kind = kind_of(method)
        if kind is not None and self._group is not None and self._connection is not None \
                and not self._connection.modern:
            # Not here: this runs on the session's receive path, and listing again needs its next response.
            self._group.start_soon(self._changed, kind)

    async def _changed(self, kind: str) -> None:
        """The upstream's `kind` list changed: list the tools again (the schemas calls are checked against),
        then tell the gateway's clients."""
        if kind == "tools":
            try:
                check_against(self._policy, await self.list_tools(), self._policy_source)
            except PolicyError as exc:
                # At start this stops the gateway; now the upstream changed under it: say so, keep serving.
                logger.warning("the upstream's new tool list no longer fits the policy: %s", exc)
            except ClientError as exc:
                logger.warning("listing the upstream's tools again failed: %s", exc)
        if self.on_change is not None:
            await self.on_change(kind)

    @property
    def connection(self) -> Connection:
        if self._connection is None:
            raise ServerError(f"the upstream {self.server.describe()} cannot be reached now")
        return self._connection

    @property
    def protocol_version(self) -> str | None:
        return self.connection.protocol_version

    async def list_tools(self) -> list[dict[str, Any]]:
        tools = await self.connection.list_tools()
        self._tools = {t["name"]: t for t in tools}
        # Only a schema that declares `x-mcp-header` has headers to check: the SDK walks any schema it is given.
        self._header_schemas = {name: schema for name, t in self._tools.items()
                                if isinstance(schema := t.get("inputSchema"), Mapping)
                                and "x-mcp-header" in json.dumps(schema)}
        return tools

    def input_schema(self, name: str) -> Mapping[str, Any] | None:
        """The listed input schema of `name` if the SDK's `Mcp-Param-*` header check has anything to check in it
        (it declares `x-mcp-header`), else None; without I/O."""
        return self._header_schemas.get(name)

    async def tool(self, name: str) -> Tool | None:
        """The tool as the upstream lists it: the schema its values are checked against before forwarding."""
        if name not in self._tools:
            try:
                await self.list_tools()
            except ClientError:
                return None  # not known now: the call is forwarded as sent, and its error names the upstream
        listed = self._tools.get(name)
        if listed is None:
            return None
        schema = listed.get("inputSchema")
        return Tool(name, schema if isinstance(schema, dict) else {"type": "object"},
                    self._policy.get(name, ToolOptions()),
                    listed.get("outputSchema") is not None)

    async def request(self, method: str, params: Mapping[str, Any], caps: Capabilities) -> dict[str, Any]:
        """One request to the upstream, declaring `caps`; its raw result, as the upstream sent it."""
        return await self.connection.request(method, params, capabilities=caps)

    def serves(self, kind: str) -> bool:
        """Whether the upstream declared `kind` (`prompts`, `resources`) among its capabilities."""
        declared = self.connection.server_capabilities
        return declared is not None and getattr(declared, kind, None) is not None
