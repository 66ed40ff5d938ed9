"""SQLite store: the embedded default. Several local worker processes share one file safely."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import anyio.to_thread

from askback.stores.base import Claim, Clock, StoreConfigError

# `claimant` of a run of a single-use flow: 'c:<claimant>' while held and not started, 's:<claimant>' once
# started; NULL for a one-time mark (`claim`) and for records written before runs had claimants (both: taken).
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS used_flows (flow_id TEXT PRIMARY KEY, expires_at REAL NOT NULL, claimant TEXT)",
    "CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value BLOB NOT NULL, expires_at REAL NOT NULL)",
    # Lists that only grow (a receipt's entries): one row per value, in the order the rows were inserted, and
    # one row per list for when it expires (its latest append's), so an append never rewrites the list.
    "CREATE TABLE IF NOT EXISTS lists (seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, "
    "value BLOB NOT NULL)",
    "CREATE INDEX IF NOT EXISTS lists_by_key ON lists (key, seq)",
    "CREATE TABLE IF NOT EXISTS list_expiry (key TEXT PRIMARY KEY, expires_at REAL NOT NULL)",
)


class SQLiteStore:
    def __init__(self, path: Path, *, clock: Clock = time.time) -> None:
        self.path = path
        self._clock = clock
        self._lock = threading.Lock()
        self._opening = threading.Lock()  # the first calls arrive together, each in its own worker thread
        self._conn: sqlite3.Connection | None = None
        self._identity: str | None = None
        self._claims = 0

    @property
    def identity(self) -> str:
        if self._identity is None:
            self.open_now()  # a host that never called `open` (an embedding) still gets a working store
        assert self._identity is not None
        return self._identity

    def open_now(self) -> None:
        """Open the file (creating it), or raise `StoreConfigError` saying what is wrong with the path.

        Once: concurrent first calls (a burst of claims on a store nobody opened) wait for the one that opens;
        several connections switching a new file to WAL at once fail with "database is locked".
        """
        if self._conn is not None:
            return
        with self._opening:
            if self._conn is None:
                self._open_now()

    def _open_now(self) -> None:
        conn = _open(self.path)
        try:
            # The first process to create the contents names them; every later one reads that name.
            conn.execute(
                "INSERT OR IGNORE INTO store_meta (key, value) VALUES ('identity', ?)", ("sql-" + os.urandom(6).hex(),)
            )
            row = conn.execute("SELECT value FROM store_meta WHERE key = 'identity'").fetchone()
        except sqlite3.Error as exc:
            conn.close()
            raise StoreConfigError(f"SQLite store {self.path}: {_open_error(exc, self.path)}") from None
        self._conn, self._identity = conn, str(row[0])

    async def open(self) -> None:
        self.open_now()

    def _claim(self, flow_id: str, expires_at: float) -> bool:
        now = self._clock()
        if self._conn is None:
            self.open_now()
        with self._lock:
            assert self._conn is not None
            self._claims += 1
            if self._claims % 256 == 0:
                self._conn.execute("DELETE FROM used_flows WHERE expires_at < ?", (now,))
                self._conn.execute("DELETE FROM entries WHERE expires_at < ?", (now,))
                self._conn.execute("DELETE FROM lists WHERE key IN (SELECT key FROM list_expiry WHERE expires_at < ?)",
                                   (now,))
                self._conn.execute("DELETE FROM list_expiry WHERE expires_at < ?", (now,))
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

    async def claim_run(self, flow_id: str, claimant: str, expires_at: float, started_under: str) -> Claim:
        if started_under != self.identity:
            return Claim.STORE_CHANGED
        # One statement: a free (or expired) flow, or one held by a claimant whose run never started, is taken.
        rows = await anyio.to_thread.run_sync(
            self._run,
            "INSERT INTO used_flows (flow_id, expires_at, claimant) VALUES (?, ?, 'c:' || ?) "
            "ON CONFLICT(flow_id) DO UPDATE SET expires_at = excluded.expires_at, claimant = excluded.claimant "
            "WHERE used_flows.expires_at < ? OR used_flows.claimant LIKE 'c:%' RETURNING 1",
            (flow_id, expires_at, claimant, self._clock()),
        )
        return Claim.HELD if rows else Claim.STARTED

    async def start_run(self, flow_id: str, claimant: str, expires_at: float) -> bool:
        rows = await anyio.to_thread.run_sync(
            self._run,
            "UPDATE used_flows SET claimant = 's:' || ?, expires_at = ? "
            "WHERE flow_id = ? AND claimant IN ('c:' || ?, 's:' || ?) AND expires_at >= ? RETURNING 1",
            (claimant, expires_at, flow_id, claimant, claimant, self._clock()),
        )
        return bool(rows)

    def _run(self, sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        if self._conn is None:
            self.open_now()
        with self._lock:
            assert self._conn is not None
            return self._conn.execute(sql, args).fetchall()

    async def put(self, key: str, value: bytes, expires_at: float) -> None:
        await anyio.to_thread.run_sync(
            self._run,
            "INSERT INTO entries (key, value, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at",
            (key, value, expires_at),
        )

    async def get(self, key: str) -> bytes | None:
        rows = await anyio.to_thread.run_sync(
            self._run, "SELECT value FROM entries WHERE key = ? AND expires_at >= ?", (key, self._clock())
        )
        return bytes(rows[0][0]) if rows else None

    async def take(self, key: str) -> bytes | None:
        # One statement deletes and returns: of two processes taking at once, one gets the row.
        rows = await anyio.to_thread.run_sync(
            self._run, "DELETE FROM entries WHERE key = ? RETURNING value, expires_at", (key,)
        )
        if not rows or float(rows[0][1]) < self._clock():
            return None
        return bytes(rows[0][0])

    async def append(self, key: str, value: bytes, expires_at: float) -> None:
        await anyio.to_thread.run_sync(self._append, key, value, expires_at)

    def _append(self, key: str, value: bytes, expires_at: float) -> None:
        """The value and the list's expiry in one transaction: a list that had expired starts afresh."""
        if self._conn is None:
            self.open_now()
        with self._lock:
            assert self._conn is not None
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute("DELETE FROM lists WHERE key = ? AND EXISTS (SELECT 1 FROM list_expiry "
                                   "WHERE list_expiry.key = ? AND expires_at < ?)", (key, key, self._clock()))
                self._conn.execute("INSERT INTO lists (key, value) VALUES (?, ?)", (key, value))
                self._conn.execute(
                    "INSERT INTO list_expiry (key, expires_at) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET "
                    "expires_at = max(list_expiry.expires_at, excluded.expires_at)", (key, expires_at))
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    async def appended(self, key: str) -> list[bytes]:
        rows = await anyio.to_thread.run_sync(
            self._run, "SELECT value FROM lists WHERE key = ? AND EXISTS (SELECT 1 FROM list_expiry WHERE "
            "list_expiry.key = ? AND expires_at >= ?) ORDER BY seq", (key, key, self._clock()))
        return [bytes(row[0]) for row in rows]

    async def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _open(path: Path) -> sqlite3.Connection:
    """Open the store, proving at once that it is an SQLite file askback can write (a `StoreConfigError` else)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
        reason = f"{blocker} is a file, not a directory" if blocker else (exc.strerror or str(exc)).lower()
        raise StoreConfigError(f"SQLite store {path}: cannot create its directory ({reason})") from None
    deadline = time.monotonic() + 10
    while True:
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(path, timeout=10, check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            for statement in _SCHEMA:
                conn.execute(statement)
            _add_claimant(conn)
            # A write now: a read-only file opens and reads fine, and would only fail at the first claim.
            conn.execute("DELETE FROM used_flows WHERE expires_at < ?", (time.time(),))
            return conn
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            # Worker processes starting together on a new file: switching it to WAL takes a lock that SQLite
            # does not wait for, so "database is locked" can come at once. Try again, for as long as a claim waits.
            if "locked" in str(exc) and time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            raise StoreConfigError(f"SQLite store {path}: {_open_error(exc, path)}") from None


def _add_claimant(conn: sqlite3.Connection) -> None:
    """A file from before runs had claimants gets the column; its rows (NULL) read as runs that started."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(used_flows)")}
    if "claimant" not in columns:
        try:
            conn.execute("ALTER TABLE used_flows ADD COLUMN claimant TEXT")
        except sqlite3.OperationalError as exc:  # another process opening the same file added it first
            if "duplicate column" not in str(exc):
                raise


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


SQLiteUsedFlows = SQLiteStore
