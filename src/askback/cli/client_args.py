"""The client commands' command line (`call`, `prompt`, `read`, `resume`, `tools`), apart from what runs them.

What runs a client command is in `askback.cli.client`, imported only when one is run; a server's command line
(`askback serve ...`) does not build these parsers at all.
"""

from __future__ import annotations

import argparse


def add_client_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from askback.cli.signin_args import add_sign_in_flags
    from askback.client.limits import DEFAULT_MAX_ROUNDS, DEFAULT_TIMEOUT, DEFAULT_URL_WAIT

    era = argparse.ArgumentParser(add_help=False)
    era.add_argument("--json", action="store_true", help="print JSON (the default when stdout is not a terminal)")
    era.add_argument("--legacy", action="store_true", help="use the 2025-11-25 handshake even with a newer server")
    era.add_argument(
        "--header",
        action="append",
        metavar="NAME:VALUE",
        help="send this HTTP header with every request, MCP and A2A (repeatable); a pending file keeps its name, "
        "never its value (it may be a credential): give it again to resume",
    )
    add_sign_in_flags(era)
    answering = argparse.ArgumentParser(add_help=False, parents=[era])
    answering.add_argument(
        "--answers",
        metavar="FILE",
        help="answer from this JSON object (question key or field name -> value), not the terminal; "
        "yes/no fields take true/false or the terminal's words (yes, no, y, n)",
    )
    answering.add_argument(
        "--save-pending",
        metavar="FILE",
        help="save questions that are not answered now (all of them without --answers) to FILE, "
        "with what is needed to continue, and exit with status 3",
    )
    answering.add_argument(
        "--max-rounds",
        type=int,
        default=DEFAULT_MAX_ROUNDS,
        metavar="N",
        help=f"rounds of questions (default {DEFAULT_MAX_ROUNDS})",
    )
    answering.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"wall-clock limit for the whole call, answering included (default {DEFAULT_TIMEOUT:g}; 0: none)",
    )
    answering.add_argument("--no-url", action="store_true", help="do not take steps on web pages (URL mode)")
    answering.add_argument(
        "--url-wait",
        type=float,
        default=DEFAULT_URL_WAIT,
        metavar="SECONDS",
        help="how long to wait for a page step the person agreed to take before stopping with status 4 "
        f"(default {DEFAULT_URL_WAIT:g})",
    )
    answering.add_argument(
        "--answer-sampling",
        action="store_true",
        help="let the person (or the answers file) answer a server's request for a model's reply",
    )
    answering.add_argument(
        "--allow-secret-forms",
        action="store_true",
        help="let the answers file fill a form that asks for a credential (a password, an API key, ...) and send "
        "answers that look like one; without it such a call stops with status 5 and the form is declined (the "
        "terminal asks the person instead)",
    )
    answering.add_argument("--roots", nargs="+", metavar="PATH_OR_URI", help="answer roots/list with these")
    server_help = "an http(s) MCP URL, or a command line run over stdio"
    call = sub.add_parser(
        "call",
        parents=[answering],
        help="call a tool of any MCP server, answering its questions",
        description="Call TOOL on the MCP server at URL (or started by COMMAND over stdio) and "
        "answer what it asks, in the terminal or from --answers.",
    )
    call.add_argument("server", metavar="URL|COMMAND", help=server_help)
    call.add_argument("tool")
    call.add_argument(
        "pairs",
        nargs="*",
        metavar="KEY=VALUE",
        help="arguments: key=value (typed by the tool's schema; a,b for a list) or key:=JSON",
    )
    call.add_argument("--args", metavar="JSON", help="the arguments as a JSON object")
    prompt = sub.add_parser(
        "prompt",
        parents=[answering],
        help="get a prompt of any MCP server, answering its questions",
        description="Get the prompt NAME from the MCP server (prompts/get) and answer what it asks.",
    )
    prompt.add_argument("server", metavar="URL|COMMAND", help=server_help)
    prompt.add_argument("prompt")
    prompt.add_argument("pairs", nargs="*", metavar="KEY=VALUE", help="the prompt's arguments (text)")
    prompt.add_argument("--args", metavar="JSON", help="the arguments as a JSON object of strings")
    read = sub.add_parser(
        "read",
        parents=[answering],
        help="read a resource of any MCP server, answering its questions",
        description="Read the resource URI from the MCP server (resources/read) and answer what it asks.",
    )
    read.add_argument("server", metavar="URL|COMMAND", help=server_help)
    read.add_argument("uri")
    resume = sub.add_parser(
        "resume",
        parents=[answering],
        help="continue a call saved with --save-pending",
        description="Answer the questions saved in FILE and finish the call. The answering options the call "
        "was saved with (--answer-sampling, --roots, --no-url) apply again unless given here; --header values "
        "are never saved, so give them again. Once the server has finished the call, FILE is removed.",
    )
    resume.add_argument("file")
    tools = sub.add_parser("tools", parents=[era], help="list the tools of an MCP server")
    tools.add_argument("server", metavar="URL|COMMAND", help=server_help)
    sign_out = sub.add_parser("sign-out", help="forget the tokens kept for an MCP server",
                              description="Delete the OAuth tokens and client registration askback keeps for URL.")
    sign_out.add_argument("server", metavar="URL", help="the server's MCP URL, as it was called")
