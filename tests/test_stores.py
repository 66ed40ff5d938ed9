"""Single-use flow ids: memory and SQLite stores, atomic across threads and processes."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from askback.stores import MemoryStore, MemoryUsedFlows, SQLiteStore, SQLiteUsedFlows, StoreConfigError, open_store
from tests.support import together


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_claim_once_then_refuse(kind: str, tmp_path: Path) -> None:
    store = MemoryUsedFlows() if kind == "memory" else SQLiteUsedFlows(tmp_path / "s.db")

    async def main() -> None:
        future = time.time() + 60
        assert await store.claim("flow-1", future)
        assert not await store.claim("flow-1", future)
        assert await store.claim("flow-2", future)
        # an entry past its deadline no longer blocks (the state it protected cannot open any more)
        assert await store.claim("old", time.time() - 1)
        assert await store.claim("old", future)
        await store.close()

    anyio.run(main)


def test_sqlite_survives_a_restart(tmp_path: Path) -> None:
    async def main() -> None:
        first = SQLiteUsedFlows(tmp_path / "s.db")
        assert await first.claim("f", time.time() + 60)
        await first.close()
        second = SQLiteUsedFlows(tmp_path / "s.db")
        assert not await second.claim("f", time.time() + 60)
        await second.close()

    anyio.run(main)


def _claim_in_process(path: str, flow_id: str, barrier: Any, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    store = SQLiteUsedFlows(Path(path))
    store.open_now()  # opening writes too: done before the parent takes the write lock
    barrier.wait(timeout=60)  # every process has opened
    barrier.wait(timeout=60)  # the parent holds the write lock now
    started = together.now()
    out.put(("started", os.getpid()))
    won = anyio.run(store.claim, flow_id, time.time() + 60)
    ended = together.now()
    anyio.run(store.close)
    out.put(("claimed", (won, together.Window(started, ended))))


def test_sqlite_claim_is_atomic_across_processes(tmp_path: Path) -> None:
    """Four processes claim one flow while the parent holds the file's write lock; it lets go once all four
    are inside their claim, so the claims contend for real, and their windows are checked to overlap."""
    ctx = multiprocessing.get_context("spawn")
    out: multiprocessing.Queue = ctx.Queue()  # type: ignore[type-arg]
    path = str(tmp_path / "shared.db")
    SQLiteUsedFlows(Path(path)).open_now()  # create the schema first
    processes = 4
    barrier = ctx.Barrier(processes + 1)
    procs = [ctx.Process(target=_claim_in_process, args=(path, "same-flow", barrier, out)) for _ in range(processes)]
    for p in procs:
        p.start()
    lock = sqlite3.connect(path, isolation_level=None, timeout=30)
    try:
        barrier.wait(timeout=60)
        lock.execute("BEGIN IMMEDIATE")  # the write lock: no claim can finish while it is held
        barrier.wait(timeout=60)
        started = [out.get(timeout=60) for _ in procs]
        assert [tag for tag, _ in started] == ["started"] * processes, started
    finally:
        if lock.in_transaction:
            lock.execute("ROLLBACK")
        lock.close()
    results = [out.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    assert sorted(won for _, (won, _) in results) == [False, False, False, True], results
    windows = [window for _, (_, window) in results]
    assert together.all_overlap(windows), together.overlap_message(windows)


def test_concurrent_claims_in_one_process(tmp_path: Path) -> None:
    store = SQLiteUsedFlows(tmp_path / "s.db")
    wins: list[bool] = []

    async def claim() -> None:
        wins.append(await store.claim("x", time.time() + 60))

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for _ in range(16):
                tg.start_soon(claim)

    anyio.run(main)
    assert wins.count(True) == 1


def test_a_burst_of_first_claims_opens_the_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sixteen claims on a store nobody opened, each in its own worker thread, open one connection."""
    import askback.stores.sqlite as sqlite_store

    opened: list[Path] = []
    real_open = sqlite_store._open

    def slow_open(path: Path) -> Any:
        opened.append(path)
        time.sleep(0.05)  # every thread reaches the check before the first has opened
        return real_open(path)

    monkeypatch.setattr(sqlite_store, "_open", slow_open)
    store = SQLiteUsedFlows(tmp_path / "s.db")
    wins: list[bool] = []

    async def claim() -> None:
        wins.append(await store.claim("x", time.time() + 60))

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for _ in range(16):
                tg.start_soon(claim)

    anyio.run(main)
    assert len(opened) == 1
    assert wins.count(True) == 1


