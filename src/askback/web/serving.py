"""When and how an app's pages are served: authentication required unless only this machine can reach them,
HTTPS for public links."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from starlette.routing import BaseRoute

from askback.app import App
from askback.config import HostChecks, host_name
from askback.loopback import is_loopback

logger = logging.getLogger("askback.web")


class PagesConfigError(ValueError):
    """The app's out-of-band pages cannot be served safely as configured; the message says what to set."""


def warn_if_development_mode(app: App) -> None:
    """Said at start-up, once the server runs: its pages check nobody, so it must stay on loopback."""
    if (app.needs_pages or app.pages_served) and app.page_auth is None:
        logger.warning(
            "%s: askback's pages run in development mode (no page authentication): loopback only", app.name
        )


def pages_for(app: App, host: str, checks: HostChecks) -> list[BaseRoute]:
    """The routes of `app`'s pages for a server bound to `host` that accepts `checks` (none when nothing can
    need a page).

    A parameter that needs a page (a secret, an out-of-band approval) makes a configuration that cannot serve
    them safely an error. A function that takes an `askback.Work` only may ask for a secret while it runs: its
    pages are served when they can be safely, and otherwise not (said in the log once); its `secret=True`
    questions then end in `SecretsUnavailable`, saying so (`app.pages_served` tells the runners).
    """
    if not app.needs_pages and not app.asks_during_work:
        return []
    runtime = app.runtime
    problem = _unsafe(app, host, checks)
    if problem is not None:
        if app.needs_pages:
            raise PagesConfigError(problem)
        logger.warning("%s: askback's pages are not served, so a secret asked during the work cannot be entered: "
                       "%s", app.name, problem)
        return []
    if runtime.out_of_band is None:
        raise PagesConfigError(f"{app.name!r}: its runtime has no out-of-band service")
    dev_mode = app.page_auth is None
    from askback.web.pages import PageSettings, page_routes  # only an app with pages loads them

    settings = PageSettings(
        out_of_band=runtime.out_of_band,
        server_name=app.name,
        page_auth=app.page_auth,
        dev_mode=dev_mode,
        csrf_key=runtime.codec.keyring.derive_bytes("page csrf v1"),
        passkeys=app.passkeys,
        approvers=app.approvers_of,
        public_url=runtime.public_url,
    )
    app.pages_served = True
    return page_routes(settings)


def _unsafe(app: App, host: str, checks: HostChecks) -> str | None:
    """Why `app`'s pages cannot be served safely here, or None."""
    public = app.runtime.public_url
    if public is not None:
        parts = urlsplit(public)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return f"ASKBACK_PUBLIC_URL must be an http(s) URL, not {public!r}"
        if parts.scheme != "https" and not is_loopback(parts.hostname or ""):
            return "ASKBACK_PUBLIC_URL must use https:// outside loopback (pages take secrets)"
    reached = _reached_from_elsewhere(host, checks, public) if app.page_auth is None else None
    if reached is not None:
        return (
            f"{app.name!r} has secrets or out-of-band approvals, whose pages must check who opens them, and "
            f"{reached}: give the App page_auth=... (your login or OAuth/OIDC session), or serve on loopback only"
        )
    return None


def _reached_from_elsewhere(host: str, checks: HostChecks, public_url: str | None) -> str | None:
    """Why a server with these settings can be reached from another machine (its pages then need
    authentication), or None when only this machine can reach it: development mode is for that case alone."""
    if not is_loopback(host):
        return f"--host {host} can be reached from other machines"
    if checks.hosts is None:
        return "--allow-any-origin (ASKBACK_ALLOW_ANY_ORIGIN) accepts requests for any Host"
    foreign = [entry for entry in checks.hosts if not is_loopback(host_name(entry))]
    if foreign:
        return f"the allowed hosts (--allowed-host, ASKBACK_ALLOWED_HOSTS) name {', '.join(foreign)}"
    public_host = urlsplit(public_url).hostname if public_url else None
    if public_host is not None and not is_loopback(public_host):
        return f"its public URL (--public-url, ASKBACK_PUBLIC_URL) is {public_url}"
    return None
