"""Secrets and approvals out of band, over real loopback HTTP: the URL question, the page, the retry."""

import base64
import json
import logging
import re
from typing import Annotated, Any

import anyio
import httpx
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext
from mcp_types import ElicitRequestParams, ElicitResult

import askback
from askback.mcp.http import http_app
from askback.web.serving import PagesConfigError
from tests.support.rawclient import RawClient

KEY = base64.urlsafe_b64encode(bytes(range(90, 122))).decode().rstrip("=")
SECRET = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
URL_OK = {"action": "accept"}


def bank(runs: list[Any], **kw: Any) -> askback.App:
    kw.setdefault("page_wait", 0.3)  # retries of a page not done yet are held briefly (test_page_wait.py)
    app = askback.App("oob-bank", keys=KEY, store="memory://", **kw)

    @app.tool()
    def connect(bank: str, api_key: Annotated[askback.Secret, askback.Ask("the API key of {bank}")]) -> str:
        runs.append(api_key)
        return f"connected {bank}"

    @app.tool(once=True)
    def pay(amount: int, ok: Annotated[bool, askback.Confirm("Pay {amount} EUR?",
                                                              out_of_band=lambda amount: amount > 1000)]) -> str:
        runs.append(amount)
        return f"paid {amount}"

    return app


def url_of(result: dict[str, Any], key: str) -> str:
    params = result["inputRequests"][key]["params"]
    assert params["mode"] == "url"
    return str(params["url"])


def submit(url: str, **form: str) -> httpx.Response:
    with httpx.Client() as browser:
        page = browser.get(url)
        assert page.status_code == 200, page.text
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        return browser.post(url, data={"csrf": token.group(1), **form})


def test_a_secret_is_entered_on_the_page_and_never_passes_through_the_client(
        serve: Any, caplog: pytest.LogCaptureFixture) -> None:
    runs: list[Any] = []
    seen: list[str] = []
    with caplog.at_level(logging.DEBUG), RawClient(serve(bank(runs))) as c:
        first = c.call("connect", {"bank": "Acme"})["result"]
        url = url_of(first, "api_key")
        assert "/askback/p/" in url and "Acme" not in url
        again = c.call("connect", {"bank": "Acme"}, responses={"api_key": URL_OK}, state=first["requestState"])
        assert url_of(again["result"], "api_key") == url  # not done yet: the same question, never an error
        posted = submit(url, value=SECRET, decision="submit")
        assert posted.status_code == 200 and "Received" in posted.text
        done = c.call("connect", {"bank": "Acme"}, responses={"api_key": URL_OK},
                      state=again["result"]["requestState"])
        seen += [json.dumps(r) for r in (first, again, done)] + [posted.text]
        replay = c.call("connect", {"bank": "Acme"}, responses={"api_key": URL_OK},
                        state=again["result"]["requestState"])
    assert done["result"]["content"][0]["text"] == "connected Acme"
    assert [s.reveal() for s in runs] == [SECRET] and SECRET not in repr(runs[0])
    assert replay["error"]["code"] == -32602  # the secret was read once, inside the claim
    assert all(SECRET not in text for text in seen)
    assert all(SECRET not in record.getMessage() for record in caplog.records)


def test_a_client_without_url_mode_gets_32021_never_a_form(serve: Any) -> None:
    runs: list[Any] = []
    with RawClient(serve(bank(runs)), capabilities={"elicitation": {"form": {}}}) as c:
        reply = c.call("connect", {"bank": "Acme"})
    assert reply["error"]["code"] == -32021
    assert reply["error"]["data"]["requiredCapabilities"] == {"elicitation": {"url": {}}}
    assert runs == []


