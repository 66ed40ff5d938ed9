"""Signing in to a server that answers HTTP 401: OAuth 2.1, through the official SDK's client support.

    async with askback.Client(url, sign_in=askback.SignIn()) as client: ...
    askback call URL TOOL                      # a terminal: signs in with the browser when the server asks

The SDK's `OAuthClientProvider` speaks the protocol: protected-resource metadata (RFC 9728) and
authorization-server metadata (RFC 8414, OpenID discovery) found from the 401, the client registered
dynamically (RFC 7591), by a client ID metadata document or pre-registered, the authorization code with PKCE
(S256), resource indicators (RFC 8707), the issuer of the response checked (RFC 9207), scopes chosen from the
challenge and stepped up on `insufficient_scope`, tokens refreshed, and a new registration when the server
moves to another authorization server. askback adds what the SDK leaves to its user:

- where the tokens and the registration are kept: one file per server in askback's data directory, mode 0600
  (`TokenFile`); a file that group or others can read is refused, as ssh refuses such a key;
- how the authorization URL is visited (`SignIn.authorize`): `"browser"` prints it and opens the browser,
  `"print"` only prints it, and either way the browser comes back to a one-shot listener on 127.0.0.1 that
  takes only the answer to this sign-in (its `state`); `"http"` has this process follow the URL itself, for an
  authorization server that grants without a person (a test or development server): the redirects are read,
  never shown, and if the server shows a page instead (a login), the sign-in stops and says a person is needed;
  `"never"` uses the tokens kept (refreshing them) and stops with `SignInFailed` where a person would be needed
  (a script, a service without a terminal);
- a failure that says what happened (`SignInFailed`), in place of the transport's stand-in error.

No token, code or client secret is ever put in a log line, an error or a message: the URL shown to the person
carries none (only the request for one), and the answer that comes back is read, not printed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import sys
import time
import urllib.error
import urllib.request
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import parse_qs, urljoin, urlsplit

import anyio

from askback.client.errors import SignInFailed
from askback.client.inert import one_line
from askback.datadir import default_data_dir, shared_mode, write_private

if TYPE_CHECKING:
    from anyio.abc import SocketStream
    from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthToken

    from askback.client.signin_auth import ReportingAuth

logger = logging.getLogger("askback.client")

Authorize = Literal["browser", "print", "http", "never"]
AUTHORIZE_MODES: tuple[Authorize, ...] = ("browser", "print", "http", "never")
TOKEN_DIR = "oauth"  # noqa: S105 - a directory name, not a password
CALLBACK_PATH = "/callback"
# Said where a sign-in needs a person and none may be asked (`"never"`).
SIGN_IN_ONCE = ("sign in once where a person can (askback tools URL, on a terminal); the tokens kept are then used "
                "and refreshed")
NOT_KEPT = ("it answers HTTP 401 and no sign-in is kept for it; a person must sign in, and none is asked here: "
            + SIGN_IN_ONCE)
_MAX_REDIRECTS = 10
_MAX_HEAD = 16 * 1024


@dataclass(frozen=True)
class SignIn:
    """How the client signs in when a server answers HTTP 401 (OAuth 2.1 authorization code with PKCE).

    `authorize`: how the person's authorization URL is visited (see the module). `client_id` and
    `client_secret`: a client registered with the authorization server beforehand (else it is registered
    dynamically, or `client_metadata_url` names a client ID metadata document where the server takes one).
    `token_endpoint_auth_method` of a pre-registered client defaults to `client_secret_basic` with a secret,
    `none` without. Tokens are kept under `data_dir` (default: askback's data directory). `wait` bounds the
    wait for the person, in seconds. `tell` receives what the person must read (default: standard error).
    """

    authorize: Authorize = "browser"
    client_name: str = "askback"
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    token_endpoint_auth_method: str | None = None
    client_metadata_url: str | None = None
    data_dir: Path | None = None
    wait: float = 300.0
    tell: Callable[[str], None] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.authorize not in AUTHORIZE_MODES:
            raise ValueError(f"authorize must be one of {', '.join(AUTHORIZE_MODES)}, not {self.authorize!r}")
        if self.client_secret is not None and self.client_id is None:
            raise ValueError("a client_secret needs the client_id it belongs to")

    def token_file(self, server_url: str) -> TokenFile:
        """Where the tokens for `server_url` are kept."""
        digest = hashlib.sha256(server_url.encode()).hexdigest()[:32]
        return TokenFile((self.data_dir or default_data_dir()) / TOKEN_DIR / f"{digest}.json", server_url)

    def auth(self, server_url: str, answered: Callable[[Any], None] | None = None) -> ReportingAuth | None:
        """The `httpx2.Auth` that signs requests to `server_url` in, signing in first when it must; `answered`
        is told each request's final response (an `httpx2.Response`).

        None with `"never"` and no tokens kept: every sign-in would need a person, so none is begun (no
        metadata fetched, no client registered) and a 401 is reported as it is (`NOT_KEPT`)."""
        from mcp.client.auth import OAuthClientProvider
        from mcp.shared.auth import OAuthClientMetadata

        from askback.client.signin_auth import ReportingAuth

        storage = self.token_file(server_url)
        if self.authorize == "never" and not storage.holds_tokens():
            return None
        step = _Authorization(self, server_url, _port_registered(storage))
        storage.preregistered = self._preregistered(step.redirect_uri)
        metadata = OAuthClientMetadata.model_validate({
            "client_name": self.client_name,
            "redirect_uris": [step.redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
        })
        try:
            provider = OAuthClientProvider(
                server_url, metadata, storage, redirect_handler=step.visit, callback_handler=step.answer,
                client_metadata_url=self.client_metadata_url,
            )
        except ValueError as exc:  # a client_metadata_url that is not an https URL with a path
            raise SignInFailed(server_url, one_line(str(exc))) from None
        return ReportingAuth(provider, server_url, answered)

    def _preregistered(self, redirect_uri: str) -> OAuthClientInformationFull | None:
        if self.client_id is None:
            return None
        from mcp.shared.auth import OAuthClientInformationFull

        method = self.token_endpoint_auth_method or ("client_secret_basic" if self.client_secret else "none")
        return OAuthClientInformationFull.model_validate({
            "client_id": self.client_id, "client_secret": self.client_secret, "redirect_uris": [redirect_uri],
            "token_endpoint_auth_method": method, "client_name": self.client_name,
        })

    def _say(self, text: str) -> None:
        if self.tell is not None:
            self.tell(text)
        else:
            print(f"askback: {text}", file=sys.stderr, flush=True)


class TokenFile:
    """The SDK's `TokenStorage` as one JSON file (mode 0600): a server's tokens and its client registration.

    The SDK does not keep a token's expiry across processes, so the file keeps it (`expires_at`): a token read
    back after it expired is handed out without its access token, and the SDK then refreshes it (or signs in
    again) before the first request instead of sending a token the server would refuse.
    """

    def __init__(self, path: Path, server_url: str, *, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.server_url = server_url
        self.clock = clock
        self.preregistered: OAuthClientInformationFull | None = None

    def _read(self) -> dict[str, Any]:
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise SignInFailed(self.server_url, f"its token file {self.path}: {exc.strerror or exc}") from None
        mode = shared_mode(info)
        if mode is not None:
            raise SignInFailed(
                self.server_url,
                f"its token file {self.path} has mode {mode:04o}: group or others may read the tokens; "
                f"make it private (chmod 600 {self.path}) or delete it to sign in again",
            )
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            data = None
        if not isinstance(data, dict):
            raise SignInFailed(self.server_url, f"its token file {self.path} is damaged; delete it to sign in again")
        return data

    def _write(self, **changes: Any) -> None:
        data = {**self._read(), "server": self.server_url, **changes}
        write_private(self.path, json.dumps(data, indent=1, sort_keys=True) + "\n")

    async def get_tokens(self) -> OAuthToken | None:
        from mcp.shared.auth import OAuthToken

        stored = self._read().get("tokens")
        if not isinstance(stored, dict):
            return None
        expires_at = stored.get("expires_at")
        token = OAuthToken.model_validate({k: v for k, v in stored.items() if k != "expires_at"})
        if isinstance(expires_at, int | float):
            left = int(expires_at - self.clock())
            if left <= 0:  # expired: no access token, so that the SDK refreshes (or signs in) first
                return token.model_copy(update={"access_token": "", "expires_in": 0})
            token = token.model_copy(update={"expires_in": left})
        return token

    async def set_tokens(self, tokens: OAuthToken) -> None:
        stored = tokens.model_dump(mode="json", exclude_none=True)
        if tokens.expires_in is not None:
            stored["expires_at"] = self.clock() + int(tokens.expires_in)
        stored.pop("expires_in", None)
        self._write(tokens=stored)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        from mcp.shared.auth import OAuthClientInformationFull

        stored = self._read().get("client")
        if isinstance(stored, dict):
            info = OAuthClientInformationFull.model_validate(stored)
            if self.preregistered is None or info.client_id == self.preregistered.client_id:
                return info
        return self.preregistered

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self._write(client=client_info.model_dump(mode="json", exclude_none=True))

    def holds_tokens(self) -> bool:
        return isinstance(self._read().get("tokens"), dict)

    def forget(self) -> bool:
        """Sign out: delete the tokens and the registration. True if there were any."""
        existed = self.path.exists()
        self.path.unlink(missing_ok=True)
        return existed


class _Authorization:
    """One sign-in's authorization step: the URL visited as `SignIn.authorize` says, and the answer taken back."""

    def __init__(self, sign_in: SignIn, server_url: str, port: int | None = None) -> None:
        self.sign_in = sign_in
        self.server_url = server_url
        self.port = _free_port(port)
        self.redirect_uri = f"http://127.0.0.1:{self.port}{CALLBACK_PATH}"
        self._state: str | None = None
        self._result: AuthorizationCodeResult | None = None
        self._listener: Any = None
        self._failure: SignInFailed | None = None  # the authorization server's refusal, brought back by the browser

    async def visit(self, url: str) -> None:
        """The SDK's `redirect_handler`: the person (or, with `"http"`, this process) goes to `url`."""
        self._state = _query(url).get("state")
        self._result = None
        host = urlsplit(url).netloc
        if self.sign_in.authorize == "never":
            raise SignInFailed(
                self.server_url,
                f"a person must sign in at {one_line(host)}, and none is asked here: {SIGN_IN_ONCE}",
            )
        if self.sign_in.authorize == "http":
            await self._follow(url)
            return
        self._listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=self.port)
        opened = self.sign_in.authorize == "browser" and await anyio.to_thread.run_sync(_open_browser, url)
        said = "a browser was opened at it" if opened else "open it in a browser on this machine"
        self.sign_in._say(
            f"{one_line(self.server_url)} asks you to sign in, at {one_line(host)}: {said}:\n  {one_line(url)}\n"
            f"(waiting up to {self.sign_in.wait:g} s for the browser to come back to 127.0.0.1:{self.port})"
        )

    async def answer(self) -> AuthorizationCodeResult:
        """The SDK's `callback_handler`: the answer the browser brought back (or the redirect followed)."""
        if self._result is None:
            listener, self._listener = self._listener, None
            if listener is None:
                raise SignInFailed(self.server_url, "no authorization was started")
            try:
                with anyio.move_on_after(self.sign_in.wait):
                    await self._listen(listener)
            finally:
                await listener.aclose()
            if self._result is None:
                raise SignInFailed(
                    self.server_url, f"the browser did not come back from signing in within {self.sign_in.wait:g} s"
                )
        return self._result

    def _take(self, query: dict[str, str]) -> str | None:
        """Take the authorization response in `query`; None when it is this sign-in's, else why it is not."""
        from mcp.shared.auth import AuthorizationCodeResult

        if query.get("state") != self._state:
            return "this is not the answer to the sign-in under way (its state differs)"
        if "error" in query:
            described = query.get("error_description")
            raise SignInFailed(
                self.server_url,
                f"the authorization server refused: {one_line(query['error'])}"
                + (f" ({one_line(described)})" if described else ""),
            )
        if not query.get("code"):
            return "the answer carries no authorization code"
        self._result = AuthorizationCodeResult(code=query["code"], state=query.get("state"), iss=query.get("iss"))
        return None

    async def _follow(self, url: str) -> None:
        """`"http"`: follow the authorization URL's redirects until one comes back to the redirect URI.

        With the standard library's HTTP client, which logs nothing: the last redirect carries the authorization
        code, and an HTTP library's debug log of response headers would write it down."""
        for _ in range(_MAX_REDIRECTS):
            if urlsplit(url).scheme not in ("http", "https"):
                raise SignInFailed(self.server_url, "the authorization server sent the browser to a non-http(s) URL")
            try:
                status, location = await anyio.to_thread.run_sync(_get_without_following, url)
            except OSError as exc:
                raise SignInFailed(
                    self.server_url,
                    f"its authorization server at {one_line(urlsplit(url).netloc)} cannot be reached: "
                    f"{one_line(str(getattr(exc, 'reason', None) or exc))}",
                ) from None
            if not 300 <= status < 400 or not location:
                raise SignInFailed(
                    self.server_url,
                    f"its authorization server at {one_line(urlsplit(url).netloc)} answered HTTP "
                    f"{status} instead of sending the browser back: a person must sign in "
                    "there (sign in with the browser instead of following the redirects over HTTP)",
                )
            url = urljoin(url, location)
            if _same_endpoint(url, self.redirect_uri):
                problem = self._take(_query(url))
                if problem is not None:
                    raise SignInFailed(self.server_url, problem)
                return
        raise SignInFailed(self.server_url, f"the authorization server redirected more than {_MAX_REDIRECTS} times")

    async def _listen(self, listener: Any) -> None:
        async with anyio.create_task_group() as group:

            async def serve(stream: SocketStream) -> None:
                async with stream:
                    try:
                        status, page = self._page(await _request_target(stream))
                    except SignInFailed as refused:
                        status, page = 400, "The sign-in was refused. You can close this page."
                        self._failure = refused
                        group.cancel_scope.cancel()
                    await stream.send(_response(status, page))
                if self._result is not None:
                    group.cancel_scope.cancel()

            self._failure = None
            await listener.serve(serve, task_group=group)
        if self._failure is not None:
            raise self._failure

    def _page(self, target: str | None) -> tuple[int, str]:
        if target is None or urlsplit(target).path != CALLBACK_PATH:
            return 404, "Not found."
        problem = self._take(_query(target))
        if problem is not None:
            return 400, f"Not taken: {problem}."
        return 200, "Signed in. You can close this page and go back to askback."


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # the redirect is read by `_follow`, not followed


