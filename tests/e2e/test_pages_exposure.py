"""Issue 17 §1: askback's pages follow the same exposure rules as every other route, over real loopback HTTP.

One Host and Origin policy for every route (the one `/mcp` answers 421 and 403 with); development mode (pages
that check nobody) only for a server nothing but this machine can reach; no redirect built from a Host.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

import askback
from askback.mcp.http import http_app
from askback.web.serving import PagesConfigError
from tests.e2e.serving import refused, started, statuses
from tests.e2e.test_out_of_band import SECRET, bank, url_of
from tests.e2e.test_serve_exposure import env_for
from tests.support.rawclient import RawClient

GOOD = "tools.example.test"


def signed_in(request: Any) -> str | None:
    return "ada" if request.headers.get("x-user") == "ada" else None


def mcp_status(mcp: str, headers: dict[str, str]) -> int:
    """The status `/mcp` answers a well-formed 2026-07-28 tools/list sent with `headers`."""
    return statuses(mcp, [headers])[0]


def page_with_ticket(mcp: str) -> str:
    with RawClient(mcp) as c:
        c.http.headers["x-user"] = "ada"
        return url_of(c.call("connect", {"bank": "Acme"})["result"], "api_key")


def routes_of(page: str) -> dict[str, tuple[str, str]]:
    base = page.split("/askback/")[0]
    return {"page": ("GET", page), "page post": ("POST", page),
            "agent card": ("GET", f"{base}/.well-known/agent-card.json"), "a2a": ("POST", f"{base}/a2a"),
            "unknown path": ("GET", f"{base}/nothing-here")}


@pytest.mark.parametrize("extra", [
    {"Host": "evil.example:{port}"},
    {"Host": "10.1.2.3"},
    {"Host": "127.0.0.1.evil.example:{port}"},
    {"Origin": "http://evil.example"},
    {"Origin": "http://localhost.evil.example"},
    {"Host": "evil.example:{port}", "Origin": "http://evil.example"},
], ids=["foreign host", "foreign address", "loopback-like name", "foreign origin", "loopback-like origin", "both"])
def test_every_route_refuses_what_mcp_refuses_with_the_same_status(serve: Any, extra: dict[str, str]) -> None:
    runs: list[Any] = []
    mcp = serve(bank(runs, principal=lambda r: r.headers.get("x-user"), page_auth=signed_in))
    port = mcp.split(":")[2].split("/")[0]
    headers = {k: v.replace("{port}", port) for k, v in extra.items()}
    expected = mcp_status(mcp, headers)
    assert expected in (421, 403)
    page = page_with_ticket(mcp)
    with httpx.Client(headers={"x-user": "ada"}) as http:
        for name, (method, url) in routes_of(page).items():
            answer = http.request(method, url, headers=headers, data={"value": SECRET, "decision": "submit"})
            assert answer.status_code == expected, (name, answer.status_code, answer.text)
            assert "location" not in answer.headers and SECRET not in answer.text
        form = http.get(page)  # the page itself was never used: it still asks
    assert form.status_code == 200 and 'name="csrf"' in form.text and runs == []


def test_a_post_with_a_valid_form_under_a_foreign_host_is_refused_and_takes_nothing(serve: Any) -> None:
    runs: list[Any] = []
    mcp = serve(bank(runs, principal=lambda r: r.headers.get("x-user"), page_auth=signed_in))
    page = page_with_ticket(mcp)
    with httpx.Client(headers={"x-user": "ada"}) as browser:
        form = browser.get(page)
        token = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert form.status_code == 200 and token is not None
        for host in ("10.1.2.3", "evil.example"):
            refused_post = browser.post(page, headers={"Host": host},
                                        data={"csrf": token.group(1), "value": SECRET, "decision": "submit"})
            assert refused_post.status_code == 421, refused_post.text
        again = browser.get(page)
    assert again.status_code == 200 and "already done" not in again.text  # still pending: nothing was taken


def test_allowed_hosts_apply_to_pages_as_to_mcp(serve: Any) -> None:
    app = bank([], principal=lambda r: r.headers.get("x-user"), page_auth=signed_in)
    mcp = serve(http_app(app, allowed_hosts=[f"{GOOD}:*", "127.0.0.1:*"]))
    port = mcp.split(":")[2].split("/")[0]
    page = page_with_ticket(mcp)
    for host, status in ((f"{GOOD}:{port}", 200), (f"localhost:{port}", 421)):
        assert mcp_status(mcp, {"Host": host}) == status
        assert httpx.get(page, headers={"Host": host, "x-user": "ada"}).status_code == status


@pytest.mark.parametrize("any_origin", [False, True], ids=["checked", "allow any origin"])
def test_no_route_redirects_to_the_host_it_was_sent(serve: Any, any_origin: bool) -> None:
    # With the checks off, nothing has vouched for the Host: a redirect built from it would send a person (or a
    # cache) to any address the request named.
    app = bank([], principal=lambda r: r.headers.get("x-user"), page_auth=signed_in)
    mcp = serve(http_app(app, allow_any_origin=any_origin))
    page = page_with_ticket(mcp)
    base = page.split("/askback/")[0]
    for url in (page + "/", f"{base}/mcp/", f"{base}/a2a/", f"{base}/.well-known/agent-card.json/"):
        answer = httpx.get(url, headers={"Host": "evil.example", "x-user": "ada"})
        assert not answer.is_redirect and "evil.example" not in answer.headers.get("location", ""), (url, answer)
    slash = httpx.get(page + "/", headers={"x-user": "ada"})
    assert slash.status_code == 200 and 'name="csrf"' in slash.text  # a pasted link with a slash still opens


# -- development mode: only when nothing but this machine can reach the server -----------------------------
ELSEWHERE = {
    "allowed hosts env": ([], {"ASKBACK_ALLOWED_HOSTS": f"{GOOD},localhost:*"}),
    "allowed host flag": (["--allowed-host", f"{GOOD}:*"], {}),
    "allowed IP": (["--allowed-host", "10.1.2.3:*"], {}),
    "any origin env": ([], {"ASKBACK_ALLOW_ANY_ORIGIN": "1"}),
    "any origin flag": (["--allow-any-origin"], {}),
    "public url env": ([], {"ASKBACK_PUBLIC_URL": f"https://{GOOD}"}),
    "public url flag": (["--public-url", f"https://{GOOD}"], {}),
}


@pytest.mark.parametrize("case", list(ELSEWHERE), ids=list(ELSEWHERE))
def test_pages_without_authentication_refuse_to_start_when_reached_from_elsewhere(tmp_path: Path, case: str) -> None:
    args, extra = ELSEWHERE[case]
    line = refused(["askback.demo:app", "--port", "0", *args], env_for(tmp_path, **extra))
    assert "page_auth" in line and "loopback" in line, line


@pytest.mark.parametrize("args", [
    ["--allowed-host", "localhost:*"],
    ["--allowed-host", "127.0.0.1:*", "--allowed-host", "[::1]:*"],
    ["--public-url", "http://localhost:8080"],
], ids=["localhost", "loopback addresses", "loopback public url"])
def test_development_mode_still_starts_on_this_machine_only(tmp_path: Path, args: list[str]) -> None:
    with started(["askback.demo:app", "--port", "0", *args], env_for(tmp_path)) as server:
        assert server.process.poll() is None


LIBRARY_ELSEWHERE: dict[str, dict[str, Any]] = {
    "allowed hosts": {"allowed_hosts": [GOOD]},
    "any origin": {"allow_any_origin": True},
    "off loopback": {"host": "0.0.0.0", "allowed_hosts": [GOOD]},
}


@pytest.mark.parametrize("settings", list(LIBRARY_ELSEWHERE.values()), ids=list(LIBRARY_ELSEWHERE))
def test_http_app_refuses_development_mode_reached_from_elsewhere(settings: dict[str, Any]) -> None:
    with pytest.raises(PagesConfigError, match="page_auth"):
        http_app(bank([]), **settings)
    http_app(bank([], page_auth=signed_in), **settings)  # with page authentication it serves


def test_http_app_refuses_development_mode_with_a_public_url_elsewhere() -> None:
    with pytest.raises(PagesConfigError, match="public URL"):
        http_app(bank([], public_url=f"https://{GOOD}"))
    http_app(bank([], public_url=f"https://{GOOD}", page_auth=signed_in))
    http_app(askback.App("plain", keys="1EpzWJq1XAxLZrGsMvYh8tvxvaxJpDrYc9J0hm3n6Xw", store="memory://"),
             allow_any_origin=True)  # an app without pages is not concerned
