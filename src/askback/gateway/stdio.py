"""The gateway over stdio: one client on stdin/stdout, the upstream (HTTP or a command of its own) behind it."""

from __future__ import annotations

from collections.abc import Mapping

from askback.adoption.options import ToolOptions
from askback.app import App
from askback.client.pending import Server
from askback.client.signin import SignIn


async def serve_stdio(
    upstream: Server,
    owner: App,
    *,
    headers: Mapping[str, str] | None = None,
    policy: Mapping[str, ToolOptions] | None = None,
    policy_source: str = "the policy",
    sign_in: SignIn | None = None,
) -> None:
    """Connect to `upstream`, then serve its tools to the client on this process's stdin and stdout."""
    from mcp.server.stdio import stdio_server

    from askback.gateway.server import GatewayServer
    from askback.gateway.upstream import Upstream

    link = Upstream(upstream, headers=headers, policy=policy, policy_source=policy_source, sign_in=sign_in)
    gateway = GatewayServer(owner, link)
    await owner.start()
    try:
        async with link.running():
            gateway.mirror()
            async with stdio_server() as (read, write):
                await gateway.server.run(read, write, gateway.server.create_initialization_options())
    finally:
        await owner.stop()
