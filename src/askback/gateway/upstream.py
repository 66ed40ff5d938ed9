"""The server behind the gateway, spoken to with askback's own client (either era, whichever it speaks).

One connection serves every request: a 2026-07-28 upstream is stateless, so concurrent calls share it, each
declaring what the gateway's own caller can answer. The tool listing is kept from the last `tools/list` and
listed again when a call names a tool it does not hold (the upstream's list may have changed since).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AsyncExitStack
from typing import Any

from askback._version import __version__
from askback.adoption.decide import Tool
from askback.adoption.options import ToolOptions
from askback.client.connection import Connection
from askback.client.pending import Server
from askback.gateway.policy import check_against
from askback.types import Capabilities

CLIENT_INFO = {"name": "askback-gateway", "version": __version__}
# What the gateway can relay back to its own callers; each request declares its caller's own instead.
RELAYED = Capabilities(form=True, url=True)


class Upstream:
    """The connection to one upstream server and what it lists."""

    def __init__(
        self,
        server: Server,
        *,
        headers: Mapping[str, str] | None = None,
        policy: Mapping[str, ToolOptions] | None = None,
        policy_source: str = "the policy",
    ) -> None:
        """`policy`: options per tool (`askback.gateway.policy`), checked against the listing on `open()`."""
        self.server = server
        self._headers = dict(headers or {})
        self._policy = dict(policy or {})
        self._policy_source = policy_source
        self._connection: Connection | None = None
        self._stack: AsyncExitStack | None = None
        self._tools: dict[str, dict[str, Any]] = {}

    async def open(self) -> None:
        stack = AsyncExitStack()
        connection = await stack.enter_async_context(
            Connection(self.server, capabilities=RELAYED, client_info=CLIENT_INFO, headers=self._headers)
        )
        self._stack, self._connection = stack, connection
        try:
            check_against(self._policy, await self.list_tools(), self._policy_source)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        stack, self._stack, self._connection = self._stack, None, None
        if stack is not None:
            await stack.aclose()

    @property
    def connection(self) -> Connection:
        if self._connection is None:
            raise RuntimeError("the upstream is not connected")
        return self._connection

    @property
    def protocol_version(self) -> str | None:
        return self.connection.protocol_version

    async def list_tools(self) -> list[dict[str, Any]]:
        tools = await self.connection.list_tools()
        self._tools = {t["name"]: t for t in tools}
        return tools

    def input_schema(self, name: str) -> Mapping[str, Any] | None:
        """The listed input schema of `name` (the SDK's `Mcp-Param-*` header check reads it), without I/O."""
        listed = self._tools.get(name)
        schema = listed.get("inputSchema") if listed is not None else None
        return schema if isinstance(schema, Mapping) else None

    async def tool(self, name: str) -> Tool | None:
        """The tool as the upstream lists it: the schema its values are checked against before forwarding."""
        if name not in self._tools:
            await self.list_tools()
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