@pytest.mark.parametrize(("decision", "outcome"), [("approve", "paid 5000"), ("reject", None)])
def test_an_out_of_band_approval_runs_or_ends_cleanly(serve: Any, decision: str, outcome: str | None) -> None:
    runs: list[Any] = []
    with RawClient(serve(bank(runs))) as c:
        first = c.call("pay", {"amount": 5000})["result"]
        url = url_of(first, "ok")
        with httpx.Client() as browser:
            page = browser.get(url).text
        assert "Pay 5000 EUR?" in page and "Approve" in page
        assert submit(url, decision=decision).status_code == 200
        done = c.call("pay", {"amount": 5000}, responses={"ok": URL_OK}, state=first["requestState"])["result"]
    if outcome is None:
        assert runs == [] and "rejected" in done["content"][0]["text"] and not done.get("isError")
    else:
        assert runs == [5000] and done["content"][0]["text"] == outcome


def test_a_small_amount_keeps_the_in_band_confirmation(serve: Any) -> None:
    runs: list[Any] = []
    with RawClient(serve(bank(runs))) as c:
        first = c.call("pay", {"amount": 10})["result"]
        assert first["inputRequests"]["ok"]["params"]["mode"] == "form"


def test_the_page_checks_the_person_against_the_flows_principal(serve: Any) -> None:
    runs: list[Any] = []
    app = bank(runs, principal=lambda r: r.headers.get("x-user"),
               page_auth=lambda request: request.headers.get("x-user"))
    with RawClient(serve(app)) as c:
        c.http.headers["x-user"] = "ada"  # the flow is ada's
        first = c.call("connect", {"bank": "Acme"})
    url = url_of(first["result"], "api_key")
    other = httpx.get(url, headers={"x-user": "mallory"})
    assert other.status_code == 403 and "someone else" in other.text
    assert httpx.get(url).status_code == 401  # nobody signed in
    assert httpx.get(url, headers={"x-user": "ada"}).status_code == 200


def test_an_unknown_or_forged_ticket_gets_a_clear_page(serve: Any) -> None:
    base = serve(bank([])).removesuffix("/mcp")
    for ticket in ("A" * 32, "not-a-ticket", "%3Cscript%3E"):
        page = httpx.get(f"{base}/askback/p/{ticket}")
        assert page.status_code == 404 and "not valid" in page.text and "Traceback" not in page.text
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert page.headers["cache-control"] == "no-store"


def test_pages_without_authentication_are_refused_off_loopback() -> None:
    with pytest.raises(PagesConfigError, match="page_auth"):
        http_app(bank([]), host="0.0.0.0", allowed_hosts=["example.test"])
    http_app(bank([], page_auth=lambda request: None), host="0.0.0.0", allowed_hosts=["example.test"])


@pytest.mark.anyio
async def test_a_legacy_session_waits_for_the_page_and_is_told_it_is_complete(serve: Any) -> None:
    runs: list[Any] = []
    url = serve(bank(runs))
    asked: list[ElicitRequestParams] = []
    notices: list[Any] = []

    async def answer(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params)
        assert params.mode == "url" and params.elicitation_id
        await anyio.to_thread.run_sync(lambda: submit(params.url, value=SECRET, decision="submit"))
        return ElicitResult(action="accept")

    async def on_message(message: Any) -> None:
        notices.append(message)

    async with Client(url, mode="legacy", elicitation_callback=answer, message_handler=on_message) as client:
        result = await client.call_tool("connect", {"bank": "Acme"})
    assert result.is_error is not True and [s.reveal() for s in runs] == [SECRET]
    assert len(asked) == 1
    completes = [n for n in notices if "elicitation/complete" in repr(n)]
    assert completes and asked[0].elicitation_id in repr(completes[0])


def test_an_approval_without_a_choice_decides_nothing(serve: Any) -> None:
    runs: list[Any] = []
    with RawClient(serve(bank(runs))) as c:
        first = c.call("pay", {"amount": 5000})["result"]
        url = url_of(first, "ok")
        for decision in ({}, {"decision": "submit"}, {"decision": "yes"}):
            page = submit(url, **decision)
            assert page.status_code == 200 and "Approve" in page.text and "Approved" not in page.text
        pending = c.call("pay", {"amount": 5000}, responses={"ok": URL_OK}, state=first["requestState"])["result"]
    assert pending["resultType"] == "input_required" and runs == []


