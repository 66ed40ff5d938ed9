"""The Redis store against a real Redis: atomic claims and takes, namespaced expiring keys, identity, failing closed.

The machine's Redis (127.0.0.1:6379) serves the tests that only read and write, each under an app name of its
own; tests that stop, restart or flush Redis get a private `redis-server` (tests/support/redis.py).
"""

from __future__ import annotations

import base64
import logging
import multiprocessing
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import anyio
import pytest
import redis as redis_sync

import askback
from askback.core.errors import InvalidRequestState, Rejection, StoreUnavailable
from askback.core.state import KeyConfigError
from askback.stores import StoreConfigError, open_store, sealers
from askback.stores.base import Claim
from askback.stores.memory import MemoryStore
from askback.stores.redis import RedisStore
from tests.conftest import LoopbackServer
from tests.support import together
from tests.support.rawclient import RawClient
from tests.support.redis import PrivateRedis, machine_or_private
from tests.support.stray_reply import StrayReply

KEY = base64.urlsafe_b64encode(bytes(range(32))).decode().rstrip("=")
OTHER_KEY = base64.urlsafe_b64encode(bytes(range(100, 132))).decode().rstrip("=")
FROZEN = -32602


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    url, private = machine_or_private()
    yield url
    if private is not None:
        private.stop()


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis().start()
    yield server
    server.stop()


def app_name() -> str:
    return "t" + os.urandom(5).hex()


def raw(url: str) -> redis_sync.Redis:
    return redis_sync.Redis.from_url(url)


def test_a_claim_is_one_set_nx_with_the_flows_expiry_under_the_apps_namespace(redis_url: str) -> None:
    name = app_name()
    store = RedisStore(redis_url, app=name)
    deadline = time.time() + 60

    async def main() -> None:
        await store.open()
        assert await store.claim("flow-1", deadline)
        assert not await store.claim("flow-1", deadline)
        assert await store.claim("flow-2", deadline)
        # a record past its deadline no longer blocks (the state it protected cannot open any more)
        assert await store.claim("old", time.time() - 1)
        assert await store.claim("old", deadline)
        await store.close()

    anyio.run(main)
    r = raw(redis_url)
    assert r.get(f"askback:{name}:used:flow-1") == b"1"
    assert r.pexpiretime(f"askback:{name}:used:flow-1") == int(deadline * 1000)  # PXAT: expires with the flow
    assert r.pexpiretime(f"askback:{name}:identity") == -1  # the identity never expires
    assert r.get(f"askback:{app_name()}:used:flow-1") is None
    r.close()


def test_put_get_take_expire_and_stay_within_the_app(redis_url: str) -> None:
    mine, theirs = RedisStore(redis_url, app=app_name()), RedisStore(redis_url, app=app_name())
    later = time.time() + 60

    async def main() -> None:
        for store in (mine, theirs):
            await store.open()
        await mine.put("mark:f:x", b"done", later)
        assert await mine.get("mark:f:x") == b"done"
        assert await theirs.get("mark:f:x") is None  # another app's keys are not visible
        await mine.put("mark:f:x", b"again", later)
        assert await mine.get("mark:f:x") == b"again"
        await mine.put("secret:f:x", b"\x00ciphertext\xff", later)
        assert await mine.take("secret:f:x") == b"\x00ciphertext\xff"
        assert await mine.take("secret:f:x") is None  # read once
        await mine.put("ticket:t", b"r", time.time() - 1)  # already past its deadline
        assert await mine.get("ticket:t") is None and await mine.take("ticket:t") is None
        for store in (mine, theirs):
            await store.close()

    anyio.run(main)


