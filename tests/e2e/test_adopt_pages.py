"""Adopted tools whose options need askback's pages, through `askback.adopt` and through `askback gateway`.

A credential named by argument is entered on askback's page (never in a form) and reaches the tool once; an
approval above an amount is given on the page (below it, a form's confirmation); a single-use final round runs
once and its replay is refused. All real on loopback: the SDK's `MCPServer` app under uvicorn, the gateway in
front of the same app written without askback, the official SDK `Client` on both eras, and a person who opens
each link shortly after the client shows it (the client accepts the URL question at once, as docs/out-of-band.md
tells it to; the server holds the retry, or waits on the back-channel, until the page is done).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import mcp_types as types
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext

import askback
from askback.gateway import gateway_app
from askback.receipts import RECEIPT_META, Receipt
from tests.conftest import LoopbackServer
from tests.e2e.test_adopt import MODES, text_of
from tests.support import adopted_pages
from tests.support.adopted_pages import CANARY
from tests.support.rawclient import RawClient
from tests.support.rawclient import accept as answered

pytestmark = pytest.mark.anyio
by_mode = pytest.mark.parametrize("mode", MODES)
Runs = list[tuple[str, dict[str, Any]]]
POLICY = """
[tools.connect]
secret = ["api_key"]

[tools.transfer]
confirm = "Send {amount} EUR to {to}?"
out_of_band = { argument = "amount", above = 1000 }
once = true
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def serving(kind: str, tmp_path: Path, runs: Runs, app: askback.App, policy: str = POLICY,
            options: dict[str, askback.ToolOptions] | None = None) -> Iterator[str]:
    """The pages app's MCP URL on `app`'s runtime, adopted in place (with `options`) or behind the gateway (its
    policy file, `policy`, saying the same)."""
    if kind == "adopt":
        adopter = askback.adopt(adopted_pages.build(runs), tools=options or adopted_pages.OPTIONS, app=app)
        with LoopbackServer(adopter.streamable_http_app()) as server:
            yield server.url
        return
    path = tmp_path / "policy.toml"
    path.write_text(policy)
    with LoopbackServer(adopted_pages.build(runs).streamable_http_app()) as upstream, \
            LoopbackServer(gateway_app(upstream.url, name=app.name, app=app, policy=path)) as gateway:
        yield gateway.url


@pytest.fixture(params=["adopt", "gateway"])
def kept(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Runs, askback.App]]:
    """The pages app's MCP URL, the runs of its tools, and the app whose store keeps its receipts."""
    runs: Runs = []
    app = askback.App("pages-shop" if request.param == "adopt" else "pages-gateway")
    for url in serving(request.param, tmp_path, runs, app):
        yield url, runs, app


@pytest.fixture
def front(kept: tuple[str, Runs, askback.App]) -> tuple[str, Runs]:
    return kept[0], kept[1]


class Person:
    """The client's elicitation callback and the person behind it: forms answered from a script; each page
    link accepted at once and completed a moment later (the secret entered, or the action approved/rejected)."""

    def __init__(self, *forms: dict[str, Any], decision: str = "approve", value: str = CANARY) -> None:
        self.forms = list(forms)
        self.decision = decision
        self.value = value  # what the person enters on a secret's page
        self.posted: list[httpx.Response] = []  # the page's answer to each decision posted
        self.asked: list[types.ElicitRequestFormParams] = []
        self.links: list[str] = []
        self.pages: list[str] = []  # the HTML of each page the person saw
        self._steps: list[asyncio.Task[None]] = []

    async def __call__(self, context: ClientRequestContext,
                       params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        if isinstance(params, types.ElicitRequestURLParams):
            self.links.append(params.url)
            self._steps.append(asyncio.create_task(self._complete(params.url)))
            return types.ElicitResult(action="accept")
        self.asked.append(params)
        assert self.forms, f"unexpected form: {params.message!r}"
        return types.ElicitResult(action="accept", content=self.forms.pop(0))

    async def _complete(self, url: str) -> None:
        await asyncio.sleep(0.3)  # after the client's retry arrived: the server holds it until the page is done
        async with httpx.AsyncClient() as browser:
            page = await browser.get(url)
            self.pages.append(page.text)
            token = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert token is not None, page.text
            form = {"csrf": token.group(1), "decision": self.decision}
            if 'name="value"' in page.text:
                form = {**form, "value": self.value, "decision": "submit" if self.decision == "approve" else "reject"}
            self.posted.append(await browser.post(url, data=form))


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)
    return caplog


