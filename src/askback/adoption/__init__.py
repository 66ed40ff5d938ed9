"""`askback.adopt(server)`: askback in an existing `MCPServer` or FastMCP app, without touching its tools.

    server = MCPServer("shop")          # or FastMCP("shop"), with the `askback[fastmcp]` extra
    askback.adopt(server)

A `tools/call` whose arguments lack a required value or carry one the tool's input schema does not accept
becomes one question naming exactly those fields (2026-07-28: an `input_required` round; 2025-11-25: the
session's back-channel); the answers are merged into the arguments and the call goes on to the server.

A tool whose options need askback's pages (a credential, an approval on a page) is served with them by
`adopter.streamable_http_app()`: the server's own app, with the pages mounted beside it.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeGuard, cast

from askback.adoption.options import Above, ToolOptions, confirm_problem

if TYPE_CHECKING:
    from fastmcp import FastMCP
    from mcp.server.mcpserver import MCPServer

    from askback.adoption.middleware import Adopter
    from askback.adoption.pagesteps import PageSteps
    from askback.app import App


def adopt(server: MCPServer[Any] | FastMCP[Any], *, tools: Mapping[str, ToolOptions] | None = None,
          app: App | None = None) -> Adopter:
    """Install askback in `server` (an `MCPServer`, or a `fastmcp.FastMCP`) and return it.

    On an `MCPServer`: as its own user middleware, inside the SDK's request-state boundary. On a FastMCP app: as
    its innermost `Middleware` (`askback.adoption.fastmcp`), inside the boundary FastMCP installs.

    `tools`: options per tool name (`ToolOptions(confirm=..., secret=(...), out_of_band=..., once=...)`); a tool
    not named gets none. `app`: an `askback.App` with no tools that gives the keys, store, public URL, page
    authentication and principal hook of askback's pages and single-use runs (default: `App(server.name)` on
    the environment's settings, made only when some tool needs them).
    """
    if _is_fastmcp(server):
        from askback.adoption.fastmcp import adopt_fastmcp

        return adopt_fastmcp(server, tools=tools, app=app)
    return _adopt_mcpserver(cast("MCPServer[Any]", server), tools, app)


def _adopt_mcpserver(server: MCPServer[Any], tools: Mapping[str, ToolOptions] | None, app: App | None) -> Adopter:
    from mcp.server.request_state import RequestStateBoundary

    from askback.adoption.middleware import Adopter, listed_tools

    chain = server.middleware
    if not any(isinstance(m, RequestStateBoundary) for m in chain):
        # The progress of a call rides requestState in plaintext here: only the SDK's boundary seals it.
        raise ValueError("askback.adopt needs the SDK's RequestStateBoundary in the server's middleware")
    if any(isinstance(m, Adopter) for m in chain):
        raise ValueError("askback.adopt was already called for this server")
    per_tool, steps = prepared(server.name, tools, app)
    adopter = Adopter(listed_tools(server, per_tool), steps, server.streamable_http_app)
    chain.append(adopter)  # after the boundary: inside it, so it sees plaintext and its results are sealed
    return adopter


def prepared(name: str, tools: Mapping[str, ToolOptions] | None,
             app: App | None) -> tuple[dict[str, ToolOptions], PageSteps | None]:
    """The options per tool, checked, and the page steps some of them need (on `app`, or `App(name)`)."""
    from askback.adoption.pagesteps import PageSteps

    per_tool = dict(tools or {})
    for tool, options in per_tool.items():
        problem = confirm_problem(options.confirm) if options.confirm is not None else None
        if problem is not None:
            raise ValueError(f"confirm= text of tool {tool!r} is not a valid template: {problem}")
    if app is None and any(o.needs_pages or o.once for o in per_tool.values()):
        from askback.app import App

        app = App(name)
    if app is None:
        return per_tool, None
    app.pages_wanted = app.pages_wanted or any(o.needs_pages for o in per_tool.values())
    return per_tool, PageSteps(app)


def _is_fastmcp(server: object) -> TypeGuard[FastMCP[Any]]:
    """Whether `server` is a FastMCP app, asked without importing FastMCP (an app of it has imported it)."""
    module = sys.modules.get("fastmcp")
    return module is not None and isinstance(server, module.FastMCP)


__all__ = ["Above", "ToolOptions", "adopt"]
