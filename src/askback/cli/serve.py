"""`askback serve` and `askback demo`: run an app over streamable HTTP or stdio.

Everything that can stop a server is checked before it claims to serve, and reported as one line with exit
status 2: the target, the keys and the store, which Host and Origin values to accept, and the port (bound here,
before uvicorn starts, so that "serving ... at URL" is only printed for a port that is really listening).
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
import uvicorn

from askback.app import App
from askback.cli import collection
from askback.cli.stack import HttpStack, StackError
from askback.config import ExposureError, HostChecks, env_flag, env_list
from askback.core.errors import StoreUnavailable
from askback.core.state import KeyConfigError
from askback.loader import TargetError, load_app
from askback.mcp.http import http_app
from askback.stores import StoreConfigError
from askback.telemetry import setup as telemetry
from askback.web.headlimit import MAX_HEAD_BYTES
from askback.web.serving import PagesConfigError

if TYPE_CHECKING:
    from starlette.applications import Starlette

EXIT_USAGE = 2
_TARGET_ENV = "ASKBACK_SERVE_TARGET"
_HTTP_ENV = "ASKBACK_SERVE_HTTP"  # what the parent resolved, for `--workers N` processes


@dataclass(frozen=True)
class Exposure:
    """The allow-lists as given on the command line; unset ones come from the environment."""

    allowed_hosts: Sequence[str] | None = None
    allowed_origins: Sequence[str] | None = None
    allow_any_origin: bool | None = None

    def resolved(self) -> tuple[list[str] | None, list[str] | None, bool]:
        hosts = list(self.allowed_hosts) if self.allowed_hosts else env_list("ASKBACK_ALLOWED_HOSTS")
        origins = list(self.allowed_origins) if self.allowed_origins else env_list("ASKBACK_ALLOWED_ORIGINS")
        any_origin = self.allow_any_origin or env_flag("ASKBACK_ALLOW_ANY_ORIGIN")
        return hosts, origins, any_origin


class _StartError(Exception):
    """A server that cannot start; the message is the one line the command prints."""


def _fail(message: str) -> int:
    print(f"askback: {message}", file=sys.stderr)
    return EXIT_USAGE


def _worker_app() -> Starlette:
    """uvicorn factory for `--workers N`: each worker process loads the target itself."""
    settings = json.loads(os.environ[_HTTP_ENV])
    telemetry.from_environment()  # per process: the SDK's exporters run on threads of the process that serves
    return http_app(load_app(os.environ[_TARGET_ENV]), **settings)


def serve(
    target: str,
    host: str,
    port: int,
    stdio: bool,
    workers: int,
    log_level: str,
    exposure: Exposure | None = None,
    stack: HttpStack | None = None,
) -> int:
    try:
        app = load_app(target)
    except TargetError as exc:
        return _fail(str(exc))
    try:
        anyio.run(_check_start, app)  # fail here, with a clear message, on a bad key or store
    except StoreUnavailable:
        return _fail(f"cannot start {app.name!r}: its store cannot be reached (is it running? see ASKBACK_STORE)")
    except (KeyConfigError, StoreConfigError, OSError) as exc:
        return _fail(f"cannot start {app.name!r}: {exc}")
    problem = _a2a_store_problem()
    if problem is not None:
        return _fail(f"cannot start {app.name!r}: {problem}")
    if workers <= 1:
        telemetry.from_environment()  # the standard OTEL_* variables, when they ask for it (each worker: its own)
    if stdio:
        collection.resume()
        return _serve_stdio(app)
    try:
        hosts, origins, any_origin = (exposure or Exposure()).resolved()
        checks = HostChecks.resolve(host, hosts, origins, any_origin)
        settings: dict[str, Any] = {
            "host": host, "allowed_hosts": hosts, "allowed_origins": origins, "allow_any_origin": any_origin,
        }
        asgi = http_app(app, **settings)  # built before binding: a configuration it refuses never listens
        chosen = (stack or HttpStack()).checked()
        sock = _bind(host, port)
    except (ExposureError, PagesConfigError, StackError, _StartError) as exc:
        return _fail(str(exc))
    url = f"http://{_host_for_url(host)}:{sock.getsockname()[1]}/mcp"

    def announce() -> None:  # "serving" comes last: it is the line that says the server is ready
        print(f"askback: {checks.describe()}", file=sys.stderr)
        parser, loop = chosen.resolved()
        print(f"askback: HTTP parser {parser}, event loop {loop}", file=sys.stderr)
        print(f"askback: serving {app.name!r} - MCP at {url}", file=sys.stderr)
        if _a2a_installed():
            base = url.removesuffix("/mcp")
            print(f"askback: A2A agent at {base} (card: {base}/.well-known/agent-card.json)", file=sys.stderr)

    try:
        if workers > 1:
            from uvicorn.supervisors import Multiprocess

            os.environ[_TARGET_ENV] = target
            os.environ[_HTTP_ENV] = json.dumps(settings)
            config = uvicorn.Config(
                "askback.cli.serve:_worker_app", factory=True, workers=workers, log_level=log_level,
                http=chosen.protocol(), loop=chosen.loop, h11_max_incomplete_event_size=MAX_HEAD_BYTES,
            )
            announce()  # the port is bound and listening; each worker accepts on it once it has loaded the app
            collection.resume()
            Multiprocess(config, sockets=[sock]).run()
        else:
            config = uvicorn.Config(asgi, log_level=log_level, http=chosen.protocol(), loop=chosen.loop,
                                    h11_max_incomplete_event_size=MAX_HEAD_BYTES)
            server = _AnnouncingServer(config, announce)
            server.run(sockets=[sock])
            if not server.started:
                return _fail(f"cannot start {app.name!r}: the server did not start (see the log above)")
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0


async def _check_start(app: App) -> None:
    """Resolve the keys and open the store once, then close it: the server opens its own at start-up."""
    await app.start()
    await app.stop()


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (uvicorn's way: IPv6 for a host with ':'), or a `_StartError`."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    where = f"{_host_for_url(host)}:{port}"
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on accepted sockets whose listener names TCP, and without
    # it each small response waits for the peer's delayed ACK (40 ms on Linux), in every worker.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except socket.gaierror:
        sock.close()
        raise _StartError(f"cannot listen on {where}: {host!r} is not an address or a known host name") from None
    except OSError as exc:
        sock.close()
        raise _StartError(f"cannot listen on {where}: {_bind_reason(exc, port)}") from None
    sock.set_inheritable(True)
    return sock


def _bind_reason(exc: OSError, port: int) -> str:
    if exc.errno == errno.EADDRINUSE:
        return "the address is already in use (another server is on that port; pick another with --port)"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "that address is not one of this machine's (see --host)"
    if exc.errno == errno.EACCES:
        return f"permission denied (port {port} needs privileges; pick one above 1023)"
    return exc.strerror or str(exc)


def _host_for_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class _AnnouncingServer(uvicorn.Server):
    """uvicorn's server, announcing once start-up has completed (lifespan run, socket accepting)."""

    def __init__(self, config: uvicorn.Config, announce: Callable[[], None]) -> None:
        super().__init__(config)
        self._announce = announce

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            self._announce()
            collection.resume()  # what start-up built is frozen out of later collections


def _serve_stdio(app: object) -> int:
    import anyio
    from mcp.server.stdio import stdio_server

    from askback.app import App
    from askback.mcp.server import build_server

    assert isinstance(app, App)
    server = build_server(app)

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)
    return 0


def _a2a_store_problem() -> str | None:
    """What is wrong with `ASKBACK_A2A_TASKS`, read now although the A2A agent is built on first need."""
    import os

    from askback.a2a.storeurl import TASKS_ENV, TaskStoreConfigError, database_url
    from askback.datadir import default_data_dir

    configured = os.environ.get(TASKS_ENV) or None
    if configured is None or not _a2a_installed():
        return None
    try:
        database_url(configured, default_data_dir())
    except TaskStoreConfigError as exc:
        return str(exc)
    return None


def _a2a_installed() -> bool:
    from importlib.util import find_spec

    return find_spec("a2a") is not None
