"""Approvals only a person can give, in a real browser: headless chromium with the DevTools Protocol's virtual
authenticator (a passkey with user verification) enrolls and approves; wrong passkeys, another person's passkey,
an assertion replayed on another page, an assertion for values that changed, a browser with no passkey and an
agent clicking everything approve nothing. A second person's approval refuses the caller's own sign-in.

Each page state is kept as a screenshot under /tmp/shots-passkeys (or $ASKBACK_PASSKEY_SHOTS) to be looked at.
"""

from __future__ import annotations

import base64
import json
import os
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import anyio
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

import askback
from askback.core.marks import Approval
from askback.core.state import b64url_decode_strict
from askback.outofband import Ticket
from tests.conftest import LoopbackServer
from tests.support.browser import launch
from tests.support.rawclient import RawClient

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, Response

KEYS = "n3Vq8LzX1cR0pYtW6eKjHb2sMuFgA9dT5oIvE7yNlQw"
USER = "x-user"  # who calls the tool, and who is signed in at the page
SHOTS = Path(os.environ.get("ASKBACK_PASSKEY_SHOTS", "/tmp/shots-passkeys"))
MANAGERS = {"bob"}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launch() as chromium:
        yield chromium


class Bank:
    """Transfers approved with a passkey, a payout a second person approves (on the page, or with a passkey)."""

    def __init__(self) -> None:
        self.app = askback.App("Acme Bank", store="memory://", keys=KEYS, page_wait=0,
                               principal=lambda r: r.headers.get(USER), page_auth=lambda r: r.headers.get(USER))
        self.sent: list[tuple[int, str]] = []

        @self.app.tool()
        def transfer(
            amount: int,
            to: str,
            confirm: Annotated[bool, askback.Confirm("Send {amount} EUR to {to}?", out_of_band=True,
                                                     approve_with="passkey")],
        ) -> str:
            self.sent.append((amount, to))
            return f"sent {amount} EUR to {to}"

        @self.app.tool()
        def payout(
            amount: int,
            confirm: Annotated[bool, askback.Confirm("Pay out {amount} EUR?", out_of_band=True,
                                                     approvers=lambda who: who in MANAGERS)],
        ) -> str:
            self.sent.append((amount, "payout"))
            return "paid"

        @self.app.tool()
        def payout_signed(
            amount: int,
            confirm: Annotated[bool, askback.Confirm("Pay out {amount} EUR?", out_of_band=True, approve_with="passkey",
                                                     approvers=lambda who: who in MANAGERS)],
        ) -> str:
            self.sent.append((amount, "payout_signed"))
            return "paid"

    def ticket(self, url: str) -> Ticket:
        found = outside(self._out_of_band().ticket, url.rsplit("/", 1)[1])
        assert found is not None
        return found

    def approval(self, url: str) -> Approval | None:
        ticket = self.ticket(url)
        approval: Approval | None = outside(self._out_of_band().approval, b64url_decode_strict(ticket.flow),
                                            ticket.name)
        return approval

    def _out_of_band(self) -> Any:
        oob = self.app.runtime.out_of_band
        assert oob is not None
        return oob


def outside(fn: Any, *args: Any) -> Any:
    """Run an async function of the app's store on a thread of its own (Playwright's loop runs in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, fn, *args).result()


class Call:
    """A raw 2026-07-28 caller: the first round's URL question, then retries with the state it returned."""

    def __init__(self, client: RawClient, tool: str, arguments: dict[str, Any]) -> None:
        self.client, self.tool, self.arguments = client, tool, arguments
        result = client.call(tool, arguments)["result"]
        assert result["resultType"] == "input_required", result
        [(self.name, request)] = result["inputRequests"].items()
        assert request["params"]["mode"] == "url"
        self.url: str = request["params"]["url"]
        self.message: str = request["params"]["message"]
        self.state: str = result["requestState"]

    def retry(self) -> dict[str, Any]:
        response = self.client.call(self.tool, self.arguments, responses={self.name: {"action": "accept"}},
                                    state=self.state)
        result = response.get("result", {})
        if result.get("resultType") == "input_required":
            self.state = result["requestState"]
        return response

    def pending(self) -> bool:
        result = self.retry()["result"]
        return result["resultType"] == "input_required" and self.name in result["inputRequests"]


