"""Middleware a user adds to the app `http_app` returns runs on every request, MCP requests included.

Authentication is the case that matters most: askback binds a flow's state to the caller's principal, so an
`AuthenticationMiddleware` that never sees `/mcp` would leave every flow unauthenticated without a word. The
tests use the SDK's own pairing (`AuthenticationMiddleware` naming an `AuthenticatedUser`, then
`AuthContextMiddleware` publishing it), which is what `authenticated_principal` reads on the server side.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from starlette.applications import Starlette
from starlette.authentication import AuthCredentials, AuthenticationBackend, AuthenticationError
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount
from starlette.types import ASGIApp, Receive, Scope, Send

import askback
from askback.mcp.http import http_app
from tests.support.rawclient import RawClient, accept

Serve = Callable[[askback.App | ASGIApp], str]
TOKENS = {"token-ada": "ada", "token-grace": "grace"}


class BearerBackend(AuthenticationBackend):
    """Every request must carry one of two known bearer tokens."""

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, AuthenticatedUser]:
        scheme, _, token = conn.headers.get("authorization", "").partition(" ")
        subject = TOKENS.get(token) if scheme.lower() == "bearer" else None
        if subject is None:
            raise AuthenticationError("a valid bearer token is required")
        access = AccessToken(token=token, client_id="test-client", scopes=["mcp"], expires_at=int(time.time()) + 600,
                             subject=subject, claims={"iss": "https://issuer.test"})
        return AuthCredentials(["mcp"]), AuthenticatedUser(access)


def unauthorized(conn: HTTPConnection, exc: Exception) -> Response:
    return JSONResponse({"error": "invalid_token", "error_description": str(exc)}, status_code=401,
                        headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})


def confirmed_app() -> tuple[askback.App, list[str | None]]:
    """A tool that reports its caller's principal, after a confirmation (so its state is principal-bound)."""
    app = askback.App("who")
    ran: list[str | None] = []

    @app.tool()
    def whoami(caller: askback.Caller, ok: Annotated[bool, askback.Confirm("Tell you who you are?")]) -> str:
        ran.append(caller.principal)
        return caller.principal or "nobody"

    return app, ran


class Recorder:
    """A pure ASGI middleware, as a tracing library would add: it notes every HTTP path it sees."""

    def __init__(self, app: ASGIApp, seen: list[str]) -> None:
        self.app = app
        self.seen = seen

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.seen.append(f"{scope['method']} {scope['path']}")
        await self.app(scope, receive, send)


def authenticated(app: askback.App) -> Starlette:
    asgi = http_app(app)
    asgi.add_middleware(AuthContextMiddleware)  # inner: publishes scope["user"] to the SDK
    asgi.add_middleware(AuthenticationMiddleware, backend=BearerBackend(), on_error=unauthorized)  # outer
    return asgi


def test_authentication_middleware_rejects_an_mcp_request_without_a_token(serve: Serve) -> None:
    app, ran = confirmed_app()
    url = serve(authenticated(app))
    with RawClient(url) as client:
        without_token = client.send("tools/list")
        assert client.last is not None and client.last.status_code == 401, client.last
        assert client.last.headers["www-authenticate"].startswith("Bearer")
        client.http.headers["Authorization"] = "Bearer not-a-token"
        with_bad_token = client.call("whoami")
        assert client.last.status_code == 401
    refused = {"error": "invalid_token", "error_description": "a valid bearer token is required"}
    assert without_token == with_bad_token == refused
    assert ran == []


def test_authenticated_user_reaches_the_tool_as_its_principal(serve: Serve) -> None:
    app, ran = confirmed_app()
    url = serve(authenticated(app))
    with RawClient(url) as client:
        client.http.headers["Authorization"] = "Bearer token-ada"
        asked = client.call("whoami")["result"]
        assert asked["resultType"] == "input_required", asked
        done = client.call("whoami", state=asked["requestState"], responses={"ok": accept(ok=True)})["result"]
    # The SDK's principal: its (client id, issuer, subject) triple as compact JSON.
    assert json.loads(done["content"][0]["text"]) == ["test-client", "https://issuer.test", "ada"]
    assert ran == [done["content"][0]["text"]]


