"""The `askback` command.

`serve` and `demo` run an app over streamable HTTP or stdio; `gateway` serves another MCP server's tools.
`passkeys enroll|list|revoke` manage the passkeys an app's approvals ask for (docs/passkeys.md).
`receipts` shows what an app's approvals and single-use runs left in its store. `call`, `resume` and `tools` are
the client: they call any MCP server and answer what it asks (docs/client.md),
with these exit codes:

    0 the call completed          3 questions saved with --save-pending     6 server error or unreachable
    1 the tool reported an error  4 round cap or deadline reached            130 interrupted (Ctrl-C)
    2 usage error                 5 a question could not be answered
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from askback._version import __version__
from askback.cli import collection
from askback.cli.stack import HTTP_CHOICES, LOOP_CHOICES

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
_TRACE = 5  # uvicorn's TRACE level, below DEBUG: `--log-level trace` is the most verbose for every logger


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line (what is wrong, and where the help is) instead of the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each flag's default, except where there is none to show (off switches, unset lists)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False or "(default:" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0-65535)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0-65535; 0 picks a free one)")
    return port


def _workers(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of worker processes (1 or more)")
    return count


def _page_wait(text: str) -> str:
    from askback.pagewait import PageWaitError, seconds_from

    try:
        seconds_from(text)
    except PageWaitError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (0 or more)") from None
    return text


def _add_http_flags(parser: argparse.ArgumentParser, log_level: str) -> None:
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on; off loopback, say which Host values to accept"
    )
    parser.add_argument("--port", type=_port, default=8000, help="TCP port; 0 picks a free one (printed at start)")
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="where a person's browser reaches this server, for the pages of secrets and approvals; https:// "
        "off loopback (env ASKBACK_PUBLIC_URL) (default: the address a loopback request came to)",
    )
    parser.add_argument(
        "--page-wait",
        metavar="SECONDS",
        type=_page_wait,
        help="how long a client's retry of a page step it accepted is held while the page is not done, for an "
        "app that does not set page_wait itself; 0 turns it off (env ASKBACK_PAGE_WAIT) (default: 20)",
    )
    parser.add_argument(
        "--http",
        default="auto",
        choices=HTTP_CHOICES,
        help="HTTP parser: auto is httptools when installed (it is a dependency), else h11",
    )
    parser.add_argument(
        "--loop", default="auto", choices=LOOP_CHOICES, help="event loop: auto is uvloop when installed, else asyncio"
    )
    parser.add_argument(
        "--log-level", default=log_level, choices=LOG_LEVELS, type=str.lower, help="server log verbosity"
    )
    checks = parser.add_argument_group(
        "Host and Origin checks",
        "Each request must carry an allowed Host and, if it sends one, an allowed Origin (DNS-rebinding and "
        "cross-site protection, required by MCP). On a loopback --host the loopback names are allowed; on any "
        "other host give --allowed-host or --allow-any-origin, or the server does not start.",
    )
    checks.add_argument(
        "--allowed-host",
        action="append",
        metavar="HOST",
        help="a Host value to accept: name, name:port or name:* (repeatable; env ASKBACK_ALLOWED_HOSTS, "
        "comma-separated) (default: the loopback names on a loopback --host)",
    )
    checks.add_argument(
        "--allowed-origin",
        action="append",
        metavar="ORIGIN",
        help="an Origin to accept: scheme://name[:port|:*] (repeatable; env ASKBACK_ALLOWED_ORIGINS) "
        "(default: http:// and https:// of each allowed host)",
    )
    checks.add_argument(
        "--allow-any-origin",
        action="store_true",
        help="check neither Host nor Origin: only behind a proxy that checks them, or for a public server "
        "(env ASKBACK_ALLOW_ANY_ORIGIN=1)",
    )


SERVER_COMMANDS = ("serve", "demo", "gateway")


def _parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The command line's parser. A server's (`serve ...`, `demo ...`) is read by its own subcommand alone: the
    other subcommands' parsers, the client's among them, are start-up time the server would wait for."""
    first = argv[0] if argv else None
    every = first not in SERVER_COMMANDS
    description = "Typed MCP tools that ask for what is missing."
    parser: argparse.ArgumentParser = _Parser(prog="askback", description=description)
    parser.add_argument("--version", action="version", version=f"askback {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    if every or first == "serve":
        _add_serve(sub)
    if every or first == "demo":
        demo = sub.add_parser(
            "demo",
            help="serve the bundled demo app on the embedded defaults",
            description="Serve the bundled demo app (askback.demo:app) over MCP streamable HTTP.",
            formatter_class=_HelpFormatter,
        )
        _add_http_flags(demo, log_level="info")
        demo.add_argument(
            "--passkeys", action="store_true",
            help="the transfer above 1,000 EUR is approved with a passkey: prints a link that enrolls one first",
        )
    if every or first == "gateway":
        from askback.cli.gateway_args import add_gateway

        add_gateway(sub, _add_http_flags, _HelpFormatter)
    if every or first == "receipts":
        from askback.cli.receipts import add_receipts

        add_receipts(sub, _HelpFormatter)
    if every:
        from askback.cli.client_args import add_client_commands

        add_client_commands(sub)
        from askback.cli.passkeys import add_passkeys

        add_passkeys(sub, _HelpFormatter)
    return parser


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser(
        "serve",
        help="serve an app (path/file.py[:attr] or module:attr)",
        description="Serve an askback app over MCP streamable HTTP (at http://HOST:PORT/mcp) or stdio.",
        formatter_class=_HelpFormatter,
    )
    serve.add_argument("target", help="the app: path/to/file.py[:attr] or package.module[:attr] (attr: app)")
    _add_http_flags(serve, log_level="warning")
    serve.add_argument("--stdio", action="store_true", help="serve one client over stdin/stdout instead of HTTP")
    serve.add_argument(
        "--workers", type=_workers, default=1, help="worker processes, each importing the target (HTTP only)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parser(argv).parse_args(argv)
    if args.command == "passkeys":
        from askback.cli.passkeys import run_passkeys

        return run_passkeys(args)

    if args.command == "receipts":
        from askback.cli.receipts import run_receipts

        return run_receipts(args)
    if args.command not in SERVER_COMMANDS:
        from askback.cli.client import run_client  # here: serving never loads the client's code

        return run_client(args)
    logging.basicConfig(
        level=_TRACE if args.log_level == "trace" else getattr(logging, str(args.log_level).upper(), logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    collection.pause()  # until the server listens (`askback.cli.collection`)
    try:
        return _serve(args)
    finally:
        collection.resume()


def _serve(args: argparse.Namespace) -> int:
    # Imported here: the client commands never load the server, its store or uvicorn.
    from askback.cli.serve import Exposure, serve
    from askback.cli.stack import HttpStack

    exposure = Exposure(args.allowed_host, args.allowed_origin, args.allow_any_origin or None)
    if args.public_url:
        os.environ["ASKBACK_PUBLIC_URL"] = args.public_url  # every worker process reads it as it loads the app
    if args.page_wait is not None:
        os.environ["ASKBACK_PAGE_WAIT"] = args.page_wait  # read by each App as it is made (in every worker)
    stack = HttpStack(args.http, args.loop)
    if args.command == "gateway":
        from askback.cli.gateway import run_gateway

        return run_gateway(args)
    if args.command == "demo":
        if args.passkeys:
            from askback.cli.passkeys import demo_enrollment

            os.environ["ASKBACK_APPROVE_WITH"] = "passkey"  # read by the demo's App as it is made
            demo_enrollment(args.port)
        return serve("askback.demo:app", args.host, args.port, False, 1, args.log_level, exposure, stack)
    return serve(args.target, args.host, args.port, args.stdio, args.workers, args.log_level, exposure, stack)
