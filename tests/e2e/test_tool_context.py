"""A tool's `askback.Context` over real loopback HTTP with the official SDK `Client`, on both protocol eras.

Progress rides the request's own response (an SSE response on 2026-07-28, the session's request stream on
2025-11-25); logs leave only where the client asked for them (the request's log-level `_meta` on 2026-07-28,
`logging/setLevel` on 2025-11-25), and a credential in a log never reaches the client.
"""


from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.client.client import Client

import askback

pytestmark = pytest.mark.anyio

MODES = ("2026-07-28", "legacy")
by_mode = pytest.mark.parametrize("mode", MODES)
TOKEN = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def reporting_app() -> askback.App:
    app = askback.App("reporting")

    @app.tool()
    async def crunch(items: int, ctx: askback.Context) -> str:
        for done in range(items + 1):
            await ctx.progress(done, items, f"{done} of {items} done")
        return f"crunched {items} for {ctx.principal or 'nobody'}"

    @app.tool()
    async def chatty(ctx: askback.Context) -> str:
        await ctx.log("debug", "looking around")
        await ctx.log("info", "working")
        await ctx.log("warning", "almost out of room", {"free": 3})
        await ctx.log("error", f"login failed with {TOKEN}", {"token": TOKEN, "note": "plain words"})
        return "done"

    return app


class Progress:
    def __init__(self) -> None:
        self.seen: list[tuple[float, float | None, str | None]] = []

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.seen.append((progress, total, message))


class Logs:
    def __init__(self) -> None:
        self.seen: list[types.LoggingMessageNotificationParams] = []
        self._arrived = anyio.Event()

    async def __call__(self, params: types.LoggingMessageNotificationParams) -> None:
        self.seen.append(params)
        self._arrived.set()

    async def settle(self, count: int) -> None:
        """Wait (2 s at most) until `count` log messages arrived: on 2025-11-25 they may trail the result."""
        with anyio.move_on_after(2):
            while len(self.seen) < count:
                await self._arrived.wait()
                self._arrived = anyio.Event()


@by_mode
async def test_progress_reaches_the_client_for_its_token(serve: Any, mode: str) -> None:
    url = serve(reporting_app())
    progress = Progress()
    async with Client(url, mode=mode) as client:
        result = await client.call_tool("crunch", {"items": 3}, progress_callback=progress)
    assert not result.is_error
    assert progress.seen == [(0, 3, "0 of 3 done"), (1, 3, "1 of 3 done"), (2, 3, "2 of 3 done"),
                             (3, 3, "3 of 3 done")]


@by_mode
async def test_without_a_progress_token_the_tool_runs_and_nothing_is_sent(serve: Any, mode: str) -> None:
    url = serve(reporting_app())
    async with Client(url, mode=mode) as client:
        result = await client.call_tool("crunch", {"items": 2})
        (schema,) = [t.input_schema for t in (await client.list_tools()).tools if t.name == "crunch"]
    assert not result.is_error
    assert "crunched 2" in result.content[0].text  # type: ignore[union-attr]
    assert set(schema["properties"]) == {"items"}  # the context is never an argument


async def test_modern_logs_only_at_the_level_the_request_opted_in_to(serve: Any) -> None:
    url = serve(reporting_app())
    logs = Logs()
    async with Client(url, mode="2026-07-28", logging_callback=logs, log_level="warning") as client:
        result = await client.call_tool("chatty", {})
    assert not result.is_error
    await logs.settle(2)
    assert [m.level for m in logs.seen] == ["warning", "error"]
    assert logs.seen[0].data == {"message": "almost out of room", "data": {"free": 3}}
    assert logs.seen[0].logger == "chatty"


async def test_modern_sends_no_log_without_an_opt_in(serve: Any) -> None:
    url = serve(reporting_app())
    logs = Logs()
    async with Client(url, mode="2026-07-28", logging_callback=logs) as client:
        result = await client.call_tool("chatty", {})
    assert not result.is_error
    await anyio.sleep(0.1)
    assert logs.seen == []


async def test_legacy_sends_every_level_until_the_client_sets_one(serve: Any) -> None:
    url = serve(reporting_app())
    logs = Logs()
    async with Client(url, mode="legacy", logging_callback=logs) as client:
        await client.call_tool("chatty", {})
        await logs.settle(4)
        assert [m.level for m in logs.seen] == ["debug", "info", "warning", "error"]
        logs.seen.clear()
        await client.set_logging_level("warning")
        await client.call_tool("chatty", {})
        await logs.settle(2)
    assert [m.level for m in logs.seen] == ["warning", "error"]


@by_mode
async def test_a_credential_in_a_log_never_reaches_the_client(serve: Any, mode: str) -> None:
    url = serve(reporting_app())
    logs = Logs()
    async with Client(url, mode=mode, logging_callback=logs, log_level="error") as client:
        await client.call_tool("chatty", {})
    await logs.settle(1 if mode != "legacy" else 4)
    assert logs.seen, "no log arrived"
    assert TOKEN not in repr([m.data for m in logs.seen])
    (error,) = [m for m in logs.seen if m.level == "error"]
    assert error.data == {"message": "[redacted]", "data": {"token": "[redacted]", "note": "plain words"}}


async def test_a_call_that_can_receive_notifications_is_handed_to_the_sdk_path(serve: Any) -> None:
    """The fast route answers one JSON body: a call with a progress token gets the SDK path's SSE answer, and
    the same call without one is answered as before."""
    url = serve(reporting_app())
    progress = Progress()
    async with Client(url, mode="2026-07-28") as client:
        await client.call_tool("crunch", {"items": 1})
        await client.call_tool("crunch", {"items": 1}, progress_callback=progress)
    assert len(progress.seen) == 2