def test_store_urls(tmp_path: Path) -> None:
    assert isinstance(open_store("memory://", data_dir=tmp_path), MemoryUsedFlows)
    s = open_store(f"sqlite:///{tmp_path}/x.db", data_dir=tmp_path)
    assert isinstance(s, SQLiteUsedFlows) and s.path == tmp_path / "x.db"
    d = open_store("", data_dir=tmp_path)
    assert isinstance(d, SQLiteUsedFlows) and d.path == tmp_path / "askback.sqlite3"
    with pytest.raises(StoreConfigError, match="three slashes"):
        open_store("sqlite://x.db", data_dir=tmp_path)
    with pytest.raises(StoreConfigError, match="unknown store"):
        open_store("mongo://x", data_dir=tmp_path)


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_put_get_take_and_expiry(kind: str, tmp_path: Path) -> None:
    now = [1000.0]
    store = MemoryStore(clock=lambda: now[0]) if kind == "memory" else SQLiteStore(tmp_path / "s.db",
                                                                                   clock=lambda: now[0])

    async def main() -> None:
        await store.open()
        await store.put("mark:f:x", b"done", 1060)
        assert await store.get("mark:f:x") == b"done"
        await store.put("mark:f:x", b"again", 1060)
        assert await store.get("mark:f:x") == b"again"
        await store.put("secret:f:x", b"\x00ciphertext", 1060)
        assert await store.take("secret:f:x") == b"\x00ciphertext"
        assert await store.take("secret:f:x") is None  # read once
        await store.put("ticket:t", b"r", 1010)
        now[0] = 1011.0
        assert await store.get("ticket:t") is None and await store.take("ticket:t") is None  # expired
        await store.close()

    anyio.run(main)


def test_identity_is_kept_by_the_file_and_new_for_new_contents(tmp_path: Path) -> None:
    async def main() -> None:
        first = SQLiteStore(tmp_path / "s.db")
        await first.open()
        again = SQLiteStore(tmp_path / "s.db")
        await again.open()
        assert first.identity == again.identity
        await first.close()
        await again.close()
        (tmp_path / "s.db").unlink()
        fresh = SQLiteStore(tmp_path / "s.db")
        await fresh.open()
        assert fresh.identity != first.identity
        assert MemoryStore().identity != MemoryStore().identity
        await fresh.close()

    anyio.run(main)


