"""Where askback keeps the little it must remember between requests: used single-use flow ids.

Backends: `memory://` (one process, for tests), `sqlite:///path` (the embedded default, shared by local
workers). Each is a `UsedFlows`.
"""

from __future__ import annotations

from pathlib import Path

from askback.stores.base import StoreConfigError, UsedFlows
from askback.stores.memory import MemoryUsedFlows
from askback.stores.sqlite import SQLiteUsedFlows

__all__ = ["MemoryUsedFlows", "SQLiteUsedFlows", "StoreConfigError", "UsedFlows", "open_store"]


def open_store(url: str, *, data_dir: Path) -> UsedFlows:
    """Open the store named by `url` (`ASKBACK_STORE`); an empty url means SQLite in `data_dir`."""
    if not url:
        return SQLiteUsedFlows(data_dir / "askback.sqlite3")
    if url == "memory://":
        return MemoryUsedFlows()
    if url.startswith("sqlite:///"):
        return SQLiteUsedFlows(Path(url.removeprefix("sqlite:///")))
    if url.startswith("sqlite://"):
        raise StoreConfigError("a SQLite store URL is sqlite:///path/to/file (three slashes)")
    scheme = url.split(":", 1)[0]
    raise StoreConfigError(f"unknown store {scheme!r}: use memory:// or sqlite:///path")
