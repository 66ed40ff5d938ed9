"""The routes under `/askback/`: one page per out-of-band step, reached by the link a URL question carries.

Each page checks, in order: the link (a live ticket), the person (page authentication compared with the
principal whose call started the flow, or for a second person's approval, someone else the app's `approvers`
accepts), the form (a CSRF token tied to a cookie and the ticket), and that the step was not finished before.
An approval that needs a passkey then needs a WebAuthn assertion, with user verification, from a passkey
enrolled for the person approving, over the page's own challenge (`askback.passkeys.approval_challenge`).
Every failure is a clear page with its own status, never a stack trace; the values a person enters appear in
no page, log line or error. The passkeys pages (`/askback/passkeys`) enroll a passkey for the person signed in,
or for the principal an enrollment link names.
"""

from __future__ import annotations

import hmac
import inspect
import json
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from hashlib import sha256
from ipaddress import ip_address
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from askback.core.errors import StoreUnavailable
from askback.core.marks import Approval
from askback.core.state import b64url
from askback.core.text import one_line
from askback.outofband import PAGE_PATH, OutOfBand, Ticket
from askback.passkeys import ENROLL_PATH, PASSKEYS_PATH, Passkey, Passkeys, approval_challenge
from askback.web import html

if TYPE_CHECKING:
    from askback.web.webauthn import RelyingParty

logger = logging.getLogger("askback.web")
PageAuth = Callable[[Request], "str | Awaitable[str | None] | None"]  # the person signed in at the page
Approvers = Callable[[str], "bool | Awaitable[bool]"]  # whether this person may approve instead of the caller
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
    passkeys: Passkeys | None = None
    # The `approvers` of the Confirm behind a ticket (None: none, so no second person can approve it).
    approvers: Callable[[Ticket], Approvers | None] = field(default=lambda ticket: None)
    public_url: str | None = None  # where browsers reach the pages: the passkeys' relying party when set


@dataclass(frozen=True)
class _Person:
    """Who may complete this page: `signed_in` (None in development mode), and whose passkey an approval needs."""

    signed_in: str | None
    approver: str | None
    second: bool = False


def page_routes(settings: PageSettings) -> list[BaseRoute]:
    pages = _Pages(settings)
    # A link pasted with a slash at its end opens the same page: the app builds no redirects (`askback.mcp.http`).
    routes: list[BaseRoute] = [
        Route(PAGE_PATH + "{ticket}" + end, pages.endpoint, methods=["GET", "POST"]) for end in ("", "/")
    ]
    if settings.passkeys is not None:
        routes += [Route(PASSKEYS_PATH + end, pages.own_passkeys, methods=["GET", "POST"]) for end in ("", "/")]
        routes += [Route(ENROLL_PATH + "{token}" + end, pages.enroll_link, methods=["GET", "POST"])
                   for end in ("", "/")]
    return routes


