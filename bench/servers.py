"""The benchmark's servers: one logical tool, `greet(name, city)`, where `city` is asked for before completing.

Each is served the same way: uvicorn, one worker, 127.0.0.1, JSON responses, log level warning.

- `askback`: an `askback.App` tool; `city` is a plain parameter the client did not send, so askback asks.
- `mcpserver`: the official SDK's `MCPServer` with a `Resolve`r returning `Elicit`, sealed by
  `RequestStateSecurity(keys=[...])`. With `--era 2025-11-25` it keeps sessions and answers over SSE, which its
  `Resolve`/`Elicit` need to ask a 2025-11-25 client on the back-channel (askback serves both eras as it is).
- `fastmcp`: FastMCP 4's documented guard pattern (return `InputRequiredResult`, read `ctx.input_responses`),
  with `request_state_security=RequestStateSecurity(keys=[...])` and a sealed `request_state` naming what was
  asked, so an answer is tied to its question as in the other two. Runs from its own venv.
- `lowlevel`: the SDK's low-level `Server` whose `tools/call` completes at once (one round: the floor).
- `asgi`: a bare ASGI callable answering a fixed result (the cost of Python + uvicorn alone).
- `floor`: the same work as askback's two-round flow and nothing else, written by hand: one JSON parse, one
  validation of the whole request with the SDK's own 2026-07-28 `CallToolRequest` model, an AES-256-GCM seal
  of what was asked (bound to the tool and a digest of its arguments) on the first round and its open on the
  retry, one JSON dump. The cheapest correct server for this flow: what the protocol costs in Python.

`--http` and `--loop` choose uvicorn's parser and event loop (bench/run.py gives every server the same pair);
`--trace` configures a tracer provider first (the SDK's span middleware then runs, as it did for every request
before askback gated it); `--profile FILE` profiles only between SIGUSR1 and SIGUSR2 and writes FILE then.

Each server also has `signup`: two questions in sequence (`user_name`, then `nickname`, asked after the first
answer). Its second round's `requestState` carries one answered question: the state-size comparison.

Run: python -m bench.servers KIND --port PORT (from the project root).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
from typing import Any

KEY = bytes(range(32))  # a fixed benchmark key: the same secret for every server that seals
KEY_TEXT = base64.urlsafe_b64encode(KEY).decode().rstrip("=")
KINDS = ("askback", "mcpserver", "fastmcp", "lowlevel", "asgi", "floor")
NAME = "bench"


def askback_app() -> Any:
    from askback.mcp.http import http_app

    try:  # the standard OTEL_* variables, as `askback serve` reads them (bench/telemetry_cost.py sets them)
        from askback.telemetry.setup import from_environment
    except ImportError:  # an askback from before telemetry (telemetry_cost.py's baseline)
        pass
    else:
        from_environment()

    return http_app(askback_tools())


def askback_tools() -> Any:
    """The askback `App` itself (bench/askback_target.py serves it with `askback serve --workers N`)."""
    from typing import Annotated

    from pydantic import Field

    import askback

    # BENCH_STORE picks askback's store (memory unless set: e.g. sqlite:///path), for the A2A flows' tasks too.
    app = askback.App(NAME, keys=KEY_TEXT, store=os.environ.get("BENCH_STORE") or "memory://")

    @app.tool(namespace=locals())
    async def greet(name: str, city: Annotated[str, Field(description="City to greet from")]) -> str:
        """Greet someone from a city."""
        return f"Hello {name} from {city}"

    @app.tool(namespace=locals())
    async def signup(
        user_name: Annotated[str, askback.Ask("Your user name?")],
        nickname: Annotated[str, askback.Ask("A nickname for {user_name}?")],
    ) -> str:
        """Sign up: two questions, the second after the first."""
        return f"{user_name} ({nickname})"

    @app.tool(namespace=locals(), task="optional")
    async def greet_task(name: str, work: askback.Work) -> str:
        """Greet someone, asking the city while the work runs (the task flow of bench/load.py)."""
        city = await work.ask("City to greet {name} from?", str, name=name)
        return f"Hello {name} from {city}"

    return app


def mcpserver_app(sessions: bool = False) -> Any:
    from bench.sdk_app import http_app

    return http_app(NAME, KEY, sessions=sessions)


def fastmcp_app() -> Any:
    os.environ.setdefault("FASTMCP_LOG_LEVEL", "WARNING")
    from bench.fastmcp_app import http_app

    return http_app(NAME, KEY)


def lowlevel_app() -> Any:
    import mcp_types as types
    from mcp.server.lowlevel.server import Server

    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "city": {"type": "string"}},
        "required": ["name", "city"],
    }
    tools = types.ListToolsResult(tools=[types.Tool(name="greet", input_schema=schema)])

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return tools

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments or {}
        return types.CallToolResult(content=[types.TextContent(text=f"Hello {args['name']} from {args['city']}")])

    server: Server[Any] = Server(
        NAME,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        # The lean configuration: without it the SDK re-runs tools/list inside every tools/call. The lookup only
        # serves the `Mcp-Param-*` header check, and this schema declares no `x-mcp-header`, so there is nothing
        # to check: answering None is equally correct and cheaper (askback does the same for its tools).
        get_tool_input_schema=lambda name: None,
    )
    return server.streamable_http_app(json_response=True, stateless_http=True)


def asgi_app() -> Any:
    """A bare ASGI callable: reads the request body, answers a fixed JSON-RPC result. No framework at all."""
    result = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
                                                "content": [{"type": "text", "text": "Hello Ada from Paris"}]}}
    ).encode()
    start = {
        "type": "http.response.start",
        "status": 200,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(result)).encode())],
    }
    body = {"type": "http.response.body", "body": result}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        more = True
        while more:
            more = (await receive()).get("more_body", False)
        await send(start)
        await send(body)

    return app


def floor_app() -> Any:
    """The same-work floor: parse, validate once (the SDK's model), ask, seal and open with AES-GCM, answer."""
    import hashlib
    import struct
    import time

    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from mcp_types.methods import CLIENT_REQUESTS

    request_model = CLIENT_REQUESTS[("tools/call", "2026-07-28")]
    aead = AESGCM(KEY)
    question = {"method": "elicitation/create", "params": {
        "mode": "form", "message": "City to greet from?",
        "requestedSchema": {"type": "object", "properties": {"city": {"type": "string",
                                                                      "description": "City to greet from"}},
                            "required": ["city"]}}}
    times = struct.Struct(">I")

    def bound(name: str, arguments: dict[str, Any]) -> bytes:
        return hashlib.sha256(json.dumps([name, arguments], sort_keys=True).encode()).digest()

    def seal(asked: str, binding: bytes) -> str:
        nonce = os.urandom(12)
        sealed = aead.encrypt(nonce, times.pack(int(time.time()) + 600) + asked.encode(), binding)
        return base64.urlsafe_b64encode(nonce + sealed).decode().rstrip("=")

    def unseal(token: str, binding: bytes) -> str | None:
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            plain = aead.decrypt(raw[:12], raw[12:], binding)
        except (ValueError, InvalidTag):
            return None
        (expires,) = times.unpack_from(plain)
        return plain[times.size:].decode() if expires >= time.time() else None

    def answer(request: dict[str, Any]) -> dict[str, Any]:
        params = request["params"]
        name, arguments = params["name"], params.get("arguments") or {}
        binding = bound(name, arguments)
        state, responses = params.get("requestState"), params.get("inputResponses") or {}
        if state is not None and unseal(state, binding) == "city":
            reply = responses.get("city") or {}
            city = (reply.get("content") or {}).get("city") if reply.get("action") == "accept" else None
            if isinstance(city, str):
                return {"resultType": "complete",
                        "content": [{"type": "text", "text": f"Hello {arguments['name']} from {city}"}]}
        return {"resultType": "input_required", "inputRequests": {"city": question},
                "requestState": seal("city", binding)}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        chunks = []
        more = True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        request = json.loads(b"".join(chunks))
        request_model.model_validate(request)  # the one validation: the SDK's own 2026-07-28 request model
        body = json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": answer(request)}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    return app


def configure_tracing() -> None:
    """A tracer provider whose spans record nothing: the SDK's span middleware runs, exporting nowhere."""
    from opentelemetry import trace

    class Provider(trace.TracerProvider):
        def get_tracer(self, *args: Any, **kwargs: Any) -> trace.Tracer:
            return trace.NoOpTracer()

    trace.set_tracer_provider(Provider())


def profile_window(path: str) -> None:
    """cProfile from SIGUSR1 to SIGUSR2 only (start-up and warm-up left out); the stats go to `path`."""
    import cProfile
    import signal

    profiler = cProfile.Profile()

    def start(*_: Any) -> None:
        profiler.enable()

    def stop(*_: Any) -> None:
        profiler.disable()
        profiler.dump_stats(path)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)


BUILDERS = {
    "askback": askback_app,
    "mcpserver": mcpserver_app,
    "fastmcp": fastmcp_app,
    "lowlevel": lowlevel_app,
    "asgi": asgi_app,
    "floor": floor_app,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=KINDS)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--http", default="auto", choices=("auto", "httptools", "h11"))
    parser.add_argument("--loop", default="auto", choices=("auto", "uvloop", "asyncio"))
    parser.add_argument("--trace", action="store_true", help="configure a tracer provider before building")
    parser.add_argument("--profile", metavar="FILE", help="profile between SIGUSR1 and SIGUSR2 into FILE")
    parser.add_argument("--era", choices=("2026-07-28", "2025-11-25"), default="2026-07-28",
                        help="the protocol the load speaks (only `mcpserver` is built differently for it)")
    args = parser.parse_args()
    import uvicorn

    if args.trace:
        configure_tracing()
    if args.profile:
        profile_window(args.profile)
    legacy_sdk = args.kind == "mcpserver" and args.era == "2025-11-25"
    app = mcpserver_app(sessions=True) if legacy_sdk else BUILDERS[args.kind]()
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", workers=1,
                http=args.http, loop=args.loop)


if __name__ == "__main__":
    main()
