"""`askback gateway` follows the upstream's list changes: it lists again and tells its own clients, both eras.

The upstream is an `MCPServer` app whose `grow` tool replaces `pick(color)` by `pick(color, size)` and says so
(on its `subscriptions/listen` streams at 2026-07-28, on the session at 2025-11-25), as a server whose tools
depend on state does. The gateway is the `askback gateway` command in its own process, driven by the official
SDK `Client`: a 2026-07-28 client hears of it on its own `subscriptions/listen` stream, a 2025-11-25 client as
`notifications/tools/list_changed` on its session; and the next call is checked against the new schema, so
the new required `size` is asked for, not left to the upstream's validation error.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.client.client import Client
from mcp.client.session import IncomingMessage
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ToolsListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from askback.client.pending import Server
from askback.gateway.upstream import RELAYED, Upstream
from tests.conftest import LoopbackServer
from tests.e2e.serving import started
from tests.e2e.test_adopt import Elicitor, accept, text_of
from tests.e2e.test_cli import serve_env

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def pick(color: str) -> str:
    """Pick a color."""
    return f"picked {color}"


def pick_sized(color: str, size: int) -> str:
    """Pick a color and a size."""
    return f"picked {color} in size {size}"


def changing() -> MCPServer:
    server = MCPServer("changing")
    server.add_tool(pick, name="pick")

    @server.tool()
    async def grow(ctx: Context) -> str:
        """Give `pick` a required size."""
        server.remove_tool("pick")
        server.add_tool(pick_sized, name="pick")
        await ctx.notify_tools_changed()  # the 2026-07-28 listen streams
        if ctx.request_context.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            await ctx.session.send_tool_list_changed()  # the 2025-11-25 session
        return "pick now needs a size"

    return server


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[str]:
    with LoopbackServer(changing().streamable_http_app()) as upstream, \
            started([upstream.url, "--port", "0"], serve_env(tmp_path), command="gateway") as server:
        yield server.url


async def _grow_through(url: str) -> None:
    async with Client(url) as other:
        assert text_of(await other.call_tool("grow", {})) == "pick now needs a size"


async def _new_schema_is_asked(client: Client, elicitor: Elicitor) -> None:
    result = await client.call_tool("pick", {"color": "red"})
    assert text_of(result) == "picked red in size 3"
    assert elicitor.fields() == [["size"]]


async def test_a_modern_client_hears_of_the_change_on_its_listen_stream(gateway: str) -> None:
    elicitor = Elicitor(accept(size=3))
    async with Client(gateway, elicitation_callback=elicitor) as client:
        before = await client.list_tools()
        assert before.tools and client.server_capabilities is not None
        assert client.server_capabilities.tools is not None and client.server_capabilities.tools.list_changed
        async with client.listen(tools_list_changed=True) as changes:
            await _grow_through(gateway)
            with anyio.fail_after(20):
                event = await anext(aiter(changes))
        assert event == ToolsListChanged()
        listed = {t.name: t for t in (await client.list_tools()).tools}
        assert listed["pick"].input_schema["required"] == ["color", "size"]
        await _new_schema_is_asked(client, elicitor)


async def test_a_legacy_client_is_sent_list_changed_on_its_session(gateway: str) -> None:
    heard = anyio.Event()

    async def on_message(message: IncomingMessage) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            heard.set()

    elicitor = Elicitor(accept(size=3))
    async with Client(gateway, mode="legacy", message_handler=on_message, elicitation_callback=elicitor) as client:
        assert client.server_capabilities is not None and client.server_capabilities.tools is not None
        assert client.server_capabilities.tools.list_changed is True
        await client.list_tools()  # a client that listed is one whose list can go stale
        await _grow_through(gateway)
        with anyio.fail_after(20):
            await heard.wait()
        await _new_schema_is_asked(client, elicitor)


async def test_on_the_notice_the_gateway_lists_again_and_checks_the_next_call_against_it(gateway: str) -> None:
    """The client does not list again: the gateway did, on the upstream's notice (without it, `size` would go
    unchecked to the upstream and come back as its validation error)."""
    elicitor = Elicitor(accept(size=3))
    async with Client(gateway, elicitation_callback=elicitor) as client:
        await client.list_tools()
        async with client.listen(tools_list_changed=True) as changes:
            await _grow_through(gateway)
            with anyio.fail_after(20):
                await anext(aiter(changes))
        # No tools/list of the client's own in between: the gateway listed again on the upstream's notice.
        await _new_schema_is_asked(client, elicitor)


async def _deaf(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: `subscriptions/listen` refused, though the server declares `listChanged`."""
    if ctx.method == "subscriptions/listen":
        raise MCPError(code=types.INTERNAL_ERROR, message="no listening here")
    return await call_next(ctx)


async def test_an_upstream_that_refuses_to_listen_is_still_served_on_the_same_connection() -> None:
    """A refused `subscriptions/listen` is no lost upstream: the gateway serves on, and does not reconnect."""
    deaf = MCPServer("deaf", middleware=[_deaf])
    deaf.add_tool(pick, name="pick")
    with LoopbackServer(deaf.streamable_http_app()) as served:
        link = Upstream(Server.of(served.url))
        async with link.running():
            first = link.connection
            await anyio.sleep(1.5)  # what a reconnection would take several times over (its first wait: 0.1 s)
            assert link.connection is first
            result = await link.request("tools/call", {"name": "pick", "arguments": {"color": "red"}}, RELAYED)
    assert result["content"][0]["text"] == "picked red"


async def test_an_open_listen_stream_ends_gracefully_when_the_gateway_stops(tmp_path: Path) -> None:
    """A client's `subscriptions/listen` stream lives as long as the client wants: a stopping gateway ends it
    with its final result (the spec's graceful close), or the shutdown would wait on it forever."""
    with LoopbackServer(changing().streamable_http_app()) as upstream, \
            started([upstream.url, "--port", "0"], serve_env(tmp_path), command="gateway") as server:
        async with Client(server.url) as client, client.listen(tools_list_changed=True) as changes:
            server.process.send_signal(signal.SIGINT)
            with anyio.fail_after(30):  # a guard against a hang, not a timing
                events = [event async for event in changes]  # ends without SubscriptionLost: graceful
        assert events == []
        assert await anyio.to_thread.run_sync(lambda: server.process.wait(30)) == 0
