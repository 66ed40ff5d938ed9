"""The issue's measure through `askback.adopt`, the two lines alone: each required argument removed in turn.

The app is the `MCPServer` app of `tests/support/adopted.py` as its author wrote it (seven tools, thirteen
required arguments), adopted with no options, served by the SDK's own `streamable_http_app()` on loopback.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import askback
from tests.conftest import LoopbackServer
from tests.support import adopted, tsclient
from tests.support.corpus import each_required_removed
from tests.support.rawclient import RawClient
from tests.support.rawclient import accept as answered


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    server = adopted.build()
    askback.adopt(server)
    with LoopbackServer(server.streamable_http_app()) as served:
        yield served.url


def palette(tool: str, result: dict[str, Any]) -> dict[str, Any]:
    """`banner`'s own question (its SDK resolver), asked after askback's: answered, so the call completes."""
    (key,) = result["inputRequests"]
    return {key: answered(shades=1)}


def test_each_required_argument_removed_is_asked_alone_and_completes(app_url: str) -> None:
    """11 of 13 pairs asked alone and completed (85 %; 100 % of those a form may ask); the other 2 are
    credentials, refused and never asked in a form, by design."""
    with RawClient(app_url) as raw:
        measured = each_required_removed(raw, own_round=palette)
    assert measured.failed == {}
    assert sorted(measured.refused) == [("login", "password"), ("rotate", "api_key")]
    assert sorted(measured.asked) == sorted([
        ("deploy", "service"), ("deploy", "env"), ("order", "item"), ("order", "quantity"), ("rotate", "service"),
        ("login", "user"), ("banner", "text"), ("pay", "amount"), ("pay", "from_account"), ("ship", "country"),
        ("ship", "city")])


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_the_typescript_client_completes_an_adopted_flow(app_url: str, mode: str) -> None:
    """The TypeScript SDK v2 client, in both eras, answers askback's question and then the app's own."""
    answers = {"service": "api", "env": "staging", "replicas": 3, "text": "Hi", "shades": 2}
    deployed = tsclient.run("gateway.mjs", app_url, mode, "deploy", json.dumps({"replicas": 9}), json.dumps(answers))
    assert deployed["ok"], deployed
    assert deployed["result"]["content"][0]["text"] == "Deployed api to staging with 3 replicas.", deployed
    assert deployed["asked"] == [["service", "env", "replicas"]]
    banner = tsclient.run("gateway.mjs", app_url, mode, "banner", "{}", json.dumps(answers))
    assert banner["ok"], banner
    assert banner["result"]["content"][0]["text"] == "Hi: 2 shades of blue"
    assert banner["asked"] == [["text"], ["colour", "shades"]]
