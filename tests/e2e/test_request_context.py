"""One request context on every wire: the MCP SDK path, the fast route and A2A read a request alike.

The same app is served three ways over real loopback HTTP, and the same request (headers, scope user, bearer
token, Host, scheme) must give the same principal and the same page link on each. Loopback names are judged
alike by every rule that asks (the exposure checks, the pages' public-URL rule, page links, client warnings).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Annotated, Any

import httpx
import pytest
from a2a.client import ClientConfig, create_client
from a2a.types import a2a_pb2 as pb
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from starlette.applications import Starlette
from starlette.authentication import AuthCredentials, AuthenticationBackend, BaseUser
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

import askback
from askback.client.links import Link
from askback.config import ExposureError, HostChecks
from askback.mcp.fast import FastRoute
from askback.mcp.http import http_app
from askback.web.serving import PagesConfigError, pages_for
from tests.a2a.support import extension_meta, message
from tests.conftest import LoopbackServer
from tests.support.rawclient import RawClient

WIRES = ["sdk path", "fast route", "a2a"]
KEYS = "ctx-key-0123456789abcdefghijklmnopqrstuvwxyz-0123456"


class Visitor(BaseUser):
    """What a middleware of the app's own puts in the scope: a user the server's authentication did not name."""

    def __init__(self, team: str) -> None:
        self.team = team

    @property
    def is_authenticated(self) -> bool:
        return False

    @property
    def display_name(self) -> str:
        return self.team


class VisitorMiddleware:
    """Puts `Visitor(x-visitor)` in the scope of every HTTP request that names one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            team = dict(scope["headers"]).get(b"x-visitor")
            if team is not None:
                scope["user"] = Visitor(team.decode())
        await self.app(scope, receive, send)


class Bearer(AuthenticationBackend):
    """The MCP SDK's pairing: one OAuth client, a subject per token (two users must stay two principals)."""

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, AuthenticatedUser] | None:
        scheme, _, token = conn.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            return None
        access = AccessToken(token=token, client_id="one-client", scopes=["mcp"], expires_at=int(time.time()) + 600,
                             subject=token, claims={"iss": "https://issuer.test"})
        return AuthCredentials(["mcp"]), AuthenticatedUser(access)


def hook(request: askback.Request) -> str | None:
    return f"{request.headers.get('x-team', '-')}/{getattr(request.user, 'team', '-')}"


def made(*, public_url: str | None = None, page_auth: askback.app.PageAuth | None = None) -> askback.App:
    app = askback.App("ctx", keys=KEYS, store="memory://", principal=hook, public_url=public_url,
                      page_auth=page_auth)

    @app.tool()
    def whoami(caller: askback.Caller) -> str:
        return caller.principal or "nobody"

    @app.tool()
    def connect(api_key: Annotated[askback.Secret, askback.Ask("the API key")]) -> str:
        return "connected"

    return app


def served(wire: str, *, any_host: bool = False) -> tuple[Starlette, ASGIApp]:
    # Any Host reaches it, so its pages must check who opens them (a page_auth of the app's).
    app = made(page_auth=(lambda request: None) if any_host else None)
    asgi = http_app(app, fast_route=wire == "fast route", allow_any_origin=any_host)
    asgi.add_middleware(VisitorMiddleware)
    asgi.add_middleware(AuthContextMiddleware)
    asgi.add_middleware(AuthenticationMiddleware, backend=Bearer())
    # Behind TLS: the proxy's X-Forwarded-Proto sets the scope's scheme, as uvicorn --proxy-headers does.
    return asgi, ProxyHeadersMiddleware(asgi, trusted_hosts="127.0.0.1")


class Wire:
    """One of the three wires of a served app: a tool called with given request headers."""

    def __init__(self, wire: str, asgi: Starlette, url: str) -> None:
        self.wire = wire
        self.url = url
        self.base = url.removesuffix("/mcp")
        self.fast: FastRoute | None = asgi._router if wire == "fast route" else None  # type: ignore[attr-defined]

    def call(self, tool: str, headers: Mapping[str, str]) -> Any:
        """The tool's answer: the MCP result, or the A2A task."""
        if self.wire == "a2a":
            import anyio

            return anyio.run(self._a2a_call, tool, dict(headers))
        answered = self.fast.counts.answered if self.fast is not None else 0
        with RawClient(self.url) as client:
            client.http.headers.update(headers)
            result = client.call(tool)["result"]
        if self.fast is not None:
            assert self.fast.counts.answered == answered + 1, self.fast.counts.reasons  # the fast route answered
        return result

    async def _a2a_call(self, tool: str, headers: dict[str, str]) -> pb.Task:
        async def on_post(request: httpx.Request) -> None:
            if request.method == "POST":  # the card stays plain, so the client reaches this plain-HTTP server
                request.headers.update(headers)

        async with httpx.AsyncClient(timeout=30, event_hooks={"request": [on_post]}) as http:
            client = await create_client(self.base, ClientConfig(streaming=False, httpx_client=http))
            try:
                task = None
                async for event in client.send_message(pb.SendMessageRequest(message=message(
                        {"tool": tool, "arguments": {}}))):
                    if event.HasField("task"):
                        task = event.task
                assert task is not None
                return task
            finally:
                await client.close()

    def principal(self, headers: Mapping[str, str]) -> str:
        answer = self.call("whoami", headers)
        if self.wire == "a2a":
            return str(answer.artifacts[0].parts[0].text)
        return str(answer["content"][0]["text"])

    def page_link(self, headers: Mapping[str, str]) -> str | None:
        answer = self.call("connect", headers)
        if self.wire == "a2a":
            pages = extension_meta(answer).get("pages") or []
            return str(pages[0]["url"]) if pages else None
        found = [s for s in _strings(answer) if "/askback/p/" in s]
        return found[0] if found else None


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@pytest.fixture(params=WIRES)
def wire(request: pytest.FixtureRequest) -> Iterator[Wire]:
    asgi, outer = served(request.param)
    with LoopbackServer(outer) as server:
        yield Wire(request.param, asgi, server.url)


