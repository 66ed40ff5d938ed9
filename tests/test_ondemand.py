"""`OnDemand`: a part built once on first need, under concurrency, with its failure reported once."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from askback.mcp.http import _SdkEndpoint
from askback.web.ondemand import OnDemand, Unavailable

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Part:
    """A part that takes a while to build and records how often it was built, entered and left."""

    def __init__(self, fail: bool = False) -> None:
        self.builds = 0
        self.events: list[str] = []
        self.fail = fail
        self.threads: set[str] = set()

    def build(self) -> Part:
        self.builds += 1
        self.threads.add(threading.current_thread().name)
        time.sleep(0.05)  # two first requests overlap while it is built
        if self.fail:
            raise ImportError("no module named 'nowhere'")
        return self

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        self.events.append("entered")
        try:
            yield
        finally:
            self.events.append("left")


async def test_two_first_requests_build_it_once_and_both_get_it() -> None:
    part = Part()
    on_demand: OnDemand[Part] = OnDemand("the part", part.build, running=lambda p: p.running())
    got: list[Part] = []
    async with on_demand.lifespan():
        async with anyio.create_task_group() as tasks:
            for _ in range(2):
                tasks.start_soon(lambda: _append(got, on_demand))
        assert got == [part, part] and part.builds == 1 and part.events == ["entered"]
        assert threading.main_thread().name not in part.threads, "built off the event loop's thread"
    assert part.events == ["entered", "left"], "left when the lifespan ends, in the task that entered it"


async def _append(got: list[Part], on_demand: OnDemand[Part]) -> None:
    got.append(await on_demand.get())


async def test_a_failed_build_is_reported_once_and_every_request_told(caplog: pytest.LogCaptureFixture) -> None:
    part = Part(fail=True)
    on_demand: OnDemand[Part] = OnDemand("the part", part.build)
    caplog.set_level(logging.ERROR, logger="askback.serve")
    async with on_demand.lifespan():
        for _ in range(3):
            with pytest.raises(Unavailable, match="the part could not be loaded; the server log says why"):
                await on_demand.get()
    async with on_demand.lifespan():  # a second run of the lifespan does not retry or log it again
        with pytest.raises(Unavailable):
            await on_demand.get()
    records = [r for r in caplog.records if r.name == "askback.serve"]
    assert len(records) == 1 and "no module named 'nowhere'" in records[0].getMessage()
    assert records[0].exc_info is not None, "the traceback is in the log, once"
    assert part.builds == 1


async def test_outside_the_lifespan_it_says_so() -> None:
    on_demand: OnDemand[Part] = OnDemand("the part", Part().build)
    with pytest.raises(Unavailable, match="lifespan is not running"):
        await on_demand.get()


def test_an_endpoint_whose_part_cannot_be_built_answers_a_clear_error(caplog: pytest.LogCaptureFixture) -> None:
    on_demand: OnDemand[Any] = OnDemand("the MCP SDK path", Part(fail=True).build)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with on_demand.lifespan():
            yield

    asgi = Starlette(lifespan=lifespan)
    asgi.mount("/mcp", _SdkEndpoint(on_demand))
    with TestClient(asgi) as http:
        for _ in range(2):
            response = http.post("/mcp", content=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
            assert response.status_code == 500
            error = response.json()["error"]
            assert error["message"] == "Internal error: the MCP SDK path could not be loaded; the server log says why"
            assert "Traceback" not in response.text
        assert http.get("/nothing").status_code == 404, "the worker keeps serving"
    assert sum(r.name == "askback.serve" for r in caplog.records) == 1
