"""The routes under `/askback/`: one page per out-of-band step, reached by the link a URL question carries.

Each page checks, in order: the link (a live ticket), the person (page authentication compared with the
principal whose call started the flow), the form (a CSRF token tied to a cookie and the ticket), and that the
step was not finished before. Every failure is a clear page with its own status, never a stack trace; the
values a person enters appear in no page, log line or error.
"""

from __future__ import annotations

import hmac
import inspect
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from hashlib import sha256

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from askback.core.errors import StoreUnavailable
from askback.core.marks import Approval
from askback.core.state import b64url
from askback.core.text import one_line
from askback.outofband import PAGE_PATH, OutOfBand, Ticket
from askback.web import html

logger = logging.getLogger("askback.web")
PageAuth = Callable[[Request], "str | Awaitable[str | None] | None"]  # the person signed in at the page
_COOKIE = "askback_csrf"
MAX_SECRET_CHARS = 8192


@dataclass(frozen=True)
class PageSettings:
    """How pages are served: the service behind them, the app's name, and who may use them.

    `page_auth` names the person at the page (the app's login or an OAuth/OIDC session); without it,
    `dev_mode` must be on (a loopback server only), and every page says so.
    """

    out_of_band: OutOfBand
    server_name: str
    page_auth: PageAuth | None
    dev_mode: bool
    csrf_key: bytes


def page_routes(settings: PageSettings) -> list[BaseRoute]:
    pages = _Pages(settings)
    # A link pasted with a slash at its end opens the same page: the app builds no redirects (`askback.mcp.http`).
    return [Route(PAGE_PATH + "{ticket}" + end, pages.endpoint, methods=["GET", "POST"]) for end in ("", "/")]