@pytest.fixture(params=WIRES)
def any_host_wire(request: pytest.FixtureRequest) -> Iterator[Wire]:
    asgi, outer = served(request.param, any_host=True)
    with LoopbackServer(outer) as server:
        yield Wire(request.param, asgi, server.url)


REQUESTS: dict[str, tuple[dict[str, str], Callable[[], Any]]] = {
    "headers only": ({"X-Team": "blue"}, lambda: "blue/-"),
    "scope user": ({"X-Team": "blue", "X-Visitor": "ops"}, lambda: "blue/ops"),
    "nothing": ({}, lambda: "-/-"),
    # The SDK's own authentication names the principal before the hook: (client, issuer, subject), so two
    # users of one OAuth client are two principals on every wire.
    "bearer token": ({"Authorization": "Bearer ada", "X-Team": "blue"},
                     lambda: ["one-client", "https://issuer.test", "ada"]),
}


@pytest.mark.parametrize("case", list(REQUESTS))
def test_the_principal_is_read_alike_on_every_wire(wire: Wire, case: str) -> None:
    headers, expected = REQUESTS[case]
    principal = wire.principal(headers)
    found = json.loads(principal) if principal.startswith("[") else principal
    assert found == expected(), f"{wire.wire}: {principal}"


def test_two_users_of_one_oauth_client_are_two_principals_on_every_wire(wire: Wire) -> None:
    ada = wire.principal({"Authorization": "Bearer ada"})
    grace = wire.principal({"Authorization": "Bearer grace"})
    assert ada != grace, wire.wire


def test_a_page_link_keeps_the_scheme_the_request_came_over(wire: Wire) -> None:
    port = wire.url.split(":")[2].split("/")[0]
    over_tls = wire.page_link({"X-Forwarded-Proto": "https"})
    plain = wire.page_link({})
    assert over_tls is not None and over_tls.startswith(f"https://127.0.0.1:{port}/askback/p/"), over_tls
    assert plain is not None and plain.startswith(f"http://127.0.0.1:{port}/askback/p/"), plain


HOSTS = {"localhost": True, "127.0.0.1": True, "127.0.0.2": True, "::1": True, "[::1]": True,
         "example.test": False, "10.1.2.3": False}


def _netloc(host: str, port: int | str) -> str:
    name = host.strip("[]")
    return f"[{name}]:{port}" if ":" in name else f"{name}:{port}"


def test_a_page_link_is_the_request_host_exactly_when_it_is_loopback(any_host_wire: Wire) -> None:
    port = any_host_wire.url.split(":")[2].split("/")[0]
    for host, loopback in HOSTS.items():
        link = any_host_wire.page_link({"Host": _netloc(host, port)})
        if loopback:
            assert link is not None and link.startswith(f"http://{_netloc(host, port)}/askback/p/"), (host, link)
        else:
            assert link is None, (host, link)


@pytest.mark.parametrize("host", list(HOSTS))
def test_loopback_names_are_judged_alike_by_every_rule(host: str) -> None:
    loopback = HOSTS[host]
    try:
        HostChecks.resolve(host)
        bind_ok = True
    except ExposureError:
        bind_ok = False
    try:
        pages_for(made(public_url=f"http://{_netloc(host, 8000)}"), "127.0.0.1", HostChecks.resolve("127.0.0.1"))
        plain_public_url_ok = True
    except PagesConfigError as exc:
        assert "https" in str(exc)
        plain_public_url_ok = False
    unencrypted = any("not encrypted" in w for w in Link.of(f"http://{_netloc(host, 8000)}/p").warnings())
    assert (bind_ok, plain_public_url_ok, not unencrypted) == (loopback, loopback, loopback)


def test_a_bracketed_loopback_address_allows_the_same_hosts_as_the_bare_one() -> None:
    assert HostChecks.resolve("[::1]") == HostChecks.resolve("::1")
