"""A protected MCP server and its OAuth 2.1 authorization server, small and real, for the sign-in tests.

One Starlette app on loopback: `/mcp` is an askback app's MCP endpoint that answers HTTP 401 (with the
`resource_metadata` challenge of RFC 9728) to any request without a token this authorization server issued;
the metadata documents, dynamic registration, the authorization endpoint (which grants at once, or shows a
login page when `login_page` is set) and the token endpoint (authorization code with PKCE S256, refresh) are
at their well-known places. It counts what it was asked and keeps every secret it handed out, so that a test
can look for them where they must never be.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

import askback
from askback.mcp.http import http_app


@dataclass
class Authority:
    """The authorization server's state: what it issued and how often each endpoint was used."""

    base: str = ""
    expires_in: int = 3600
    login_page: bool = False
    access_tokens: set[str] = field(default_factory=set)
    refresh_tokens: set[str] = field(default_factory=set)
    codes: dict[str, tuple[str, str]] = field(default_factory=dict)  # code -> (challenge, redirect_uri)
    client_secrets: set[str] = field(default_factory=set)
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def issued(self) -> set[str]:
        """Every credential handed out: tokens, codes and client secrets."""
        return self.access_tokens | self.refresh_tokens | set(self.codes) | self.client_secrets

    def tokens(self) -> dict[str, Any]:
        access, refresh = f"at-{secrets.token_urlsafe(24)}", f"rt-{secrets.token_urlsafe(24)}"
        self.access_tokens.add(access)
        self.refresh_tokens.add(refresh)
        return {"access_token": access, "token_type": "Bearer", "expires_in": self.expires_in,
                "refresh_token": refresh}


def _app() -> askback.App:
    app = askback.App("protected")

    @app.tool()
    def hello(name: str) -> str:
        """Greet someone."""
        return f"hello {name}"

    return app


def protected_app(authority: Authority) -> ASGIApp:
    """The ASGI app: `/mcp` behind bearer tokens, the authorization server beside it."""
    mcp = http_app(_app())

    async def resource_metadata(request: Request) -> Response:
        return JSONResponse({"resource": f"{authority.base}/mcp", "authorization_servers": [authority.base]})

    async def server_metadata(request: Request) -> Response:
        base = authority.base
        return JSONResponse({
            "issuer": base, "authorization_endpoint": f"{base}/authorize", "token_endpoint": f"{base}/token",
            "registration_endpoint": f"{base}/register", "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"], "token_endpoint_auth_methods_supported": ["none"],
            "authorization_response_iss_parameter_supported": True,
        })

    async def register(request: Request) -> Response:
        authority.count("register")
        body = await request.json()
        return JSONResponse({"client_id": f"client-{secrets.token_hex(4)}", "token_endpoint_auth_method": "none",
                             "redirect_uris": body.get("redirect_uris", [])}, status_code=201)

    async def authorize(request: Request) -> Response:
        authority.count("authorize")
        query = request.query_params
        if authority.login_page:
            return HTMLResponse("<form method=post><input name=user><input name=password type=password></form>")
        if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            return JSONResponse({"error": "invalid_request"}, status_code=400)
        code = secrets.token_urlsafe(16)
        authority.codes[code] = (query["code_challenge"], query["redirect_uri"])
        back = {"code": code, "state": query.get("state", ""), "iss": authority.base}
        return RedirectResponse(f"{query['redirect_uri']}?{urlencode(back)}", status_code=302)

    async def token(request: Request) -> Response:
        form = await request.form()
        grant = form.get("grant_type")
        authority.count(f"token:{grant}")
        if grant == "authorization_code":
            challenge, redirect_uri = authority.codes.get(str(form.get("code")), ("", ""))
            verifier = str(form.get("code_verifier") or "")
            computed = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
            if not challenge or computed != challenge or form.get("redirect_uri") != redirect_uri:
                return JSONResponse({"error": "invalid_grant"}, status_code=400)
            return JSONResponse(authority.tokens())
        if grant == "refresh_token" and form.get("refresh_token") in authority.refresh_tokens:
            return JSONResponse(authority.tokens())
        return JSONResponse({"error": "invalid_grant"}, status_code=400)

    routes = {
        "/.well-known/oauth-protected-resource/mcp": resource_metadata,
        "/.well-known/oauth-authorization-server": server_metadata,
        "/register": register,
        "/authorize": authorize,
        "/token": token,
    }

    async def asgi(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await mcp(scope, receive, send)  # the lifespan: the askback app starts and stops with the server
            return
        request = Request(scope, receive)
        handler = routes.get(scope["path"])
        if handler is not None:
            await (await handler(request))(scope, receive, send)
            return
        if scope["path"] == "/mcp":
            given = request.headers.get("authorization", "")
            if not given.startswith("Bearer ") or given[7:] not in authority.access_tokens:
                authority.count("401")
                challenge = f'Bearer resource_metadata="{authority.base}/.well-known/oauth-protected-resource/mcp"'
                await JSONResponse({"error": "invalid_token"}, status_code=401,
                                   headers={"WWW-Authenticate": challenge})(scope, receive, send)
                return
        await mcp(scope, receive, send)

    return asgi
