"""In-process store: for tests and single-process servers that need no persistence."""

from __future__ import annotations

import time


class MemoryUsedFlows:
    def __init__(self) -> None:
        self._used: dict[str, float] = {}
        self._claims = 0

    async def claim(self, flow_id: str, expires_at: float) -> bool:
        now = time.time()
        self._claims += 1
        if self._claims % 1024 == 0:
            self._used = {k: v for k, v in self._used.items() if v > now}
        if flow_id in self._used and self._used[flow_id] > now:
            return False
        self._used[flow_id] = expires_at
        return True

    async def close(self) -> None:
        self._used.clear()
