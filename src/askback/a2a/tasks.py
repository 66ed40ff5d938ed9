"""Where A2A tasks are kept: the SDK's database store on SQLite in the data dir, unless configured.

`ASKBACK_A2A_TASKS` (or `App`-independent `tasks_url=`) picks the store:

- `store://`: the app's `Store` (`ASKBACK_STORE`: memory, the SQLite file in the data dir, or Redis),
  through `askback.a2a.taskstore`, so both wires share one store and replicas one Redis; no SQLAlchemy;
- unset: the SDK's database store on `a2a-tasks.db` in the data dir;
- `sqlite:///path` or `sqlite+aiosqlite:///path`: the SDK's database store on that SQLite file;
- `postgresql://…` or `postgresql+asyncpg://…`: PostgreSQL with the SDK's versioned store (compare-and-swap
  on every write) and its database event stream, so several replicas serve one task;
- `memory://`: the SDK's in-memory store, in this process only (tests).

Every store is owner-scoped: a task is only found by the principal that started it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2a.server.context import ServerCallContext

from askback.a2a.storeurl import STORE, TASKS_ENV, TaskStoreConfigError, database_url
from askback.stores.base import Clock, Store

__all__ = ["TASKS_ENV", "TaskStoreConfigError", "TaskStoreSetup", "database_url", "open_task_store"]


@dataclass
class TaskStoreSetup:
    store: Any  # TaskStore | VersionedTaskStore
    event_stream: Any = None  # TaskEventStream for replicas, or None
    engine: Any = None  # the SQLAlchemy engine to dispose of at shutdown
    url: str = "memory://"

    async def open(self) -> None:
        """Create the tables if needed. Several workers start at once: one that loses the race to create a
        table sees it exist on its second look."""
        for attempt in range(3):
            try:
                initialize = getattr(self.store, "initialize", None)
                if initialize is not None:
                    await initialize()
                initialize = getattr(self.event_stream, "initialize", None)
                if initialize is not None:
                    await initialize()
                return
            except Exception as exc:  # sqlalchemy's OperationalError / IntegrityError, by driver
                if attempt == 2 or "exist" not in str(exc).lower():
                    raise
                await asyncio.sleep(0.1 * (attempt + 1))

    async def close(self) -> None:
        if self.event_stream is not None:
            close = getattr(self.event_stream, "aclose", None) or getattr(self.event_stream, "close", None)
            if close is not None:
                await close()
        if self.engine is not None:
            await self.engine.dispose()


def open_task_store(
    url: str | None, data_dir: Path, owner: Callable[[ServerCallContext], str], *,
    store: Callable[[], Store] | None = None, clock: Clock | None = None, ttl: float = 3600.0,
) -> TaskStoreSetup:
    """The task store for `url` (default: `ASKBACK_A2A_TASKS`, else askback's `store`, opened by the app)."""
    url = database_url(url if url is not None else os.environ.get(TASKS_ENV) or None, data_dir)
    if url == STORE:
        if store is None or clock is None:
            raise TaskStoreConfigError(f"{TASKS_ENV}={STORE} needs the app's store")
        from askback.a2a.taskstore import open_store_tasks

        tasks, stream = open_store_tasks(store, clock, ttl, owner)
        return TaskStoreSetup(tasks, stream, url=url)
    if url == "memory://":
        from a2a.server.tasks import InMemoryTaskStore

        return TaskStoreSetup(InMemoryTaskStore(owner_resolver=owner), url=url)
    from sqlalchemy.ext.asyncio import create_async_engine

    if url.startswith("sqlite"):
        from a2a.server.tasks import DatabaseTaskStore

        data_dir.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url)
        _sqlite_pragmas(engine)
        return TaskStoreSetup(DatabaseTaskStore(engine, owner_resolver=owner), engine=engine, url=url)
    from a2a.server.cluster import DatabaseTaskEventStream, VersionedDatabaseTaskStore

    engine = create_async_engine(url, pool_pre_ping=True)
    return TaskStoreSetup(VersionedDatabaseTaskStore(engine, owner_resolver=owner),
                          DatabaseTaskEventStream(engine, poll_interval_s=0.2), engine, url)


def _sqlite_pragmas(engine: Any) -> None:
    """WAL and `synchronous=NORMAL`: a message saves the task several times, and a full fsync per commit made
    each message ~40 ms; WAL keeps every commit durable against a crash of the process (not of the machine's
    power), and lets readers run beside the writer. `busy_timeout` lets several workers share the file."""
    from sqlalchemy import event

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()
