"""`work.ask(text, secret=True)` on a 2025-11-25 session (no task): the page link over the back-channel.

The official SDK's `Client` on a real loopback server: the function's secret question reaches it as a URL-mode
elicitation, never a form; the person enters the value on askback's page (plain HTTP, as a browser would), the
client is told the step is complete, and the function receives an `askback.Secret`. A client without URL
elicitation gets -32021; a refusal on the page is `askback.Declined` in the function.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import anyio
import httpx
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitRequestParams, ElicitResult

import askback
from tests.e2e.test_sdk_client import Serve, text_of

pytestmark = pytest.mark.anyio
SECRET = "sk_live_Qm82nVxcT4pLw9ZeRb7dKs1u"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def rotating(seen: list[Any]) -> askback.App:
    app = askback.App("work-secret-session", store="memory://")

    @app.tool(task="optional")
    async def rotate(*, work: askback.Work) -> str:
        seen.append("started")
        try:
            key = await work.ask("your new API key", secret=True)
        except askback.Declined as exc:
            seen.append(("declined", exc.action))
            raise
        seen.append(key)
        return f"rotated ({len(key.reveal())} characters)"

    return app


def submit(url: str, **form: str) -> httpx.Response:
    with httpx.Client() as browser:
        page = browser.get(url)
        assert page.status_code == 200, page.text
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        return browser.post(url, data={"csrf": token.group(1), **form})


def on_the_page(asked: list[ElicitRequestParams], **form: str) -> Any:
    async def answer(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params)
        assert params.mode == "url", params  # never a form
        await anyio.to_thread.run_sync(lambda: submit(params.url, **form))
        return ElicitResult(action="accept")

    return answer


async def test_the_secret_entered_on_the_page_reaches_the_function_over_the_session(
    serve: Serve, caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[Any] = []
    asked: list[ElicitRequestParams] = []
    notices: list[Any] = []

    async def on_message(message: Any) -> None:
        notices.append(message)

    with caplog.at_level(logging.DEBUG):
        async with Client(serve(rotating(seen)), mode="legacy", message_handler=on_message,
                          elicitation_callback=on_the_page(asked, value=SECRET, decision="submit")) as client:
            result = await client.call_tool("rotate", {})
    assert result.is_error is not True and text_of(result) == f"rotated ({len(SECRET)} characters)"
    assert seen[0] == "started" and isinstance(seen[1], askback.Secret) and seen[1].reveal() == SECRET
    assert len(asked) == 1 and "/askback/p/" in asked[0].url and "API key" in asked[0].message  # type: ignore[union-attr]
    completes = [n for n in notices if "elicitation/complete" in repr(n)]
    assert completes and asked[0].elicitation_id in repr(completes[0])  # type: ignore[union-attr]
    assert SECRET not in repr(result) and SECRET not in repr(asked)
    assert all(SECRET not in record.getMessage() for record in caplog.records)


async def test_a_refusal_on_the_page_is_declined_in_the_function(serve: Serve) -> None:
    seen: list[Any] = []
    asked: list[ElicitRequestParams] = []
    async with Client(serve(rotating(seen)), mode="legacy",
                      elicitation_callback=on_the_page(asked, decision="reject")) as client:
        result = await client.call_tool("rotate", {})
    assert seen == ["started", ("declined", "decline")]
    assert "was declined" in text_of(result)


async def test_a_session_client_without_url_elicitation_gets_32021(serve: Serve) -> None:
    """The SDK's `Client` declares URL and form elicitation together, or (without a callback) neither."""
    seen: list[Any] = []
    async with Client(serve(rotating(seen)), mode="legacy") as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("rotate", {})
    assert raised.value.error.code == -32021
    assert "already started" in raised.value.error.message
    assert seen == ["started"]