def nowhere(where: Callable[[], str], logs: pytest.LogCaptureFixture) -> None:
    assert CANARY not in where()
    assert CANARY not in logs.text
    assert all(CANARY not in repr(record.args) for record in logs.records)


# -- a credential by name: on the page only, to the tool once ---------------------------------------------------
@by_mode
async def test_a_credential_is_entered_on_the_page_never_in_a_form(front: tuple[str, Runs], mode: str,
                                                                   logs: pytest.LogCaptureFixture) -> None:
    url, runs = front
    person = Person({"bank": "Acme"})
    async with Client(url, mode=mode, elicitation_callback=person) as client:
        result = await client.call_tool("connect", {})
    assert text_of(result) == f"connected Acme with a key of {len(CANARY)} characters", text_of(result)
    assert runs == [("connect", {"bank": "Acme", "key_ok": True})]
    assert [list(f.requested_schema["properties"]) for f in person.asked] == [["bank"]]  # the form never asks it
    assert len(person.links) == 1 and "/askback/p/" in person.links[0]
    assert [r.status_code for r in person.posted] == [200]
    assert "The API key from the bank&#x27;s developer settings" in person.pages[0]  # its schema's description
    nowhere(lambda: result.model_dump_json() + "".join(person.pages), logs)


async def test_the_credential_is_in_no_state_or_result_on_the_wire(front: tuple[str, Runs],
                                                                   logs: pytest.LogCaptureFixture) -> None:
    url, runs = front
    seen: list[str] = []
    with RawClient(url) as raw:
        first = raw.call("connect", {"bank": "Acme"})["result"]
        seen.append(str(first))
        (key, request), = first["inputRequests"].items()
        assert request["params"]["mode"] == "url"
        person = Person()
        await person._complete(request["params"]["url"])
        assert [r.status_code for r in person.posted] == [200]
        done = raw.call("connect", {"bank": "Acme"}, responses={key: {"action": "accept"}},
                        state=first["requestState"])
        seen.append(str(done))
        again = raw.call("connect", {"bank": "Acme"}, responses={key: {"action": "accept"}},
                         state=first["requestState"])
        seen.append(str(again))
    assert done["result"]["content"][0]["text"].startswith("connected Acme")
    assert again["error"]["code"] == -32602  # the key was read once: a replay of the round gets nothing
    assert runs == [("connect", {"bank": "Acme", "key_ok": True})]
    nowhere(lambda: "".join(seen) + "".join(person.pages), logs)


async def test_a_credential_needs_url_mode(front: tuple[str, Runs]) -> None:
    url, runs = front
    with RawClient(url) as raw:
        reply = raw.call("connect", {"bank": "Acme"}, capabilities={"elicitation": {"form": {}}})
    assert reply["error"]["code"] == -32021
    assert reply["error"]["data"]["requiredCapabilities"] == {"elicitation": {"url": {}}}
    assert runs == []


# -- an approval above an amount, on the page; a form's yes below it ------------------------------------------
@by_mode
async def test_a_large_amount_is_approved_on_the_page(front: tuple[str, Runs], mode: str) -> None:
    url, runs = front
    person = Person()
    async with Client(url, mode=mode, elicitation_callback=person) as client:
        result = await client.call_tool("transfer", {"amount": 5000, "to": "DE44500105175407324931"})
    assert text_of(result) == "sent 5000 EUR to DE44500105175407324931", text_of(result)
    assert person.asked == [] and len(person.links) == 1
    assert "Send 5000 EUR to DE44500105175407324931?" in person.pages[0]
    assert [r.status_code for r in person.posted] == [200]
    assert runs == [("transfer", {"amount": 5000, "to": "DE44500105175407324931"})]


@by_mode
async def test_rejected_on_the_page_runs_nothing(front: tuple[str, Runs], mode: str) -> None:
    url, runs = front
    async with Client(url, mode=mode, elicitation_callback=Person(decision="reject")) as client:
        result = await client.call_tool("transfer", {"amount": 5000, "to": "DE44500105175407324931"})
    assert runs == [] and "rejected" in text_of(result)
    assert result.meta is not None and result.meta["askback/refusal"]["outcome"] == "declined"


