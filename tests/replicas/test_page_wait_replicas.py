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