def _take_in_process(path: str, start: float, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    async def main() -> bytes | None:
        store = SQLiteStore(Path(path))
        await store.open()
        await anyio.sleep(max(0.0, start - time.time()))
        got = await store.take("secret:one")
        await store.close()
        return got

    out.put(anyio.run(main))


def test_sqlite_take_is_atomic_across_processes(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"

    async def seed() -> None:
        store = SQLiteStore(path)
        await store.put("secret:one", b"value", time.time() + 60)
        await store.close()

    anyio.run(seed)
    ctx = multiprocessing.get_context("spawn")
    out: multiprocessing.Queue = ctx.Queue()  # type: ignore[type-arg]
    start = time.time() + 1.5
    procs = [ctx.Process(target=_take_in_process, args=(str(path), start, out)) for _ in range(4)]
    for p in procs:
        p.start()
    results = [out.get(timeout=30) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    assert sorted(results, key=lambda r: r is None) == [b"value", None, None, None]


# -- runs of single-use flows: held, then started; a hold whose run never started is taken over ------------
@pytest.fixture
def run_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """The store named by the test's `kind`: each backend answers the same questions the same way."""
    kind = request.node.callspec.params["kind"]
    if kind != "redis":
        yield MemoryStore() if kind == "memory" else SQLiteStore(tmp_path / "runs.db")
        return
    from askback.stores.redis import RedisStore
    from tests.support.redis import machine_or_private

    url, private = machine_or_private()
    yield RedisStore(url, app="runs-" + os.urandom(5).hex())  # keys of its own on the machine's Redis
    if private is not None:
        private.stop()


@pytest.mark.parametrize("kind", ["memory", "sqlite", "redis"])
def test_a_run_is_held_then_started_once_and_a_hold_that_never_started_is_taken_over(kind: str,
                                                                                     run_store: Any) -> None:
    from askback.stores.base import Claim

    store = run_store

    async def main() -> None:
        await store.open()
        me, future = store.identity, time.time() + 60
        assert await store.claim_run("f", "lost", future, me) is Claim.HELD  # its answer never arrived
        assert await store.claim_run("f", "retry", future, me) is Claim.HELD  # so the retry takes it over
        assert not await store.start_run("f", "lost", future)  # the first can no longer start it
        assert await store.claim_run("f", "retry", future, me) is Claim.HELD  # resent: harmless
        assert await store.start_run("f", "retry", future)
        assert await store.start_run("f", "retry", future)  # resent: still this claimant's run
        for other in ("lost", "replay"):  # a run that started is never held, nor started, again
            assert await store.claim_run("f", other, future, me) is Claim.STARTED
            assert not await store.start_run("f", other, future)
        assert await store.claim_run("g", "x", future, "another-store") is Claim.STORE_CHANGED
        assert not await store.start_run("never-held", "x", future)
        assert await store.claim_run("old", "x", time.time() - 1, me) is Claim.HELD  # past its deadline
        assert await store.start_run("old", "x", future) is False  # ...so gone: nothing to start
        await store.close()

    anyio.run(main)


@pytest.mark.parametrize("kind", ["memory", "sqlite", "redis"])
def test_of_many_concurrent_claimants_of_one_run_exactly_one_starts_it(kind: str, run_store: Any) -> None:
    store = run_store
    started: list[bool] = []

    async def one(claimant: str) -> None:
        future = time.time() + 60
        await store.claim_run("same", claimant, future, store.identity)
        started.append(await store.start_run("same", claimant, future))

    async def main() -> None:
        await store.open()
        async with anyio.create_task_group() as tg:
            for n in range(40):
                tg.start_soon(one, f"c{n}")
        await store.close()

    anyio.run(main)
    assert started.count(True) == 1 and len(started) == 40


def test_an_sqlite_file_from_before_run_claimants_reads_its_records_as_runs_that_started(tmp_path: Path) -> None:
    import sqlite3

    from askback.stores.base import Claim

    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE used_flows (flow_id TEXT PRIMARY KEY, expires_at REAL NOT NULL)")
    conn.execute("CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute("INSERT INTO store_meta VALUES ('identity', 'sql-old')")
    conn.execute("INSERT INTO used_flows VALUES ('ran-before', ?)", (time.time() + 60,))
    conn.commit()
    conn.close()
    store = SQLiteStore(path)

    async def main() -> Claim:
        got = await store.claim_run("ran-before", "replay", time.time() + 60, "sql-old")
        await store.close()
        return got

    assert anyio.run(main) is Claim.STARTED


# -- lists that only grow (a receipt's entries): every append lands, in order, and the list expires ---------
@pytest.mark.parametrize("kind", ["memory", "sqlite", "redis"])
def test_appends_land_in_order_none_lost_when_concurrent_and_the_list_expires_with_its_latest(
        kind: str, run_store: Any) -> None:
    import time as clock

    async def main() -> None:
        await run_store.open()
        now = clock.time()
        assert await run_store.appended("receipt:none") == []
        await run_store.append("receipt:r", b"first", now + 60)
        await run_store.append("receipt:r", b"\x00second", now + 60)
        assert await run_store.appended("receipt:r") == [b"first", b"\x00second"]
        async with anyio.create_task_group() as tg:  # 40 appends at once: none overwrites another
            for n in range(40):
                tg.start_soon(run_store.append, "receipt:many", f"{n}".encode(), now + 60)
        assert sorted(int(v) for v in await run_store.appended("receipt:many")) == list(range(40))
        now = clock.time()
        await run_store.append("receipt:short", b"a", now + 1.0)
        await run_store.append("receipt:short", b"b", now + 4.0)  # the latest append's expiry holds the list
        await anyio.sleep(max(0.0, now + 1.5 - clock.time()))
        assert await run_store.appended("receipt:short") == [b"a", b"b"]
        await anyio.sleep(max(0.0, now + 4.5 - clock.time()))
        assert await run_store.appended("receipt:short") == []
        assert await run_store.get("receipt:r") is None  # a list is not a value: the two never mix
        await run_store.close()

    anyio.run(main)
