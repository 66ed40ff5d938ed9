"""In-process store: for tests and single-process servers that need no persistence."""

from __future__ import annotations

import os
import time

from askback.stores.base import Claim, Clock

HELD, STARTED = "c:", "s:"  # a run's record: held by a claimant (not started yet), or started by one


class MemoryStore:
    def __init__(self, *, clock: Clock = time.time) -> None:
        self._clock = clock
        self._used: dict[str, float] = {}
        self._entries: dict[str, tuple[bytes, float]] = {}
        self._lists: dict[str, tuple[list[bytes], float]] = {}
        self._runs: dict[str, tuple[str, float]] = {}  # flow id -> (HELD or STARTED + claimant, expires at)
        self._claims = 0
        # A new process has new, empty contents: a replay from before a restart must not look unused.
        self._identity = "mem-" + os.urandom(6).hex()

    @property
    def identity(self) -> str:
        return self._identity

    async def open(self) -> None:
        return None

    async def claim(self, flow_id: str, expires_at: float) -> bool:
        now = self._clock()
        self._claims += 1
        if self._claims % 1024 == 0:
            self._used = {k: v for k, v in self._used.items() if v > now}
        if flow_id in self._used and self._used[flow_id] > now:
            return False
        self._used[flow_id] = expires_at
        return True

    async def claim_run(self, flow_id: str, claimant: str, expires_at: float, started_under: str) -> Claim:
        if started_under != self._identity:
            return Claim.STORE_CHANGED
        now = self._clock()
        self._claims += 1
        if self._claims % 1024 == 0:
            self._runs = {k: v for k, v in self._runs.items() if v[1] > now}
        record = self._runs.get(flow_id)
        if record is not None and record[1] > now and not record[0].startswith(HELD):
            return Claim.STARTED
        self._runs[flow_id] = (HELD + claimant, expires_at)
        return Claim.HELD

    async def start_run(self, flow_id: str, claimant: str, expires_at: float) -> bool:
        record = self._runs.get(flow_id)
        if record is None or record[1] <= self._clock() or record[0] not in (HELD + claimant, STARTED + claimant):
            return False
        self._runs[flow_id] = (STARTED + claimant, expires_at)
        return True

    async def put(self, key: str, value: bytes, expires_at: float) -> None:
        self._entries[key] = (value, expires_at)

    async def get(self, key: str) -> bytes | None:
        entry = self._entries.get(key)
        if entry is None or entry[1] < self._clock():
            return None
        return entry[0]

    async def take(self, key: str) -> bytes | None:
        entry = self._entries.pop(key, None)  # one step, so two takers cannot both have it
        if entry is None or entry[1] < self._clock():
            return None
        return entry[0]

    async def append(self, key: str, value: bytes, expires_at: float) -> None:
        items, until = self._lists.get(key, ([], 0.0))
        if until < self._clock():
            items = []
        self._lists[key] = ([*items, value], max(until, expires_at))

    async def appended(self, key: str) -> list[bytes]:
        items, until = self._lists.get(key, ([], 0.0))
        return list(items) if until >= self._clock() else []

    async def close(self) -> None:
        self._lists.clear()
        self._used.clear()
        self._entries.clear()
        self._runs.clear()


MemoryUsedFlows = MemoryStore