@by_mode
async def test_a_small_amount_is_confirmed_in_the_form(front: tuple[str, Runs], mode: str) -> None:
    url, runs = front
    person = Person({"confirm": True})
    async with Client(url, mode=mode, elicitation_callback=person) as client:
        result = await client.call_tool("transfer", {"amount": 50, "to": "DE44500105175407324931"})
    assert text_of(result) == "sent 50 EUR to DE44500105175407324931"
    assert [f.message for f in person.asked] == ["Send 50 EUR to DE44500105175407324931?"]
    assert person.links == [] and len(runs) == 1


async def test_an_approval_without_url_mode_is_minus_32021(front: tuple[str, Runs]) -> None:
    url, runs = front
    with RawClient(url) as raw:
        reply = raw.call("transfer", {"amount": 5000, "to": "x"}, capabilities={"elicitation": {"form": {}}})
    assert reply["error"]["code"] == -32021
    assert reply["error"]["data"]["requiredCapabilities"] == {"elicitation": {"url": {}}}
    assert runs == []


# -- single use: the final round runs once, its replay is refused -----------------------------------------------
async def test_the_final_round_runs_once_and_a_replay_is_refused(front: tuple[str, Runs]) -> None:
    url, runs = front
    arguments = {"amount": 50, "to": "DE44500105175407324931"}
    with RawClient(url) as raw:
        first = raw.call("transfer", arguments)["result"]
        (key,) = first["inputRequests"]
        retry = {"responses": {key: answered(confirm=True)}, "state": first["requestState"]}
        done = raw.call("transfer", arguments, **retry)
        replay = raw.call("transfer", arguments, **retry)
    assert done["result"]["content"][0]["text"] == "sent 50 EUR to DE44500105175407324931"
    assert replay["error"]["code"] == -32602
    assert replay["error"]["message"] == "Invalid or expired requestState; start the request again without it."
    assert runs == [("transfer", {"amount": 50, "to": "DE44500105175407324931"})]


# -- the pages of an adopted app: askback's checks -----------------------------------------------------------------
async def test_the_adopted_apps_pages_keep_the_host_check_and_refuse_unknown_links() -> None:
    with LoopbackServer(adopted_pages.adopted([])) as server:
        base = server.url.removesuffix("/mcp")
        async with httpx.AsyncClient() as browser:
            unknown = await browser.get(f"{base}/askback/p/{'A' * 32}")
            foreign = await browser.get(f"{base}/askback/p/{'A' * 32}", headers={"Host": "evil.example"})
    assert unknown.status_code == 404 and "not valid or has expired" in unknown.text
    assert foreign.status_code == 421


async def test_an_adopted_app_reached_from_elsewhere_needs_page_auth() -> None:
    from askback.web.serving import PagesConfigError

    adopter = askback.adopt(adopted_pages.build([]), tools=adopted_pages.OPTIONS)
    with pytest.raises(PagesConfigError, match="page_auth"):
        adopter.streamable_http_app(host="0.0.0.0", allowed_hosts=["shop.example"])


# -- receipts: what was shown, who approved it, that it ran, what came back --------------------------------------
async def receipt_in(app: askback.App, meta: dict[str, Any] | None) -> Receipt:
    assert meta is not None and isinstance(meta.get(RECEIPT_META), str), meta
    found = await app.receipt(meta[RECEIPT_META])
    assert found is not None, meta
    return found


@by_mode
async def test_an_approval_on_the_page_leaves_a_receipt_of_all_four_steps(kept: tuple[str, Runs, askback.App],
                                                                          mode: str) -> None:
    url, runs, app = kept
    async with Client(url, mode=mode, elicitation_callback=Person()) as client:
        result = await client.call_tool("transfer", {"amount": 5000, "to": "DE44500105175407324931"})
    assert text_of(result) == "sent 5000 EUR to DE44500105175407324931" and len(runs) == 1
    receipt = await receipt_in(app, result.meta)
    assert receipt.tool == "transfer"
    assert [e.kind for e in receipt.entries] == ["proposed", "approved", "executed", "returned"]
    proposed, approved, _, returned = receipt.entries
    assert proposed.where == "page" and proposed.text == "Send 5000 EUR to DE44500105175407324931?"
    assert approved.by is not None and approved.by.method == "page"
    assert returned.outcome == "complete" and returned.digest is not None


@by_mode
async def test_a_rejection_on_the_page_is_on_the_receipt_and_nothing_ran(kept: tuple[str, Runs, askback.App],
                                                                         mode: str) -> None:
    url, runs, app = kept
    async with Client(url, mode=mode, elicitation_callback=Person(decision="reject")) as client:
        result = await client.call_tool("transfer", {"amount": 5000, "to": "DE44500105175407324931"})
    assert runs == []
    receipt = await receipt_in(app, result.meta)
    assert [e.kind for e in receipt.entries] == ["proposed", "rejected", "returned"]
    assert receipt.entries[-1].outcome == "declined"


