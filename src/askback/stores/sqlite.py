"""SQLite store: the embedded default. Several local worker processes share one file safely."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import anyio.to_thread

from askback.stores.base import StoreConfigError

_SCHEMA = "CREATE TABLE IF NOT EXISTS used_flows (flow_id TEXT PRIMARY KEY, expires_at REAL NOT NULL)"


class SQLiteUsedFlows:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn = _open(path)
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


def _open(path: Path) -> sqlite3.Connection:
    """Open the store, proving at once that it is an SQLite file askback can write (a `StoreConfigError` else)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
        reason = f"{blocker} is a file, not a directory" if blocker else (exc.strerror or str(exc)).lower()
        raise StoreConfigError(f"SQLite store {path}: cannot create its directory ({reason})") from None
    conn: sqlite3.Connection | None = None
    try:
        conn = sqlite3.connect(path, timeout=10, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(_SCHEMA)
        # A write now: a read-only file opens and reads fine, and would only fail at the first claim.
        conn.execute("DELETE FROM used_flows WHERE expires_at < ?", (time.time(),))
    except sqlite3.Error as exc:
        if conn is not None:
            conn.close()
        raise StoreConfigError(f"SQLite store {path}: {_open_error(exc, path)}") from None
    return conn


def _open_error(exc: sqlite3.Error, path: Path) -> str:
    name = getattr(exc, "sqlite_errorname", "")
    if name == "SQLITE_NOTADB":
        return "the file is not an SQLite database (point ASKBACK_STORE at another file)"
    if name.startswith("SQLITE_READONLY"):
        return "the file is read-only: the store must be writable"
    if path.is_dir():
        return "is a directory: name a file in it, e.g. sqlite:///" + str(path / "askback.sqlite3")
    if name == "SQLITE_CANTOPEN":
        return "cannot open it (is its directory writable?)"
    return str(exc)
