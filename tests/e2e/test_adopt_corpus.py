"""The issue's measure through `askback.adopt`, the two lines alone: each required argument removed in turn.

The app is the `MCPServer` app of `tests/support/adopted.py` as its author wrote it (seven tools, thirteen
required arguments), adopted with no options, served by the SDK's own `streamable_http_app()` on loopback.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import askback
from tests.conftest import LoopbackServer
from tests.support import adopted
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
