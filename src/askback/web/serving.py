"""When and how an app's pages are served: authentication required off loopback, HTTPS for public links."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from starlette.routing import BaseRoute

from askback.app import App

logger = logging.getLogger("askback.web")
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


class PagesConfigError(ValueError):
    """The app's out-of-band pages cannot be served safely as configured; the message says what to set."""


def warn_if_development_mode(app: App) -> None:
    """Said at start-up, once the server runs: its pages check nobody, so it must stay on loopback."""
    if app.needs_pages and app.page_auth is None:
        logger.warning(
            "%s: askback's pages run in development mode (no page authentication): loopback only", app.name
        )


def pages_for(app: App, host: str) -> list[BaseRoute]:
    """The routes of `app`'s pages for a server bound to `host` (none when no parameter needs a page)."""
    if not app.needs_pages:
        return []
    runtime = app.runtime
    public = runtime.public_url
    if public is not None:
        parts = urlsplit(public)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise PagesConfigError(f"ASKBACK_PUBLIC_URL must be an http(s) URL, not {public!r}")
        if parts.scheme != "https" and parts.hostname not in LOOPBACK:
            raise PagesConfigError("ASKBACK_PUBLIC_URL must use https:// outside loopback (pages take secrets)")
    dev_mode = app.page_auth is None
    if dev_mode and host not in LOOPBACK:
        raise PagesConfigError(
            f"{app.name!r} has secrets or out-of-band approvals, whose pages must check who opens them: give the "
            "App page_auth=... (your login or OAuth/OIDC session), or serve on a loopback host"
        )
    if runtime.out_of_band is None:
        raise PagesConfigError(f"{app.name!r}: its runtime has no out-of-band service")
    from askback.web.pages import PageSettings, page_routes  # only an app with pages loads them

    settings = PageSettings(
        out_of_band=runtime.out_of_band,
        server_name=app.name,
        page_auth=app.page_auth,
        dev_mode=dev_mode,
        csrf_key=runtime.codec.keyring.derive_bytes("page csrf v1"),
    )
    return page_routes(settings)
