"""`askback gateway URL`: askback in front of any MCP server, asking for what a call lacks before forwarding it.

    askback gateway http://127.0.0.1:9000/mcp --port 8000
    askback call http://127.0.0.1:8000/mcp deploy      # asked for service and env, then forwarded

The upstream's tools are served on askback's HTTP front (both eras). A `tools/call` is checked against the
tool's listed input schema: missing and refused values become one round of typed questions (a credential is
never asked in a form), the answers are merged and the call is forwarded; the upstream's result comes back as
it sent it, and its own `input_required` rounds pass through, its state inside the gateway's sealed one.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from askback.adoption.options import ToolOptions
from askback.app import App
from askback.client.pending import Server

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from askback.client.signin import SignIn

DEFAULT_NAME = "askback-gateway"


def gateway_app(
    upstream: str | Sequence[str] | Server,
    *,
    name: str = DEFAULT_NAME,
    headers: Mapping[str, str] | None = None,
    app: App | None = None,
    policy: str | Path | Mapping[str, ToolOptions] | None = None,
    sign_in: SignIn | None = None,
    **http: Any,
) -> Starlette:
    """The gateway's ASGI app: `upstream`'s tools at `/mcp`, the upstream connected at start-up.

    `name` is the gateway's server name and the audience its states are bound to; `app` gives keys, store
    and principal hook of your own (an `askback.App` with no tools); `headers` go with every request to the
    upstream; `policy` is a policy file (`askback.gateway.policy`) or its options per tool; `sign_in` signs in
    to an upstream that answers HTTP 401 (OAuth, as `askback.Client` does). The rest (`host`,
    `allowed_hosts`, ...) are `askback.mcp.http_app`'s.
    """
    from askback.gateway.policy import load_policy
    from askback.gateway.server import GatewayServer
    from askback.gateway.upstream import Upstream
    from askback.mcp.http import http_app

    source = str(policy) if isinstance(policy, str | Path) else "the policy"
    options = load_policy(policy) if isinstance(policy, str | Path) else dict(policy or {})
    owner = app or App(name)
    # A policy's credentials and approvals are entered on askback's pages, served beside /mcp.
    owner.pages_wanted = owner.pages_wanted or any(o.needs_pages for o in options.values())
    link = Upstream(Server.of(upstream), headers=headers, policy=options, policy_source=source, sign_in=sign_in)
    gateway = GatewayServer(owner, link)
    asgi = http_app(owner, server=gateway.server, a2a=False, **http)
    served = asgi.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(starlette: Any) -> AsyncIterator[None]:
        # Before serving: an upstream that cannot be reached stops the start, with its reason.
        async with link.running():
            gateway.mirror()
            async with served(starlette):
                yield

    asgi.router.lifespan_context = lifespan
    # For the server that runs it, at the start of its shutdown (before it waits for open connections): the
    # open `subscriptions/listen` streams end with their final result, or they would hold the shutdown forever.
    asgi.state.closing = gateway.changes.close
    return asgi


__all__ = ["gateway_app"]
