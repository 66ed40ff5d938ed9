"""`askback call`, `resume` and `tools`: the client commands (docs/client.md)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from askback.client import Client, Pending, Server

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE, EXIT_PENDING, EXIT_UNFINISHED, EXIT_ANSWERS, EXIT_SERVER = 0, 1, 2, 3, 4, 5, 6
EXIT_INTERRUPTED = 130
CLIENT_COMMANDS = ("call", "resume", "tools")


class _Usage(Exception):
    """A command line that cannot be run as given (exit status 2)."""


def add_client_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    era = argparse.ArgumentParser(add_help=False)
    era.add_argument("--json", action="store_true", help="print JSON (the default when stdout is not a terminal)")
    era.add_argument("--legacy", action="store_true", help="use the 2025-11-25 handshake even with a newer server")
    answering = argparse.ArgumentParser(add_help=False, parents=[era])
    answering.add_argument(
        "--answers",
        metavar="FILE",
        help="answer from this JSON object (question key or field name -> value), not the terminal",
    )
    answering.add_argument(
        "--save-pending",
        metavar="FILE",
        help="save questions that are not answered now (all of them without --answers) to FILE, "
        "with what is needed to continue, and exit with status 3",
    )
    answering.add_argument("--max-rounds", type=int, default=16, metavar="N", help="rounds of questions (default 16)")
    answering.add_argument(
        "--timeout",
        type=float,
        default=600,
        metavar="SECONDS",
        help="wall-clock limit for the whole call, answering included (default 600; 0: none)",
    )
    answering.add_argument("--no-url", action="store_true", help="do not take steps on web pages (URL mode)")
    answering.add_argument(
        "--answer-sampling",
        action="store_true",
        help="let the person (or the answers file) answer a server's request for a model's reply",
    )
    answering.add_argument("--roots", nargs="+", metavar="PATH_OR_URI", help="answer roots/list with these")
    call = sub.add_parser(
        "call",
        parents=[answering],
        help="call a tool of any MCP server, answering its questions",
        description="Call TOOL on the MCP server at URL (or started by COMMAND over stdio) and "
        "answer what it asks, in the terminal or from --answers.",
    )
    call.add_argument("server", metavar="URL|COMMAND", help="an http(s) MCP URL, or a command line run over stdio")
    call.add_argument("tool")
    call.add_argument(
        "pairs", nargs="*", metavar="KEY=VALUE", help="arguments: key=value (typed by the tool's schema) or key:=JSON"
    )
    call.add_argument("--args", metavar="JSON", help="the arguments as a JSON object")
    resume = sub.add_parser(
        "resume",
        parents=[answering],
        help="continue a call saved with --save-pending",
        description="Answer the questions saved in FILE and finish the call.",
    )
    resume.add_argument("file")
    tools = sub.add_parser("tools", parents=[era], help="list the tools of an MCP server")
    tools.add_argument("server", metavar="URL|COMMAND")


def _reader_went_away() -> int:
    """Whoever read our standard output stopped (`| head`): end quietly, as command-line tools do."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush cannot fail again
    return EXIT_OK