class Person:
    """A browser of one signed-in person; with a virtual authenticator (a platform passkey, user verified)."""

    def __init__(self, browser: Browser, user: str, *, authenticator: bool = True, **options: Any) -> None:
        self.context: BrowserContext = browser.new_context(extra_http_headers={USER: user}, **options)
        self.page: Page = self.context.new_page()
        self.cdp: CDPSession | None = None
        self.authenticator = ""
        if authenticator:
            self.cdp = self.context.new_cdp_session(self.page)
            self.cdp.send("WebAuthn.enable", {"enableUI": False})
            self.authenticator = self.cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
                "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True,
            }})["authenticatorId"]

    def credentials(self) -> list[dict[str, Any]]:
        assert self.cdp is not None
        found: list[dict[str, Any]] = self.cdp.send(
            "WebAuthn.getCredentials", {"authenticatorId": self.authenticator})["credentials"]
        return found

    def enroll(self, origin: str, path: str = "/askback/passkeys") -> None:
        shows(self.page, "Add a passkey", 200, self.page.goto(origin + path))
        self.page.get_by_role("button", name="Add a passkey").click()
        self.page.wait_for_selector("h1:text('Passkey added')")
        assert len(self.credentials()) >= 1

    def approve(self, url: str) -> Response:
        shows(self.page, "Approve this action?", 200, self.page.goto(url))
        with self.page.expect_response(lambda r: r.request.method == "POST") as posted:
            self.page.get_by_role("button", name="Approve with passkey").click()
        self.page.wait_for_load_state()
        return posted.value

    def close(self) -> None:
        self.context.close()


def shows(page: Page, heading: str, status: int, response: Response | None) -> None:
    assert response is not None
    assert response.status == status, (response.url, response.status, page.locator("h1").all_inner_texts())
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert page.locator("h1").inner_text().casefold() == heading.casefold()
    assert "Traceback" not in page.content()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def b64url(cdp_id: str) -> str:
    """A credential id as the DevTools Protocol gives it (base64) in WebAuthn's base64url."""
    return cdp_id.replace("+", "-").replace("/", "_").rstrip("=")


REFUSED = "a passkey approval for transfer was refused"  # logged once the page checked an assertion


