"""askback's out-of-band pages in a real browser: headless chromium opens the link a real `input_required`
carried, over loopback HTTP, and a raw 2026-07-28 client retries the call.

Each page state is also kept as a screenshot (tests/support/browser.py says where) to be looked at: whether a
page is one a person would trust with a key is not something an assertion can tell.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

import askback
from tests.conftest import LoopbackServer
from tests.support.browser import Watched, launch, origin_of, screenshot, watched_context
from tests.support.rawclient import RawClient

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Response

KEYS = "n3Vq8LzX1cR0pYtW6eKjHb2sMuFgA9dT5oIvE7yNlQw"  # a fixed random key (a repeated letter is refused)
USER = "x-user"  # the header both hooks read: who calls the tool, and who opens the page


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launch() as chromium:
        yield chromium


class Clock:
    """The app's clock, moved by the test: expiry without waiting."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


class Bank:
    """An app with one secret and one out-of-band approval, and a record of what its functions received."""

    def __init__(self, **options: Any) -> None:
        self.app = askback.App("Acme Bank", store="memory://", keys=KEYS, **options)
        self.keys: list[str] = []
        self.sent: list[tuple[int, str]] = []

        @self.app.tool()
        def connect_bank(
            bank: str,
            api_key: Annotated[askback.Secret, askback.Ask("the API key from {bank}'s developer settings")],
        ) -> str:
            self.keys.append(api_key.reveal())
            return f"connected {bank} ({api_key!r})"

        @self.app.tool()
        def transfer(
            amount: int,
            to: str,
            confirm: Annotated[
                bool, askback.Confirm("Send {amount} EUR to {to}?", out_of_band=lambda amount: amount > 1000)
            ],
        ) -> str:
            self.sent.append((amount, to))
            return f"sent {amount} EUR to {to}"


class Caller:
    """The raw client's side of one call: the first round, then retries with the state each round returned."""

    def __init__(self, client: RawClient, tool: str, arguments: dict[str, Any]) -> None:
        self.client, self.tool, self.arguments = client, tool, arguments
        self.wire: list[str] = []  # every response as received, to search for a secret
        first = self._call()
        self.state, self.name, self.url = self._url_question(first)

    def _call(self, **kw: Any) -> dict[str, Any]:
        response = self.client.call(self.tool, self.arguments, **kw)
        self.wire.append(json.dumps(response))
        return response

    def _url_question(self, response: dict[str, Any]) -> tuple[str, str, str]:
        result = response["result"]
        assert result["resultType"] == "input_required", response
        [(name, request)] = result["inputRequests"].items()
        assert request["method"] == "elicitation/create" and request["params"]["mode"] == "url", request
        return result["requestState"], name, request["params"]["url"]

    def retry(self) -> dict[str, Any]:
        """Retry after the page step (the client accepted the URL question); the next state is kept."""
        response = self._call(responses={self.name: {"action": "accept"}}, state=self.state)
        result = response.get("result", {})
        if result.get("resultType") == "input_required":
            self.state = result["requestState"]
        return response

    def still_pending(self) -> None:
        """Not done yet: the same URL question again, never an error."""
        response = self.retry()
        assert self._url_question(response)[2] == self.url, response


@pytest.fixture
def bank() -> Bank:
    return Bank()


def page_headers_are_safe(response: Response | None, status: int) -> None:
    assert response is not None
    assert response.status == status, (response.url, response.status)
    headers = response.headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["cache-control"] == "no-store"
    assert headers["content-type"].startswith("text/html")


def shows(page: Page, heading: str, status: int, response: Response | None) -> None:
    """The page is the clear one expected: its status, its heading, and no trace of the server's insides."""
    page_headers_are_safe(response, status)
    assert page.locator("h1").inner_text().casefold() == heading.casefold()  # how a default title is cased aside
    assert "Traceback" not in page.content() and "Exception" not in page.content()


def submit(page: Page, button: str) -> Response:
    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        page.get_by_role("button", name=button).click()
    page.wait_for_load_state()
    return posted.value


