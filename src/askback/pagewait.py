"""Holding a retry whose page step is not done yet, instead of answering "not done" at once.

A 2026-07-28 client that accepted a URL question retries at once (the official SDK's `Client` does, and gives
up after 10 rounds): answered at once, a person would have a fraction of a second to finish the page. So the
flow holds such a retry up to `seconds`, looking at the step's mark in the store every `poll` seconds (the
page writes it there, on whichever replica served it), and answers as soon as the mark changes, the client
goes away, or the bound is reached. Only an accepted question is held: a decline or cancel never is.

The hold sleeps (it never blocks the event loop), and at most `limit` retries are held at once per process;
beyond that a retry is answered at once, as without a hold, so held connections and store reads stay bounded.
"""

from __future__ import annotations

import math
import os
from collections.abc import Awaitable, Callable

import anyio

DEFAULT_SECONDS = 20.0
ENV = "ASKBACK_PAGE_WAIT"

# True once the client closed its connection (a held answer would reach nobody).
Gone = Callable[[], Awaitable[bool]]
# True once one of the step's marks is no longer pending.
Finished = Callable[[], Awaitable[bool]]


class PageWaitError(ValueError):
    """The configured hold is not a number of seconds from 0 up."""


def seconds_from(value: float | str | None) -> float:
    """The hold in seconds: `value` if given, else `ASKBACK_PAGE_WAIT`, else the default (0 turns it off)."""
    if value is None:
        value = os.environ.get(ENV) or DEFAULT_SECONDS
    source = f"{ENV}={value!r}" if isinstance(value, str) else f"page_wait={value!r}"
    try:
        seconds = float(value)
    except ValueError:
        raise PageWaitError(f"{source}: the page wait must be a number of seconds (0 turns it off)") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise PageWaitError(f"{source}: the page wait must be a number of seconds from 0 up")
    return seconds


class PageWait:
    """The hold's bound, how often it looks, and how many retries one process holds at once."""

    def __init__(self, seconds: float = DEFAULT_SECONDS, *, poll: float = 0.2, limit: int = 256) -> None:
        self.seconds = seconds
        self.poll = poll
        self.limit = limit
        self.holding = 0

    async def hold(self, finished: Finished, *, longest: float, gone: Gone | None = None) -> bool:
        """Wait until `finished()`, `gone()`, or `min(seconds, longest)` passed; True if the step finished.

        Returns False at once when the hold is off or `limit` retries are already held.
        """
        bound = min(self.seconds, longest)
        if bound <= 0 or self.holding >= self.limit:
            return False
        self.holding += 1
        try:
            return await until(finished, bound=bound, poll=self.poll, gone=gone)
        finally:
            self.holding -= 1


async def until(finished: Finished, *, bound: float, poll: float, gone: Gone | None = None) -> bool:
    """The one loop that waits for a page: look every `poll` seconds until `finished()` (True), `gone()` or
    `bound` seconds passed (False). A held retry waits here, and so does a function waiting for a secret it
    asked during its work (`askback.pagestep`)."""
    end = anyio.current_time() + bound
    while True:
        left = end - anyio.current_time()
        if left <= 0:
            return False
        await anyio.sleep(min(poll, left))
        if await finished():
            return True
        if gone is not None and await gone():
            return False