def origin(url: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{rest.split('/', 1)[0]}"


@pytest.fixture
def bank() -> Bank:
    return Bank()


def serving(bank: Bank, user: str = "alice") -> tuple[LoopbackServer, RawClient]:
    server = LoopbackServer(bank.app)
    client = RawClient(server.url)
    client.http.headers[USER] = user
    return server, client


# -- a person with a passkey ---------------------------------------------------------------------------------
def test_a_person_enrolls_a_passkey_and_approves_with_it_in_one_step(browser: Browser, bank: Bank) -> None:
    server, client = serving(bank)
    with server, client:
        call = Call(client, "transfer", {"amount": 5000, "to": "Bob"})
        assert call.url.startswith(f"http://localhost:{server.port}/askback/p/")  # a passkey needs a name
        alice = Person(browser, "alice")
        shows(alice.page, "Add a passkey", 200, alice.page.goto(origin(call.url) + "/askback/passkeys"))
        shot(alice.page, "01-enroll")
        alice.page.get_by_role("button", name="Add a passkey").click()
        alice.page.wait_for_selector("h1:text('Passkey added')")
        shot(alice.page, "02-enrolled")

        opened = alice.page.goto(call.url)
        shows(alice.page, "Approve this action?", 200, opened)
        assert opened is not None
        assert re.search(r"(^|; )script-src 'sha256-[A-Za-z0-9+/=]+';", opened.headers["content-security-policy"])
        assert alice.page.locator(".action").inner_text() == "Send 5000 EUR to Bob?"
        assert alice.page.locator("td").all_inner_texts() == ["amount", "5000", "to", "Bob"]
        # one script, allowed by its hash (the page's CSP names no other source), and no inline handler
        assert alice.page.locator("script").count() == 1 and alice.page.locator("script[src]").count() == 0
        markup = alice.page.evaluate("() => document.documentElement.outerHTML")
        assert not re.search(r"\son[a-z]+=", markup)
        shot(alice.page, "03-approve-with-passkey")
        assert call.pending() and bank.sent == []

        with alice.page.expect_response(lambda r: r.request.method == "POST") as posted:
            alice.page.get_by_role("button", name="Approve with passkey").click()
        alice.page.wait_for_load_state()
        shows(alice.page, "Approved", 200, posted.value)
        shot(alice.page, "04-approved")
        [passkey] = alice.credentials()
        assert bank.approval(call.url) == Approval(
            by="alice", method="passkey", second_person=False, credential=b64url(passkey["credentialId"]))
        done = call.retry()
        assert done["result"]["resultType"] == "complete", done
        assert bank.sent == [(5000, "Bob")]
        alice.close()


def test_without_a_passkey_the_page_says_what_to_do_and_approves_nothing(browser: Browser, bank: Bank) -> None:
    server, client = serving(bank)
    with server, client:
        call = Call(client, "transfer", {"amount": 5000, "to": "Bob"})
        alice = Person(browser, "alice", authenticator=False)
        shows(alice.page, "Approve this action?", 200, alice.page.goto(call.url))
        text = alice.page.locator(".card").inner_text()
        assert "needs a passkey, and none is enrolled for alice" in text
        assert alice.page.get_by_role("link", name="your passkeys page").get_attribute("href") == "/askback/passkeys"
        assert alice.page.get_by_role("button").all_inner_texts() == ["Reject"]
        shot(alice.page, "05-no-passkey-enrolled")
        # a forged approval (the fields a passkey page would send) approves nothing either
        token = alice.page.locator("input[name=csrf]").first.get_attribute("value")
        forged = alice.context.request.post(call.url, form={"csrf": token or "", "decision": "approve",
                                                            "response": "{}"}, headers={"Origin": origin(call.url)})
        assert forged.status == 403
        assert call.pending() and bank.sent == []
        alice.close()


def test_without_javascript_the_page_says_so_and_nothing_can_approve(browser: Browser, bank: Bank) -> None:
    server, client = serving(bank)
    with server, client:
        call = Call(client, "transfer", {"amount": 5000, "to": "Bob"})
        alice = Person(browser, "alice")
        alice.enroll(origin(call.url))
        plain = Person(browser, "alice", authenticator=False, java_script_enabled=False)
        shows(plain.page, "Approve this action?", 200, plain.page.goto(call.url))
        assert "This step needs JavaScript" in plain.page.locator(".card").inner_text()
        assert plain.page.get_by_role("button", name="Approve with passkey").is_disabled()
        shot(plain.page, "06-no-javascript")
        assert call.pending() and bank.sent == []
        alice.close()
        plain.close()


# -- what approves nothing -----------------------------------------------------------------------------------
def test_a_wrong_passkey_is_refused(
    browser: Browser, bank: Bank, caplog: pytest.LogCaptureFixture
) -> None:
    """The enrolled credential's id, with another private key: the signature does not verify."""
    server, client = serving(bank)
    with server, client:
        call = Call(client, "transfer", {"amount": 5000, "to": "Bob"})
        alice = Person(browser, "alice")
        alice.enroll(origin(call.url))
        [enrolled] = alice.credentials()
        assert alice.cdp is not None
        alice.cdp.send("WebAuthn.removeCredential", {"authenticatorId": alice.authenticator,
                                                     "credentialId": enrolled["credentialId"]})
        other = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        alice.cdp.send("WebAuthn.addCredential", {"authenticatorId": alice.authenticator, "credential": {
            **{k: enrolled[k] for k in ("credentialId", "rpId", "userHandle", "isResidentCredential")},
            "privateKey": base64.b64encode(other).decode(), "signCount": enrolled["signCount"] + 5,
        }})
        shows(alice.page, "This passkey did not approve this action", 403, alice.approve(call.url))
        shot(alice.page, "07-wrong-passkey")
        assert bank.approval(call.url) is None
        assert call.pending() and bank.sent == []
        assert REFUSED in caplog.text  # refused by the passkey check, not by anything before it
        alice.close()


def _sign_with(page: Page, credential_id: str) -> None:
    """What a tampered page could do: ask a chosen passkey for this page's challenge, and submit its answer."""
    page.evaluate("""async (id) => {
        const form = document.getElementById("passkey");
        const options = JSON.parse(form.dataset.options);
        options.allowCredentials = [{type: "public-key", id}];
        const parsed = PublicKeyCredential.parseRequestOptionsFromJSON(options);
        const c = await navigator.credentials.get({publicKey: parsed});
        form.elements.namedItem("response").value = JSON.stringify(c.toJSON());
        form.submit();
    }""", credential_id)


def test_the_passkey_of_another_principal_is_refused(
    browser: Browser, bank: Bank, caplog: pytest.LogCaptureFixture
) -> None:
    server, client = serving(bank)
    with server, client:
        call = Call(client, "transfer", {"amount": 5000, "to": "Bob"})
        alice = Person(browser, "alice")
        alice.enroll(origin(call.url))
        # bob's passkey, enrolled for bob, in alice's authenticator too
        bob = Person(browser, "bob")
        bob.enroll(origin(call.url))
        [bobs] = bob.credentials()
        assert alice.cdp is not None
        alice.cdp.send("WebAuthn.addCredential", {"authenticatorId": alice.authenticator, "credential": {
            k: bobs[k] for k in ("credentialId", "rpId", "userHandle", "isResidentCredential", "privateKey",
                                 "signCount")}})
        shows(alice.page, "Approve this action?", 200, alice.page.goto(call.url))
        with alice.page.expect_response(lambda r: r.request.method == "POST") as posted:
            _sign_with(alice.page, b64url(bobs["credentialId"]))
        alice.page.wait_for_load_state()
        shows(alice.page, "This passkey did not approve this action", 403, posted.value)
        assert call.pending() and bank.sent == []
        assert REFUSED in caplog.text
        alice.close()
        bob.close()


def _captured_assertion(person: Person, url: str) -> dict[str, str]:
    """The form a passkey approval posts, caught before it leaves the browser (the request is not sent)."""
    caught: dict[str, str] = {}

    def hold(route: Any) -> None:
        if route.request.method == "POST":
            body = route.request.post_data or ""
            from urllib.parse import parse_qsl

            caught.update(parse_qsl(body))
            route.abort()
        else:
            route.continue_()

    person.page.route("**/askback/p/*", hold)
    shows(person.page, "Approve this action?", 200, person.page.goto(url))
    person.page.get_by_role("button", name="Approve with passkey").click()
    person.page.wait_for_timeout(500)
    while "response" not in caught:
        person.page.wait_for_timeout(100)
    person.page.unroute("**/askback/p/*")
    return caught


def test_an_assertion_replayed_on_another_ticket_is_refused(
    browser: Browser, bank: Bank, caplog: pytest.LogCaptureFixture
) -> None:
    server, client = serving(bank)
    with server, client:
        small = Call(client, "transfer", {"amount": 5000, "to": "Bob"})
        big = Call(client, "transfer", {"amount": 9000, "to": "Mallory"})
        alice = Person(browser, "alice")
        alice.enroll(origin(small.url))
        signed = _captured_assertion(alice, small.url)  # alice approved the small one; the big page is another
        shows(alice.page, "Approve this action?", 200, alice.page.goto(big.url))
        token = alice.page.locator("#passkey input[name=csrf]").get_attribute("value") or ""
        replayed = alice.context.request.post(big.url, form={**signed, "csrf": token},
                                              headers={"Origin": origin(big.url)})
        assert replayed.status == 403 and "did not approve this action" in replayed.text()
        assert big.pending() and small.pending() and bank.sent == []
        assert REFUSED in caplog.text
        alice.close()


def test_an_assertion_for_values_that_changed_is_refused(
    browser: Browser, bank: Bank, caplog: pytest.LogCaptureFixture
) -> None:
    """Signed while the page showed one recipient; the step's record now says another: the digest differs."""
    server, client = serving(bank)
    with server, client:
        call = Call(client, "transfer", {"amount": 5000, "to": "Bob"})
        alice = Person(browser, "alice")
        alice.enroll(origin(call.url))
        signed = _captured_assertion(alice, call.url)
        ticket = bank.ticket(call.url)
        changed = {**ticket.__dict__, "summary": [["amount", "5000"], ["to", "Mallory"]]}
        oob = bank._out_of_band()
        outside(oob._put_json, f"ticket:{ticket.ticket}", changed, ticket.expires_at)
        shows(alice.page, "Approve this action?", 200, alice.page.goto(call.url))
        assert alice.page.locator("td").all_inner_texts() == ["amount", "5000", "to", "Mallory"]
        token = alice.page.locator("#passkey input[name=csrf]").get_attribute("value") or ""
        posted = alice.context.request.post(call.url, form={**signed, "csrf": token},
                                            headers={"Origin": origin(call.url)})
        assert posted.status == 403 and "did not approve this action" in posted.text()
        assert call.pending() and bank.sent == []
        assert REFUSED in caplog.text
        alice.close()


def test_an_agent_clicking_everything_a_hundred_times_approves_nothing_and_a_person_approves_at_once(
    browser: Browser, bank: Bank
) -> None:
    server, client = serving(bank)
    with server, client:
        call = Call(client, "transfer", {"amount": 5000, "to": "Bob"})
        alice = Person(browser, "alice")
        alice.enroll(origin(call.url))
        agent = Person(browser, "alice", authenticator=False)  # signed in as alice, holding no passkey
        statuses: dict[int, int] = {}
        for attempt in range(100):
            opened = agent.page.goto(call.url)
            assert opened is not None and opened.status == 200
            way = attempt % 4
            if way == 0:  # every button but Reject, as a browser-driving agent would
                for button in agent.page.get_by_role("button").all():
                    if button.inner_text() != "Reject" and button.is_enabled():
                        button.click()
                agent.page.wait_for_timeout(50)
            else:
                token = agent.page.locator("#passkey input[name=csrf]").get_attribute("value") or ""
                response = {1: "", 2: "{}", 3: json.dumps({"id": "AAAA", "rawId": "AAAA", "type": "public-key",
                                                           "response": {}})}[way]
                posted = agent.context.request.post(call.url, form={"csrf": token, "decision": "approve",
                                                                    "response": response},
                                                    headers={"Origin": origin(call.url)})
                statuses[posted.status] = statuses.get(posted.status, 0) + 1
        assert statuses == {403: 75}
        assert bank.approval(call.url) is None
        assert call.pending() and bank.sent == []

        shows(alice.page, "Approved", 200, alice.approve(call.url))  # the person: one click
        assert call.retry()["result"]["resultType"] == "complete"
        assert bank.sent == [(5000, "Bob")]
        agent.close()
        alice.close()


# -- a second person -----------------------------------------------------------------------------------------
def test_a_second_person_approves_and_the_callers_own_sign_in_is_refused(browser: Browser, bank: Bank) -> None:
    server, client = serving(bank)
    with server, client:
        call = Call(client, "payout", {"amount": 700})
        assert "approved or rejected by another person who may approve it (send them this link)" in call.message
        alice = Person(browser, "alice", authenticator=False)
        shows(alice.page, "You cannot approve your own request", 403, alice.page.goto(call.url))
        shot(alice.page, "08-own-request-refused")
        carol = Person(browser, "carol", authenticator=False)
        shows(carol.page, "You may not approve this request", 403, carol.page.goto(call.url))
        assert call.pending() and bank.sent == []

        bob = Person(browser, "bob", authenticator=False)
        shows(bob.page, "Approve this action?", 200, bob.page.goto(call.url))
        with bob.page.expect_response(lambda r: r.request.method == "POST") as posted:
            bob.page.get_by_role("button", name="Approve").click()
        shows(bob.page, "Approved", 200, posted.value)
        assert bank.approval(call.url) == Approval(by="bob", method="page", second_person=True)
        assert call.retry()["result"]["resultType"] == "complete" and bank.sent == [(700, "payout")]
        for person in (alice, carol, bob):
            person.close()


def test_a_second_person_approves_with_their_own_passkey(browser: Browser, bank: Bank) -> None:
    server, client = serving(bank)
    with server, client:
        call = Call(client, "payout_signed", {"amount": 800})
        alice = Person(browser, "alice")
        alice.enroll(origin(call.url))  # the caller's passkey does not make it theirs to approve
        shows(alice.page, "You cannot approve your own request", 403, alice.page.goto(call.url))
        bob = Person(browser, "bob")
        bob.enroll(origin(call.url))
        shows(bob.page, "Approved", 200, bob.approve(call.url))
        [bobs] = bob.credentials()
        approval = bank.approval(call.url)
        assert approval is not None and (approval.by, approval.method, approval.second_person) == (
            "bob", "passkey", True)
        assert approval.credential == b64url(bobs["credentialId"])
        assert call.retry()["result"]["resultType"] == "complete" and bank.sent == [(800, "payout_signed")]
        alice.close()
        bob.close()
