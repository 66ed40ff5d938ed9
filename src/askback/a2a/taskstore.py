"""A2A tasks kept in askback's own `Store`: the same memory, SQLite file or Redis the MCP side uses.

`StoreTaskStore` is a2a-sdk's `VersionedTaskStore` over the `Store`'s few atomic operations, and
`StoreEventStream` its `TaskEventStream`, so replicas sharing one Redis serve one task (a client subscribed on
one replica sees the events another replica's run produces). Nothing here imports SQLAlchemy.

Keys (the store namespaces them per app; an owner appears only as a hash, so a key names no principal):

- `a2at:<owner>:<task id>` — `<version>:` then the task, serialised by protobuf. Read under the caller's
  owner only: to another owner the task does not exist, as in the SDK's own stores.
- `a2at-v:<task id>:<n>` (`Store.claim`) — version `n` was written. Every write claims the version after the
  one it read, so of two writers that read the same version exactly one wins; the other gets
  `ConcurrentTaskModificationError`, as from the SDK's versioned database store.
- `a2at-e:<task id>:<n>` — the event that produced version `n` (a `StreamResponse`), or empty for a write
  without one. Written before the task, so a subscriber that sees version `n` finds every event up to it.
- `a2at-ix:<owner>:<n>` (claim) and `a2at-ixid:<owner>:<n>` — slot `n` of the owner's task list;
  `a2at-ixn:<owner>` the next slot to try, `a2at-ixlo:<owner>` the first slot still worth reading.

A task lasts `ttl` seconds after its last write; its events and version claims as long.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
from collections.abc import AsyncGenerator, Callable

from a2a.server.cluster import (
    ConcurrentTaskModificationError,
    StoredTask,
    TaskEventStream,
    TaskVersion,
    VersionedEvent,
    VersionedTaskStore,
)
from a2a.server.context import ServerCallContext
from a2a.server.events.event_queue import Event
from a2a.server.owner_resolver import OwnerResolver, resolve_user_scope
from a2a.types import a2a_pb2 as pb
from a2a.utils.constants import DEFAULT_LIST_TASKS_PAGE_SIZE
from a2a.utils.errors import InvalidParamsError
from a2a.utils.proto_utils import to_stream_response
from a2a.utils.task import ListTasksCursor, decode_list_tasks_cursor, encode_list_tasks_cursor

from askback.stores.base import Clock, Store

_TERMINAL = frozenset({pb.TASK_STATE_COMPLETED, pb.TASK_STATE_CANCELED, pb.TASK_STATE_FAILED, pb.TASK_STATE_REJECTED})
_MAX_SLOTS = 10_000  # bounded: how far one first write looks for a free slot of its owner's list
_TAIL = 8  # slots read past the hint before a list stops: writers that raced the hint's update


def version_number(version: TaskVersion) -> int:
    """The counter a version of this store wraps.

    `TaskVersion` hashes by the value it wraps, and Python hashes a non-negative int below 2**61 - 1 to itself;
    the equality check refuses a version some other store made.
    """
    if version.is_missing:
        return 0
    number = hash(version)
    if number <= 0 or TaskVersion(number) != version:
        raise TypeError(f"{version!r} is not a version of askback's task store")
    return number


@functools.lru_cache(maxsize=4096)  # every read and write hashes its owner: the same few principals
def owner_key(owner: str) -> str:
    return hashlib.sha256(owner.encode()).hexdigest()[:32]


def _sort_key(task: pb.Task) -> tuple[bool, int, str]:
    """ListTasks order, as the SDK's stores have it: (has a timestamp, timestamp, id), descending."""
    stamped = task.HasField("status") and task.status.HasField("timestamp")
    return stamped, task.status.timestamp.ToNanoseconds() if stamped else 0, task.id


def event_of(response: pb.StreamResponse) -> Event:
    which = response.WhichOneof("payload")
    if which is None:
        raise ValueError("a stored event with no payload")
    event: Event = getattr(response, which)
    return event


