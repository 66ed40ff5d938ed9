"""Headless chromium from the system's packages, driven by Playwright, for tests of askback's pages.

The browser is Debian's `chromium` at /usr/bin/chromium (or $ASKBACK_CHROMIUM), never one Playwright downloads:
the test machines have no network but the package registries. Under CI=true a missing browser or Playwright is a
failure, elsewhere a skip whose reason says how to install it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Request, Route

IN_CI = os.environ.get("CI") == "true"
CHROMIUM = os.environ.get("ASKBACK_CHROMIUM", "/usr/bin/chromium")
# No GPU, no sandbox (tests run as root in containers), and nothing of the browser's own reaching the network:
# no updates, sync, QUIC or first-run pages, so every request a test sees is one a page made.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(os.environ.get("ASKBACK_PAGE_SHOTS", "/tmp/askback-pages"))
INSTALL_HINT = "apt-get install --no-install-recommends chromium chromium-driver; pip install -e '.[test]'"


def _unavailable(reason: str) -> None:
    message = f"the browser tests need {reason} ({INSTALL_HINT})"
    if IN_CI:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@contextmanager
def launch() -> Iterator[Browser]:
    """Headless chromium from the system (a test fails under CI=true, else skips, when there is none)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright from PyPI")
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        elsewhere = shutil.which("chromium")
        hint = f"; there is one at {elsewhere}: set ASKBACK_CHROMIUM" if elsewhere else ""
        _unavailable(f"chromium at {CHROMIUM}{hint}")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Watched:
    """A browser context whose every request is checked against the one origin it may reach."""

    context: BrowserContext
    origin: str
    requested: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def page(self) -> Page:
        return self.context.new_page()

    def _route(self, route: Route, request: Request) -> None:
        self.requested.append(request.url)
        if origin_of(request.url) == self.origin:
            route.continue_()
        else:  # nothing else is reachable anyway; refusing makes a stray fetch visible, not a slow timeout
            self.refused.append(request.url)
            route.abort()


def watched_context(browser: Browser, origin: str, **options: Any) -> Watched:
    context = browser.new_context(**options)
    watched = Watched(context, origin)
    context.route("**/*", watched._route)
    return watched


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def screenshot(page: Page, name: str) -> Path:
    """Keep a picture of the page as the person sees it, to be looked at (the tests cannot judge trust)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
