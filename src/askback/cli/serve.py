"""`askback serve` and `askback demo`: run an app over streamable HTTP or stdio."""

from __future__ import annotations

import os
import sys

from starlette.applications import Starlette

from askback.core.state import KeyConfigError
from askback.loader import TargetError, load_app
from askback.stores import StoreConfigError

_TARGET_ENV = "ASKBACK_SERVE_TARGET"


def _worker_app() -> Starlette:
    """uvicorn factory for `--workers N`: each worker process loads the target itself."""
    from askback.mcp.http import http_app

    return http_app(load_app(os.environ[_TARGET_ENV]), host=os.environ.get("ASKBACK_SERVE_HOST", "127.0.0.1"))


def serve(target: str, host: str, port: int, stdio: bool, workers: int, log_level: str) -> int:
    try:
        app = load_app(target)
    except TargetError as exc:
        print(f"askback: {exc}", file=sys.stderr)
        return 2
    try:
        app.runtime  # noqa: B018 - fail here, with a clear message, on a bad key or store
    except (KeyConfigError, StoreConfigError, OSError) as exc:
        print(f"askback: cannot start {app.name!r}: {exc}", file=sys.stderr)
        return 2
    if stdio:
        return _serve_stdio(app)
    import uvicorn

    from askback.mcp.http import http_app

    where = f"http://{_host_for_url(host)}:{port}"
    print(f"askback: serving {app.name!r} - MCP at {where}/mcp", file=sys.stderr)
    if _a2a_installed():
        print(f"askback: A2A agent at {where} (card: {where}/.well-known/agent-card.json)", file=sys.stderr)
    if workers > 1:
        os.environ[_TARGET_ENV] = target
        os.environ["ASKBACK_SERVE_HOST"] = host
        uvicorn.run(
            "askback.cli.serve:_worker_app", factory=True, host=host, port=port, workers=workers, log_level=log_level
        )
    else:
        uvicorn.run(http_app(app, host=host), host=host, port=port, log_level=log_level)
    return 0


def _a2a_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("a2a") is not None


def _host_for_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _serve_stdio(app: object) -> int:
    import anyio
    from mcp.server.stdio import stdio_server

    from askback.app import App
    from askback.mcp.server import build_server

    assert isinstance(app, App)
    server = build_server(app)

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)
    return 0