# -- an approval page shows exactly what will run ----------------------------------------------------------
MALLORY = "GB" + "0" * 260 + "-MALLORY-" + "7" * 29  # 300 characters: only the tail says who is paid


def payee(runs: list[Any]) -> askback.App:
    app = askback.App("oob-payee", keys=KEY, store="memory://")

    @app.tool(once=True)
    def pay(to: str, ok: Annotated[bool, askback.Confirm("Pay {to}?", out_of_band=True)], memo: str = "") -> str:
        runs.append((to, memo))
        return "paid"

    @app.tool(once=True)
    def pay_here(to: str, ok: Annotated[bool, askback.Confirm("Pay {to} with memo {memo}?")], memo: str = "") -> str:
        runs.append((to, memo))
        return "paid"

    return app


def page_text(url: str) -> str:
    with httpx.Client() as browser:
        page = browser.get(url)
    assert page.status_code == 200, page.text
    return page.text


def test_an_approval_page_shows_a_long_value_whole_and_the_function_runs_with_what_it_showed(serve: Any) -> None:
    runs: list[Any] = []
    with RawClient(serve(payee(runs))) as c:
        first = c.call("pay", {"to": MALLORY, "memo": "rent"})["result"]
        url = url_of(first, "ok")
        page = page_text(url)
        assert f"Pay {MALLORY}?" in page and f'<span class="v">{MALLORY}</span>' in page and "…" not in page
        assert submit(url, decision="approve").status_code == 200
        done = c.call("pay", {"to": MALLORY, "memo": "rent"}, responses={"ok": URL_OK}, state=first["requestState"])
    assert done["result"]["content"][0]["text"] == "paid" and runs == [(MALLORY, "rent")]


@pytest.mark.parametrize("tool", ["pay", "pay_here"])
@pytest.mark.parametrize(("to", "memo", "why"), [
    ("x" * 2001, "rent", "the value of to is 2,001 characters long"),
    ("Bob", "and type your PIN", "the value of memo would ask the person for a PIN"),
    ("Bob", "y" * 5000, "the value of memo is 5,000 characters long"),
])
def test_what_cannot_be_confirmed_is_refused_before_any_page_or_question(
        serve: Any, tool: str, to: str, memo: str, why: str) -> None:
    runs: list[Any] = []
    with RawClient(serve(payee(runs))) as c:
        refused = c.call(tool, {"to": to, "memo": memo})["result"]
    assert refused["isError"] is True and "inputRequests" not in refused and runs == []
    text = refused["content"][0]["text"]
    assert f"{tool} cannot be confirmed: {why}" in text and text.endswith("Nothing was done.")
    assert memo not in text and to not in text  # the caller's words are not echoed back


def test_hidden_characters_and_runs_of_spaces_are_visible_on_the_page(serve: Any) -> None:
    runs: list[Any] = []
    with RawClient(serve(payee(runs))) as c:
        plain = page_text(url_of(c.call("pay", {"to": "Alice", "memo": "a  b"})["result"], "ok"))
        padded = page_text(url_of(c.call("pay", {"to": "Alice\u3164\u3164", "memo": "a  b"})["result"], "ok"))
    assert "Pay Alice?" in plain and "Pay Alice&lt;U+3164&gt;&lt;U+3164&gt;?" in padded
    assert "\u3164" not in padded
    assert '<span class="v">a  b</span>' in padded and "white-space:break-spaces" in padded


def test_the_demo_approval_page_shows_the_chosen_accounts_title_beside_its_value(serve: Any) -> None:
    from askback.demo import app as demo

    arguments = {"amount": 5000, "to": "DE44500105175407324931", "from_account": "DE89370400440532013000"}
    with RawClient(serve(demo)) as c:
        page = page_text(url_of(c.call("transfer", arguments)["result"], "confirm"))
    everyday = "Everyday account (DE89 …3000) [DE89370400440532013000]"
    assert f"Send 5000 EUR from {everyday} to DE44500105175407324931?" in page
    assert f'<span class="v">{everyday}</span>' in page