class _Pages:
    def __init__(self, settings: PageSettings) -> None:
        self.s = settings

    async def endpoint(self, request: Request) -> Response:
        try:
            return await self._handle(request)
        except StoreUnavailable:
            return self._page(503, "Try again shortly", html.message(
                "The service is briefly unavailable", "Nothing was saved. Try the link again in a moment.", bad=True))
        except Exception:
            logger.exception("an askback page failed")
            return self._page(500, "Something went wrong", html.message(
                "Something went wrong", "This step could not be completed. Try the link again in a moment; if it still "
                "fails, go back to the assistant and start the request again.", bad=True))

    async def _handle(self, request: Request) -> Response:
        ticket = await self.s.out_of_band.ticket(request.path_params["ticket"])
        if ticket is None:
            return self._page(404, "Link not valid", html.message(
                "This link is not valid or has expired",
                "Go back to the assistant and ask it to start the request again.", bad=True))
        refusal = await self._check_person(request, ticket)
        if refusal is not None:
            return refusal
        if await self.s.out_of_band.status(ticket) != "pending":
            return self._page(410, "Already done", html.message(
                "This step is already done", "The link was used. Go back to the assistant to continue."))
        if request.method == "GET":
            return self._form(request, ticket)
        return await self._submit(request, ticket)

    async def _check_person(self, request: Request, ticket: Ticket) -> Response | None:
        """The person at the page must be the person whose call started the flow (not just hold the link)."""
        if self.s.page_auth is None:
            return None if self.s.dev_mode else self._page(403, "Not available", html.message(
                "This page is not available", "The server has no way to check who you are.", bad=True))
        who = self.s.page_auth(request)
        if inspect.isawaitable(who):
            who = await who
        if who is None:
            return self._page(401, "Sign in", html.message(
                "Sign in first", "This page needs to know who you are. Sign in to the service, then open the "
                "link again.", bad=True))
        if ticket.principal is None or not hmac.compare_digest(who.encode(), ticket.principal.encode()):
            logger.warning("a page for %s was opened by another person", one_line(ticket.tool))
            return self._page(403, "Not your request", html.message(
                "This link belongs to someone else's request",
                "Only the person who asked for this step can complete it.", bad=True))
        return None

    def _form(self, request: Request, ticket: Ticket) -> Response:
        cookie = request.cookies.get(_COOKIE) or b64url(os.urandom(18))
        token = self._csrf(cookie, ticket)
        action = PAGE_PATH + ticket.ticket
        if ticket.purpose == "secret":
            title = f"Enter {_in_a_sentence(ticket.title)}"
            body = html.secret_form(action, token, ticket.title, ticket.message)
        else:
            title = "Approve this action?"
            body = html.approval_form(action, token, ticket.message, ticket.summary)
        response = self._page(200, title, html.heading(title, self.s.server_name, ticket.tool) + body)
        secure = request.url.scheme == "https"
        response.set_cookie(_COOKIE, cookie, httponly=True, samesite="strict", secure=secure, path="/askback/")
        return response

    async def _submit(self, request: Request, ticket: Ticket) -> Response:
        try:
            form = await request.form(max_files=0, max_fields=4)
        except HTTPException:  # not this page's form (extra fields, a file): the sender's mistake, not a failure
            return self._page(400, "Form not readable", html.message(
                "This form could not be read", "Open the link again and submit from there.", bad=True))
        cookie = request.cookies.get(_COOKIE)
        token = form.get("csrf")
        if not cookie or not isinstance(token, str) or not hmac.compare_digest(token, self._csrf(cookie, ticket)):
            return self._page(403, "Form expired", html.message(
                "This form expired or did not come from this page",
                "Open the link again and submit from there.", bad=True))
        decision = form.get("decision")
        value = form.get("value")
        if ticket.purpose == "approval" and decision not in ("approve", "reject"):
            return self._form(request, ticket)  # no choice was made: asked again, nothing is decided
        if ticket.purpose == "secret" and decision != "reject":
            if not isinstance(value, str) or not value or len(value) > MAX_SECRET_CHARS:
                return self._form(request, ticket)  # asked again; nothing is kept
            done = await self.s.out_of_band.complete(ticket, secret=value)
        else:
            # who approved: the person page authentication signed in, checked above to be the flow's principal
            # (nobody is known on a development server without it)
            by = Approval(by=ticket.principal if self.s.page_auth is not None else None, method="page")
            done = await self.s.out_of_band.complete(ticket, approved=decision == "approve", approval=by)
        if not done:
            return self._page(410, "Already done", html.message(
                "This step is already done", "The link was used. Go back to the assistant to continue."))
        # the done page still names the server and the tool: the form that said so is gone
        if decision == "reject":
            text = "Nothing was sent" if ticket.purpose == "secret" else "Rejected"
            detail = "Go back to the assistant: it will stop there."
        else:
            text = "Received" if ticket.purpose == "secret" else "Approved"
            detail = "You can close this page and go back to the assistant to continue."
        return self._page(200, text, html.heading(text, self.s.server_name, ticket.tool) + html.paragraph(detail))

    def _csrf(self, cookie: str, ticket: Ticket) -> str:
        return b64url(hmac.new(self.s.csrf_key, f"{cookie}|{ticket.ticket}".encode(), sha256).digest())

    def _page(self, status: int, title: str, body: str) -> HTMLResponse:
        response = HTMLResponse(html.page(title, body, dev=self.s.dev_mode), status_code=status)
        response.headers["Content-Security-Policy"] = html.CSP
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        # same-origin, not no-referrer: under no-referrer a browser sends the form's POST with `Origin: null`,
        # which the server's Origin check refuses; same-origin still sends no Referer (nor the ticket in it)
        # to any other site, and the page links to none.
        response.headers["Referrer-Policy"] = "same-origin"
        return response


def _in_a_sentence(title: str) -> str:
    """A title inside a sentence: "Api key" becomes "api key", but an acronym ("API key") stays as written."""
    if len(title) > 1 and title[1].isupper():
        return title
    return title[:1].lower() + title[1:]