def only_own_origin(watched: Watched) -> None:
    assert watched.refused == []
    assert watched.requested and {origin_of(url) for url in watched.requested} == {watched.origin}


def dev_banner(page: Page) -> bool:
    banner = page.locator("p.dev")
    return banner.count() == 1 and banner.is_visible() and "Development mode" in banner.inner_text()


# -- secrets -------------------------------------------------------------------------------------------------
def test_a_secret_typed_on_the_page_reaches_the_function_and_nothing_else(
    browser: Browser, bank: Bank, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    key = "sk_live_" + secrets.token_hex(16)
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        call = Caller(client, "connect_bank", {"bank": "Acme"})
        watched = watched_context(browser, origin_of(call.url))
        page = watched.page()
        shows(page, "Enter api key", 200, page.goto(call.url))
        assert "Acme Bank" in page.locator(".who").inner_text() and "connect_bank" in page.locator(".who").inner_text()
        assert "developer settings" in page.locator(".why").inner_text()
        assert page.locator("input#value").get_attribute("type") == "password"
        assert dev_banner(page)
        screenshot(page, "01-secret-form")

        call.still_pending()  # the page is open but nothing was entered: the same link again

        page.fill("input#value", key)
        posted = submit(page, "Submit")
        shows(page, "Received", 200, posted)
        screenshot(page, "02-secret-received")
        html_after, posted_html = page.content(), posted.text()

        # Back does not bring the filled form out of a cache (no-store): the browser asks again, and it is done
        shows(page, "This step is already done", 410, page.go_back())
        assert page.locator("input").count() == 0
        [cookie] = watched.context.cookies()
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/askback/"
        assert key not in cookie["value"]

        done = call.retry()
        assert done["result"]["resultType"] == "complete", done
        assert bank.keys == [key]
        only_own_origin(watched)

    seen = [*call.wire, call.url, html_after, posted_html, caplog.text, *(r.getMessage() for r in caplog.records)]
    assert not [text for text in seen if key in text]


def test_a_secret_can_be_withheld_on_the_page(browser: Browser, bank: Bank) -> None:
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        call = Caller(client, "connect_bank", {"bank": "Acme"})
        page = browser.new_page()
        page.goto(call.url)
        shows(page, "Nothing was sent", 200, submit(page, "Do not send"))
        screenshot(page, "03-secret-not-sent")
        ended = call.retry()
        assert ended["result"]["resultType"] == "complete" and bank.keys == [], ended
        page.close()


def test_the_page_says_what_is_asked_as_the_app_wrote_it(browser: Browser) -> None:
    app = askback.App("Acme Bank", store="memory://", keys=KEYS)

    @app.tool()
    def connect_bank(
        api_key: Annotated[askback.Secret, askback.Ask("the key from the developer settings", title="API key")],
    ) -> str:
        return "connected"

    with LoopbackServer(app) as server, RawClient(server.url) as client:
        call = Caller(client, "connect_bank", {})
        page = browser.new_page()
        shows(page, "Enter API key", 200, page.goto(call.url))
        assert page.locator("h1").inner_text() == "Enter API key"  # an acronym is not lowered
        assert page.locator("label").inner_text() == "API key"
        assert page.locator(".why").inner_text() == "The key from the developer settings"
        page.fill("input#value", "k")
        shows(page, "Received", 200, submit(page, "Submit"))
        # the done page still says who received it: the form that said so is gone
        assert page.locator(".who").inner_text() == "Asked by the server Acme Bank for its tool connect_bank"
        page.close()


# -- approvals -----------------------------------------------------------------------------------------------
def approval_page(browser: Browser, call: Caller) -> tuple[Watched, Page]:
    watched = watched_context(browser, origin_of(call.url))
    page = watched.page()
    shows(page, "Approve this action?", 200, page.goto(call.url))
    # the caller's values are shown as they are, inert: markup in them is text, not HTML
    assert page.locator(".action").inner_text() == "Send 5000 EUR to Bob <b>?"
    assert page.locator("td").all_inner_texts() == ["amount", "5000", "to", "Bob <b>"]
    assert page.locator("b").count() == 0
    return watched, page


def test_an_approval_on_the_page_runs_the_action(browser: Browser, bank: Bank) -> None:
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        call = Caller(client, "transfer", {"amount": 5000, "to": "Bob <b>"})
        watched, page = approval_page(browser, call)
        screenshot(page, "04-approval-form")
        call.still_pending()
        assert bank.sent == []
        shows(page, "Approved", 200, submit(page, "Approve"))
        screenshot(page, "05-approved")
        done = call.retry()
        assert done["result"]["resultType"] == "complete", done
        assert bank.sent == [(5000, "Bob <b>")]
        only_own_origin(watched)


def test_a_rejection_on_the_page_ends_the_call_with_nothing_done(browser: Browser, bank: Bank) -> None:
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        call = Caller(client, "transfer", {"amount": 5000, "to": "Bob <b>"})
        watched, page = approval_page(browser, call)
        shows(page, "Rejected", 200, submit(page, "Reject"))
        screenshot(page, "06-rejected")
        ended = call.retry()["result"]
        assert ended["resultType"] == "complete" and ended["isError"] is False, ended
        assert ended["structuredContent"]["outcome"] == "declined"
        assert "Nothing was done" in ended["content"][0]["text"]
        assert bank.sent == []
        only_own_origin(watched)


# -- what the page shows is what runs ---------------------------------------------------------------------
MALLORY = "GB" + "0" * 260 + "-MALLORY-" + "7" * 29  # 300 characters with nowhere to break: the tail matters


def test_a_long_value_is_shown_whole_wrapped_on_a_phone_and_runs_as_shown(browser: Browser, bank: Bank) -> None:
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        call = Caller(client, "transfer", {"amount": 5000, "to": MALLORY})
        watched = watched_context(browser, origin_of(call.url), viewport={"width": 390, "height": 844})
        page = watched.page()
        shows(page, "Approve this action?", 200, page.goto(call.url))
        assert page.locator(".action").inner_text() == f"Send 5000 EUR to {MALLORY}?"
        shown_value = page.locator("td").all_inner_texts()[3]
        assert shown_value == MALLORY  # whole: not cut, nothing hidden
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # wrapped, not cut off
        cell = page.locator("td").nth(3).bounding_box()
        assert cell is not None and cell["height"] > 3 * 16  # it takes several lines rather than overflowing
        screenshot(page, "15-long-value-phone")
        shows(page, "Approved", 200, submit(page, "Approve"))
        assert call.retry()["result"]["resultType"] == "complete"
        assert bank.sent == [(5000, shown_value)]
        only_own_origin(watched)


def test_spaces_and_invisible_characters_read_as_they_are_on_the_page(browser: Browser, bank: Bank) -> None:
    shown: dict[str, str] = {}
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        for to in ("Alice", "Alice\u3164\u3164", "Bob  Smith", "Bob Smith", "  Carol"):
            call = Caller(client, "transfer", {"amount": 5000, "to": to})
            page = browser.new_page()
            shows(page, "Approve this action?", 200, page.goto(call.url))
            shown[to] = page.locator("td").all_inner_texts()[3]
            if to == "Bob  Smith":
                screenshot(page, "16-runs-of-spaces")
            page.close()
    # innerText is the text as laid out: collapsed spaces or an invisible filler would read the same
    assert shown == {"Alice": "Alice", "Alice\u3164\u3164": "Alice<U+3164><U+3164>", "Bob  Smith": "Bob  Smith",
                     "Bob Smith": "Bob Smith", "  Carol": "  Carol"}


# -- forged forms ------------------------------------------------------------------------------------------
REFUSED = "This form expired or did not come from this page"


@pytest.mark.parametrize("forgery", ["no token", "wrong token"])
def test_a_form_without_its_token_is_refused_and_nothing_is_kept(browser: Browser, bank: Bank, forgery: str) -> None:
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        call = Caller(client, "connect_bank", {"bank": "Acme"})
        page = browser.new_page()
        page.goto(call.url)
        if forgery == "no token":
            page.evaluate("document.querySelector('input[name=csrf]').remove()")
        else:
            page.evaluate("document.querySelector('input[name=csrf]').value = 'A'.repeat(43)")
        page.fill("input#value", "forged-value")
        shows(page, REFUSED, 403, submit(page, "Submit"))
        screenshot(page, f"07-csrf-{forgery.replace(' ', '-')}")
        call.still_pending()  # nothing was stored: the step is still to do, from the same link

        page.goto(call.url)
        page.fill("input#value", "the-real-key")
        shows(page, "Received", 200, submit(page, "Submit"))
        assert call.retry()["result"]["resultType"] == "complete"
        assert bank.keys == ["the-real-key"]
        page.close()


def forger(target: str, token: str) -> Starlette:
    """Another site's page whose form posts to askback's page, with a token the forger got with its own cookie."""

    async def home(request: Request) -> HTMLResponse:
        return HTMLResponse(
            f'<!doctype html><title>Win a prize</title><form method="post" action="{target}">'
            f'<input type="hidden" name="csrf" value="{token}"><input type="hidden" name="value" '
            'value="forged-value"><button name="decision" value="submit">Claim</button></form>'
        )

    return Starlette(routes=[Route("/", home)])


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"], ids=["another-site", "same-site-another-port"])
def test_a_form_posted_from_another_origin_is_refused(browser: Browser, bank: Bank, host: str) -> None:
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        call = Caller(client, "connect_bank", {"bank": "Acme"})
        own = httpx.get(call.url)  # the forger opens the link itself: a valid token, for its own cookie
        token = own.text.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        context = browser.new_context()
        page = context.new_page()
        page.goto(call.url)  # the person has the page open too: the browser holds their own cookie
        with LoopbackServer(forger(call.url, token)) as evil:
            page.goto(f"http://{host}:{evil.port}/")
            with page.expect_response(lambda r: r.request.method == "POST") as posted:
                page.get_by_role("button", name="Claim").click()
            page.wait_for_load_state()
            shows(page, REFUSED, 403, posted.value)
        if host == "localhost":
            screenshot(page, "08-csrf-other-origin")
        call.still_pending()
        assert bank.keys == []
        context.close()


@pytest.mark.parametrize("form", ["too many fields", "a file"])
def test_a_form_that_cannot_be_read_gets_a_clear_page_and_no_stack_trace(
    browser: Browser, bank: Bank, form: str, caplog: pytest.LogCaptureFixture
) -> None:
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        call = Caller(client, "connect_bank", {"bank": "Acme"})
        page = browser.new_page()
        page.goto(call.url)
        token = page.locator("input[name=csrf]").get_attribute("value")
        fields: dict[str, Any] = {"csrf": token, "decision": "submit"}
        if form == "too many fields":
            fields |= {"value": "v", "extra": "1", "more": "2"}
        else:
            fields |= {"value": {"name": "key.txt", "mimeType": "text/plain", "buffer": b"file-value"}}
        # the browser's own request (its cookie, its origin): only the form's shape is wrong
        answer = page.request.post(call.url, multipart=fields)
        assert answer.status == 400, answer.status
        assert "This form could not be read" in answer.text() and "Traceback" not in answer.text()
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        assert not [r for r in caplog.records if r.exc_info], "a stack trace in the log for a client's bad form"
        call.still_pending()
        assert bank.keys == []
        page.close()


# -- expired, someone else's, already done -------------------------------------------------------------------
EXPIRED = "This link is not valid or has expired"


def test_an_expired_link_shows_a_clear_page(browser: Browser) -> None:
    clock = Clock()
    bank = Bank(flow_ttl=60)
    # Before the runtime exists: the store and the tickets keep this time.
    bank.app.policy = dataclasses.replace(bank.app.policy, now=clock)
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        call = Caller(client, "connect_bank", {"bank": "Acme"})
        page = browser.new_page()
        page.goto(call.url)
        clock.now += 61
        page.fill("input#value", "too-late")
        shows(page, EXPIRED, 404, submit(page, "Submit"))  # the form was open when the link expired
        fresh = browser.new_page()
        shows(fresh, EXPIRED, 404, fresh.goto(call.url))
        screenshot(fresh, "09-expired")
        assert bank.keys == []
        # a link that never was gets the same page
        shows(fresh, EXPIRED, 404, fresh.goto(call.url[:-4] + "AAAA"))
        page.close()
        fresh.close()


def test_another_persons_link_is_refused(browser: Browser) -> None:
    bank = Bank(principal=lambda r: r.headers.get(USER), page_auth=lambda r: r.headers.get(USER))
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        client.http.headers[USER] = "alice"
        call = Caller(client, "connect_bank", {"bank": "Acme"})

        bob = watched_context(browser, origin_of(call.url), extra_http_headers={USER: "bob"})
        page = bob.page()
        shows(page, "This link belongs to someone else's request", 403, page.goto(call.url))
        assert page.locator("input").count() == 0
        screenshot(page, "10-not-yours")

        nobody = browser.new_page()
        shows(nobody, "Sign in first", 401, nobody.goto(call.url))
        screenshot(nobody, "11-sign-in")
        call.still_pending()

        alice = watched_context(browser, origin_of(call.url), extra_http_headers={USER: "alice"})
        page = alice.page()
        shows(page, "Enter api key", 200, page.goto(call.url))
        assert not dev_banner(page) and page.locator("p.dev").count() == 0  # the page knows who this is
        screenshot(page, "12-secret-form-signed-in")
        page.fill("input#value", "alices-key")
        with page.expect_response(lambda r: r.request.method == "POST") as posted:
            page.press("input#value", "Enter")  # Enter sends the key, not "Do not send"
        shows(page, "Received", 200, posted.value)
        assert call.retry()["result"]["resultType"] == "complete"
        assert bank.keys == ["alices-key"]
        only_own_origin(bob)
        only_own_origin(alice)
        nobody.close()


def test_a_used_link_says_already_done(browser: Browser, bank: Bank) -> None:
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        call = Caller(client, "connect_bank", {"bank": "Acme"})
        context = browser.new_context()
        first, second = context.new_page(), context.new_page()
        first.goto(call.url)
        second.goto(call.url)  # the same link open twice
        first.fill("input#value", "first-key")
        shows(first, "Received", 200, submit(first, "Submit"))
        second.fill("input#value", "second-key")
        shows(second, "This step is already done", 410, submit(second, "Submit"))
        assert call.retry()["result"]["resultType"] == "complete"
        assert bank.keys == ["first-key"]
        again = context.new_page()
        shows(again, "This step is already done", 410, again.goto(call.url))
        screenshot(again, "13-already-done")
        context.close()


# -- how the pages look, wherever they are opened ---------------------------------------------------------------
LOOKS = {
    "light": {"color_scheme": "light", "viewport": {"width": 1280, "height": 800}},
    "dark": {"color_scheme": "dark", "viewport": {"width": 1280, "height": 800}},
    "phone": {"color_scheme": "light", "viewport": {"width": 390, "height": 844}},
}


@pytest.mark.parametrize("look", LOOKS)
def test_the_development_banner_shows_without_page_authentication(browser: Browser, bank: Bank, look: str) -> None:
    with LoopbackServer(bank.app) as server, RawClient(server.url) as client:
        secret = Caller(client, "connect_bank", {"bank": "Acme"})
        # a long value with nowhere to break (an IBAN without spaces, repeated) must not widen the page
        approval = Caller(client, "transfer", {"amount": 5000, "to": "DE89370400440532013000" * 4})
        watched = watched_context(browser, origin_of(secret.url), **LOOKS[look])
        page = watched.page()
        for which, call in (("secret", secret), ("approval", approval)):
            page_headers_are_safe(page.goto(call.url), 200)
            assert dev_banner(page)
            banner, card = page.locator("p.dev").bounding_box(), page.locator(".card").bounding_box()
            assert banner is not None and card is not None and banner["y"] < card["y"]  # above the form
            # nothing wider than the window: no sideways scrolling on a phone
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            screenshot(page, f"14-dev-banner-{look}-{which}")
        only_own_origin(watched)
