"""A retry held on one replica ends when the page is completed on another (the mark is in the shared store)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from tests.e2e.test_out_of_band import SECRET, URL_OK, submit, url_of
from tests.support.rawclient import RawClient


def test_a_page_done_on_replica_b_ends_the_hold_on_replica_a(cluster: Callable[..., Any]) -> None:
    hold = 20.0
    c = cluster(ASKBACK_PAGE_WAIT=str(hold))
    a, b = c.replicas["a"], c.replicas["b"]
    with RawClient(f"http://127.0.0.1:{a.port}/mcp") as client:
        first = client.call("connect", {"bank": "Acme"})["result"]
        link = url_of(first, "api_key")
        assert link.startswith(c.lb.url)
        on_b = f"http://127.0.0.1:{b.port}" + link.removeprefix(c.lb.url)  # the person's browser reaches B
        done: list[float] = []

        def person() -> None:
            assert submit(on_b, value=SECRET, decision="submit").status_code == 200
            done.append(time.monotonic())

        timer = threading.Timer(1.0, person)
        timer.start()
        try:
            reply = client.call("connect", {"bank": "Acme"}, responses={"api_key": URL_OK},
                                state=first["requestState"])  # held on A
            answered = time.monotonic()
        finally:
            timer.join()
    assert reply["result"]["content"][0]["text"] == "connected Acme", reply
    assert done and answered - done[0] < hold / 4  # ended by B's page, far before A's bound
    assert c.runs() == {f"connect:Acme:{len(SECRET)}": 1}


def test_one_receipt_gathers_what_each_replica_did_and_askback_receipts_reads_it(cluster: Callable[..., Any]) -> None:
    """The page is made on A, approved on B, the run claimed on A: one receipt in the shared store, in order."""
    import json
    import subprocess

    from tests.e2e.test_cli import askback_command

    c = cluster(ASKBACK_PAGE_WAIT="0")
    a, b = c.replicas["a"], c.replicas["b"]
    with RawClient(f"http://127.0.0.1:{a.port}/mcp") as client:
        first = client.call("pay", {"amount": 5000})["result"]
        link = url_of(first, "ok")
        on_b = f"http://127.0.0.1:{b.port}" + link.removeprefix(c.lb.url)
        assert submit(on_b, decision="approve").status_code == 200
        done = client.call("pay", {"amount": 5000}, responses={"ok": URL_OK}, state=first["requestState"])["result"]
    rid = done["_meta"]["askback/receipt"]
    shown = subprocess.run([*askback_command(), "receipts", "tests/replicas/replica_app.py", rid, "--json"],
                           env=c.env, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    receipt = json.loads(shown.stdout)
    assert [e["kind"] for e in receipt["entries"]] == ["proposed", "approved", "executed", "returned"]
    assert receipt["entries"][0]["text"] == "Pay 5000 EUR?" and c.runs() == {"pay:5000": 1}
