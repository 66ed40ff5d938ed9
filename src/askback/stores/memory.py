"""In-process store: for tests and single-process servers that need no persistence."""

from __future__ import annotations

import os
import time

from askback.stores.base import Clock


class MemoryStore:
    def __init__(self, *, clock: Clock = time.time) -> None:
        self._clock = clock
        self._used: dict[str, float] = {}
        self._entries: dict[str, tuple[bytes, float]] = {}
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

    async def close(self) -> None:
        self._used.clear()
        self._entries.clear()


MemoryUsedFlows = MemoryStore
