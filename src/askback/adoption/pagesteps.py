"""The page steps and single-use runs of adopted tools (and of a gateway's policy), on an `askback.App`'s runtime.

The same machinery an `askback.App` tool uses: the step's ticket and mark in the store (`askback.outofband`),
the page that completes it (`askback.web.pages`), the one wait for a page (`askback.pagewait`), the one
single-use claim (`askback.singleuse`). A credential entered on the page is read from the store once, as the
call goes on to the tool, and never enters the progress, a state, a result or a log line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import anyio

from askback.adoption.progress import PageFlow, Progress
from askback.app import App
from askback.core.marks import Mark, MarkRequest
from askback.core.state import b64url, b64url_decode_strict
from askback.outofband import NoPublicUrl, OutOfBand
from askback.pagewait import until
from askback.receipts import receipt_id, run_started, run_values
from askback.runtime import Runtime
from askback.singleuse import claim_run


class PageSteps:
    """`app`'s runtime for adopted calls: its store opened on first need unless `started_elsewhere` (a server
    whose lifespan starts the app: the gateway's, `Adopter.streamable_http_app`'s)."""

    def __init__(self, app: App, *, started_elsewhere: bool = False) -> None:
        self.app = app
        self._started = started_elsewhere
        self._lock = anyio.Lock()

    @property
    def served(self) -> bool:
        """Whether a server of this app serves askback's pages (a link to one then opens)."""
        return self.app.pages_served

    async def runtime(self) -> Runtime:
        if not self._started:
            async with self._lock:
                if not self._started:
                    await self.app.start()
                    self._started = True
        return self.app.runtime

    def mark_started(self) -> None:
        """Said by a lifespan that started the app itself (and stops it)."""
        self._started = True

    async def flow(self, progress: Progress) -> Progress:
        """`progress` with its flow named (the first time: a fresh id, the flow's deadline, this store)."""
        if progress.pages is not None:
            return progress
        runtime = await self.runtime()
        pages = PageFlow(b64url(os.urandom(12)), runtime.clock() + runtime.codec.policy.flow_ttl,
                         runtime.store.identity)
        return progress.with_pages(pages)

    async def mark(self, progress: Progress, request: MarkRequest, *, tool: str, principal: str | None,
                   origin: str | None) -> Mark:
        """Where the step stands; the first time, its ticket minted (`NoPublicUrl` if no link can be made)."""
        runtime, pages = await self.runtime(), _pages(progress)
        return await runtime.mark(flow_id=_flow_id(pages), deadline=pages.deadline, request=request,
                                  principal=principal, tool=tool, origin=origin)

    async def hold(self, progress: Progress, step: str) -> bool:
        """A retry that only repeats a page step the client accepted, held until the page finishes it (True),
        or the app's page wait passes (`askback.pagewait`)."""
        runtime, pages = await self.runtime(), _pages(progress)
        oob = _oob(runtime)
        return await runtime.page_wait.hold(lambda: oob.any_finished(_flow_id(pages), (step,)),
                                            longest=pages.deadline - runtime.clock())

    async def wait(self, progress: Progress, step: str) -> bool:
        """Within one request (a back-channel): wait until the page finishes the step (True) or the flow ends."""
        runtime, pages = await self.runtime(), _pages(progress)
        oob = _oob(runtime)
        return await until(lambda: oob.any_finished(_flow_id(pages), (step,)),
                           bound=pages.deadline - runtime.clock(), poll=runtime.page_wait.poll)

    async def claim(self, progress: Progress, what: str) -> None:
        """The single-use run of this call, or `InvalidRequestState` for a replay (`askback.singleuse`)."""
        runtime, pages = await self.runtime(), _pages(progress)
        await claim_run(runtime.store, _flow_id(pages), pages.deadline, pages.store, what)

    async def started(self, progress: Progress, *, on_page: bool, once: bool, tool: str, principal: str | None,
                      values: Mapping[str, Any]) -> str | None:
        """Record that the call's run starts on its receipt (`askback.receipts.run_started`: an approval given on
        a page, or a single-use run, which shows `values` as its proposal); the receipt's id, or None."""
        if progress.pages is None:
            return None
        runtime = await self.runtime()
        return await run_started(runtime.receipts, _flow_id(progress.pages), on_page=on_page, once=once,
                                 proposal=lambda: (tool, principal, run_values(values.items())))

    async def receipt(self, progress: Progress, *, on_page: bool, once: bool) -> str | None:
        """The receipt of a call whose run has started (or that a page refused), without recording a start."""
        runtime = await self.runtime()
        if progress.pages is None or runtime.receipts is None or not (on_page or once):
            return None
        return receipt_id(_flow_id(progress.pages))

    async def returned(self, receipt: str, outcome: str, value: Any = None, *, has_value: bool = False) -> None:
        """What the client was told, on the receipt (`askback.receipts.Receipts.returned`: never raises)."""
        receipts = (await self.runtime()).receipts
        if receipts is not None:
            await receipts.returned(receipt, outcome, value, has_value=has_value)

    async def take(self, progress: Progress, steps: Sequence[tuple[str, str]]) -> dict[str, str] | None:
        """The credentials entered on the pages, by argument (`steps`: argument, step name), each read and
        deleted in one step; None if one is gone (already taken: a replay; or expired)."""
        runtime, pages = await self.runtime(), _pages(progress)
        taken: dict[str, str] = {}
        for name, step in steps:
            value = await _oob(runtime).take_secret(_flow_id(pages), step)
            if value is None:
                return None
            taken[name] = value
        return taken


def _pages(progress: Progress) -> PageFlow:
    assert progress.pages is not None, "a page step is looked up after `flow()` named it"
    return progress.pages


def _flow_id(pages: PageFlow) -> bytes:
    return b64url_decode_strict(pages.flow)


def _oob(runtime: Runtime) -> OutOfBand:
    if runtime.out_of_band is None:
        raise NoPublicUrl("this runtime has no out-of-band pages")
    return runtime.out_of_band
