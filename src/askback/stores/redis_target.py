"""What a Redis store URL names: one server, a Sentinel-managed primary, or a Cluster; and how to wait for replicas.

    redis://[user:password@]host:port/db                      one Redis (rediss:// for TLS)
    redis+sentinel://[user:password@]h1:p1,h2:p2,h3:p3/NAME/db  the primary Sentinel calls NAME
    redis+cluster://[user:password@]h1:p1,h2:p2                 a Redis Cluster (any of its nodes to start from)

`rediss+sentinel://` and `rediss+cluster://` use TLS. The `+` spelling is the one Kombu/Celery, Sidekiq and
others read for these deployments (redis-py itself parses only `redis://` and `rediss://`). Query parameters
askback reads, all others refused so that a typo is not silently ignored:

- `app=NAME`: the app's namespace (else the app's own name);
- `replicas=N`: every write waits (`WAIT N`) until N replicas hold it, and a write they do not confirm fails as
  unavailable; the default is 1 under Sentinel and 0 elsewhere;
- `wait_ms=MS`: how long a write waits for them (default 500).

Every other parameter is a redis-py connection option (`socket_timeout=0.3`, `ssl_cert_reqs=none`, …), read as
redis-py reads it from its own URLs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from redis.asyncio.connection import URL_QUERY_ARGUMENT_PARSERS

from askback.stores.base import StoreConfigError

SCHEMES = ("redis", "rediss", "redis+sentinel", "rediss+sentinel", "redis+cluster", "rediss+cluster")
FORMS = ("a Redis store URL is redis://host:port/db (rediss:// for TLS), redis+sentinel://host:port,host:port/"
         "NAME/db or redis+cluster://host:port,host:port")
WAIT_MS = 500


@dataclass(frozen=True)
class RedisTarget:
    kind: str  # "single", "sentinel", "cluster"
    tls: bool
    nodes: tuple[tuple[str, int], ...]  # the server; the sentinels; the cluster nodes to start from
    db: int
    service: str  # the Sentinel name of the primary ("" otherwise)
    username: str | None
    password: str | None
    app: str  # the namespace, quoted for keys
    replicas: int  # WAIT for this many replicas after every write (0: do not wait)
    wait_ms: int
    options: tuple[tuple[str, Any], ...] = ()  # redis-py connection options from the query

    @property
    def where(self) -> str:
        """What logs and errors may show of the URL: never the password."""
        scheme = ("rediss" if self.tls else "redis") + ("" if self.kind == "single" else "+" + self.kind)
        hosts = ",".join(f"{h}:{p}" for h, p in self.nodes)
        path = {"single": f"/{self.db}", "sentinel": f"/{self.service}/{self.db}", "cluster": ""}[self.kind]
        return f"{scheme}://{hosts}{path}"


def parse(url: str, app: str) -> RedisTarget:
    parts = urlsplit(url)
    scheme = parts.scheme
    if scheme not in SCHEMES:
        raise StoreConfigError(FORMS)
    kind = scheme.split("+", 1)[1] if "+" in scheme else "single"
    userinfo, _, hostlist = parts.netloc.rpartition("@")
    username, password = _credentials(userinfo)
    nodes = tuple(_node(item, 26379 if kind == "sentinel" else 6379) for item in hostlist.split(",") if item)
    if not nodes or (kind == "single" and len(nodes) != 1):
        raise StoreConfigError(f"{FORMS}: {_shown(scheme, nodes, parts.path)} is not")
    segments = [s for s in parts.path.split("/") if s]
    service, db = "", 0
    try:
        if kind == "sentinel":
            if not segments or len(segments) > 2:
                raise ValueError
            service, db = unquote(segments[0]), int(segments[1]) if len(segments) > 1 else 0
        elif kind == "single":
            if len(segments) > 1:
                raise ValueError
            db = int(segments[0]) if segments else 0
        elif segments:
            raise ValueError  # a cluster has database 0 only
    except ValueError:
        raise StoreConfigError(f"{FORMS}: {_shown(scheme, nodes, parts.path)} is not") from None
    query = parse_qsl(parts.query, keep_blank_values=True)
    values = dict(query)
    options = []
    for key, value in query:
        if key in ("app", "replicas", "wait_ms"):
            continue
        if key in ("db", "host", "port", "username", "password"):
            raise StoreConfigError(f"a Redis store URL names its {key} in the address, not as ?{key}=")
        parser = URL_QUERY_ARGUMENT_PARSERS.get(key)
        try:
            options.append((key, parser(value) if parser else value))
        except (TypeError, ValueError):
            raise StoreConfigError(f"the Redis store URL's {key} has a value redis-py does not read") from None
    name = values.get("app") or app
    if not name:
        raise StoreConfigError("a Redis store needs the app's name for its keys: add ?app=NAME to the URL")
    try:
        replicas = int(values.get("replicas", "1" if kind == "sentinel" else "0"))
        wait_ms = int(values.get("wait_ms", str(WAIT_MS)))
        if replicas < 0 or wait_ms <= 0:
            raise ValueError
    except ValueError:
        raise StoreConfigError("replicas is a count (0 or more) and wait_ms a positive number of milliseconds") \
            from None
    return RedisTarget(kind, scheme.startswith("rediss"), nodes, db, service, username, password,
                       quote(name, safe=""), replicas, wait_ms, tuple(options))


def _credentials(userinfo: str) -> tuple[str | None, str | None]:
    if not userinfo:
        return None, None
    user, colon, password = userinfo.partition(":")
    return (unquote(user) or None), (unquote(password) if colon else None)


def _node(item: str, default_port: int) -> tuple[str, int]:
    if item.startswith("["):  # [::1]:6379
        host, _, rest = item[1:].partition("]")
        port = rest.removeprefix(":")
    else:
        host, _, port = item.partition(":")
    try:
        number = int(port) if port else default_port
    except ValueError:
        raise StoreConfigError(f"{FORMS}: {item!r} is not host:port") from None
    if not host:
        raise StoreConfigError(f"{FORMS}: a host is missing")
    return host, number


def _shown(scheme: str, nodes: tuple[tuple[str, int], ...], path: str) -> str:
    return f"{scheme}://{','.join(f'{h}:{p}' for h, p in nodes)}{path}"
