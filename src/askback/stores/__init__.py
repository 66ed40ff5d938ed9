"""Where askback keeps the little it must remember between requests.

A store URL (`ASKBACK_STORE`) names a backend by its scheme: `memory://` (one process, for tests),
`sqlite:///path` (the embedded default, shared by local workers) or `redis://host:port/db` (`rediss://` with
TLS: shared by replicas on several machines; `redis+sentinel://…` and `redis+cluster://…` for a Sentinel-managed
primary and a Redis Cluster). Empty means SQLite in the data directory.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from askback._lazy import lazy_names
from askback.stores.base import Clock, Store, StoreConfigError, UsedFlows
from askback.stores.memory import MemoryStore, MemoryUsedFlows

if TYPE_CHECKING:
    from askback.stores.sqlite import SQLiteStore, SQLiteUsedFlows

# Loaded on first use: a server on another backend never imports sqlite3.
_LAZY = {"SQLiteStore": "askback.stores.sqlite", "SQLiteUsedFlows": "askback.stores.sqlite"}


__getattr__ = lazy_names(__name__, _LAZY)


__all__ = [
    "MemoryStore",
    "MemoryUsedFlows",
    "SQLiteStore",
    "SQLiteUsedFlows",
    "Store",
    "StoreConfigError",
    "UsedFlows",
    "open_store",
]


def _memory(url: str, data_dir: Path, clock: Clock, app: str) -> Store:
    if url != "memory://":
        raise StoreConfigError("a memory store URL is exactly memory://")
    return MemoryStore(clock=clock)


def _sqlite(url: str, data_dir: Path, clock: Clock, app: str) -> Store:
    if not url.startswith("sqlite:///"):
        raise StoreConfigError("a SQLite store URL is sqlite:///path/to/file (three slashes)")
    from askback.stores.sqlite import SQLiteStore

    return SQLiteStore(Path(url.removeprefix("sqlite:///")), clock=clock)


def _redis(url: str, data_dir: Path, clock: Clock, app: str) -> Store:
    try:
        from askback.stores.redis import RedisStore  # the `redis` package is only needed by who uses it
    except ImportError:
        raise StoreConfigError("a Redis store needs the redis package: pip install 'askback[redis]'") from None
    return RedisStore(url, app=app, clock=clock)


# scheme -> how to build the store it names (url, data directory, clock, the app's name); a backend is one entry.
SCHEMES: dict[str, Callable[[str, Path, Clock, str], Store]] = {
    "memory": _memory,
    "sqlite": _sqlite,
    "redis": _redis,
    "rediss": _redis,
    "redis+sentinel": _redis,
    "rediss+sentinel": _redis,
    "redis+cluster": _redis,
    "rediss+cluster": _redis,
}


def open_store(url: str, *, data_dir: Path, clock: Clock = time.time, app: str = "") -> Store:
    """The store named by `url` (not yet opened: `await store.open()` at start-up); `app` namespaces its keys."""
    if not url:
        from askback.stores.sqlite import SQLiteStore

        return SQLiteStore(data_dir / "askback.sqlite3", clock=clock)
    scheme = url.split(":", 1)[0] if ":" in url else ""
    build = SCHEMES.get(scheme)
    if build is None:
        known = ", ".join(f"{s}://" for s in SCHEMES)
        raise StoreConfigError(f"unknown store {scheme or url!r}: use one of {known}")
    return build(url, data_dir, clock, app)