def test_of_many_concurrent_claims_and_takes_exactly_one_wins(redis_url: str) -> None:
    store = RedisStore(redis_url, app=app_name())
    claims: list[bool] = []
    takes: list[bytes | None] = []

    async def main() -> None:
        await store.open()
        await store.put("secret:s", b"v", time.time() + 60)
        async with anyio.create_task_group() as tg:
            for _ in range(50):
                tg.start_soon(lambda: _append(claims, store.claim("x", time.time() + 60)))
                tg.start_soon(lambda: _append(takes, store.take("secret:s")))
        await store.close()

    anyio.run(main)
    assert claims.count(True) == 1 and takes.count(b"v") == 1 and takes.count(None) == 49


async def _append(out: list[Any], awaitable: Any) -> None:
    out.append(await awaitable)


def _in_process(url: str, app: str, barrier: Any, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    async def main() -> None:
        store = RedisStore(url, app=app)
        await store.open()  # opening writes the identity: done before the parent pauses writes
        barrier.wait(timeout=60)  # every process has opened
        barrier.wait(timeout=60)  # Redis holds every write now
        started = together.now()
        out.put(("started", os.getpid()))
        won = await store.claim("same-flow", time.time() + 60)
        got = await store.take("secret:one")
        ended = together.now()
        await store.close()
        out.put(("done", (won, got, together.Window(started, ended))))

    anyio.run(main)


def test_claim_and_take_are_atomic_across_processes(private_redis: PrivateRedis) -> None:
    """Four processes claim one flow and take one value while Redis holds writes (`CLIENT PAUSE ... WRITE`, on a
    Redis of the test's own); it lets go once all four are inside their calls, and their windows must overlap."""
    url, name = private_redis.url, app_name()
    admin = raw(url)
    admin.set(f"askback:{name}:secret:one", b"value", px=60_000)
    ctx = multiprocessing.get_context("spawn")
    out: multiprocessing.Queue = ctx.Queue()  # type: ignore[type-arg]
    processes = 4
    barrier = ctx.Barrier(processes + 1)
    procs = [ctx.Process(target=_in_process, args=(url, name, barrier, out)) for _ in range(processes)]
    for p in procs:
        p.start()
    barrier.wait(timeout=60)
    admin.client_pause(30_000, all=False)  # writes wait, reads go on: no claim or take can finish
    try:
        barrier.wait(timeout=60)
        started = [out.get(timeout=60) for _ in procs]
        assert [tag for tag, _ in started] == ["started"] * processes, started
    finally:
        admin.client_unpause()
    results = [value for _, value in (out.get(timeout=60) for _ in procs)]
    for p in procs:
        p.join(timeout=30)
    assert [won for won, _, _ in results].count(True) == 1, results
    assert [got for _, got, _ in results].count(b"value") == 1, results
    windows = [window for _, _, window in results]
    assert together.all_overlap(windows), together.overlap_message(windows)


def test_the_identity_is_set_once_and_shared(redis_url: str) -> None:
    name = app_name()

    async def main() -> tuple[str, str]:
        a, b = RedisStore(redis_url, app=name), RedisStore(redis_url, app=name)
        await a.open()
        await b.open()
        ids = a.identity, b.identity
        await a.close()
        await b.close()
        return ids

    first, second = anyio.run(main)
    assert first == second and first.startswith("redis-")
    assert raw(redis_url).get(f"askback:{name}:identity") == first.encode()


def test_a_flushed_redis_refuses_claims_of_flows_started_before(private_redis: PrivateRedis,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    store = RedisStore(private_redis.url, app="flushed")

    async def main() -> tuple[str, str]:
        await store.open()
        before = store.identity
        assert await store.claim("done-flow", time.time() + 60)
        raw(private_redis.url).flushall()  # every used-flow record lost, connection kept
        with pytest.raises(InvalidRequestState) as refused:
            await store.claim("done-flow", time.time() + 60)  # a replay would otherwise run again
        assert refused.value.reason is Rejection.STORE_CHANGED
        after = store.identity
        assert await store.claim("new-flow", time.time() + 60)  # flows started from now on work
        await store.close()
        return before, after

    with caplog.at_level(logging.ERROR, logger="askback"):
        before, after = anyio.run(main)
    assert before != after
    assert any("lost its contents" in r.getMessage() for r in caplog.records)


def test_redis_down_fails_closed_and_the_store_recovers_when_it_returns(private_redis: PrivateRedis,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    store = RedisStore(private_redis.url + "?app=down")

    async def main() -> None:
        await store.open()
        before = store.identity
        private_redis.stop()
        for operation in (store.claim("f", time.time() + 60), store.put("k", b"v", time.time() + 60),
                          store.get("k"), store.take("k")):
            with pytest.raises(StoreUnavailable) as down:
                await operation
            assert down.value.wire.retryable
        private_redis.start()  # no persistence: the contents, and so the identity, are new
        await store.put("k", b"v", time.time() + 60)
        assert await store.get("k") == b"v"
        assert store.identity != before  # the reconnection noticed
        await store.close()

    with caplog.at_level(logging.ERROR, logger="askback"):
        anyio.run(main)
    assert any("unavailable" in r.getMessage() for r in caplog.records)


def test_store_urls(tmp_path: Path) -> None:
    store = open_store("redis://:hunter2@127.0.0.1:6390/3", data_dir=tmp_path, app="my:app")
    assert isinstance(store, RedisStore)
    assert store.where == "redis://127.0.0.1:6390/3" and "hunter2" not in store.where
    assert store.prefix == "askback:my%3Aapp:"
    tls = open_store("rediss://cache.internal:6380/0?app=billing", data_dir=tmp_path, app="ignored")
    assert isinstance(tls, RedisStore) and tls.prefix == "askback:billing:" and tls.where.startswith("rediss://")
    with pytest.raises(StoreConfigError, match="app's name"):
        open_store("redis://127.0.0.1:6379/0", data_dir=tmp_path)
    with pytest.raises(StoreConfigError, match="redis://host:port/db"):
        open_store("redis://127.0.0.1:6379/zero", data_dir=tmp_path, app="a")
    with pytest.raises(StoreConfigError, match="redis://host:port/db"):
        open_store("redis:///0", data_dir=tmp_path, app="a")


def test_an_unreachable_redis_at_start_is_a_clear_start_up_error(private_redis: PrivateRedis) -> None:
    url = private_redis.url
    private_redis.stop()

    async def main() -> None:
        with pytest.raises(StoreConfigError, match=r"cannot reach the Redis store at redis://127\.0\.0\.1"):
            await RedisStore(url, app="x").open()

    anyio.run(main)


def test_a_shared_store_without_askback_keys_is_refused(redis_url: str) -> None:
    with pytest.raises(KeyConfigError, match="set ASKBACK_KEYS to the same value on each"):
        askback.App("no-keys", store=redis_url).runtime
    assert askback.App("keys", store=redis_url, keys=KEY).runtime.store.shared  # type: ignore[attr-defined]


def test_replicas_whose_rings_cannot_open_each_others_states_are_reported(caplog: pytest.LogCaptureFixture) -> None:
    store = MemoryStore()
    one, phase1, two = (askback.Keyring.from_text(k) for k in (KEY, f"{KEY},{OTHER_KEY}", OTHER_KEY))

    async def main() -> list[list[sealers.Conflict]]:
        found = []
        first, conflicts = await sealers.announce(store, one, time.time, 60)
        found.append(conflicts)
        rotating, conflicts = await sealers.announce(store, phase1, time.time, 60)  # rotation phase 1: fine
        found.append(conflicts)
        found.append((await sealers.announce(store, two, time.time, 60))[1])  # cannot open KEY's states
        for name in (first, rotating):  # both stopped cleanly: only OTHER seals now
            await sealers.withdraw(store, name, time.time, 60)
        found.append((await sealers.announce(store, two, time.time, 60))[1])
        return found

    with caplog.at_level(logging.ERROR, logger="askback"):
        first, rotating, wrong, after = anyio.run(main)
    assert first == [] and rotating == [] and after == []
    assert sorted((c.this_cannot_open, c.other_cannot_open) for c in wrong) == [(True, False), (True, True)]
    assert any("same ASKBACK_KEYS" in r.getMessage() for r in caplog.records)


# -- over the wire: a single-use tool while Redis goes away and comes back ---------------------------------
def transfer_app(url: str, runs: list[int]) -> askback.App:
    app = askback.App("redis-wire", keys=KEY, store=url)

    @app.tool(once=True)
    def transfer(amount: int, ok: Annotated[bool, askback.Confirm("Send {amount}?")]) -> str:
        runs.append(amount)
        return f"sent {amount}"

    return app


def _first_round(c: RawClient, amount: int) -> str:
    first = c.call("transfer", {"amount": amount})["result"]
    assert first["resultType"] == "input_required"
    return str(first["requestState"])


def test_over_the_wire_redis_down_refuses_retryably_and_a_restart_without_persistence_refuses_old_flows(
        private_redis: PrivateRedis) -> None:
    runs: list[int] = []
    with LoopbackServer(transfer_app(private_redis.url, runs)) as server, RawClient(server.url) as c:
        state = _first_round(c, 5)
        private_redis.stop()
        down = c.call("transfer", {"amount": 5}, responses={"ok": {"action": "accept", "content": {"ok": True}}},
                      state=state)
        assert down["error"]["code"] == -32603 and "Retry the same request" in down["error"]["message"], down
        assert down["error"]["data"] == {"retryable": True}, down  # the wire says it as well as the text
        assert runs == []  # nothing single-use ran without the store
        private_redis.start()  # back, but empty: whether the flow ran before cannot be known
        again = c.call("transfer", {"amount": 5}, responses={"ok": {"action": "accept", "content": {"ok": True}}},
                       state=state)
        assert again["error"]["code"] == FROZEN and runs == []
        fresh = _first_round(c, 6)  # a flow started after it returned completes: the server recovered
        done = c.call("transfer", {"amount": 6}, responses={"ok": {"action": "accept", "content": {"ok": True}}},
                      state=fresh)
        assert done["result"]["content"][0]["text"] == "sent 6" and runs == [6]


def bank_app(url: str, runs: list[str]) -> askback.App:
    app = askback.App("redis-bank", keys=KEY, store=url)

    @app.tool()
    def connect(bank: str, api_key: Annotated[askback.Secret, askback.Ask("the API key of {bank}")]) -> str:
        runs.append(api_key.reveal())
        return f"connected {bank}"

    return app


def test_a_redis_restarted_with_persistence_mid_flow_loses_no_secret_and_no_single_use_flow() -> None:
    import re

    import httpx

    server_redis = PrivateRedis(persistence="aof").start()  # appendfsync always: the one that keeps every claim
    secret, runs, sent = "sk_live_0123456789abcdef", [], []
    url_caps = {"elicitation": {"form": {}, "url": {}}}
    accept = {"ok": {"action": "accept", "content": {"ok": True}}}
    try:
        with LoopbackServer(bank_app(server_redis.url, runs)) as bank, LoopbackServer(
                transfer_app(server_redis.url, sent)) as pay, RawClient(bank.url, capabilities=url_caps) as c, \
                RawClient(pay.url) as p, httpx.Client() as browser:
            first = c.call("connect", {"bank": "Acme"})["result"]
            link = first["inputRequests"]["api_key"]["params"]["url"]
            state = _first_round(p, 7)
            server_redis.stop()  # saved to disk on the way down
            page = browser.get(link)
            assert page.status_code == 503 and "Nothing was saved" in page.text  # no page without the store
            down = p.call("transfer", {"amount": 7}, responses=accept, state=state)
            assert down["error"]["code"] == -32603 and sent == []
            server_redis.start()  # back with its contents: the same identity, the same tickets
            page = browser.get(link)
            token = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert page.status_code == 200 and token is not None, page.text
            posted = browser.post(link, data={"csrf": token.group(1), "value": secret, "decision": "submit"})
            assert posted.status_code == 200, posted.text
            done = c.call("connect", {"bank": "Acme"}, responses={"api_key": {"action": "accept"}},
                          state=first["requestState"])
            assert done["result"]["content"][0]["text"] == "connected Acme" and runs == [secret]
            paid = p.call("transfer", {"amount": 7}, responses=accept, state=state)  # the same flow, retried
            assert paid["result"]["content"][0]["text"] == "sent 7" and sent == [7]
            replay = p.call("transfer", {"amount": 7}, responses=accept, state=state)
            assert replay["error"]["code"] == FROZEN and sent == [7]
    finally:
        server_redis.stop()


# -- a Redis that stops answering for a while, then runs what it was sent ---------------------------------
ACCEPT = {"ok": {"action": "accept", "content": {"ok": True}}}
# The pause in the field was ~15 s against a 5 s socket timeout and two retries; the same shape, shorter: every
# attempt of the request times out (0.3 s each, three attempts) well before Redis resumes (1.5 s).
SHORT_TIMEOUTS = "?socket_timeout=0.3&socket_connect_timeout=0.3"


def test_a_request_told_to_retry_while_redis_was_paused_completes_on_retry_exactly_once(
        private_redis: PrivateRedis) -> None:
    runs: list[int] = []
    url = private_redis.url + SHORT_TIMEOUTS
    with LoopbackServer(transfer_app(url, runs)) as server, RawClient(server.url) as c:
        for amount in (5, 6):  # twice: a second pause on a store that already recovered once
            state = _first_round(c, amount)
            with private_redis.paused(1.5):
                down = c.call("transfer", {"amount": amount}, responses=ACCEPT, state=state)
                assert down["error"]["code"] == -32603 and "Retry the same request" in down["error"]["message"]
            assert runs == [5] * (amount == 6)  # nothing ran: the claim the paused Redis ran later is not a run
            retried = c.call("transfer", {"amount": amount}, responses=ACCEPT, state=state)
            assert retried.get("result", {}).get("content", [{}])[0].get("text") == f"sent {amount}", retried
            replay = c.call("transfer", {"amount": amount}, responses=ACCEPT, state=state)
            assert replay["error"]["code"] == FROZEN
        assert runs == [5, 6]


# -- a Redis that comes back older than it was: restored from a snapshot, or a generation that went back -----
def test_a_replay_after_redis_came_back_from_an_older_rdb_snapshot_is_refused_and_new_flows_complete() -> None:
    snapshots = PrivateRedis(persistence="rdb").start()
    runs: list[int] = []
    try:
        with LoopbackServer(transfer_app(snapshots.url, runs)) as server, RawClient(server.url) as c:
            state = _first_round(c, 7)
            snapshots.snapshot()  # the snapshot has the identity, and no claim of this flow
            done = c.call("transfer", {"amount": 7}, responses=ACCEPT, state=state)
            assert done["result"]["content"][0]["text"] == "sent 7" and runs == [7]
            snapshots.crash()
            snapshots.start()  # loads the snapshot: the identity survives, the claim does not
            replay = c.call("transfer", {"amount": 7}, responses=ACCEPT, state=state)
            assert replay.get("error", {}).get("code") == FROZEN, replay
            assert runs == [7]  # not twice
            fresh = _first_round(c, 8)
            paid = c.call("transfer", {"amount": 8}, responses=ACCEPT, state=fresh)
            assert paid["result"]["content"][0]["text"] == "sent 8" and runs == [7, 8]
    finally:
        snapshots.stop()


def test_a_generation_that_went_back_is_noticed_by_the_replica_that_saw_it_and_every_replica_follows(
        redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    from askback.stores.base import Claim

    name = app_name()
    r = raw(redis_url)

    async def main() -> None:
        saw = RedisStore(redis_url, app=name, watch_seconds=0)  # the replica that ran the flow
        fresh = RedisStore(redis_url, app=name, watch_seconds=0)  # one that never saw a claim
        await saw.open()
        await fresh.open()
        before, future = saw.identity, time.time() + 60
        assert await saw.claim_run("ran", "a", future, before) is Claim.HELD
        assert await saw.start_run("ran", "a", future)
        # A failover to a Redis replica that lagged, or a restore without restart: the run and the
        # generation are older; nothing else tells.
        r.set(f"askback:{name}:generation", 1)
        r.delete(f"askback:{name}:used:ran")
        assert await saw.claim_run("ran", "replay", future, before) is Claim.STORE_CHANGED
        assert saw.identity != before
        # The other replica follows at its next claim: the identity the flow started under is gone.
        assert await fresh.claim_run("ran", "replay2", future, before) is Claim.STORE_CHANGED
        assert fresh.identity == saw.identity
        assert await fresh.claim_run("new", "b", future, fresh.identity) is Claim.HELD  # new flows work
        # The same through the once-a-second check, with no claim at all.
        r.set(f"askback:{name}:generation", 0)
        renamed = saw.identity
        await saw.check()
        assert saw.identity != renamed
        await saw.close()
        await fresh.close()

    with caplog.at_level(logging.ERROR, logger="askback"):
        anyio.run(main)
    assert sum("went back in time" in rec.getMessage() for rec in caplog.records) == 2
    r.close()


def test_a_redis_restarted_empty_is_noticed_without_a_request_within_the_check_interval(
        private_redis: PrivateRedis) -> None:
    store = RedisStore(private_redis.url, app="watched", watch_seconds=0.1)

    async def main() -> None:
        await store.open()
        before = store.identity
        private_redis.stop()
        private_redis.start()
        for _ in range(200):  # bounded: ten seconds for a check every 0.1 s
            if store.identity != before:
                break
            await anyio.sleep(0.05)
        assert raw(private_redis.url).get("askback:watched:identity") == store.identity.encode()
        await store.close()

    anyio.run(main)


def test_an_mcp_task_whose_creating_round_was_told_to_retry_while_redis_was_paused_runs_once_on_retry(
        private_redis: PrivateRedis) -> None:
    from tests.tasks.wire import TaskClient

    runs: list[int] = []
    app = askback.App("redis-task", keys=KEY, store=private_redis.url + SHORT_TIMEOUTS)

    @app.tool(once=True, task="optional")
    async def transfer(amount: int, ok: Annotated[bool, askback.Confirm("Send {amount}?")]) -> str:
        runs.append(amount)
        return f"sent {amount}"

    with LoopbackServer(app) as server:
        c = TaskClient(server.url)
        first = c.call("transfer", {"amount": 5})["result"]
        assert first["resultType"] == "input_required", first
        final = {"inputResponses": ACCEPT, "requestState": first["requestState"]}
        with private_redis.paused(1.5):
            down = c.call("transfer", {"amount": 5}, **final)
        assert down.get("error", {}).get("code") == -32603, down
        assert runs == []
        created = c.call("transfer", {"amount": 5}, **final)["result"]  # the retry it was told to send
        assert created["resultType"] == "task", created
        done = c.wait(created["taskId"])
        assert done["status"] == "completed" and done["result"]["content"][0]["text"] == "sent 5", done
        replay = c.call("transfer", {"amount": 5}, **final)
        assert replay["error"]["code"] == FROZEN and runs == [5]


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.anyio
async def test_an_a2a_answer_told_to_retry_while_redis_was_paused_keeps_the_task_waiting_and_runs_once_on_retry(
        private_redis: PrivateRedis, anyio_backend: str) -> None:
    from tests.a2a.support import Agent, extension_meta, state, status_parts

    runs: list[int] = []
    app = askback.App("redis-a2a", keys=KEY, store=private_redis.url + SHORT_TIMEOUTS)

    @app.tool(once=True)
    def transfer(amount: int, ok: Annotated[bool, askback.Confirm("Send {amount}?")]) -> str:
        runs.append(amount)
        return f"sent {amount}"

    with LoopbackServer(app) as server:
        async with Agent(server.url.removesuffix("/mcp")) as agent:
            task = await agent.call("transfer", amount=5)
            assert state(task) == "TASK_STATE_INPUT_REQUIRED"
            with private_redis.paused(1.5):
                down = await agent.answer(task, {"ok": True})
            text, _ = status_parts(down)
            assert "nothing was done. Retry" in text and runs == []
            assert extension_meta(down).get("retryable") is True, extension_meta(down)
            assert state(down) == "TASK_STATE_INPUT_REQUIRED"  # still waiting: the retry it asks for can work
            done = await agent.answer(down, {"ok": True})
            assert state(done) == "TASK_STATE_COMPLETED" and runs == [5]
            assert state(await agent.get(task.id)) == "TASK_STATE_COMPLETED"


def test_sentinel_and_cluster_urls(tmp_path: Path) -> None:
    sentinel = open_store("redis+sentinel://:pw@10.0.0.5:26379,10.0.0.6/mymaster/2?app=pay", data_dir=tmp_path)
    assert isinstance(sentinel, RedisStore)
    assert sentinel.where == "redis+sentinel://10.0.0.5:26379,10.0.0.6:26379/mymaster/2" and "pw" not in sentinel.where
    assert sentinel.target.replicas == 1 and sentinel.target.password == "pw"  # Sentinel waits for one replica
    cluster = open_store("rediss+cluster://a:7000,b:7001?replicas=0&socket_timeout=0.5", data_dir=tmp_path, app="x")
    assert isinstance(cluster, RedisStore) and cluster.target.tls and cluster.target.kind == "cluster"
    assert dict(cluster.target.options) == {"socket_timeout": 0.5}
    for bad in ("redis+cluster://a:7000/3", "redis+sentinel://a:26379", "redis://a:1,b:2/0",
                "redis://a:6379/0?replicas=-1", "redis+cluster://a:7000?db=2", "redis+sentinel://a/m/0?port=1",
                "redis://a:6379/0?db=two", "redis://a:6379/0?sockettimeout=1"):
        with pytest.raises(StoreConfigError):
            open_store(bad, data_dir=tmp_path, app="x")


def test_a_redis_url_reads_the_address_in_its_query_as_redis_py_always_has(tmp_path: Path) -> None:
    """Deployments set `redis://host/?db=2` before Sentinel and Cluster came: it still names database 2."""
    def target(url: str) -> tuple[object, ...]:
        store = open_store(url, data_dir=tmp_path, app="x")
        assert isinstance(store, RedisStore)
        t = store.target
        return t.nodes, t.db, t.username, t.password, store.where

    assert target("redis://h/?db=2") == ((("h", 6379),), 2, None, None, "redis://h:6379/2")
    assert target("redis://h/1?db=2")[1] == 2  # the query wins over the path, as in redis-py
    assert target("redis://h?port=7000&db=3")[0] == (("h", 7000),)
    assert target("redis://h:6380/?port=7000")[0] == (("h", 6380),)  # the address wins where it names one
    assert target("redis://bob:pw@h/?password=other")[2:4] == ("bob", "pw")
    shown = target("redis://h/?username=bob&password=pw")
    assert shown[2:4] == ("bob", "pw") and "pw" not in str(shown[4])


def test_the_query_db_is_the_database_written(private_redis: PrivateRedis) -> None:
    name = app_name()
    store = RedisStore(f"redis://127.0.0.1:{private_redis.port}/?db=2&app={name}", watch_seconds=0)

    async def main() -> None:
        await store.open()
        await store.put("k", b"v", time.time() + 60)
        await store.close()

    anyio.run(main)
    assert redis_sync.Redis(port=private_redis.port, db=2).get(f"askback:{name}:k") == b"v"
    assert redis_sync.Redis(port=private_redis.port, db=0).get(f"askback:{name}:k") is None


def test_a_write_no_replica_confirms_is_unavailable_and_the_run_does_not_start(private_redis: PrivateRedis) -> None:
    store = RedisStore(private_redis.url + "?replicas=1&wait_ms=50", app="lonely", watch_seconds=0)

    async def main() -> None:
        await store.open()
        future = time.time() + 60
        assert await store.claim_run("f", "c", future, store.identity) is Claim.HELD  # a hold does not wait
        with pytest.raises(StoreUnavailable, match="0 of 1 replicas"):
            await store.start_run("f", "c", future)  # no replica: the function must not run
        with pytest.raises(StoreUnavailable):
            await store.put("k", b"v", future)
        await store.close()

    anyio.run(main)


def test_a_server_that_is_not_redis_is_a_clear_error_never_a_stack_trace(tmp_path: Path) -> None:
    relay = StrayReply(relay_to=None)  # answers every command "+OK"
    store = RedisStore(f"redis://127.0.0.1:{relay.port}/0?app={app_name()}", watch_seconds=0)

    async def main() -> None:
        with pytest.raises(StoreConfigError, match="cannot"):
            await store.open()
        with pytest.raises(StoreUnavailable):
            await store.claim_run("f", "c", time.time() + 60, "any")
        await store.close()

    try:
        anyio.run(main)
    finally:
        relay.close()


def test_a_reply_out_of_turn_at_a_runs_start_is_in_doubt_and_nothing_ran(private_redis: PrivateRedis) -> None:
    """A start whose reply is another command's (a connection torn mid-reply): the function has not run, and the
    caller is told the retryable truth (StoreInDoubt), not "failed with an internal error"."""
    from askback.core.errors import StoreInDoubt
    from askback.singleuse import claim_run

    relay = StrayReply(relay_to=private_redis.port)
    store = RedisStore(f"redis://127.0.0.1:{relay.port}/0?app={app_name()}", watch_seconds=0)

    async def main() -> None:
        await store.open()
        future = time.time() + 60
        assert await store.claim_run("f1", "c", future, store.identity) is Claim.HELD
        relay.stray_after(0)
        with pytest.raises(StoreUnavailable):
            await store.start_run("f1", "c", future)
        relay.stray_after(1)  # the claim is relayed, the start's reply is the stray one
        with pytest.raises(StoreInDoubt):
            await claim_run(store, b"flow-2", future, None, "tools/call t")
        await claim_run(store, b"flow-2", future, None, "tools/call t")  # the retry: it runs now, once
        with pytest.raises(InvalidRequestState):
            await claim_run(store, b"flow-2", future, None, "tools/call t")
        await store.close()

    try:
        anyio.run(main)
    finally:
        relay.close()


def test_a_write_redis_refuses_is_logged_without_the_value(private_redis: PrivateRedis,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    """redis-py names a pipeline's failed command with its arguments; a stored value must not reach the log."""
    store = RedisStore(private_redis.url + "?replicas=1&wait_ms=50", app=app_name(), watch_seconds=0)

    async def main() -> None:
        await store.open()
        raw(private_redis.url).config_set("min-replicas-to-write", 1)  # no replica: writes refused (NOREPLICAS)
        with pytest.raises(StoreUnavailable):
            await store.put("secret:f:api_key", b"sealed-value-4f2a", time.time() + 60)
        await store.close()

    with caplog.at_level(logging.ERROR, logger="askback"):
        anyio.run(main)
    assert "NOREPLICAS" in caplog.text and "sealed-value-4f2a" not in caplog.text, caplog.text