def _get_without_following(url: str) -> tuple[int, str | None]:
    """GET `url` (http or https: `_follow` checks): its status and `Location`, the body unread."""
    opener = urllib.request.build_opener(_NoRedirects)
    try:
        with opener.open(urllib.request.Request(url, method="GET"), timeout=30) as response:  # noqa: S310
            return int(response.status), response.headers.get("location")
    except urllib.error.HTTPError as answer:  # a redirect not followed, or an error status: both are answers
        with answer:
            return int(answer.code), answer.headers.get("location")


def _open_browser(url: str) -> bool:
    """Open a graphical browser at `url`, if this machine has one to show: a text browser would take over the
    terminal the person is reading the URL in, so without a display the URL is only printed."""
    if sys.platform not in ("darwin", "win32") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        return bool(webbrowser.open(url))
    except webbrowser.Error:
        return False


def _port_registered(storage: TokenFile) -> int | None:
    """The loopback port of the redirect URI the client was registered with, to come back to the same one.

    Authorization servers must take any port on a loopback redirect URI (RFC 8252, section 7.3); the same
    one again spares those that do not.
    """
    client = storage._read().get("client")
    uris = client.get("redirect_uris") if isinstance(client, dict) else None
    if not isinstance(uris, list) or not uris or not isinstance(uris[0], str):
        return None
    parts = urlsplit(uris[0])
    return parts.port if parts.hostname == "127.0.0.1" and parts.path == CALLBACK_PATH else None


