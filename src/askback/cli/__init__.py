"""The `askback` command.

`serve` and `demo` run an app over streamable HTTP or stdio. `call`, `resume` and `tools` are the client:
they call any MCP server and answer what it asks (docs/client.md), with these exit codes:

    0 the call completed          3 questions saved with --save-pending     6 server error or unreachable
    1 the tool reported an error  4 round cap or deadline reached            130 interrupted (Ctrl-C)
    2 usage error                 5 a question could not be answered
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence

from askback.cli.client import CLIENT_COMMANDS, add_client_commands, run_client
from askback.cli.serve import serve as serve_target


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="askback", description="Typed MCP tools that ask for what is missing.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve an app (path/file.py[:attr] or module:attr)")
    serve.add_argument("target")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--stdio", action="store_true", help="serve over stdin/stdout instead of HTTP")
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument("--log-level", default="warning")
    demo = sub.add_parser("demo", help="serve the bundled demo app on the embedded defaults")
    demo.add_argument("--host", default="127.0.0.1")
    demo.add_argument("--port", type=int, default=8000)
    demo.add_argument("--log-level", default="info")
    add_client_commands(sub)
    args = parser.parse_args(argv)
    if args.command in CLIENT_COMMANDS:
        return run_client(args)
    logging.basicConfig(
        level=getattr(logging, str(args.log_level).upper(), logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if args.command == "demo":
        return serve_target("askback.demo:app", args.host, args.port, False, 1, args.log_level)
    return serve_target(args.target, args.host, args.port, args.stdio, args.workers, args.log_level)

