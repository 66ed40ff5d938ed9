"""Redis store: what several replicas on several machines share (`redis://host:port/db`, `rediss://` for TLS).

Every operation is one atomic Redis command or script, so no lock is needed across replicas: a run of a
single-use flow is held (`claim_run`) and then started (`start_run`) by one script each, a one-time mark is
`SET NX PXAT`, taking a secret is `GETDEL` (exactly one reader gets it), a list that only grows (a receipt's
entries) is one script (`RPUSH`, then `PEXPIREAT`), and every key expires with the flow it
belongs to (`PXAT`, the flow's deadline). Keys are namespaced per app, `askback:<app>:<key>`, so several apps
can share one Redis.

The store's identity names its contents. A single-use flow records the identity it started under, and its
claim is refused when the store's identity differs, because whether it already ran cannot be known. The
identity changes when the contents may have lost claims:

- the identity key is gone (Redis restarted without persistence, or flushed): the next replica to see it names
  the new contents;
- Redis restarted (its `run_id` changed) with persistence that can lose acknowledged writes (anything but
  `appendonly yes` with `appendfsync always`): an RDB snapshot, or the last second of an `everysec` AOF, may
  predate claims that were made, so the identity is renewed rather than trusted;
- the claim generation went backwards: every claim and start increments `generation`, and each replica
  remembers the highest value it saw; a store that answers with less (restored, or failed over to a replica
  that lagged) is renamed by the first replica that notices.

Every replica checks the identity once a second (`WATCH_SECONDS`) and on every new connection, so replicas agree
on new contents within about a second without a restart.

Redis unreachable fails closed: every operation raises `StoreUnavailable` (retryable, nothing ran); the client
reconnects by itself on the next call once Redis is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from redis.asyncio import Redis
from redis.asyncio.connection import Connection
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import RedisError, ResponseError

from askback.core.errors import InvalidRequestState, Rejection, StoreUnavailable
from askback.stores.base import Claim, Clock, StoreConfigError

logger = logging.getLogger("askback")

SCHEMES = ("redis", "rediss")
WATCH_SECONDS = 1.0  # how often a replica re-reads the identity: the bound on agreeing about new contents

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

# Add to a list that only grows (KEYS the list; ARGV the value, PXAT): one key, so one slot in a Cluster too.
_APPEND = """
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
"""


class RedisStore:
    """One app's keys in one Redis database."""

    shared = True  # replicas on other machines share it: they need one key ring (ASKBACK_KEYS)

    def __init__(self, url: str, *, app: str = "", clock: Clock = time.time,
                 watch_seconds: float = WATCH_SECONDS) -> None:
        parts = urlsplit(url)
        if parts.scheme not in SCHEMES or not parts.hostname:
            raise StoreConfigError("a Redis store URL is redis://host:port/db (or rediss:// for TLS)")
        query = parse_qsl(parts.query, keep_blank_values=True)
        named = [v for k, v in query if k == "app"]
        name = named[-1] if named else app
        if not name:
            raise StoreConfigError("a Redis store needs the app's name for its keys: add ?app=NAME to the URL")
        try:
            db = int(parts.path.strip("/") or "0")
            port = parts.port or 6379
        except ValueError:
            raise StoreConfigError(f"a Redis store URL is redis://host:port/db: {self._safe(parts)} is not") from None
        # What logs and errors may show of the URL: never the password.
        self.where = f"{parts.scheme}://{parts.hostname}:{port}/{db}"
        self._url = urlunsplit(parts._replace(query=urlencode([(k, v) for k, v in query if k != "app"])))
        self.prefix = f"askback:{quote(name, safe='')}:"
        self._clock = clock
        self._client: Redis | None = None
        self._identity: str | None = None
        self._seen = 0  # the highest claim generation seen under `_identity`
        self._watch_seconds = watch_seconds
        self._watcher: asyncio.Task[None] | None = None
        self._scripts: dict[str, AsyncScript] = {}  # registered on the client when it is made

    @staticmethod
    def _safe(parts: Any) -> str:
        return f"{parts.scheme}://{parts.hostname}:{parts.port or ''}{parts.path}"

    def _keys(self, *names: str) -> list[str]:
        return [self.prefix + n for n in names]

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
        """Every new connection (at start, and after Redis came back) vouches for the identity before any command."""
        await conn.on_connect()
        run_id, durable = await _server_facts(conn)
        before = self._identity, self._seen
        await conn.send_command("EVAL", _VOUCH, 3, *self._keys("identity", "identity:run", "generation"),
                                self._candidate(), run_id, "1" if durable else "0")
        found, how, generation = await conn.read_response()
        identity = _text(found)
        if _text(how) == "restarted":
            logger.error(
                "the Redis store at %s restarted with persistence that can lose acknowledged writes (only "
                "appendonly yes with appendfsync always keeps them all): its identity was %s and is now %s; "
                "single-use flows started before are refused, since whether they ran may be lost",
                self.where, before[0], identity)
            self._identity = None  # the error above says it all: no second "lost its contents" line
        if identity == before[0] and int(generation) < before[1]:
            identity, generation = await self._rename_on(conn, identity, int(generation), before[1])
        self._adopt(identity, int(generation))

    async def _rename_on(self, conn: Connection, identity: str, generation: int, seen: int) -> tuple[str, int]:
        self._log_rolled_back(identity, generation, seen)
        await conn.send_command("EVAL", _RENAME, 2, *self._keys("identity", "generation"), identity,
                                self._candidate())
        found, now = await conn.read_response()
        return _text(found), int(now)

    def _log_rolled_back(self, identity: str, generation: int, seen: int) -> None:
        logger.error(
            "the Redis store at %s went back in time (claim generation %d, this replica saw %d: restored from an "
            "older snapshot, or failed over to a replica that lagged); its identity %s is renewed, and single-use "
            "flows started before are refused, since whether they ran may be lost",
            self.where, generation, seen, identity)

    def _adopt(self, identity: str, generation: int) -> None:
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
            self._identity, self._seen = identity, generation
        else:
            self._seen = max(self._seen, generation)

    async def _rename(self, lost: str) -> None:
        """Rename contents that lost claims (unless another replica already has), and adopt the result."""
        client = await self._redis()
        try:
            found, generation = await client.eval(_RENAME, 2, *self._keys("identity", "generation"), lost,
                                                  self._candidate())
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None
        self._adopt(_text(found), int(generation))

    async def check(self) -> None:
        """Re-read the identity and the generation: what the watcher does once every `watch_seconds`."""
        before = self._identity, self._seen
        client = await self._redis()
        try:
            found, generation = await client.mget(self._keys("identity", "generation"))
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None
        identity, now = (_text(found) if found is not None else None), int(generation or 0)
        if identity is None:
            await self._rename(before[0] or "")
        elif identity == before[0] and now < before[1]:
            self._log_rolled_back(identity, now, before[1])
            await self._rename(identity)
        else:
            self._adopt(identity, now)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self._watch_seconds)
            with contextlib.suppress(StoreUnavailable):  # logged; the next tick tries again
                await self.check()

    # -- lifecycle ----------------------------------------------------------------------------------------
    async def open(self) -> None:
        if self._client is None:
            self._client = Redis.from_url(
                self._url,
                socket_connect_timeout=2,
                socket_timeout=5,
                # A dropped connection is retried quickly and briefly; a Redis that stays down becomes
                # StoreUnavailable for this request rather than a long hang.
                retry=Retry(ExponentialBackoff(cap=0.1, base=0.01), 2),
                redis_connect_func=self._on_connect,
            )
            # Sent by digest (EVALSHA), loaded again by redis-py when a restarted Redis no longer knows them.
            self._scripts = {"claim_run": self._client.register_script(_CLAIM_RUN),
                             "start_run": self._client.register_script(_START_RUN),
                             "append": self._client.register_script(_APPEND)}
        try:
            await self._client.ping()  # connects: `_on_connect` reads the identity
        except (RedisError, OSError) as exc:
            raise StoreConfigError(f"cannot reach the Redis store at {self.where}: {_why(exc)}") from None
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

    async def _redis(self) -> Redis:
        if self._client is None or self._identity is None:
            try:
                await self.open()
            except StoreConfigError as exc:
                logger.error("%s", exc)
                raise StoreUnavailable(str(exc)) from None
        assert self._client is not None
        return self._client

    def _unavailable(self, exc: BaseException) -> StoreUnavailable:
        logger.error("the Redis store at %s is unavailable: %s", self.where, _why(exc))
        return StoreUnavailable(_why(exc))

    # -- operations ---------------------------------------------------------------------------------------
    async def claim(self, flow_id: str, expires_at: float) -> bool:
        # The identity the caller checked its flow against, read before any await: if Redis lost its contents
        # since, the new connection adopts a new identity, and this claim must not count in the new contents.
        expected = self._identity
        client = await self._redis()
        try:
            async with client.pipeline(transaction=True) as tx:  # MULTI/EXEC: both in one atomic step
                tx.get(self.prefix + "identity")
                tx.set(self.prefix + "used:" + flow_id, b"1", nx=True, pxat=_ms(expires_at))
                identity, won = await tx.execute()
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None
        found = identity.decode() if isinstance(identity, bytes) else None
        if expected is None or found != expected:
            self._refuse_changed(expected, found)
            if found is None:
                await self._rename("")
            else:
                self._adopt(found, 0)
            raise InvalidRequestState(Rejection.STORE_CHANGED)
        return bool(won)

    def _refuse_changed(self, expected: str | None, found: str | None) -> None:
        logger.error(
            "refused a single-use claim: the Redis store at %s changed identity (%s, now %s) since the flow "
            "was checked",
            self.where,
            expected,
            found,
        )

    async def claim_run(self, flow_id: str, claimant: str, expires_at: float, started_under: str) -> Claim:
        before = self._identity, self._seen
        await self._redis()
        try:
            outcome, found, generation = await self._scripts["claim_run"](
                self._keys("identity", "generation", "used:" + flow_id), [started_under, claimant, _ms(expires_at)])
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None
        identity = _text(found)
        if not outcome:
            self._refuse_changed(started_under, identity or None)
            if identity:
                self._adopt(identity, 0)
            else:
                await self._rename(before[0] or "")
            return Claim.STORE_CHANGED
        if identity == before[0] and int(generation) <= before[1]:
            self._log_rolled_back(identity, int(generation), before[1])
            await self._rename(identity)
            return Claim.STORE_CHANGED
        self._adopt(identity, int(generation))
        return Claim.HELD if outcome == 1 else Claim.STARTED

    async def start_run(self, flow_id: str, claimant: str, expires_at: float) -> bool:
        before = self._identity, self._seen
        await self._redis()
        try:
            started, generation = await self._scripts["start_run"](
                self._keys("generation", "used:" + flow_id), [claimant, _ms(expires_at)])
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None
        if not started:
            return False
        if before[0] == self._identity and int(generation) <= before[1]:
            assert before[0] is not None
            self._log_rolled_back(before[0], int(generation), before[1])
            await self._rename(before[0])
            raise InvalidRequestState(Rejection.STORE_CHANGED)  # it may have run before the store went back
        self._seen = max(self._seen, int(generation))
        return True

    async def put(self, key: str, value: bytes, expires_at: float) -> None:
        client = await self._redis()
        try:
            await client.set(self.prefix + key, value, pxat=_ms(expires_at))
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None

    async def get(self, key: str) -> bytes | None:
        client = await self._redis()
        try:
            value = await client.get(self.prefix + key)
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None
        return _bytes(value)

    async def take(self, key: str) -> bytes | None:
        client = await self._redis()
        try:
            value = await client.getdel(self.prefix + key)  # one command: of two takers, one gets it
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None
        return _bytes(value)

    async def append(self, key: str, value: bytes, expires_at: float) -> None:
        await self._redis()
        try:  # the latest append's expiry: each is now + the same TTL
            await self._scripts["append"](keys=[self._list(key)], args=[value, _ms(expires_at)])
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None

    async def appended(self, key: str) -> list[bytes]:
        client = await self._redis()
        try:
            values = await client.lrange(self._list(key), 0, -1)
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None
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


def _bytes(value: object) -> bytes | None:
    if value is None:
        return None
    return value if isinstance(value, bytes) else str(value).encode()


def _why(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]