async def test_a_single_use_run_leaves_a_receipt_and_its_replay_adds_nothing(
        kept: tuple[str, Runs, askback.App]) -> None:
    url, runs, app = kept
    arguments = {"amount": 50, "to": "DE44500105175407324931"}
    with RawClient(url) as raw:
        first = raw.call("transfer", arguments)["result"]
        (key,) = first["inputRequests"]
        retry = {"responses": {key: answered(confirm=True)}, "state": first["requestState"]}
        done = raw.call("transfer", arguments, **retry)
        replay = raw.call("transfer", arguments, **retry)
    assert replay["error"]["code"] == -32602 and len(runs) == 1
    receipt = await receipt_in(app, done["result"].get("_meta"))
    assert [e.kind for e in receipt.entries] == ["proposed", "executed", "returned"]  # no page, so no approval
    proposed = receipt.entries[0]
    assert proposed.where == "run" and dict(proposed.values) == {"amount": "50", "to": '"DE44500105175407324931"'}
    assert receipt.entries[-1].outcome == "complete"


async def test_a_single_use_run_over_the_back_channel_leaves_a_receipt(kept: tuple[str, Runs, askback.App]) -> None:
    url, runs, app = kept
    async with Client(url, mode="legacy", elicitation_callback=Person({"confirm": True})) as client:
        result = await client.call_tool("transfer", {"amount": 50, "to": "DE44500105175407324931"})
    assert len(runs) == 1
    receipt = await receipt_in(app, result.meta)
    assert [e.kind for e in receipt.entries] == ["proposed", "executed", "returned"]


async def test_a_call_that_keeps_no_receipt_names_none(front: tuple[str, Runs]) -> None:
    url, runs = front
    async with Client(url, elicitation_callback=Person({"bank": "Acme"})) as client:
        result = await client.call_tool("connect", {})
    assert len(runs) == 1 and RECEIPT_META not in (result.meta or {})  # a credential alone: no approval, not once


@by_mode
async def test_a_credential_the_tool_would_refuse_is_refused_and_never_sent_on(front: tuple[str, Runs],
                                                                             mode: str) -> None:
    url, runs = front
    async with Client(url, mode=mode, elicitation_callback=Person({"bank": "Acme"}, value="short")) as client:
        result = await client.call_tool("connect", {})
    assert runs == []
    assert "the value entered on the page for api_key was not accepted" in text_of(result), text_of(result)
    assert result.meta is not None and result.meta["askback/refusal"]["outcome"] == "invalid_arguments"


# -- approve_with: a passkey-bound approval page takes no button press as a yes -----------------------------------
PASSKEY_POLICY = POLICY + 'approve_with = "passkey"\n'


@pytest.mark.parametrize(("kind", "where"), [("adopt", "tool"), ("adopt", "app"), ("gateway", "tool"),
                                             ("gateway", "app")])
async def test_a_passkey_approval_page_refuses_a_plain_approve(kind: str, where: str, tmp_path: Path) -> None:
    runs: Runs = []
    # (page_wait=0: the retry is answered at once, the page step still pending, rather than held)
    app = askback.App("passkey-shop", approve_with="passkey" if where == "app" else None, page_wait=0)
    options = {**adopted_pages.OPTIONS, "transfer": askback.ToolOptions(
        confirm="Send {amount} EUR to {to}?", out_of_band=askback.Above("amount", 1000), once=True,
        approve_with="passkey" if where == "tool" else None)}
    arguments = {"amount": 5000, "to": "DE44500105175407324931"}
    for url in serving(kind, tmp_path, runs, app, PASSKEY_POLICY if where == "tool" else POLICY, options):
        with RawClient(url) as raw:
            first = raw.call("transfer", arguments)["result"]
            (request,) = first["inputRequests"].values()
            link = request["params"]["url"]
            person = Person()
            await person._complete(link)
            again = raw.call("transfer", arguments, responses={k: {"action": "accept"} for k in first["inputRequests"]},
                             state=first["requestState"])["result"]
    assert link.startswith("http://localhost:")  # a passkey is bound to a name, never an address
    assert [r.status_code for r in person.posted] == [403]
    assert "This passkey did not approve this action" in person.posted[0].text
    assert again.get("resultType") == "input_required" and runs == []  # still waiting for a person's passkey
