"""Redis store: what several replicas on several machines share: one Redis, a Sentinel-managed primary, or a Cluster.

Every operation is one atomic Redis command or script, so no lock is needed across replicas: a run of a
single-use flow is held (`claim_run`) and then started (`start_run`) by one script each, a one-time mark is one
script (`SET NX PXAT` after reading the identity), taking a secret is `GETDEL` (exactly one reader gets it), a
list that only grows (a receipt's entries) is one script (`RPUSH`, then `PEXPIREAT`), and every key expires with
the flow it belongs to (`PXAT`, the flow's deadline). Keys are namespaced per app, `askback:<app>:<key>`, so
several apps can share one Redis. The URL forms are in `askback.stores.redis_target`.

The store's identity names its contents. A single-use flow records the identity it started under, and its
claim is refused when the store's identity differs, because whether it already ran cannot be known. The
identity changes when the contents may have lost claims:

- the identity key is gone (Redis restarted without persistence, or flushed): the next replica to see it names
  the new contents;
- Redis restarted (its `run_id` changed) with persistence that can lose acknowledged writes (anything but
  `appendonly yes` with `appendfsync always`, unless every write waits for a replica): an RDB snapshot, or the
  last second of an `everysec` AOF, may predate claims that were made, so the identity is renewed rather than
  trusted;
- the claim generation went backwards: every claim and start increments `generation`, and each replica
  remembers the highest value it saw (with `replicas=N`, the highest that N replicas confirmed: a fencing
  token that only grows across a failover); a store that answers with less (restored, or failed over to a
  replica that lagged) is renamed by the first replica that notices.

**Cluster.** A script may touch keys of one hash slot only, so the claims are spread over `BUCKETS` buckets,
each a hash tag of its own (`askback:{<app>:<n>}:…`, the flow's key picks its bucket), and each bucket holds
its own copy of the identity and its own generation. A claim checks its bucket's copy in the same script, so a
node that lost its data (restarted empty, failed over to a replica that lagged) is noticed by the first claim
that touches one of its slots: the copy is gone or older. The home bucket (0) holds the identity every copy
follows: a replica that names new contents writes every copy, then marks the home as spread, and no replica
adopts an identity before it is spread, so a flow that started under an identity has that identity in every
bucket. Only the replica that named an identity writes copies of it: a copy found missing later is a loss,
never filled in.

Every replica checks the identity once a second (`WATCH_SECONDS`) and on every new connection, so replicas agree
on new contents within about a second without a restart.

Redis unreachable fails closed: every operation raises `StoreUnavailable` (retryable, nothing ran); the client
reconnects by itself on the next call once Redis is back (or once Sentinel names the new primary).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import os
import re
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Any

from redis.asyncio import Redis, RedisCluster
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.connection import Connection
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import ExponentialBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError

from askback.core.errors import AskbackError, InvalidRequestState, Rejection, StoreUnavailable
from askback.stores.base import Claim, Clock, StoreConfigError
from askback.stores.redis_target import SCHEMES, RedisTarget, parse

logger = logging.getLogger("askback")

__all__ = ["BUCKETS", "SCHEMES", "WATCH_SECONDS", "RedisStore"]

WATCH_SECONDS = 1.0  # how often a replica re-reads the identity: the bound on agreeing about new contents
BUCKETS = 256  # claim buckets in a Cluster: each one hash slot; enough to spread over any number of primaries
SPREAD_SECONDS = 5.0  # how long a replica waits for another to finish spreading an identity before renaming

# On a new connection: name the contents if nobody has (KEYS identity, run, generation; ARGV candidate, this
# Redis's run_id, 1 if its persistence keeps every acknowledged write). Returns identity, how, generation.
_VOUCH = """
local id = redis.call('GET', KEYS[1])
local run = redis.call('GET', KEYS[2])
local how = 'same'
if not id then
  id = ARGV[1]; how = 'new'; redis.call('SET', KEYS[1], id)
elseif run and run ~= ARGV[2] and ARGV[3] ~= '1' then
  id = ARGV[1]; how = 'restarted'; redis.call('SET', KEYS[1], id)
