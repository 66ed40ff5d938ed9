"""What ends an A2A task when `CancelTask` races the message being executed: its function's outcome, or the
cancellation, whichever comes first, decided once.

The SDK calls the executor's `cancel` while a message for the task may still be executing. Whatever the
client is told, and `GetTask` reads afterwards, must say whether the function ran: a function that returned
before the cancellation reached it ends the task with its outcome (never `TASK_STATE_CANCELED`), and a task
cancelled first never runs its function afterwards. `InFlight` is the message executing here: the asyncio task
running it (so a cancellation that wins stops it at once, before the function can return) and the one decision;
`Endings` keeps them per task, and the decision for a while after the execution returned.

Across replicas (the SDK on replica B cancels a task whose message runs on replica A by writing CANCELED in the
shared task store), the same decision is taken in askback's shared store (`SharedEnd`): A claims it for the
outcome just before the function runs, B for the cancellation before the SDK writes anything; the loser
follows the winner (A does not run the function; B waits for A's outcome and answers it).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from askback.stores.base import Clock, Store

EndedBy = Literal["outcome", "cancel"]


@dataclass
class InFlight:
    job: asyncio.Task[Any] | None
    ended_by: EndedBy | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)  # the message's execution returned

    def end(self, by: EndedBy) -> bool:
        """Whether `by` ends the task: the first to ask decides, for good (no `await` in between)."""
        if self.ended_by is None:
            self.ended_by = by
        return self.ended_by == by

    def stop(self) -> None:
        """The cancellation won: stop the execution at its current `await`, so the function cannot finish."""
        if self.job is not None and self.job is not asyncio.current_task():
            self.job.cancel()

    async def finished(self, seconds: float) -> bool:
        """Wait (bounded) for the execution to return; whether it did."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.done.wait()), seconds)
        return self.done.is_set()


class Endings:
    """Per task: the message executing for it here, and, for a while, how it ended (by its function's outcome or
    by a cancellation). A cancellation can come before the message's execution starts, while it runs, or after
    it returned while the SDK still saves its events: each of these is decided here, once.
    """

    def __init__(self, kept: int = 1024) -> None:
        self._running: dict[str, InFlight] = {}
        # Bounded: a decision matters while the SDK is still saving a task's events, a matter of milliseconds.
        self._ended: OrderedDict[str, EndedBy] = OrderedDict()
        self._kept = kept

    def begin(self, task_id: str) -> InFlight | None:
        """A message's execution starts: its record, or None when a cancellation already ended the task."""
        if self._ended.get(task_id) == "cancel":
            return None
        inflight = self._running[task_id] = InFlight(asyncio.current_task())
        return inflight

    def finish(self, task_id: str, inflight: InFlight) -> None:
        inflight.done.set()
        if self._running.get(task_id) is inflight:
            del self._running[task_id]
        if inflight.ended_by is not None:
            self._remember(task_id, inflight.ended_by)

    def running(self, task_id: str) -> InFlight | None:
        return self._running.get(task_id)

    def ended_by(self, task_id: str) -> EndedBy | None:
        """What ended the task, as decided here so far (None: nothing yet, or too long ago to remember)."""
        inflight = self._running.get(task_id)
        if inflight is not None and inflight.ended_by is not None:
            return inflight.ended_by
        return self._ended.get(task_id)

    def outcome(self, task_id: str) -> bool:
        """The function's outcome is known (called before any `await`): whether it ends the task."""
        inflight = self._running.get(task_id)
        if inflight is None:
            return self._ended.get(task_id) != "cancel"
        return inflight.end("outcome")

    def cancel(self, task_id: str) -> bool:
        """A cancellation (called before any `await`): whether it ends the task. When it does, the execution
        running for the task is stopped, and one that has not started yet will not run."""
        ended = self._ended.get(task_id)
        if ended is not None:
            return ended == "cancel"
        inflight = self._running.get(task_id)
        if inflight is None:
            self._remember(task_id, "cancel")
            return True
        if not inflight.end("cancel"):
            return False
        inflight.stop()
        return True

    def _remember(self, task_id: str, by: EndedBy) -> None:
        self._ended[task_id] = by
        self._ended.move_to_end(task_id)
        while len(self._ended) > self._kept:
            self._ended.popitem(last=False)


class SharedEnd:
    """`Endings`' decision in the store every replica shares: claimed once per task, its winner recorded."""

    def __init__(self, store: Store, clock: Clock, ttl: float) -> None:
        self.store = store
        self.clock = clock
        self.ttl = ttl

    async def decide(self, task_id: str, by: EndedBy) -> EndedBy | None:
        """`by` when it wins; else what won, or None when the winner did not record it within a second (then
        the caller must act as if it lost: nothing runs, nothing is cancelled)."""
        until = self.clock() + self.ttl
        if await self.store.claim(f"a2a-end:{task_id}", until):
            await self.store.put(f"a2a-ended:{task_id}", by.encode(), until)
            return by
        for _ in range(50):  # bounded: the winner records it right after its claim
            raw = await self.store.get(f"a2a-ended:{task_id}")
            if raw in (b"outcome", b"cancel"):
                return cast(EndedBy, raw.decode())
            await asyncio.sleep(0.02)
        return None