def test_a_flow_started_by_one_user_cannot_be_finished_by_another(serve: Serve) -> None:
    """The principal the middleware named is bound into the sealed state, so it is really in force."""
    app, ran = confirmed_app()
    url = serve(authenticated(app))
    with RawClient(url) as ada, RawClient(url) as grace:
        ada.http.headers["Authorization"] = "Bearer token-ada"
        grace.http.headers["Authorization"] = "Bearer token-grace"
        asked = ada.call("whoami")["result"]
        stolen = grace.call("whoami", state=asked["requestState"], responses={"ok": accept(ok=True)})
    assert stolen.get("error", {}).get("code") == -32602, stolen
    assert ran == []


def test_an_app_composed_around_http_app_authenticates_mcp_requests(serve: Serve) -> None:
    """The other way to add middleware: a Starlette app of the user's mounting askback's (its lifespan passed on,
    which is what starts the SDK's session managers)."""
    app, ran = confirmed_app()
    inner = http_app(app)
    outer = Starlette(
        routes=[Mount("/", app=inner)],
        middleware=[Middleware(AuthenticationMiddleware, backend=BearerBackend(), on_error=unauthorized),
                    Middleware(AuthContextMiddleware)],
        lifespan=lambda _: inner.router.lifespan_context(inner),
    )
    url = serve(outer)
    with RawClient(url) as client:
        refused = client.send("tools/list")
        assert client.last is not None and client.last.status_code == 401, refused
        client.http.headers["Authorization"] = "Bearer token-grace"
        asked = client.call("whoami")["result"]
        done = client.call("whoami", state=asked["requestState"], responses={"ok": accept(ok=True)})["result"]
    assert json.loads(done["content"][0]["text"]) == ["test-client", "https://issuer.test", "grace"]
    assert len(ran) == 1


def test_a_pure_asgi_middleware_sees_every_mcp_request(serve: Serve) -> None:
    app, _ = confirmed_app()
    seen: list[str] = []
    asgi = http_app(app)
    asgi.add_middleware(Recorder, seen=seen)
    url = serve(asgi)
    with RawClient(url) as client:
        client.send("tools/list")
        client.call("whoami")
    assert seen == ["POST /mcp", "POST /mcp"]


def test_cors_middleware_answers_for_mcp_responses(serve: Serve) -> None:
    app, _ = confirmed_app()
    asgi = http_app(app)
    origin = "http://localhost:5173"
    asgi.add_middleware(CORSMiddleware, allow_origins=[origin], allow_methods=["POST"], allow_headers=["*"],
                        expose_headers=["Mcp-Session-Id"])
    url = serve(asgi)
    with RawClient(url) as client:
        client.http.headers["Origin"] = origin
        listed = client.send("tools/list")
        response = client.last
    assert response is not None and response.status_code == 200, response
    assert [t["name"] for t in listed["result"]["tools"]] == ["whoami"]
    assert response.headers.get("access-control-allow-origin") == origin
    assert "mcp-session-id" in response.headers.get("access-control-expose-headers", "").lower()


def test_without_user_middleware_the_mcp_path_still_answers(serve: Serve) -> None:
    """The plain app (no middleware added) keeps working: tools, and a route of the user's own."""
    app, ran = confirmed_app()
    url = serve(app)
    with RawClient(url) as client:
        asked = client.call("whoami")["result"]
        done: dict[str, Any] = client.call("whoami", state=asked["requestState"],
                                           responses={"ok": accept(ok=True)})["result"]
    assert done["content"][0]["text"] == "nobody"
    assert ran == [None]
