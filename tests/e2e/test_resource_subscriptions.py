"""Resource subscriptions over real loopback HTTP with the official SDK `Client`, on both protocol eras.

A tool changes a note and says so with `app.resource_updated(uri)`: a 2025-11-25 session that sent
`resources/subscribe` for that URI receives `notifications/resources/updated`, one that unsubscribed (or subscribed
to another URI) receives nothing; a 2026-07-28 `subscriptions/listen` stream that named the URI receives it too.
"""

import warnings
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.client.client import Client

import askback

pytestmark = pytest.mark.anyio
NOTE = "notes://today"
OTHER = "notes://tomorrow"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def notes_app() -> askback.App:
    app = askback.App("notes")
    notes = {NOTE: "nothing yet", OTHER: "nothing yet"}

    @app.resource("notes://{day}", description="The note of a day")
    def note(day: str) -> str:
        return notes[f"notes://{day}"]

    @app.tool()
    async def write_note(day: str, text: str) -> str:
        """Replaces a day's note, and tells whoever watches it."""
        notes[f"notes://{day}"] = text
        await app.resource_updated(f"notes://{day}")
        return "saved"

    return app


class Updates:
    """The `notifications/resources/updated` URIs a client received."""

    def __init__(self) -> None:
        self.uris: list[str] = []
        self._arrived = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            self.uris.append(message.params.uri)
            self._arrived.set()

    async def settle(self, count: int) -> None:
        """Wait (3 s at most) until `count` notifications arrived: they ride the standalone stream, not the call."""
        with anyio.move_on_after(3):
            while len(self.uris) < count:
                await self._arrived.wait()
                self._arrived = anyio.Event()


async def test_a_subscribed_session_is_told_and_an_unsubscribed_one_is_not(serve: Any) -> None:
    url = serve(notes_app())
    watching, other = Updates(), Updates()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the SDK marks resources/subscribe as the 2025-11-25 era's
        async with Client(url, mode="legacy", message_handler=watching) as watcher, \
                Client(url, mode="legacy", message_handler=other) as bystander, \
                Client(url, mode="legacy") as writer:
            resources = watcher.server_capabilities.resources
            await watcher.subscribe_resource(NOTE)
            await bystander.subscribe_resource(OTHER)
            assert not (await writer.call_tool("write_note", {"day": "today", "text": "buy milk"})).is_error
            await watching.settle(1)
            assert watching.uris == [NOTE]
            read = await watcher.read_resource(NOTE)
            assert read.contents[0].text == "buy milk"  # type: ignore[union-attr]

            await watcher.unsubscribe_resource(NOTE)
            assert not (await writer.call_tool("write_note", {"day": "today", "text": "buy eggs"})).is_error
            await anyio.sleep(0.3)
    assert watching.uris == [NOTE]  # nothing after unsubscribing
    assert other.uris == []  # subscribed to another note only
    assert resources is not None and resources.subscribe is True  # the handshake said subscriptions work


async def test_a_listen_stream_that_named_the_uri_is_told(serve: Any) -> None:
    url = serve(notes_app())
    async with Client(url, mode="2026-07-28") as watcher, Client(url, mode="2026-07-28") as writer, \
            watcher.listen(resource_subscriptions=[NOTE]) as subscription:
        assert subscription.honored.resource_subscriptions == [NOTE]
        assert not (await writer.call_tool("write_note", {"day": "tomorrow", "text": "rest"})).is_error
        assert not (await writer.call_tool("write_note", {"day": "today", "text": "buy milk"})).is_error
        with anyio.fail_after(5):
            event = await subscription.__anext__()
    assert getattr(event, "uri", None) == NOTE  # the note it named, not the other one written first


async def test_modern_capabilities_offer_subscriptions_and_no_list_changes(serve: Any) -> None:
    """Serving subscriptions/listen makes the SDK offer every list-changed notification; askback's lists are
    fixed when the server is built, so none would ever come, and the capabilities say so."""
    async with Client(serve(notes_app()), mode="auto") as client:  # probes server/discover
        assert client.protocol_version == "2026-07-28"
        caps = client.server_capabilities
    assert caps.resources is not None and caps.resources.subscribe is True
    assert not caps.resources.list_changed
    assert caps.tools is not None and not caps.tools.list_changed
