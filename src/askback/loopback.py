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