def run_client(args: argparse.Namespace) -> int:
    import anyio

    try:
        return anyio.run(_client, args)
    except BrokenPipeError:
        return _reader_went_away()
    except KeyboardInterrupt:
        print("\naskback: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


async def _client(args: argparse.Namespace) -> int:
    from askback.client import AnswerError, ClientError, PendingFileError, Postponed, Unfinished

    try:
        if args.command == "tools":
            return await _list_tools(args)
        return await _call(args)
    except Exception as raised:
        exc = _unwrap(raised)
        if isinstance(exc, BrokenPipeError):
            return _reader_went_away()
        if isinstance(exc, _Usage | PendingFileError):
            return _fail(str(exc), EXIT_USAGE)
        if isinstance(exc, Postponed) and exc.pending is not None:
            return _saved(args, exc.pending)
        if isinstance(exc, Unfinished):
            if getattr(args, "save_pending", None) and exc.pending is not None:
                exc.pending.save(args.save_pending)
                print(
                    f"askback: saved to {args.save_pending}; continue with: askback resume {args.save_pending}",
                    file=sys.stderr,
                )
            return _fail(str(exc), EXIT_UNFINISHED)
        if isinstance(exc, AnswerError):
            return _fail(str(exc), EXIT_ANSWERS)
        if isinstance(exc, ClientError):  # ServerError, ProtocolError and the rest
            return _fail(str(exc), EXIT_SERVER)
        if isinstance(exc, Exception):  # the transport's own failures (refused connection, a server that exits)
            return _fail(f"cannot reach the server: {type(exc).__name__}: {exc}", EXIT_SERVER)
        raise


def _fail(message: str, code: int) -> int:
    print(f"askback: {message}", file=sys.stderr)
    return code


def _unwrap(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _saved(args: argparse.Namespace, pending: Pending) -> int:
    if not args.save_pending:
        return _fail("the questions were postponed but there is no --save-pending file", EXIT_PENDING)
    pending.save(args.save_pending)
    keys = ", ".join(q.key for q in pending.questions) or "(none: the server only sent its state)"
    print(
        f"askback: {pending.server_name or pending.server.describe()} asks about {pending.target}: {keys}.\n"
        f"Saved to {args.save_pending} (the arguments in clear; earlier answers only inside the server's "
        f"sealed state).\nContinue with: askback resume {args.save_pending} [--answers FILE]",
        file=sys.stderr,
    )
    return EXIT_PENDING


def _server_of(text: str) -> Server:
    import shlex

    from askback.client import Server

    if text.startswith(("http://", "https://")):
        return Server(url=text)
    command = shlex.split(text)
    if not command:
        raise _Usage("the server is neither an http(s) URL nor a command")
    return Server(command=tuple(command))


def _make_client(args: argparse.Namespace, server: Server) -> Client:
    from askback.client import Client, FileAnswerer, Later, TerminalAnswerer

    url = not args.no_url
    answerer: FileAnswerer | TerminalAnswerer | Later
    if args.answers:
        answerer = FileAnswerer(
            args.answers, url=url, sampling=args.answer_sampling, missing="postpone" if args.save_pending else "error"
        )
    else:
        terminal = TerminalAnswerer(url=url, sampling=args.answer_sampling)
        answerer = Later(terminal.capabilities) if args.save_pending else terminal
    if args.max_rounds < 1:
        raise _Usage("--max-rounds must be at least 1")
    return Client(
        server,
        answerer=answerer,
        roots=args.roots,
        max_rounds=args.max_rounds,
        timeout=args.timeout or None,
        mode="legacy" if args.legacy else "auto",
        env=dict(os.environ),
    )


async def _call(args: argparse.Namespace) -> int:
    from askback.client import Pending

    if args.command == "resume":
        pending = Pending.load(args.file)
        async with _make_client(args, pending.server) as client:
            result = await client.request(pending.method, pending.params, resume=pending)
        return _print_result(args, pending.method, result)
    arguments = _json_object(args.args, "--args") if args.args else {}
    from askback.client.a2a import AgentCall, agent_base

    base = await agent_base(args.server)
    if base is not None:  # an A2A agent (its card URL or base URL): the same answerers, over A2A
        settings = _make_client(args, _server_of(args.server))  # never connected: its answerer and limits
        arguments.update(_a2a_pairs(args.pairs))
        call = AgentCall(base, answerer=settings.answerer, limits=settings.limits)
        return _print_result(args, "tools/call", await call.call(args.tool, arguments))
    async with _make_client(args, _server_of(args.server)) as client:
        if args.pairs:
            arguments.update(await _pairs(client, args.tool, args.pairs))
        result = await client.request("tools/call", {"name": args.tool, "arguments": arguments})
    return _print_result(args, "tools/call", result)


async def _list_tools(args: argparse.Namespace) -> int:
    import json

    from askback.client import Client, render
    from askback.client.answerers.terminal import Style

    server = _server_of(args.server)
    async with Client(server, mode="legacy" if args.legacy else "auto", env=dict(os.environ)) as client:
        listing = await client.list_tools()
    if args.json or not sys.stdout.isatty():
        print(json.dumps(listing, indent=2, ensure_ascii=False))
    else:
        print(render.tools(listing, Style.for_stream(sys.stdout)))
    return EXIT_OK


def _print_result(args: argparse.Namespace, method: str, result: dict[str, Any]) -> int:
    import json

    from askback.client import render
    from askback.client.answerers.terminal import Style

    if args.json or not sys.stdout.isatty():
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(render.result(method, result, Style.for_stream(sys.stdout)))
    return EXIT_TOOL_ERROR if result.get("isError") is True else EXIT_OK


def _json_object(text: str, what: str) -> dict[str, Any]:
    import json

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Usage(f"{what} is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise _Usage(f"{what} must be a JSON object")
    return value


async def _pairs(client: Client, tool: str, pairs: list[str]) -> dict[str, Any]:
    """`key:=JSON` as JSON; `key=value` as text, or as JSON when the tool's schema says the value is not text."""
    import json

    out: dict[str, Any] = {}
    properties: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise _Usage(f"{pair!r} is not KEY=VALUE or KEY:=JSON")
        if key.endswith(":"):
            try:
                out[key[:-1]] = json.loads(value)
            except json.JSONDecodeError as exc:
                raise _Usage(f"{pair!r}: the value is not JSON ({exc})") from None
            continue
        if not properties:
            listed = {t.get("name"): t for t in await client.list_tools()}
            schema = listed.get(tool, {}).get("inputSchema") or {}
            properties = dict(schema.get("properties") or {}) or {"": {}}
        kinds = _json_types(properties.get(key))
        if kinds - {"string"}:
            try:
                parsed = json.loads(value)
            except json.JSONDecodeError:
                parsed = None
            if _json_type(parsed) in kinds or (_json_type(parsed) == "integer" and "number" in kinds):
                out[key] = parsed
                continue
        out[key] = value
    return out


def _a2a_pairs(pairs: list[str]) -> dict[str, Any]:
    """An agent card has no input schemas: `key:=JSON` is JSON, `key=value` text (the agent validates)."""
    import json

    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise _Usage(f"{pair!r} is not KEY=VALUE or KEY:=JSON")
        if not key.endswith(":"):
            out[key] = value
            continue
        try:
            out[key[:-1]] = json.loads(value)
        except json.JSONDecodeError as exc:
            raise _Usage(f"{pair!r}: the value is not JSON ({exc})") from None
    return out


def _json_types(schema: Any) -> set[str]:
    """The JSON types a property schema allows (through `anyOf` / `oneOf`)."""
    if not isinstance(schema, dict):
        return set()
    kind = schema.get("type")
    kinds = set(kind) if isinstance(kind, list) else {kind} if isinstance(kind, str) else set()
    for sub in [*(schema.get("anyOf") or []), *(schema.get("oneOf") or [])]:
        kinds |= _json_types(sub)
    return kinds


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    names = {float: "number", list: "array", dict: "object", str: "string", type(None): "null"}
    return names.get(type(value), "?")