end
if run ~= ARGV[2] then redis.call('SET', KEYS[2], ARGV[2]) end
return {id, how, tonumber(redis.call('GET', KEYS[3]) or '0')}
"""
# Rename contents known to have lost claims, unless another replica already did (KEYS identity, generation;
# ARGV the identity that lost them, candidate). Returns identity, generation.
_RENAME = """
local id = redis.call('GET', KEYS[1])
if not id or id == ARGV[1] then id = ARGV[2]; redis.call('SET', KEYS[1], id) end
return {id, tonumber(redis.call('GET', KEYS[2]) or '0')}
"""
# Mark the home identity spread to every bucket, if it is still the one spread (KEYS identity, spread; ARGV it).
_SPREAD = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
return 1
"""
# Hold a run (KEYS identity, generation, run key; ARGV identity the flow started under, claimant, PXAT).
# Returns outcome (0 other store, 1 held, 2 started), the store's identity, the generation.
_CLAIM_RUN = """
local id = redis.call('GET', KEYS[1])
if id ~= ARGV[1] then return {0, id or '', 0} end
local gen = redis.call('INCR', KEYS[2])
local held = redis.call('GET', KEYS[3])
if held and string.sub(held, 1, 2) ~= 'c:' then return {2, id, gen} end
redis.call('SET', KEYS[3], 'c:' .. ARGV[2], 'PXAT', ARGV[3])
return {1, id, gen}
"""
# Start a held run (KEYS generation, run key; ARGV claimant, PXAT). Returns started (0/1), the generation.
_START_RUN = """
local held = redis.call('GET', KEYS[2])
if held ~= 'c:' .. ARGV[1] and held ~= 's:' .. ARGV[1] then return {0, 0} end
redis.call('SET', KEYS[2], 's:' .. ARGV[1], 'PXAT', ARGV[2])
return {1, redis.call('INCR', KEYS[1])}
"""
# A one-time mark (KEYS identity, mark; ARGV the identity expected, PXAT). Returns outcome (0 other store,
# 1 recorded, 2 already there), the store's identity.
_CLAIM = """
local id = redis.call('GET', KEYS[1])
if id ~= ARGV[1] then return {0, id or ''} end
if redis.call('SET', KEYS[2], '1', 'NX', 'PXAT', ARGV[2]) then return {1, id} end
return {2, id}
"""

# Add to a list that only grows (KEYS the list; ARGV the value, PXAT): one key, so one slot in a Cluster too.
_APPEND = """
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
"""