class _Pages:
    def __init__(self, settings: PageSettings) -> None:
        self.s = settings

    async def endpoint(self, request: Request) -> Response:
        return await self._guarded(self._handle, request)

    async def own_passkeys(self, request: Request) -> Response:
        return await self._guarded(self._own_passkeys, request)

    async def enroll_link(self, request: Request) -> Response:
        return await self._guarded(self._enroll_link, request)

    async def _guarded(self, handle: Callable[[Request], Awaitable[Response]], request: Request) -> Response:
        try:
            return await handle(request)
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
        person = await self._person(request, ticket)
        if isinstance(person, Response):
            return person
        if await self.s.out_of_band.status(ticket) != "pending":
            return self._page(410, "Already done", html.message(
                "This step is already done", "The link was used. Go back to the assistant to continue."))
        if request.method == "GET":
            return await self._form(request, ticket, person)
        return await self._submit(request, ticket, person)

    async def _signed_in(self, request: Request) -> str | Response | None:
        """The person the app's page authentication names (None in development mode), or the page refusing."""
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
        return who

    async def _person(self, request: Request, ticket: Ticket) -> _Person | Response:
        """The person at the page must be the person whose call started the flow (not just hold the link); for
        an approval by a second person, someone else whom the app's `approvers` accept."""
        who = await self._signed_in(request)
        if isinstance(who, Response):
            return who
        if ticket.purpose == "approval" and ticket.second_person:
            return await self._second_person(ticket, who)
        if who is None:  # development mode: nobody is signed in; a passkey is then the caller's own
            return _Person(None, ticket.principal)
        if ticket.principal is None or not _same(who, ticket.principal):
            logger.warning("a page for %s was opened by another person", one_line(ticket.tool))
            return self._page(403, "Not your request", html.message(
                "This link belongs to someone else's request",
                "Only the person who asked for this step can complete it.", bad=True))
        return _Person(who, who)

    async def _second_person(self, ticket: Ticket, who: str | None) -> _Person | Response:
        if who is None:
            return self._page(403, "Second person needed", html.message(
                "This approval needs a second person",
                "This server cannot tell who you are, so it cannot take a second person's approval. Nothing was "
                "approved.", bad=True))
        if ticket.principal is not None and _same(who, ticket.principal):
            return self._page(403, "Not your own", html.message(
                "You cannot approve your own request",
                "This action needs the approval of someone else. Send this link to a person who may approve it; "
                "nothing was approved.", bad=True))
        approvers = self.s.approvers(ticket)
        allowed = approvers(who) if approvers is not None else False
        if inspect.isawaitable(allowed):
            allowed = await allowed
        if allowed is not True:
            logger.warning("a second person's approval for %s was opened by someone it does not accept",
                           one_line(ticket.tool))
            return self._page(403, "Not an approver", html.message(
                "You may not approve this request",
                "This action needs the approval of someone allowed to give it. Nothing was approved.", bad=True))
        return _Person(who, who, second=True)

    async def _form(self, request: Request, ticket: Ticket, person: _Person) -> Response:
        cookie = request.cookies.get(_COOKIE) or b64url(os.urandom(18))
        token = self._csrf(cookie, ticket)
        action = PAGE_PATH + ticket.ticket
        status = 200
        if ticket.purpose == "secret":
            title = f"Enter {_in_a_sentence(ticket.title)}"
            body = html.secret_form(action, token, ticket.title, ticket.message)
        elif ticket.approve_with == "passkey":
            title = "Approve this action?"
            status, body = await self._passkey_form(request, ticket, person, action, token)
        else:
            title = "Approve this action?"
            body = html.approval_form(action, token, ticket.message, ticket.summary)
        response = self._page(status, title, html.heading(title, self.s.server_name, ticket.tool) + body)
        self._set_cookie(request, response, cookie)
        return response

    async def _passkey_form(self, request: Request, ticket: Ticket, person: _Person, action: str,
                            token: str) -> tuple[int, str]:
        from askback.web import webauthn

        rp = self._relying_party(request)
        if rp is None:
            return 400, html.message("Open this page by name", _BY_NAME, bad=True)
        enrolled = await self._enrolled(person.approver)
        if not enrolled:
            enroll = PASSKEYS_PATH if self.s.page_auth is not None and person.signed_in else None
            return 200, html.no_passkey(action, token, ticket.message, ticket.summary, person.approver, enroll)
        options = json.dumps(webauthn.request_options(rp, approval_challenge(ticket), enrolled))
        return 200, html.passkey_approval_form(action, token, ticket.message, ticket.summary, options,
                                               person.approver)

    async def _enrolled(self, principal: str | None) -> tuple[Passkey, ...]:
        if principal is None or self.s.passkeys is None:
            return ()
        return await self.s.passkeys.of(principal)

    def _relying_party(self, request: Request) -> RelyingParty | None:
        """The passkeys' relying party: the host browsers reach the pages at (the public URL's, when set),
        never an address (a browser refuses one as a relying party id)."""
        from askback.web import webauthn

        parts = urlsplit(self.s.public_url) if self.s.public_url else None
        scheme = parts.scheme if parts else request.url.scheme
        netloc = parts.netloc if parts else request.url.netloc
        host = (parts.hostname if parts else request.url.hostname) or ""
        try:
            ip_address(host.strip("[]"))
            return None
        except ValueError:
            pass
        return webauthn.RelyingParty(id=host, name=self.s.server_name, origin=f"{scheme}://{netloc}")

    def _set_cookie(self, request: Request, response: Response, cookie: str) -> None:
        secure = request.url.scheme == "https"
        response.set_cookie(_COOKIE, cookie, httponly=True, samesite="strict", secure=secure, path="/askback/")

    async def _submit(self, request: Request, ticket: Ticket, person: _Person) -> Response:
        form = await self._read_form(request, lambda cookie: self._csrf(cookie, ticket))
        if isinstance(form, Response):
            return form
        decision = form.get("decision")
        value = form.get("value")
        if ticket.purpose == "approval" and decision not in ("approve", "reject"):
            return await self._form(request, ticket, person)  # no choice was made: asked again, nothing is decided
        if ticket.purpose == "secret" and decision != "reject":
            if not isinstance(value, str) or not value or len(value) > MAX_SECRET_CHARS:
                return await self._form(request, ticket, person)  # asked again; nothing is kept
            done = await self.s.out_of_band.complete(ticket, secret=value)
        elif decision == "approve":
            approval = await self._approval(request, ticket, person, form.get("response"))
            if isinstance(approval, Response):
                return approval
            done = await self.s.out_of_band.complete(ticket, approved=True, approval=approval)
        else:
            # who decided: the person signed in at the page (nobody is known in development mode)
            by = Approval(by=person.signed_in, method="page", second_person=person.second)
            done = await self.s.out_of_band.complete(ticket, approved=False, approval=by)
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

    async def _approval(self, request: Request, ticket: Ticket, person: _Person,
                        response: object) -> Approval | Response:
        """Who approves and how; for a passkey approval, only once its assertion over this page checks out."""
        if ticket.approve_with != "passkey":
            return Approval(by=person.signed_in, method="page", second_person=person.second)
        from askback.web import webauthn

        rp = self._relying_party(request)
        enrolled = await self._enrolled(person.approver)
        try:
            if rp is None or not isinstance(response, str) or not response:
                raise webauthn.NotApproved("no passkey response")
            passkey, counter = webauthn.verify_assertion(rp, approval_challenge(ticket), response, enrolled)
        except webauthn.NotApproved as refused:
            logger.warning("a passkey approval for %s was refused: %s", one_line(ticket.tool), one_line(str(refused)))
            return self._page(403, "Not approved", html.message(
                "This passkey did not approve this action",
                "Nothing was approved. Open the link again and approve with a passkey enrolled for you.", bad=True))
        assert self.s.passkeys is not None  # a passkey was enrolled, so there is a store of them
        await self.s.passkeys.used(passkey, counter)
        return Approval(by=passkey.principal, method="passkey", second_person=person.second,
                        credential=passkey.credential_id)

    # -- enrolling a passkey -----------------------------------------------------------------------------
    async def _own_passkeys(self, request: Request) -> Response:
        """The signed-in person's passkeys page: enroll one for yourself (the app's sign-in says who you are)."""
        if self.s.page_auth is None:
            return self._page(403, "Not available", html.message(
                "This server cannot tell who you are",
                "Enroll a passkey with a link from the server's operator (askback passkeys enroll NAME).", bad=True))
        who = await self._signed_in(request)
        if isinstance(who, Response):
            return who
        assert who is not None
        return await self._enroll(request, who, None)

    async def _enroll_link(self, request: Request) -> Response:
        assert self.s.passkeys is not None
        enrollment = await self.s.passkeys.enrollment(request.path_params["token"])
        if enrollment is None:
            return self._page(404, "Link not valid", html.message(
                "This enrollment link is not valid, was used or has expired",
                "Ask the server's operator for a new one.", bad=True))
        return await self._enroll(request, enrollment.principal, enrollment.token)

    async def _enroll(self, request: Request, principal: str, token: str | None) -> Response:
        from askback.web import webauthn

        passkeys = self.s.passkeys
        assert passkeys is not None
        rp = self._relying_party(request)
        if rp is None:
            return self._page(400, "Open this page by name", html.message("Open this page by name", _BY_NAME, bad=True))
        action = ENROLL_PATH + token if token else PASSKEYS_PATH
        enrolled = await passkeys.of(principal)
        user_id = passkeys.user_id(principal)
        if request.method == "GET":
            cookie = request.cookies.get(_COOKIE) or b64url(os.urandom(18))
            challenge = self._enroll_challenge(cookie, principal, token)
            options = webauthn.creation_options(rp, principal, user_id, challenge, enrolled)
            title = "Add a passkey"
            body = html.enroll_form(action, self._enroll_csrf(cookie, principal, token), principal, json.dumps(options),
                                    [k.credential_id[:12] + "…" for k in enrolled])
            page = self._page(200, title, html.heading(title, self.s.server_name, None) + body)
            self._set_cookie(request, page, cookie)
            return page
        form = await self._read_form(request, lambda cookie: self._enroll_csrf(cookie, principal, token))
        if isinstance(form, Response):
            return form
        cookie = request.cookies.get(_COOKIE) or ""
        response = form.get("response")
        try:
            if not isinstance(response, str) or not response:
                raise webauthn.NotApproved("no passkey response")
            challenge = self._enroll_challenge(cookie, principal, token)
            added = webauthn.verify_registration(rp, principal, user_id, challenge, response, enrolled)
        except webauthn.NotApproved as refused:
            logger.warning("a passkey enrollment was refused: %s", one_line(str(refused)))
            return self._page(400, "Not added", html.message(
                "No passkey was added", "Open the page again and follow your browser to create one.", bad=True))
        if token is not None:
            enrollment = await passkeys.enrollment(token)
            if enrollment is None or not await passkeys.use(enrollment):
                return self._page(410, "Link used", html.message(
                    "This enrollment link was used already", "Ask the server's operator for a new one.", bad=True))
        await passkeys.add(Passkey(principal=principal, credential_id=added.credential_id, credential=added.credential,
                                   sign_count=added.sign_count, created_at=passkeys.clock()))
        return self._page(200, "Passkey added", html.message(
            "Passkey added", f"Approvals for {principal} on {self.s.server_name} can now ask it. You can close this "
            "page."))

    def _enroll_challenge(self, cookie: str, principal: str, token: str | None) -> bytes:
        """A registration's challenge, tied to this browser's cookie, the principal and the link: nothing kept."""
        text = f"enroll challenge|{cookie}|{principal}|{token or ''}"
        return hmac.new(self.s.csrf_key, text.encode(), sha256).digest()

    def _enroll_csrf(self, cookie: str, principal: str, token: str | None) -> str:
        return b64url(hmac.new(self.s.csrf_key, f"enroll|{cookie}|{principal}|{token or ''}".encode(), sha256).digest())

    # -- forms -------------------------------------------------------------------------------------------
    async def _read_form(self, request: Request, csrf: Callable[[str], str]) -> dict[str, object] | Response:
        """The form's fields, once its CSRF token matches the cookie; else the page that says so."""
        try:
            form = await request.form(max_files=0, max_fields=4)
        except HTTPException:  # not this page's form (extra fields, a file): the sender's mistake, not a failure
            return self._page(400, "Form not readable", html.message(
                "This form could not be read", "Open the link again and submit from there.", bad=True))
        cookie = request.cookies.get(_COOKIE)
        token = form.get("csrf")
        if not cookie or not isinstance(token, str) or not hmac.compare_digest(token, csrf(cookie)):
            return self._page(403, "Form expired", html.message(
                "This form expired or did not come from this page",
                "Open the link again and submit from there.", bad=True))
        return dict(form)

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


_BY_NAME = (
    "A passkey belongs to a name, not to an address: open this link with the server's name (on this computer, "
    "localhost instead of 127.0.0.1). Nothing was approved."
)


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def _in_a_sentence(title: str) -> str:
    """A title inside a sentence: "Api key" becomes "api key", but an acronym ("API key") stays as written."""
    if len(title) > 1 and title[1].isupper():
        return title
    return title[:1].lower() + title[1:]
