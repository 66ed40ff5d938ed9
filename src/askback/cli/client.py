"""`askback call`, `prompt`, `read`, `resume` and `tools`: the client commands (docs/client.md)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from askback.client import Client, Pending, Server, SignIn

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE, EXIT_PENDING, EXIT_UNFINISHED, EXIT_ANSWERS, EXIT_SERVER = 0, 1, 2, 3, 4, 5, 6
EXIT_INTERRUPTED = 130
# The answering options a pending file keeps, so `resume` declares and answers what `call` did.
_REMEMBERED = {"answer_sampling": "answerSampling", "roots": "roots", "no_url": "noUrl"}
# A pending file keeps the names of the --header options, never their values: a value may be a credential.
_HEADER_NAMES = "headerNames"
# Headers the client sets itself on every request (the transports' own); --header may not replace them.
_OWN_HEADERS = frozenset({"host", "content-length", "content-type", "accept", "transfer-encoding", "connection",
                          "a2a-version"})
_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


_NOT_JSON: Any = object()


class _Usage(Exception):
    """A command line that cannot be run as given (exit status 2)."""


def _reader_went_away() -> int:
    """Whoever read our standard output stopped (`| head`): end quietly, as command-line tools do."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush cannot fail again
    return EXIT_OK


def run_client(args: argparse.Namespace) -> int:
    import logging

    import anyio

    # A sign-in that fails is said in one line (`SignInFailed`); the SDK also logs it with its traceback, which
    # is not for the person at the terminal.
    logging.getLogger("mcp.client.auth.oauth2").addFilter(lambda record: not record.exc_info)
    try:
        return anyio.run(_client, args)
    except BrokenPipeError:
        return _reader_went_away()
    except KeyboardInterrupt:
        print("\naskback: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


async def _client(args: argparse.Namespace) -> int:
    from askback.client import (
        AnswerError,
        ClientError,
        NoEndpoint,
        PendingFileError,
        Postponed,
        ServerError,
        Unfinished,
    )
    from askback.client.errors import only_exception

    try:
        if args.command == "tools":
            return await _list_tools(args)
        if args.command == "sign-out":
            return _sign_out(args)
        return await _call(args)
    except Exception as raised:
        exc = only_exception(raised) or raised
        if isinstance(exc, BrokenPipeError):
            return _reader_went_away()
        if isinstance(exc, _Usage | PendingFileError):
            return _fail(str(exc), EXIT_USAGE)
        if isinstance(exc, Postponed) and exc.pending is not None:
            return _saved(args, exc.pending)
        if isinstance(exc, Unfinished):
            if getattr(args, "save_pending", None) and exc.pending is not None:
                _remembering(args, exc.pending).save(args.save_pending)
                print(
                    f"askback: saved to {args.save_pending}; continue with: askback resume {args.save_pending}",
                    file=sys.stderr,
                )
            return _fail(str(exc), EXIT_UNFINISHED)
        if isinstance(exc, AnswerError):
            return _fail(str(exc), EXIT_ANSWERS)
        if isinstance(exc, NoEndpoint):
            return _fail(await _what_is_there(args, exc), EXIT_SERVER)
        if isinstance(exc, ServerError) and args.command == "resume" and exc.code == _INVALID_PARAMS:
            # Protocol words ("Invalid or expired requestState") for what a person needs to know.
            missing = getattr(args, "headers_not_given", [])
            why = f"it was saved with --header {', '.join(missing)}, not given again now. Else: " if missing else ""
            return _fail(
                f"the server refused to continue the call saved in {args.file} ({exc}). {why}a saved call finishes "
                "once and its state expires: if it finished already, it is done; if not, start it again with "
                "askback call",
                EXIT_SERVER,
            )
        if isinstance(exc, ClientError):  # ServerError, Unauthorized, ProtocolError and the rest
            return _fail(str(exc), EXIT_SERVER)
        if isinstance(exc, Exception):  # the transport's own failures (refused connection, a server that exits)
            return _fail(f"cannot reach the server: {type(exc).__name__}: {exc}", EXIT_SERVER)
        raise


_INVALID_PARAMS = -32602  # what a server answers a requestState it no longer accepts (used, expired, unknown)


async def _what_is_there(args: argparse.Namespace, exc: Exception) -> str:
    """For a URL that answered the handshake with a plain 404: an A2A agent, or nothing that speaks MCP."""
    from askback.client.a2a import agent_base

    url = getattr(args, "server", "")
    base = await agent_base(url, headers=_headers(args)) if url else None
    if base is None:
        return str(exc)
    return (
        f"{url} is an A2A agent, not an MCP endpoint: askback call {url} SKILL calls its skills; "
        f"if it also serves MCP, give that URL (askback serves it at {base}/mcp)"
    )


def _fail(message: str, code: int) -> int:
    from askback.client.inert import one_line

    print(f"askback: {one_line(message)}", file=sys.stderr)  # server messages included: made inert, one line
    return code


def _remembering(args: argparse.Namespace, pending: Pending) -> Pending:
    """The pending call, with the answering options given now, for `resume` to apply again."""
    import dataclasses

    options: dict[str, Any] = {
        key: getattr(args, name) for name, key in _REMEMBERED.items() if getattr(args, name, None)
    }
    names = list(_headers(args))
    names += [n for n in getattr(args, "headers_not_given", []) if n.lower() not in {m.lower() for m in names}]
    if names:
        options[_HEADER_NAMES] = names  # the names only: a value may be a credential, and a file is no place for it
    return dataclasses.replace(pending, options=options)


def _again(args: argparse.Namespace) -> str:
    """What `resume` must be given again: the --header options, whose values a pending file never keeps."""
    names = list(_headers(args))
    if not names:
        return ""
    given = " ".join(f"--header {name}:…" for name in names)
    return f" {given} (header values are not saved: they may be credentials)"


def _saved(args: argparse.Namespace, pending: Pending) -> int:
    from askback.client.inert import one_line

    if not args.save_pending:
        return _fail("the questions were postponed but there is no --save-pending file", EXIT_PENDING)
    _remembering(args, pending).save(args.save_pending)
    keys = ", ".join(q.key for q in pending.questions) or "(none: the server only sent its state)"
    if pending.task_id is not None:
        server = pending.server_name or pending.server.describe()
        print(
            f"askback: the task {one_line(pending.task_id)} of {one_line(server)}"
            f" asks about {one_line(pending.target)}: {one_line(keys)}.\n"
            f"Saved to {args.save_pending} (the task goes on waiting at the server until it is answered or expires)."
            f"\nContinue with: askback resume {args.save_pending} [--answers FILE]{_again(args)}",
            file=sys.stderr,
        )
        return EXIT_PENDING
    print(
        f"askback: {one_line(pending.server_name or pending.server.describe())} asks about "
        f"{one_line(pending.target)}: {one_line(keys)}.\n"
        f"Saved to {args.save_pending} (the arguments in clear; earlier answers only inside the server's "
        f"sealed state).\nContinue with: askback resume {args.save_pending} [--answers FILE]{_again(args)}",
        file=sys.stderr,
    )
    return EXIT_PENDING


def _server_of(text: str) -> Server:
    from askback.client import Server

    try:
        return Server.of(text, command_line=True)
    except ValueError as exc:
        raise _Usage(str(exc)) from None


def _headers(args: argparse.Namespace) -> dict[str, str]:
    """The `--header NAME:VALUE` options as headers; a bad one is a usage error that never shows its value."""
    headers: dict[str, str] = {}
    for given in getattr(args, "header", None) or ():
        name, sep, value = given.partition(":")
        name, value = name.strip(), value.strip()
        if not sep or not name or not set(name) <= _TOKEN:
            raise _Usage("--header takes NAME:VALUE, with NAME an HTTP header name (letters, digits, -)")
        if name.lower() in _OWN_HEADERS or name.lower().startswith("mcp-"):
            raise _Usage(f"--header {name}: the client sets this header itself")
        if any(c in value for c in "\r\n\0"):
            raise _Usage(f"--header {name}: the value has a line break or NUL, which no header can carry")
        if name.lower() in (n.lower() for n in headers):
            raise _Usage(f"--header {name} is given twice")
        headers[name] = value
    return headers


def _make_client(args: argparse.Namespace, server: Server) -> Client:
    from askback.client import AnswerError, Client, FileAnswerer, Later, TerminalAnswerer

    url = not args.no_url
    headers = _headers(args)
    if headers and server.url is None:
        raise _Usage("--header needs an http(s) server URL: a command over stdio is sent no headers")
    answerer: FileAnswerer | TerminalAnswerer | Later
    if args.answers:
        try:
            answerer = FileAnswerer(
                args.answers, url=url, sampling=args.answer_sampling,
                missing="postpone" if args.save_pending else "error",
            )
        except AnswerError as exc:  # the file named on the command line is missing, not JSON, not an object
            raise _Usage(str(exc)) from None
    else:
        terminal = TerminalAnswerer(url=url, sampling=args.answer_sampling)
        answerer = Later(terminal.capabilities) if args.save_pending else terminal
    if args.max_rounds < 1:
        raise _Usage("--max-rounds must be at least 1")
    if args.url_wait < 0:
        raise _Usage("--url-wait must not be negative")
    return Client(
        server,
        answerer=answerer,
        roots=args.roots,
        max_rounds=args.max_rounds,
        timeout=args.timeout or None,
        url_wait=args.url_wait,
        mode="legacy" if args.legacy else "auto",
        env=dict(os.environ),
        headers=headers,
        allow_secret_forms=args.allow_secret_forms,
        sign_in=_sign_in(args, server),
    )


def _sign_in(args: argparse.Namespace, server: Server) -> SignIn | None:
    """How to sign in to an HTTP server that answers 401 (a command over stdio has no HTTP to sign in to)."""
    from askback.cli.signin_args import sign_in_from

    if server.url is None:
        return None
    try:
        return sign_in_from(args)
    except ValueError as exc:
        raise _Usage(str(exc)) from None


def _sign_out(args: argparse.Namespace) -> int:
    from askback.client import SignIn

    if not str(args.server).startswith(("http://", "https://")):
        raise _Usage("sign-out takes the server's http(s) MCP URL")
    kept = SignIn().token_file(args.server)
    print(f"askback: {'signed out of' if kept.forget() else 'no tokens were kept for'} {args.server}",
          file=sys.stderr)
    return EXIT_OK


def _load_pending(args: argparse.Namespace) -> Pending:
    """The pending file to resume, with the answering options it was saved with applied to `args`."""
    from pathlib import Path

    from askback.client import Pending
    from askback.client.inert import one_line

    if not Path(args.file).exists():
        raise _Usage(f"there is no pending file {args.file} (a resume that finishes its call removes the file)")
    pending = Pending.load(args.file)
    for name, key in _REMEMBERED.items():
        if not getattr(args, name) and pending.options.get(key):
            setattr(args, name, pending.options[key])
    saved = pending.options.get(_HEADER_NAMES)
    given = {name.lower() for name in _headers(args)}
    missing = [str(n) for n in saved if str(n).lower() not in given] if isinstance(saved, list) else []
    args.headers_not_given = missing
    if missing:
        print(
            f"askback: the call was saved with --header {one_line(', '.join(missing))}; a pending file keeps no "
            "header values (they may be credentials): give them again with --header NAME:VALUE",
            file=sys.stderr,
        )
    return pending


def _finished(path: str) -> None:
    """A resumed call the server finished: its pending file can never be used again, so it goes."""
    from pathlib import Path

    Path(path).unlink(missing_ok=True)
    print(f"askback: the call saved in {path} is finished; the file is removed", file=sys.stderr)


async def _call(args: argparse.Namespace) -> int:

    from askback.client.tasks import TaskCancelled, TaskFailed

    if args.command == "resume":
        pending = _load_pending(args)
        async with _make_client(args, pending.server) as client:
            try:
                result = await client.request(pending.method, pending.params, resume=pending)
            except (TaskFailed, TaskCancelled):
                _finished(args.file)  # the task ended at the server: nothing is left to continue
                raise
        _finished(args.file)
        return _print_result(args, pending.method, result)
    arguments = _json_object(args.args, "--args") if getattr(args, "args", None) else {}
    from askback.client.a2a import AgentCall, agent_base

    headers = _headers(args)
    base = await agent_base(args.server, headers=headers)
    if base is not None and args.command != "call":
        raise _Usage(
            f"prompts and resources are MCP only, and {args.server} is an A2A agent; if it also serves MCP, give "
            f"that URL (askback serves it at {base}/mcp)"
        )
    if base is not None:  # an A2A agent (its card URL or base URL): the same answerers, over A2A
        settings = _make_client(args, _server_of(args.server))  # never connected: its answerer and limits
        arguments.update(_a2a_pairs(args.pairs))
        call = AgentCall(base, answerer=settings.answerer, limits=settings.limits, headers=headers,
                         allow_secret_forms=settings.allow_secret_forms)
        return _print_result(args, "tools/call", await call.call(args.tool, arguments))
    async with _make_client(args, _server_of(args.server)) as client:
        if args.command == "read":
            method, params = "resources/read", {"uri": args.uri}
        elif args.command == "prompt":
            arguments.update(_prompt_pairs(args.pairs))
            method, params = "prompts/get", {"name": args.prompt, "arguments": arguments}
        else:
            if args.pairs:
                arguments.update(await _pairs(client, args.tool, args.pairs))
            method, params = "tools/call", {"name": args.tool, "arguments": arguments}
        result = await client.request(method, params)
    return _print_result(args, method, result)


async def _list_tools(args: argparse.Namespace) -> int:
    from askback.client import Client, render
    from askback.client.answerers.terminal import Style

    server = _server_of(args.server)
    headers = _headers(args)
    if headers and server.url is None:
        raise _Usage("--header needs an http(s) server URL: a command over stdio is sent no headers")
    async with Client(server, mode="legacy" if args.legacy else "auto", env=dict(os.environ),
                      headers=headers, sign_in=_sign_in(args, server)) as client:
        listing = await client.list_tools()
    if args.json or not sys.stdout.isatty():
        _print_json(listing)
    else:
        print(render.tools(listing, Style.for_stream(sys.stdout)))
    return EXIT_OK


def _print_result(args: argparse.Namespace, method: str, result: dict[str, Any]) -> int:
    from askback.client import render
    from askback.client.answerers.terminal import Style

    if args.json or not sys.stdout.isatty():
        _print_json(result)
    else:
        print(render.result(method, result, Style.for_stream(sys.stdout)))
    # A person's own decline or cancel is not a failure, even where the tool's outputSchema makes it a tool error.
    meta = result.get("_meta")
    refusal = meta.get("askback/refusal") if isinstance(meta, dict) else None
    if isinstance(refusal, dict) and refusal.get("outcome") in ("declined", "cancelled"):
        return EXIT_OK
    return EXIT_TOOL_ERROR if result.get("isError") is True else EXIT_OK


def _print_json(value: Any) -> None:
    """The server's JSON as it sent it, with invisible and control characters escaped (it may reach a terminal)."""
    from askback.client.inert import shown_json

    print(shown_json(value))


def _json_object(text: str, what: str) -> dict[str, Any]:
    import json

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Usage(f"{what} is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise _Usage(f"{what} must be a JSON object")
    return value


def _split(pair: str) -> tuple[str, str, bool]:
    """`key=value` or `key:=JSON` as (key, value, is_json)."""
    key, sep, value = pair.partition("=")
    if not sep or not key or key == ":":
        raise _Usage(f"{pair!r} is not KEY=VALUE or KEY:=JSON")
    return (key[:-1], value, True) if key.endswith(":") else (key, value, False)


def _prompt_pairs(pairs: list[str]) -> dict[str, Any]:
    """A prompt's arguments are text (`key=value`); `key:=JSON` is sent as the JSON value given."""
    import json

    out: dict[str, Any] = {}
    for pair in pairs:
        key, value, is_json = _split(pair)
        try:
            out[key] = json.loads(value) if is_json else value
        except json.JSONDecodeError as exc:
            raise _Usage(f"{pair!r}: the value is not JSON ({exc})") from None
    return out


async def _pairs(client: Client, tool: str, pairs: list[str]) -> dict[str, Any]:
    """`key:=JSON` as JSON; `key=value` typed by the tool's schema: a number, a boolean, a list (`a,b`), or text."""
    import json

    out: dict[str, Any] = {}
    properties: dict[str, Any] = {}
    for pair in pairs:
        key, value, is_json = _split(pair)
        if is_json:
            try:
                out[key] = json.loads(value)
            except json.JSONDecodeError as exc:
                raise _Usage(f"{pair!r}: the value is not JSON ({exc})") from None
            continue
        if not properties:
            listed = {t.get("name"): t for t in await client.list_tools()}
            schema = listed.get(tool, {}).get("inputSchema") or {}
            properties = dict(schema.get("properties") or {}) or {"": {}}
        out[key] = _typed(value, properties.get(key))
    return out


def _typed(value: str, schema: Any) -> Any:
    """A command-line value as the JSON its schema takes; text when nothing else fits."""
    import json

    kinds = _json_types(schema)
    if kinds - {"string"}:
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            parsed = _NOT_JSON
        if _json_type(parsed) in kinds or (_json_type(parsed) == "integer" and "number" in kinds):
            return parsed
        if "array" in kinds:  # `a,b` for a list: each item typed by the schema of the list's items
            items = _items_schema(schema)
            return [_typed(part.strip(), items) for part in value.split(",") if part.strip()]
    return value


def _items_schema(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return None
    if schema.get("type") == "array" or "items" in schema:
        return schema.get("items")
    for sub in [*(schema.get("anyOf") or []), *(schema.get("oneOf") or [])]:
        if (found := _items_schema(sub)) is not None:
            return found
    return None


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