class RedisStore:
    """One app's keys in one Redis database, in a Sentinel-managed primary, or in a Redis Cluster."""

    shared = True  # replicas on other machines share it: they need one key ring (ASKBACK_KEYS)

    def __init__(self, url: str, *, app: str = "", clock: Clock = time.time,
                 watch_seconds: float = WATCH_SECONDS) -> None:
        self.target: RedisTarget = parse(url, app)
        self.where = self.target.where  # never the password
        self.prefix = f"askback:{self.target.app}:"
        self._buckets = BUCKETS if self.target.kind == "cluster" else 1
        self._waits = self.target.replicas > 0
        self._clock = clock
        self._client: Any = None  # Redis, or RedisCluster
        self._sentinel: Sentinel | None = None
        self._identity: str | None = None
        self._seen: dict[int, int] = {}  # per bucket, the highest claim generation seen under `_identity`
        self._watch_seconds = watch_seconds
        self._watcher: asyncio.Task[None] | None = None
        self._scripts: dict[str, AsyncScript] = {}  # registered on the client when it is made

    # -- keys ---------------------------------------------------------------------------------------------
    def _at(self, bucket: int, name: str) -> str:
        """A key of one bucket. One Redis has one bucket (`askback:<app>:<name>`); in a Cluster each bucket is
        a hash tag, so a script's keys (the bucket's identity, generation and the claim) share one slot."""
        if self._buckets == 1:
            return self.prefix + name
        return f"askback:{{{self.target.app}:{bucket}}}:{name}"

    def _bucket(self, key: str) -> int:
        return zlib.crc32(key.encode()) % self._buckets

    def _home(self, *names: str) -> list[str]:
        return [self._at(0, n) for n in names]

    def _list(self, key: str) -> str:
        """A list's Redis key: apart from the values (`put`), as the other backends keep lists in their own table."""
        return self.prefix + "list:" + key

    # -- identity -----------------------------------------------------------------------------------------
    @property
    def identity(self) -> str:
        if self._identity is None:
            logger.error("the Redis store at %s was used before it was opened", self.where)
            raise StoreUnavailable("the Redis store was not opened")
        return self._identity

    @staticmethod
    def _candidate() -> str:
        return "redis-" + os.urandom(6).hex()

    async def _on_connect(self, conn: Connection) -> None:
        """Every new connection (at start, after Redis came back, to a new primary) vouches for the identity.

        Any failure is a `ConnectionError`: redis-py drops a connection whose set-up raised one of its own
        errors, never one that raised anything else (it would stay in the pool with a reply unread)."""
        try:
            await self._vouch(conn)
        except RedisError:
            raise
        except Exception as exc:  # see the docstring
            raise RedisConnectionError(f"setting up a connection failed: {type(exc).__name__}") from exc

    async def _vouch(self, conn: Connection) -> None:
        await conn.on_connect()
        run_id, durable = await _server_facts(conn)
        before, seen = self._identity, self._seen.get(0, 0)
        # Waiting for replicas is what keeps acknowledged writes through a failover: a new primary (a new
        # run_id) holds every write that was confirmed, so its run_id alone is no reason to distrust it.
        await conn.send_command("EVAL", _VOUCH, 3, *self._home("identity", "identity:run", "generation"),
                                self._candidate(), run_id, "1" if durable or self._waits else "0")
        found, how, generation = await conn.read_response()
        identity = _text(found)
        if _text(how) == "restarted":
            logger.error(
                "the Redis store at %s restarted with persistence that can lose acknowledged writes (only "
                "appendonly yes with appendfsync always keeps them all): its identity was %s and is now %s; "
                "single-use flows started before are refused, since whether they ran may be lost",
                self.where, before, identity)
            self._identity = None  # the error above says it all: no second "lost its contents" line
        if identity == before and int(generation) < seen:
            self._log_rolled_back(identity, int(generation), seen)
            await conn.send_command("EVAL", _RENAME, 2, *self._home("identity", "generation"), identity,
                                    self._candidate())
            found, generation = await conn.read_response()
            identity = _text(found)
        self._adopt(identity, self._counted(int(generation)))

    def _counted(self, generation: int) -> int | None:
        """A generation a replica may remember: with `replicas=N`, only one that N replicas confirmed."""
        return None if self._waits else generation

    def _log_rolled_back(self, identity: str, generation: int, seen: int) -> None:
        logger.error(
            "the Redis store at %s went back in time (claim generation %d, this replica saw %d: restored from an "
            "older snapshot, or failed over to a replica that lagged); its identity %s is renewed, and single-use "
            "flows started before are refused, since whether they ran may be lost",
            self.where, generation, seen, identity)

    def _adopt(self, identity: str, generation: int | None = None, bucket: int = 0) -> None:
        if self._identity is not None and identity != self._identity:
            logger.error(
                "the Redis store at %s lost its contents, or some of them (restarted without persistence, flushed, "
                "or back from older data): its identity was %s and is now %s; single-use flows started before are "
                "refused, since whether they ran is lost",
                self.where,
                self._identity,
                identity,
            )
        if identity != self._identity:
            self._identity, self._seen = identity, {}
        if generation is not None:
            self._seen[bucket] = max(self._seen.get(bucket, 0), generation)

    async def _rename(self, lost: str) -> None:
        """Rename contents that lost claims (unless another replica already has), and adopt the result."""
        candidate = self._candidate()
        with self._reaching():
            client = await self._redis()
            found, generation = await client.eval(_RENAME, 2, *self._home("identity", "generation"), lost, candidate)
            if self._buckets == 1:
                self._adopt(_text(found), self._counted(int(generation)))
                return
            if _text(found) == candidate:
                await self._spread(candidate)
            await self._settle()

    async def _spread(self, identity: str) -> None:
        """Cluster: write the identity this replica named into every bucket, then mark the home as spread."""
        async with self._client.pipeline(transaction=False) as pipe:  # grouped by node by the cluster client
            for bucket in range(1, self._buckets):
                pipe.set(self._at(bucket, "identity"), identity)
            await pipe.execute()
        await self._client.eval(_SPREAD, 2, *self._home("identity", "identity:spread"), identity)

    async def _settle(self) -> None:
        """Cluster: adopt the home identity once it is spread; name the contents when nobody has, or when the
        replica that named them has not spread them within `SPREAD_SECONDS` (it may have died doing so)."""
        waiting_since: float | None = None
        while True:
            found, spread, generation = await self._client.mget(
                self._home("identity", "identity:spread", "generation"))
            identity = _text(found) if found is not None else None
            if identity is not None and spread is not None and identity == _text(spread):
                self._adopt(identity, self._counted(int(generation or 0)))
                return
            now = time.monotonic()
            if identity is not None:
                waiting_since = waiting_since if waiting_since is not None else now
                if now - waiting_since < SPREAD_SECONDS:
                    await asyncio.sleep(0.05)
                    continue
            candidate = self._candidate()
            named, _ = await self._client.eval(_RENAME, 2, *self._home("identity", "generation"), identity or "",
                                               candidate)
            if _text(named) == candidate:
                await self._spread(candidate)
            waiting_since = None

    async def _refused(self, bucket: int, found: str | None) -> None:
        """After a claim was refused for its identity: rename contents that lost claims, or follow a renaming."""
        with self._reaching():
            client = await self._redis()
            home = found if bucket == 0 else _opt_text(await client.get(self._at(0, "identity")))
            if home is None:
                await self._rename(self._identity or "")
            elif found != home:  # this bucket lost what it held (its node did), or missed a renaming
                logger.error("the Redis store at %s lost claim bucket %d (identity %s there, %s at home)",
                             self.where, bucket, found, home)
                await self._rename(home)
            elif self._buckets == 1:
                self._adopt(home)
            elif home != self._identity:
                await self._settle()

    async def check(self) -> None:
        """Re-read the identity and the generation: what the watcher does once every `watch_seconds`."""
        before, seen = self._identity, self._seen.get(0, 0)
        with self._reaching():
            client = await self._redis()
            found, generation = await client.mget(self._home("identity", "generation"))
            identity, now = _opt_text(found), int(generation or 0)
            if identity is None:
                await self._rename(before or "")
            elif identity == before and now < seen:
                self._log_rolled_back(identity, now, seen)
                await self._rename(identity)
            elif self._buckets > 1 and identity != before:
                await self._settle()
            else:
                self._adopt(identity, self._counted(now))

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self._watch_seconds)
            with contextlib.suppress(StoreUnavailable):  # logged; the next tick tries again
                await self.check()

    # -- lifecycle ----------------------------------------------------------------------------------------
    def _connect(self) -> Any:
        t = self.target
        common: dict[str, Any] = {"username": t.username, "password": t.password, "ssl": t.tls,
                                  "socket_connect_timeout": 2, "socket_timeout": 5, **dict(t.options)}
        if t.kind == "cluster":
            # The cluster client follows MOVED and ASK itself (a resharding), with its own retries.
            return RedisCluster(startup_nodes=[ClusterNode(h, p) for h, p in t.nodes], **common)
        # A dropped connection is retried quickly and briefly; a Redis that stays down becomes StoreUnavailable
        # for this request rather than a long hang.
        retry = Retry(ExponentialBackoff(cap=0.1, base=0.01), 2)
        if t.kind == "sentinel":
            self._sentinel = Sentinel(list(t.nodes), sentinel_kwargs={  # type: ignore[no-untyped-call]
                "socket_connect_timeout": 1, "socket_timeout": 1, "ssl": t.tls})
            return self._sentinel.master_for(t.service, db=t.db, retry=retry, redis_connect_func=self._on_connect,
                                             **common)
        host, port = t.nodes[0]
        return Redis(host=host, port=port, db=t.db, retry=retry, redis_connect_func=self._on_connect, **common)

    async def open(self) -> None:
        if self._client is None:
            self._client = self._connect()
            # Sent by digest (EVALSHA), loaded again by redis-py when a restarted Redis no longer knows them.
            self._scripts = {name: self._client.register_script(text) for name, text in (
                ("claim", _CLAIM), ("claim_run", _CLAIM_RUN), ("start_run", _START_RUN), ("append", _APPEND))}
        try:
            if self._buckets > 1:
                await self._settle()
            else:
                await self._client.ping()  # connects: `_on_connect` reads the identity
        except (RedisError, OSError) as exc:
            raise StoreConfigError(f"cannot reach the Redis store at {self.where}: {_why(exc)}") from None
        except Exception as exc:  # not a Redis that answers as Redis does
            raise StoreConfigError(f"cannot use the Redis store at {self.where}: {type(exc).__name__}: "
                                   f"{_why(exc)}") from None
        if self._watcher is None and self._watch_seconds > 0:
            self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def close(self) -> None:
        if self._watcher is not None:
            watcher, self._watcher = self._watcher, None
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        if self._client is not None:
            client, self._client = self._client, None
            await client.aclose()
        if self._sentinel is not None:
            sentinel, self._sentinel = self._sentinel, None
            for one in sentinel.sentinels:
                await one.aclose()

    async def _redis(self) -> Any:
        if self._client is None or self._identity is None:
            try:
                await self.open()
            except StoreConfigError as exc:
                logger.error("%s", exc)
                raise StoreUnavailable(str(exc)) from None
        return self._client

    @contextlib.contextmanager
    def _reaching(self) -> Iterator[None]:
        """The one place a failure of the Redis client becomes `StoreUnavailable`: what the store itself decided
        (askback's errors) passes through; anything else the client raised means this step's outcome is not
        known here, which is what unavailable says (the callers know whether anything ran: nothing did)."""
        try:
            yield
        except AskbackError:
            raise
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None
        except Exception as exc:  # redis-py raising outside its own errors mid-teardown
            logger.error("the Redis store at %s failed unexpectedly (%s): treated as unavailable",
                         self.where, type(exc).__name__)
            raise self._unavailable(exc) from None

    def _unavailable(self, exc: BaseException) -> StoreUnavailable:
        logger.error("the Redis store at %s is unavailable: %s", self.where, _why(exc))
        return StoreUnavailable(_why(exc))

    async def _send(self, call: Callable[[Any], Any], *, wait: bool = True, shape: int = 0) -> Any:
        """One command or script; with `replicas=N` (and `wait`), also `WAIT` on the same connection until N
        replicas hold it. A write they do not confirm in `wait_ms` is reported unavailable: the caller does
        nothing it would have done, and a retry (after a failover, on the new primary) decides again.
        `shape`: the length of the list a script returns; any other reply is a connection that answered out of
        turn, and is unavailable too."""
        with self._reaching():
            client = await self._redis()
            if not (wait and self._waits):
                return _shaped(await call(client), shape)
            async with client.pipeline(transaction=False) as pipe:
                queued = call(pipe)
                if inspect.isawaitable(queued):
                    await queued
                pipe.execute_command("WAIT", self.target.replicas, self.target.wait_ms)
                result, acked = _shaped(await pipe.execute(), 2)
                result, acked = _shaped(result, shape), int(acked)
        if acked < self.target.replicas:
            logger.error("the Redis store at %s: %d of the %d replicas it waits for confirmed a write within %d ms",
                         self.where, int(acked), self.target.replicas, self.target.wait_ms)
            raise StoreUnavailable(f"{int(acked)} of {self.target.replicas} replicas confirmed the write")
        return result

    def _script(self, name: str, keys: list[str], args: list[Any]) -> Callable[[Any], Any]:
        return lambda client: self._scripts[name](keys=keys, args=args, client=client)

    # -- operations ---------------------------------------------------------------------------------------
    async def claim(self, flow_id: str, expires_at: float) -> bool:
        # The identity the caller checked its flow against, read before any await: if Redis lost its contents
        # since, the new connection adopts a new identity, and this claim must not count in the new contents.
        expected = self._identity
        key = "used:" + flow_id
        bucket = self._bucket(key)
        outcome, found = await self._send(self._script(
            "claim", [self._at(bucket, "identity"), self._at(bucket, key)], [expected or "", _ms(expires_at)]),
            shape=2)
        if not outcome or expected is None:
            identity = _text(found) or None
            self._refuse_changed(expected, identity)
            await self._refused(bucket, identity)
            raise InvalidRequestState(Rejection.STORE_CHANGED)
        return int(outcome) == 1

    def _refuse_changed(self, expected: str | None, found: str | None) -> None:
        logger.error(
            "refused a single-use claim: the Redis store at %s changed identity (%s, now %s) since the flow "
            "was checked",
            self.where,
            expected,
            found,
        )

    async def claim_run(self, flow_id: str, claimant: str, expires_at: float, started_under: str) -> Claim:
        key = "used:" + flow_id
        bucket = self._bucket(key)
        before, seen = self._identity, self._seen.get(bucket, 0)
        # Not waited for: a hold a failover loses only lets another claimant take it over, which a hold allows
        # anyway; what must survive is the start, and `start_run` waits.
        outcome, found, generation = await self._send(self._script(
            "claim_run", [self._at(bucket, "identity"), self._at(bucket, "generation"), self._at(bucket, key)],
            [started_under, claimant, _ms(expires_at)]), wait=False, shape=3)
        identity = _text(found)
        if not outcome:
            self._refuse_changed(started_under, identity or None)
            await self._refused(bucket, identity or None)
            return Claim.STORE_CHANGED
        if identity == before and int(generation) <= seen:
            self._log_rolled_back(identity, int(generation), seen)
            await self._rename(identity)
            return Claim.STORE_CHANGED
        self._adopt(identity, self._counted(int(generation)), bucket)
        return Claim.HELD if outcome == 1 else Claim.STARTED

    async def start_run(self, flow_id: str, claimant: str, expires_at: float) -> bool:
        key = "used:" + flow_id
        bucket = self._bucket(key)
        before, seen = self._identity, self._seen.get(bucket, 0)
        started, generation = await self._send(self._script(
            "start_run", [self._at(bucket, "generation"), self._at(bucket, key)], [claimant, _ms(expires_at)]),
            shape=2)
        if not started:
            return False
        if before is not None and before == self._identity and int(generation) <= seen:
            self._log_rolled_back(before, int(generation), seen)
            await self._rename(before)
            raise InvalidRequestState(Rejection.STORE_CHANGED)  # it may have run before the store went back
        self._seen[bucket] = max(seen, int(generation))  # confirmed by the replicas waited for, if any
        return True

    async def put(self, key: str, value: bytes, expires_at: float) -> None:
        await self._send(lambda c: c.set(self.prefix + key, value, pxat=_ms(expires_at)))

    async def get(self, key: str) -> bytes | None:
        return _bytes(await self._send(lambda c: c.get(self.prefix + key), wait=False))

    async def take(self, key: str) -> bytes | None:
        # One command: of two takers, one gets it; waited for, so a failover cannot bring a taken secret back.
        return _bytes(await self._send(lambda c: c.getdel(self.prefix + key)))

    async def append(self, key: str, value: bytes, expires_at: float) -> None:
        # One script on one key (one slot in a Cluster), waited for like every write; the list expires with its
        # latest append (each is now + the same TTL).
        await self._send(self._script("append", [self._list(key)], [value, _ms(expires_at)]))

    async def appended(self, key: str) -> list[bytes]:
        values = await self._send(lambda c: c.lrange(self._list(key), 0, -1), wait=False)
        return [b for b in (_bytes(v) for v in values) if b is not None]


