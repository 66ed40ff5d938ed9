"""What a request is, whatever the wire it came over, and the two things askback reads from it.

Each adapter (the MCP SDK path, the fast route, A2A) builds one `Incoming` from its wire, once per request.
From it, and only here, come the principal a flow's state is bound to (`principal_of`) and the origin a
loopback server's page links use (`page_origin`), so every wire reads them alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from askback.loopback import is_loopback


@dataclass(frozen=True, slots=True)
class Reached:
    """The URL a request came to: `host` without brackets (`::1`), `port` only when the request named one."""

    scheme: str
    host: str
    port: int | None = None
    path: str = "/"

    @property
    def origin(self) -> str:
        """scheme://host[:port], as a browser spells the origin of this URL."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}" if self.port is None else f"{self.scheme}://{host}:{self.port}"


@dataclass(frozen=True, slots=True)
class Incoming:
    """A request as askback reads it, and what an app's principal hook sees (as `askback.Request`).

    `headers` are the HTTP request's headers (lower-case names; empty over stdio); `user` is what an
    authentication middleware put in the ASGI scope (`scope["user"]`), if any; `url` is where the request
    came to (none over stdio); `authenticated` is the principal the server's own authentication named, if any.
    """

    protocol: str
    headers: Mapping[str, str] = field(default_factory=dict)
    user: Any = None
    url: Reached | None = None
    authenticated: str | None = None


PrincipalHook = Callable[[Incoming], "str | None"]


def principal_of(incoming: Incoming, hook: PrincipalHook | None) -> str | None:
    """Who the request is from: the server's authentication when it named someone, else the app's hook."""
    if incoming.authenticated is not None:
        return incoming.authenticated
    return hook(incoming) if hook is not None else None


def page_origin(incoming: Incoming) -> str | None:
    """The origin page links use when no public URL is set: the request's own, if it came to a loopback host.

    Its scheme is the one the request came over, so a request that arrived over https gets https links."""
    url = incoming.url
    if url is None or not is_loopback(url.host):
        return None
    return url.origin
