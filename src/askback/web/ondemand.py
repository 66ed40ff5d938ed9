"""A part of a server built on first need, off the event loop, and run inside the app's lifespan.

Importing the MCP SDK's server stack or the A2A SDK costs most of a server's start-up. The parts that need them
are built the first time a request needs them, and only then, so a server listens, and answers what needs neither,
before they are loaded (a server whose clients never need them never loads them).

One build per process: it runs in a worker thread, under the lock all SDK imports share, so two first requests
at once build it once and both wait for it. A build that fails is logged once, with its traceback, and every
request that needs the part is then told, without a traceback, that it is unavailable; the worker keeps serving
everything else. A part with a running context (the SDK's session managers, the A2A task store) enters it in a
task of the lifespan's own task group and leaves it, in that same task, when the lifespan ends.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import anyio
import anyio.abc
import anyio.to_thread

logger = logging.getLogger("askback.serve")
T = TypeVar("T")

# Every import of the SDKs off the event loop holds this lock, so they happen one thread at a time: `mcp` imports
# itself circularly, and two threads importing it at once can each find the other's modules half-initialised
# (an ImportError, or a deadlock Python breaks by handing out a partial module).
SDK_IMPORTS = threading.RLock()


class Unavailable(Exception):
    """The part could not be built or started; the reason was logged once, when it failed."""


@dataclass
class _Run:
    """One run of the lifespan: where the part's running context lives, and whether it has started."""

    tasks: anyio.abc.TaskGroup
    stop: anyio.Event = field(default_factory=anyio.Event)
    ready: anyio.Event = field(default_factory=anyio.Event)
    starting: bool = False
    value: object = None
    failure: str | None = None


class OnDemand(Generic[T]):
    """`build()` once, on first need; `running(value)` entered for each run of the app's lifespan."""

    def __init__(
        self,
        what: str,
        build: Callable[[], T],
        running: Callable[[T], AbstractAsyncContextManager[object]] | None = None,
    ) -> None:
        self.what = what
        self._build = build
        self._running = running
        self._built: T | None = None
        self._failure: str | None = None
        self._run: _Run | None = None

    @property
    def built(self) -> T | None:
        """The part, if it has been built (and whether or not it is running yet)."""
        return self._built

    @contextlib.asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        """Enter from the app's lifespan: the part can be started from here until it ends."""
        async with anyio.create_task_group() as tasks:
            run = self._run = _Run(tasks)
            try:
                yield
            finally:
                self._run = None
                run.stop.set()  # a running context leaves in its own task; a build in flight finishes first

    def warm(self) -> None:
        """Start building now, in a task of the lifespan (a no-op outside the lifespan or once started)."""
        run = self._run
        if run is not None and not run.starting:
            run.starting = True
            run.tasks.start_soon(self._start, run)

    async def get(self) -> T:
        """The running part; waits while it is being built. `Unavailable` if it cannot be had."""
        run = self._run
        if run is None:
            raise Unavailable(f"{self.what} is not available: the app's lifespan is not running")
        self.warm()
        await run.ready.wait()
        if run.failure is not None:
            raise Unavailable(run.failure)
        return run.value  # type: ignore[return-value]  # set with `ready`, to the built part

    async def _start(self, run: _Run) -> None:
        try:
            value = await anyio.to_thread.run_sync(self._build_once)
            if run.stop.is_set():
                run.failure = f"{self.what} is not available: the server is shutting down"
                return
            if self._running is not None:
                await run.tasks.start(self._serve, run, value)
            run.value = value
        except Unavailable as exc:
            run.failure = str(exc)
        except Exception as exc:  # the running context would not start (a store that cannot be opened, ...)
            logger.error("%s could not start: %s", self.what, exc, exc_info=True)
            run.failure = f"{self.what} could not start; the server log says why"
        finally:
            run.ready.set()

    async def _serve(self, run: _Run, value: T, *, task_status: anyio.abc.TaskStatus[None]) -> None:
        assert self._running is not None
        async with self._running(value):
            task_status.started()
            await run.stop.wait()

    def _build_once(self) -> T:
        """Blocking, in a worker thread: the part, built by the first caller; a failure is logged once."""
        with SDK_IMPORTS:
            if self._built is None and self._failure is None:
                try:
                    self._built = self._build()
                except Exception as exc:
                    logger.error("%s could not be built: %s", self.what, exc, exc_info=True)
                    self._failure = f"{self.what} could not be loaded; the server log says why"
            if self._failure is not None:
                raise Unavailable(self._failure)
            assert self._built is not None
            return self._built
