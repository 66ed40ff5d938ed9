"""What counts as this machine's own host: the one test of loopback, for the server and the client alike.

A standalone module (the standard library only), so the client uses it without loading the server side."""

from __future__ import annotations

import ipaddress

# The names a loopback server accepts by default (`askback.config.HostChecks`): one of each kind.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    """Whether a host name or address is this machine's own: `localhost`, `127.0.0.0/8`, `::1` or `[::1]`.

    The exposure checks, the pages' rules, page links and the client's link warnings all ask this."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def by_name(url: str) -> str:
    """`url` with a loopback address as its host (`http://127.0.0.1:8000`) named `localhost` instead.

    A passkey belongs to a name (its WebAuthn relying party id), and a browser refuses an address as one: a
    page that asks for a passkey on a loopback server is linked, and its passkeys enrolled, at `localhost`."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    if host == "localhost" or not is_loopback(host):
        return url
    netloc = "localhost" + (f":{parts.port}" if parts.port is not None else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
