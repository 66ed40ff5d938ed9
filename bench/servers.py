"""The benchmark's servers: one logical tool, `greet(name, city)`, where `city` is asked for before completing.

Each is served the same way: uvicorn, one worker, 127.0.0.1, JSON responses, log level warning.

- `askback`: an `askback.App` tool; `city` is a plain parameter the client did not send, so askback asks.
- `mcpserver`: the official SDK's `MCPServer` with a `Resolve`r returning `Elicit`, sealed by
  `RequestStateSecurity(keys=[...])`.
- `fastmcp`: FastMCP 4's documented guard pattern (return `InputRequiredResult`, read `ctx.input_responses`),
  with `request_state_security=RequestStateSecurity(keys=[...])` and a sealed `request_state` naming what was
  asked, so an answer is tied to its question as in the other two. Runs from its own venv.
- `lowlevel`: the SDK's low-level `Server` whose `tools/call` completes at once (one round: the floor).
- `asgi`: a bare ASGI callable answering a fixed result (the cost of Python + uvicorn alone).

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
KINDS = ("askback", "mcpserver", "fastmcp", "lowlevel", "asgi")
NAME = "bench"


def askback_app() -> Any:
    from typing import Annotated

    from pydantic import Field

    import askback
    from askback.mcp.http import http_app

    app = askback.App(NAME, keys=KEY_TEXT, store="memory://")

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

    return http_app(app)


def mcpserver_app() -> Any:
    from bench.sdk_app import http_app

    return http_app(NAME, KEY)


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


BUILDERS = {
    "askback": askback_app,
    "mcpserver": mcpserver_app,
    "fastmcp": fastmcp_app,
    "lowlevel": lowlevel_app,
    "asgi": asgi_app,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=KINDS)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    import uvicorn

    uvicorn.run(BUILDERS[args.kind](), host="127.0.0.1", port=args.port, log_level="warning", workers=1)


if __name__ == "__main__":
    main()