async def _server_facts(conn: Connection) -> tuple[str, bool]:
    """This Redis process's `run_id` (new at every restart), and whether its persistence keeps every write.

    Only `appendonly yes` with `appendfsync always` writes each command to disk before answering it; a server
    that refuses `CONFIG` (managed Redis often does) is taken as one that can lose writes: the safe side.
    """
    try:
        await conn.send_command("INFO", "server")
        info = _text(await conn.read_response())
    except ResponseError:  # INFO refused (an ACL): a restart cannot be told; the generation still guards
        logger.warning("the Redis store refuses INFO: a restart from an older snapshot is recognised only by the "
                       "claim generation (docs/replicas.md, persistence)")
        info = ""
    run_id = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("run_id:")), "")
    try:
        await conn.send_command("CONFIG", "GET", "append*")
        reply = await conn.read_response()
    except ResponseError:
        return run_id, False
    pairs = reply.items() if isinstance(reply, dict) else zip(reply[::2], reply[1::2], strict=False)  # RESP3, RESP2
    config = {_text(k): _text(v) for k, v in pairs}
    return run_id, config.get("appendonly") == "yes" and config.get("appendfsync") == "always"


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _ms(expires_at: float) -> int:
    """PXAT milliseconds; a deadline already past still sets the key, which Redis then drops at once."""
    return max(1, int(expires_at * 1000))


def _opt_text(value: object) -> str | None:
    return None if value is None else _text(value)


def _bytes(value: object) -> bytes | None:
    if value is None:
        return None
    return value if isinstance(value, bytes) else str(value).encode()


# redis-py names a pipeline's failed command with its arguments: a stored value (a page's sealed secret) must not
# reach a log line, so only Redis's own answer is kept.
_PIPELINE_COMMAND = re.compile(r"Command # \d+ \(.*?\) of pipeline caused error: ", re.S)


def _why(exc: BaseException) -> str:
    text = _PIPELINE_COMMAND.sub("", " ".join(str(exc).split())) or type(exc).__name__
    return text[:200]


def _shaped(reply: Any, length: int) -> Any:
    """A script's reply (a list of `length`), or unavailable: a reply of another shape belongs to another command."""
    if length and not (isinstance(reply, list | tuple) and len(reply) == length):
        raise RedisConnectionError("a reply out of turn (not the reply of this command)")
    return reply
