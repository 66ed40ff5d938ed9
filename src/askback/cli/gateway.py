"""`askback gateway UPSTREAM`: serve an MCP server's tools through askback, which asks for what a call lacks.

The upstream is an http(s) URL or, after `--`, a command that serves MCP over stdio. It is connected before
the gateway claims to serve: an upstream that cannot be reached stops the start with its reason, exit 2.
"""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import anyio
import uvicorn

from askback.cli.serve import Exposure, _AnnouncingServer, _bind, _fail, _host_for_url, _StartError
from askback.cli.stack import HttpStack, StackError
from askback.config import ExposureError, HostChecks
from askback.core.errors import StoreUnavailable
from askback.core.state import KeyConfigError
from askback.core.text import one_line
from askback.stores import StoreConfigError
from askback.web.headlimit import MAX_HEAD_BYTES

if TYPE_CHECKING:
    from askback.adoption.options import ToolOptions
    from askback.app import App
    from askback.client.pending import Server
    from askback.client.signin import SignIn


def _headers(given: Sequence[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for item in given:
        name, colon, value = item.partition(":")
        if not colon or not name.strip():
            raise _StartError(f"--header {item!r} is not NAME:VALUE")
        headers[name.strip()] = value.strip()
    return headers


async def _reach(server: Server, headers: dict[str, str], policy: dict[str, ToolOptions], source: str,
                 sign_in: SignIn | None) -> None:
    """Connect to the upstream and list its tools once (the policy checked against them), before serving: a
    sign-in the upstream needs happens here, while the person who started the gateway is there."""
    from askback.gateway.upstream import Upstream

    async with Upstream(server, headers=headers, policy=policy, policy_source=source, sign_in=sign_in).running():
        pass


def _sign_in(args: argparse.Namespace, server: Server) -> SignIn | None:
    """`--upstream-auth oauth`: the sign-in toward the upstream (its URL's; a command over stdio has no HTTP)."""
    from askback.cli.signin_args import sign_in_from

    if args.upstream_auth != "oauth":
        return None
    if server.url is None:
        raise _StartError("--upstream-auth oauth needs an http(s) upstream: a command over stdio signs in to nothing")
    return sign_in_from(args)


def _asks_sign_in(exc: BaseException) -> bool:
    from askback.client.errors import Unauthorized, only_exception

    inner = only_exception(exc) if isinstance(exc, BaseExceptionGroup) else exc
    return isinstance(inner, Unauthorized) and inner.status == 401


def _unreachable(exc: BaseException) -> str:
    from askback.client.errors import ClientError, only_exception

    if isinstance(exc, BaseExceptionGroup):
        exc = only_exception(exc) or exc
    if isinstance(exc, ClientError):
        return f"failed: {one_line(str(exc))}"
    return f"cannot be reached: {one_line(str(exc)) or type(exc).__name__}"


def _stdio(server: Server, owner: App, headers: dict[str, str], policy: dict[str, ToolOptions], source: str,
           sign_in: SignIn | None) -> int:
    from askback.gateway.policy import PolicyError
    from askback.gateway.stdio import serve_stdio

    try:
        anyio.run(lambda: serve_stdio(server, owner, headers=headers, policy=policy, policy_source=source,
                                      sign_in=sign_in))
    except PolicyError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # stdout is the protocol's: the reason goes to stderr, in one line
        return _fail(f"cannot serve the gateway: the upstream {server.describe()} {_unreachable(exc)}")
    return 0


def run_gateway(args: argparse.Namespace) -> int:
    from askback.app import App
    from askback.cli.serve import _check_start
    from askback.client.pending import Server
    from askback.gateway import gateway_app
    from askback.gateway.policy import PolicyError, load_policy
    from askback.web.serving import PagesConfigError

    upstream: list[str] = list(args.upstream)
    try:
        server = Server.of(upstream[0] if len(upstream) == 1 and "://" in upstream[0] else upstream)
        if server.url is None and upstream[0].startswith(("http:", "https:")):
            raise _StartError(f"{' '.join(upstream)!r}: give one upstream URL, or a command after --")
        headers = _headers(args.header)
        policy = load_policy(args.policy) if args.policy else {}
        sign_in = _sign_in(args, server)
    except (ValueError, _StartError) as exc:  # a `PolicyError` is a ValueError: its one line
        return _fail(str(exc))
    owner = App(args.name)
    try:
        anyio.run(_check_start, owner)
    except StoreUnavailable:
        return _fail("cannot start the gateway: its store cannot be reached (is it running? see ASKBACK_STORE)")
    except (KeyConfigError, StoreConfigError, OSError) as exc:
        return _fail(f"cannot start the gateway: {exc}")
    if args.stdio:
        return _stdio(server, owner, headers, policy, str(args.policy), sign_in)
    try:
        anyio.run(_reach, server, headers, policy, str(args.policy), sign_in)
    except PolicyError as exc:
        return _fail(str(exc))
    except Exception as exc:  # what stops the upstream's connection or listing, in one line
        if sign_in is None and _asks_sign_in(exc):
            return _fail(f"cannot start the gateway: the upstream {server.describe()} needs a sign-in (HTTP 401): "
                         "start it with --upstream-auth oauth")
        return _fail(f"cannot start the gateway: the upstream {server.describe()} {_unreachable(exc)}")
    try:
        hosts, origins, any_origin = Exposure(args.allowed_host, args.allowed_origin,
                                              args.allow_any_origin or None).resolved()
        checks = HostChecks.resolve(args.host, hosts, origins, any_origin)
        asgi = gateway_app(server, name=args.name, headers=headers, app=owner, policy=policy, sign_in=sign_in,
                           host=args.host,
                           allowed_hosts=hosts, allowed_origins=origins, allow_any_origin=any_origin)
        chosen = HttpStack(args.http, args.loop).checked()
        sock = _bind(args.host, args.port)
    except (ExposureError, StackError, _StartError, PagesConfigError) as exc:  # pages unsafe as configured too
        return _fail(str(exc))
    url = f"http://{_host_for_url(args.host)}:{sock.getsockname()[1]}/mcp"

    def announce() -> None:
        print(f"askback: {checks.describe()}", file=sys.stderr)
        print(f"askback: upstream {server.describe()}", file=sys.stderr)
        print(f"askback: serving the gateway {args.name!r} - MCP at {url}", file=sys.stderr)

    try:
        config = uvicorn.Config(asgi, log_level=args.log_level, http=chosen.protocol(), loop=chosen.loop,
                                h11_max_incomplete_event_size=MAX_HEAD_BYTES)
        runner = _ClosingServer(config, announce, getattr(asgi.state, "closing", None))
        runner.run(sockets=[sock])
        if not runner.started:
            return _fail(f"cannot start the gateway: {server.describe()} could not be reached or listed "
                         "(see the log above)")
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0


class _ClosingServer(_AnnouncingServer):
    """uvicorn's server, calling `closing` as its shutdown begins: the gateway's long-lived listen streams end
    first, so the connections uvicorn then waits for can close."""

    def __init__(self, config: uvicorn.Config, announce: Callable[[], None], closing: Callable[[], None] | None
                 ) -> None:
        super().__init__(config, announce)
        self._closing = closing

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self._closing is not None:
            self._closing()
        await super().shutdown(sockets=sockets)