def _free_port(wanted: int | None = None) -> int:
    """`wanted` if it is free on 127.0.0.1 now, else a port that is."""
    for port in ((wanted, 0) if wanted else (0,)):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise SignInFailed("127.0.0.1", "no free port for the sign-in's listener")


def _query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def _same_endpoint(url: str, redirect_uri: str) -> bool:
    a, b = urlsplit(url), urlsplit(redirect_uri)
    return (a.scheme, a.hostname, a.port, a.path) == (b.scheme, b.hostname, b.port, b.path)


async def _request_target(stream: SocketStream) -> str | None:
    """The target of the one HTTP request on `stream` (`/callback?...`), or None if it is not a GET."""
    head = b""
    with anyio.move_on_after(10):
        while b"\r\n\r\n" not in head and len(head) < _MAX_HEAD:
            try:
                head += await stream.receive()
            except (anyio.EndOfStream, anyio.BrokenResourceError):
                break
    method, _, rest = head.partition(b"\r\n")[0].decode("latin-1").partition(" ")
    return rest.rpartition(" ")[0] or None if method == "GET" else None


def _response(status: int, text: str) -> bytes:
    reason = {200: "OK", 400: "Bad Request", 404: "Not Found"}[status]
    body = f"<!doctype html><meta charset=utf-8><title>askback</title><p>{text}</p>\n".encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
        "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n"
    ).encode() + body


__all__ = ["AUTHORIZE_MODES", "Authorize", "SignIn", "TokenFile"]
