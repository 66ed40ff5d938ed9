"""SQLite store: the embedded default. Several local worker processes share one file safely."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import anyio.to_thread

_SCHEMA = "CREATE TABLE IF NOT EXISTS used_flows (flow_id TEXT PRIMARY KEY, expires_at REAL NOT NULL)"


class SQLiteUsedFlows:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(path, timeout=10, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute(_SCHEMA)
        self._claims = 0

    def _claim(self, flow_id: str, expires_at: float) -> bool:
        now = time.time()
        with self._lock:
            self._claims += 1
            if self._claims % 256 == 0:
                self._conn.execute("DELETE FROM used_flows WHERE expires_at < ?", (now,))
            # One statement: the primary key makes exactly one concurrent writer win, across processes too.
            cur = self._conn.execute(
                "INSERT INTO used_flows (flow_id, expires_at) VALUES (?, ?) "
                "ON CONFLICT(flow_id) DO UPDATE SET expires_at = excluded.expires_at "
                "WHERE used_flows.expires_at < ?",
                (flow_id, expires_at, now),
            )
            return cur.rowcount == 1

    async def claim(self, flow_id: str, expires_at: float) -> bool:
        return await anyio.to_thread.run_sync(self._claim, flow_id, expires_at)

    async def close(self) -> None:
        with self._lock:
            self._conn.close()
