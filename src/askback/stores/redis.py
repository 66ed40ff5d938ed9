"""Redis store: what several replicas on several machines share (`redis://host:port/db`, `rediss://` for TLS).

Every operation is one atomic Redis command, so no lock is needed across replicas: a claim is `SET NX PXAT`
(exactly one replica records a flow id), taking a secret is `GETDEL` (exactly one reader gets it), and every key
expires with the flow it belongs to (`PXAT`, the flow's deadline). Keys are namespaced per app,
`askback:<app>:<key>`, so several apps can share one Redis.

The store's identity is a key set once (`SET NX`) by the first replica to see the contents. A Redis restarted
without persistence (or flushed) loses it, and with it every used-flow record: the next connection notices and
adopts a new identity, and a claim whose flow started under the old one is refused, because whether it already
ran cannot be known. Every claim reads the identity in the same transaction as its `SET NX`, so a flush between
two requests is caught too.

Redis unreachable fails closed: every operation raises `StoreUnavailable` (retryable, nothing ran); the client
reconnects by itself on the next call once Redis is back.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from redis.asyncio import Redis
from redis.asyncio.connection import Connection
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisError

from askback.core.errors import InvalidRequestState, Rejection, StoreUnavailable
from askback.stores.base import Clock, StoreConfigError

logger = logging.getLogger("askback")

SCHEMES = ("redis", "rediss")


class RedisStore:
    """One app's keys in one Redis database."""

    shared = True  # replicas on other machines share it: they need one key ring (ASKBACK_KEYS)

    def __init__(self, url: str, *, app: str = "", clock: Clock = time.time) -> None:
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

    @staticmethod
    def _safe(parts: Any) -> str:
        return f"{parts.scheme}://{parts.hostname}:{parts.port or ''}{parts.path}"

    # -- identity -----------------------------------------------------------------------------------------
    @property
    def identity(self) -> str:
        if self._identity is None:
            logger.error("the Redis store at %s was used before it was opened", self.where)
            raise StoreUnavailable("the Redis store was not opened")
        return self._identity

    async def _on_connect(self, conn: Connection) -> None:
        """Every new connection (at start, and after Redis came back) re-reads the identity before any command."""
        await conn.on_connect()
        await conn.send_command("SET", self.prefix + "identity", "redis-" + os.urandom(6).hex(), "NX", "GET")
        found = await conn.read_response()
        if found is None:  # this connection set it: the contents are new (first start, or Redis lost them)
            await conn.send_command("GET", self.prefix + "identity")
            found = await conn.read_response()
        self._adopt(found.decode() if isinstance(found, bytes) else str(found))

    def _adopt(self, identity: str) -> None:
        if self._identity is not None and identity != self._identity:
            logger.error(
                "the Redis store at %s lost its contents (restarted without persistence, or flushed): its identity "
                "was %s and is now %s; single-use flows started before are refused, since whether they ran is lost",
                self.where,
                self._identity,
                identity,
            )
        self._identity = identity

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
        try:
            await self._client.ping()  # connects: `_on_connect` reads the identity
        except (RedisError, OSError) as exc:
            raise StoreConfigError(f"cannot reach the Redis store at {self.where}: {_why(exc)}") from None

    async def close(self) -> None:
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
            logger.error(
                "refused a single-use claim: the Redis store at %s changed identity (%s, now %s) since the flow "
                "was checked",
                self.where,
                expected,
                found,
            )
            if found is None:
                await self._reestablish()
            else:
                self._adopt(found)
            raise InvalidRequestState(Rejection.STORE_CHANGED)
        return bool(won)

    async def _reestablish(self) -> None:
        """The identity key is gone but the connection stayed (a flush): name the new contents."""
        client = await self._redis()
        try:
            candidate = "redis-" + os.urandom(6).hex()
            found = await client.set(self.prefix + "identity", candidate, nx=True, get=True)
        except (RedisError, OSError) as exc:
            raise self._unavailable(exc) from None
        self._adopt(found.decode() if isinstance(found, bytes) else candidate)

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
