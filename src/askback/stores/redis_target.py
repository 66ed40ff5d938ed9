"""What a Redis store URL names: one server, a Sentinel-managed primary, or a Cluster; and how to wait for replicas.

    redis://[user:password@]host:port/db                      one Redis (rediss:// for TLS)
    redis+sentinel://[user:password@]h1:p1,h2:p2,h3:p3/NAME/db  the primary Sentinel calls NAME
    redis+cluster://[user:password@]h1:p1,h2:p2                 a Redis Cluster (any of its nodes to start from)

`rediss+sentinel://` and `rediss+cluster://` use TLS. The `+` spelling is the one Kombu/Celery, Sidekiq and
others read for these deployments (redis-py itself parses only `redis://` and `rediss://`). Query parameters
askback reads (any other that is not a redis-py connection option is refused, so that a typo is not silently
ignored):

- `app=NAME`: the app's namespace (else the app's own name);
- `replicas=N`: every write waits (`WAIT N`) until N replicas hold it, and a write they do not confirm fails as
  unavailable; the default is 1 under Sentinel and 0 elsewhere;
- `wait_ms=MS`: how long a write waits for them (default 500).

Every other parameter is a redis-py connection option (`socket_timeout=0.3`, `ssl_cert_reqs=none`, …), read as
redis-py reads it from its own URLs. `redis://` also reads `?db=`, `?port=`, `?username=` and `?password=` as
redis-py does (`?db=` over the path; the others where the address has none); Sentinel and Cluster URLs name
them in the address only.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from redis.asyncio import Redis, RedisCluster
from redis.asyncio.connection import URL_QUERY_ARGUMENT_PARSERS

from askback.stores.base import StoreConfigError

SCHEMES = ("redis", "rediss", "redis+sentinel", "rediss+sentinel", "redis+cluster", "rediss+cluster")
FORMS = ("a Redis store URL is redis://host:port/db (rediss:// for TLS), redis+sentinel://host:port,host:port/"
         "NAME/db or redis+cluster://host:port,host:port")
WAIT_MS = 500
_ADDRESS = ("db", "host", "port", "username", "password")
# Never from a query: what the store sets itself (the address, TLS, how it reconnects and vouches), and
# parameters that take Python objects rather than text.
_OWN = frozenset({*_ADDRESS, "self", "kwargs", "ssl", "retry", "redis_connect_func", "connection_pool",
                  "startup_nodes", "unix_socket_path", "single_connection_client", "auto_close_connection_pool",
                  "credential_provider", "event_dispatcher", "driver_info", "maint_notifications_config",
                  "retry_on_error", "socket_keepalive_options", "cache", "cache_config", "address_remap",
                  "connection_class", "reinitialize_steps"})


def _parameters(cls: type) -> frozenset[str]:
    return frozenset(inspect.signature(cls).parameters) - _OWN


# The redis-py connection options a query may set: the parameters of the client each kind is made with.
_OPTIONS = {"single": _parameters(Redis), "sentinel": _parameters(Redis), "cluster": _parameters(RedisCluster)}


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
    if kind == "single":  # what redis-py's own redis:// URLs read from the query, as it reads them
        _, _, given = hostlist.rpartition("]")[2].partition(":")
        nodes, db, username, password = _address_in_query(values, nodes[0][0], nodes[0][1] if given else None, db,
                                                          username, password)
    accepted = _OPTIONS[kind]
    options = []
    for key, value in query:
        if key in ("app", "replicas", "wait_ms") or (kind == "single" and key in _ADDRESS):
            continue
        if key in _ADDRESS:
            raise StoreConfigError(f"a {scheme}:// store URL names its {key} in the address, not as ?{key}=")
        if key not in accepted:
            raise StoreConfigError(f"the Redis store URL's ?{key}= is neither askback's (app, replicas, wait_ms) "
                                   "nor a redis-py connection option")
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


def _address_in_query(values: dict[str, str], host: str, port: int | None, db: int, username: str | None,
                      password: str | None) -> tuple[tuple[tuple[str, int], ...], int, str | None, str | None]:
    """`redis://` as redis-py has always read it, and askback with it before Sentinel and Cluster: `?db=` wins
    over the path; `?port=`, `?username=` and `?password=` count where the address has none; the address's
    host wins over `?host=`. So a deployment's `redis://host/?db=2` keeps its database."""
    try:
        db = int(values["db"]) if "db" in values else db
        port = port if port is not None else int(values.get("port", "6379"))
    except ValueError:
        raise StoreConfigError("a Redis store URL's ?db= and ?port= are numbers") from None
    return (((host, port),), db, username or values.get("username") or None,
            password if password is not None else values.get("password"))


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
