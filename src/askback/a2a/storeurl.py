"""Which database keeps A2A tasks, read from `ASKBACK_A2A_TASKS` without importing the A2A SDK.

`askback serve` reads it at start-up, so a mistyped URL stops the server with one line, although the A2A agent
itself is only built on first need.
"""

from __future__ import annotations

from pathlib import Path

TASKS_ENV = "ASKBACK_A2A_TASKS"
STORE = "store://"  # askback's own store (`ASKBACK_STORE`), chosen explicitly


class TaskStoreConfigError(ValueError):
    """`ASKBACK_A2A_TASKS` names no store askback can open."""


def database_url(url: str | None, data_dir: Path) -> str:
    """The SQLAlchemy async URL for a configured value (None: SQLite in the data dir); `store://` is askback's
    own store. It is not the default yet: while that store is unreachable an A2A request fails with an internal
    error instead of the retryable answer the SDK's SQLite store lets askback give."""
    if not url:
        return f"sqlite+aiosqlite:///{data_dir / 'a2a-tasks.db'}"
    if url == STORE:
        return STORE
    if url == "memory://":
        return url
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise TaskStoreConfigError(f"{TASKS_ENV} must be a URL (sqlite:///path, postgresql://…), not {url!r}")
    if scheme in ("sqlite", "sqlite+aiosqlite"):
        return f"sqlite+aiosqlite://{rest}"
    if scheme in ("postgresql", "postgres", "postgresql+asyncpg"):
        return f"postgresql+asyncpg://{rest}"
    raise TaskStoreConfigError(f"{TASKS_ENV}: unsupported scheme {scheme!r} (store, sqlite, postgresql or memory)")