class StoreTaskStore(VersionedTaskStore):
    """a2a-sdk's versioned task store over askback's `Store` (opened and closed by the app, not here)."""

    def __init__(self, store: Callable[[], Store], clock: Clock, ttl: float,
                 owner_resolver: OwnerResolver = resolve_user_scope) -> None:
        self._store = store  # resolved on each use: the app opens its store at start-up, after this is built
        self._clock = clock
        self._ttl = ttl
        self.owner_resolver = owner_resolver

    async def save(self, task: pb.Task, *, event: Event | None = None, prev: pb.Task | None = None,
                   prev_version: TaskVersion, context: ServerCallContext) -> TaskVersion:
        del prev
        owner = owner_key(self.owner_resolver(context))
        store = self._store()
        until = self._clock() + self._ttl
        if task.status.state == pb.TASK_STATE_CANCELED:
            number = await self._cancel_version(store, task.id, owner, until)
        else:
            number = version_number(prev_version) + 1
            if not await store.claim(f"a2at-v:{task.id}:{number}", until):
                raise ConcurrentTaskModificationError(task.id)
            if number == 1:
                await self._list_add(store, owner, task.id, until)
        data = to_stream_response(event).SerializeToString() if event is not None else b""
        await store.put(f"a2at-e:{task.id}:{number}", data, until)
        await store.put(f"a2at:{owner}:{task.id}", b"%d:" % number + task.SerializeToString(), until)
        return TaskVersion(number)

    async def _cancel_version(self, store: Store, task_id: str, owner: str, until: float) -> int:
        """A cancellation overwrites a task that has not ended, whatever version its writer read."""
        for _ in range(20):  # bounded: each lost claim is a write that landed meanwhile
            current = await self._read(store, owner, task_id)
            if current is None or current.task.status.state in _TERMINAL:
                raise ConcurrentTaskModificationError(task_id)
            number = version_number(current.version) + 1
            if await store.claim(f"a2at-v:{task_id}:{number}", until):
                return number
            await asyncio.sleep(0.01)
        raise ConcurrentTaskModificationError(task_id)

    async def get(self, task_id: str, context: ServerCallContext) -> StoredTask | None:
        return await self._read(self._store(), owner_key(self.owner_resolver(context)), task_id)

    async def _read(self, store: Store, owner: str, task_id: str) -> StoredTask | None:
        raw = await store.get(f"a2at:{owner}:{task_id}")
        if raw is None:
            return None
        number, _, body = raw.partition(b":")
        task = pb.Task()
        task.ParseFromString(body)
        return StoredTask(task, TaskVersion(int(number)))

    async def delete(self, task_id: str, context: ServerCallContext) -> None:
        await self._store().take(f"a2at:{owner_key(self.owner_resolver(context))}:{task_id}")

    # -- the owner's list -----------------------------------------------------------------------------------
    async def _list_add(self, store: Store, owner: str, task_id: str, until: float) -> None:
        raw = await store.get(f"a2at-ixn:{owner}")
        slot = int(raw) if raw else 0
        for _ in range(_MAX_SLOTS):
            if await store.claim(f"a2at-ix:{owner}:{slot}", until):
                break
            slot += 1
        else:
            return  # the list misses this task; it is still found by its id
        await store.put(f"a2at-ixid:{owner}:{slot}", task_id.encode(), until)
        await store.put(f"a2at-ixn:{owner}", str(slot + 1).encode(), until)

    async def _owner_tasks(self, store: Store, owner: str) -> list[pb.Task]:
        raw_next, raw_low = await store.get(f"a2at-ixn:{owner}"), await store.get(f"a2at-ixlo:{owner}")
        end, low = int(raw_next or 0), int(raw_low or 0)
        tasks: list[pb.Task] = []
        first_live: int | None = None
        slot, misses = low, 0
        while slot < end or misses < _TAIL:
            raw_id = await store.get(f"a2at-ixid:{owner}:{slot}")
            stored = await self._read(store, owner, raw_id.decode()) if raw_id else None
            if stored is not None:
                tasks.append(stored.task)
                first_live = slot if first_live is None else first_live
                misses = 0
            elif slot >= end:
                misses += 1
            slot += 1
        if first_live is not None and first_live > low:  # slots of tasks gone for good are not read again
            await store.put(f"a2at-ixlo:{owner}", str(first_live).encode(), self._clock() + self._ttl)
        return tasks

    async def list(self, params: pb.ListTasksRequest, context: ServerCallContext) -> pb.ListTasksResponse:
        tasks = await self._owner_tasks(self._store(), owner_key(self.owner_resolver(context)))
        if params.context_id:
            tasks = [t for t in tasks if t.context_id == params.context_id]
        if params.status:
            tasks = [t for t in tasks if t.status.state == params.status]
        if params.HasField("status_timestamp_after"):
            after_ns = params.status_timestamp_after.ToNanoseconds()
            tasks = [t for t in tasks if t.status.HasField("timestamp")
                     and t.status.timestamp.ToNanoseconds() >= after_ns]
        tasks.sort(key=_sort_key, reverse=True)
        start = 0
        if params.page_token:
            cursor = decode_list_tasks_cursor(params.page_token)
            if cursor is None:
                raise InvalidParamsError(f"Invalid page token: {params.page_token}")
            after = cursor.sort_key()
            start = next((i for i, t in enumerate(tasks) if _sort_key(t) < after), len(tasks))
        size = params.page_size or DEFAULT_LIST_TASKS_PAGE_SIZE
        end = start + size
        token = None
        if end < len(tasks):
            stamped, stamp, last_id = _sort_key(tasks[end - 1])
            token = encode_list_tasks_cursor(ListTasksCursor(timestamp_ns=stamp if stamped else None,
                                                             task_id=last_id))
        return pb.ListTasksResponse(next_page_token=token, tasks=tasks[start:end], total_size=len(tasks),
                                    page_size=size)


class StoreEventStream(TaskEventStream):
    """Events of a task for a subscriber on a replica that does not run it: read from the store by version.

    The task store writes each version's event before the task itself, so `publish` has nothing to add; a
    subscriber reads version after version, waiting `poll_seconds` for the next one to be written.
    """

    def __init__(self, store: Callable[[], Store], poll_seconds: float = 0.2) -> None:
        self._store = store
        self._poll = poll_seconds

    async def publish(self, task_id: str, event: VersionedEvent) -> None:
        del task_id, event

    async def subscribe(
        self, task_id: str, *, after: TaskVersion
    ) -> AsyncGenerator[VersionedEvent, None]:
        number = version_number(after) + 1
        while True:
            raw = await self._store().get(f"a2at-e:{task_id}:{number}")
            if raw is None:
                await asyncio.sleep(self._poll)
                continue
            if raw:
                response = pb.StreamResponse()
                response.ParseFromString(raw)
                yield VersionedEvent(event=event_of(response), version=TaskVersion(number))
            number += 1

    async def destroy(self, task_id: str) -> None:
        del task_id  # the events expire with the task; a subscriber stops at the terminal event


def open_store_tasks(store: Callable[[], Store], clock: Clock, ttl: float,
                     owner: Callable[[ServerCallContext], str]) -> tuple[StoreTaskStore, StoreEventStream]:
    return StoreTaskStore(store, clock, ttl, owner_resolver=owner), StoreEventStream(store)


__all__ = ["StoreEventStream", "StoreTaskStore", "open_store_tasks", "version_number"]
