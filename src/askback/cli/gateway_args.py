"""The `askback gateway` subcommand's flags: read without loading the gateway, the server or uvicorn."""

from __future__ import annotations

import argparse


def add_gateway(sub: argparse._SubParsersAction[argparse.ArgumentParser], add_http_flags: object,
                formatter: type[argparse.HelpFormatter]) -> None:
    gateway = sub.add_parser(
        "gateway",
        help="serve another MCP server's tools, asking for what a call lacks before forwarding it",
        description="Serve the tools of the MCP server UPSTREAM (an http(s) URL, or after -- a command serving "
        "MCP over stdio) at http://HOST:PORT/mcp. Each tools/call is checked against the tool's input schema: "
        "missing and refused values are asked as typed questions, then the call is forwarded.",
        formatter_class=formatter,
    )
    gateway.add_argument("upstream", nargs="+", metavar="UPSTREAM", help="the upstream's MCP URL, or -- COMMAND ARGS")
    gateway.add_argument("--name", default="askback-gateway",
                         help="the gateway's server name (the audience its sealed states are bound to)")
    gateway.add_argument("--policy", metavar="FILE",
                         help="a TOML policy file: per tool, a confirmation, credentials, static choices "
                         "(docs/gateway.md)")
    gateway.add_argument("--header", action="append", default=[], metavar="NAME:VALUE",
                         help="a header sent with every request to the upstream (repeatable)")
    gateway.add_argument("--upstream-auth", choices=("none", "oauth"), default="none",
                         help="oauth: sign in to an upstream that answers HTTP 401 (OAuth 2.1), as askback call "
                         "does; --sign-in and the --oauth-* flags say how")
    from askback.cli.signin_args import add_sign_in_flags

    add_sign_in_flags(gateway, who="the upstream")
    assert callable(add_http_flags)
    add_http_flags(gateway, log_level="warning")
    gateway.add_argument("--stdio", action="store_true", help="serve one client over stdin/stdout instead of HTTP")
