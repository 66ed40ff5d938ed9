"""The demo's transfer, end to end over loopback HTTP with a raw JSON-RPC client."""

from __future__ import annotations

from askback.demo import app as demo_app
from tests.support.rawclient import RawClient, accept


def test_transfer_asks_then_confirms_then_runs_once(serve) -> None:
    url = serve(demo_app)
    with RawClient(url) as c:
        r1 = c.call("transfer", {"amount": 50})["result"]
        assert r1["resultType"] == "input_required"
        assert set(r1["inputRequests"]) == {"to", "from_account"}
        r2 = c.call("transfer", {"amount": 50}, state=r1["requestState"], responses={
            "to": accept(to="DE44500105175407324931"), "from_account": accept(from_account="DE02120300000000202051")})
        r2 = r2["result"]
        assert list(r2["inputRequests"]) == ["confirm"]
        assert "Send 50 EUR from Savings account (DE02 …2051) [DE02120300000000202051] to DE44500105175407324931?" in (
            r2["inputRequests"]["confirm"]["params"]["message"])
        yes = {"confirm": accept(confirm=True)}
        final = c.call("transfer", {"amount": 50}, state=r2["requestState"], responses=yes)
        assert final["result"]["structuredContent"]["status"] == "sent"
        replay = c.call("transfer", {"amount": 50}, state=r2["requestState"], responses=yes)
        assert replay["error"]["code"] == -32602


def test_tools_list_is_deterministic_and_cacheable(serve) -> None:
    from askback.demo import app as demo_app

    first_url = serve(demo_app)
    with RawClient(first_url) as c:
        a = c.send("tools/list")["result"]
        b = c.send("tools/list")["result"]
    assert a == b
    assert a["resultType"] == "complete" and a["ttlMs"] >= 0 and a["cacheScope"] in ("public", "private")
    names = [t["name"] for t in a["tools"]]
    assert names == ["transfer", "connect_bank", "open_issue", "clean_logs"]
    transfer = a["tools"][0]
    assert "confirm" not in transfer["inputSchema"]["properties"]  # a confirmation is never an argument
    assert transfer["inputSchema"]["required"] == ["amount", "to", "from_account"]
