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


@pytest.fixture(params=["adopt", "gateway"])
def front(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Runs]]:
    """The pages app's MCP URL, adopted in place or behind the gateway (its policy file saying the same)."""
    runs: Runs = []
    if request.param == "adopt":
        with LoopbackServer(adopted_pages.adopted(runs)) as server:
            yield server.url, runs
        return
    policy = tmp_path / "policy.toml"
    policy.write_text(POLICY)
    with LoopbackServer(adopted_pages.build(runs).streamable_http_app()) as upstream, \
            LoopbackServer(gateway_app(upstream.url, name="pages-gateway", policy=policy)) as gateway:
        yield gateway.url, runs


class Person:
    """The client's elicitation callback and the person behind it: forms answered from a script; each page
    link accepted at once and completed a moment later (the secret entered, or the action approved/rejected)."""

    def __init__(self, *forms: dict[str, Any], decision: str = "approve") -> None:
        self.forms = list(forms)
        self.decision = decision
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
                form = {**form, "value": CANARY, "decision": "submit" if self.decision == "approve" else "reject"}
            done = await browser.post(url, data=form)
            assert done.status_code == 200, done.text


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
