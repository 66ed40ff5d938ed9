"""How soon a held retry hears that a page was completed on another replica, and what the hold costs Redis.

Two replicas (uvicorn in threads, two Apps) share one Redis. A client's retry of an accepted page step is held on
replica A; the person completes the page on replica B. The figure is the time from B's answer to the page's POST
to A's answer to the held retry, for the hold's poll interval (`PageWait.poll`, 0.2 s by default) and a faster one.
The store cost of a hold is one GET of the step's mark per poll, measured as Redis's own command count.

    python bench/page_wait.py            # 15 runs per poll interval
    python bench/page_wait.py --quick    # 5
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Annotated

import httpx
import redis

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.conftest import LoopbackServer  # noqa: E402
from tests.support.rawclient import RawClient  # noqa: E402
from tests.support.redis import PrivateRedis  # noqa: E402

import askback  # noqa: E402
from bench.servers import KEY_TEXT  # noqa: E402


def replica(store: str, poll: float) -> askback.App:
    app = askback.App("bench-page-wait", keys=KEY_TEXT, store=store, page_wait=20)
    app.runtime.page_wait.poll = poll

    @app.tool(once=True)
    def pay(amount: int, ok: Annotated[bool, askback.Confirm("Pay {amount} EUR?", out_of_band=True)]) -> str:
        return f"paid {amount}"

    return app


def approve(url: str) -> None:
    with httpx.Client() as browser:
        page = browser.get(url).text
        token = re.search(r'name="csrf" value="([^"]+)"', page)
        assert token is not None
        assert browser.post(url, data={"csrf": token.group(1), "decision": "approve"}).status_code == 200


def one(a: LoopbackServer, b: LoopbackServer, delay: float) -> float:
    with RawClient(a.url) as client:
        first = client.call("pay", {"amount": 5000})["result"]
        link = first["inputRequests"]["ok"]["params"]["url"]
        on_b = link.replace(f":{a.port}/", f":{b.port}/")
        done: list[float] = []

        def person() -> None:
            approve(on_b)
            done.append(time.perf_counter())

        timer = threading.Timer(delay, person)
        timer.start()
        reply = client.call("pay", {"amount": 5000}, responses={"ok": {"action": "accept"}},
                            state=first["requestState"])
        answered = time.perf_counter()
        timer.join()
    assert reply["result"]["content"][0]["text"] == "paid 5000", reply
    return answered - done[0]


def gets_per_second(url: str, a: LoopbackServer, hold: float) -> float:
    """Redis GETs while one retry is held (nobody completes the page), per second of hold."""
    raw = redis.Redis.from_url(url)
    with RawClient(a.url) as client:
        first = client.call("pay", {"amount": 5000})["result"]
        before = int(raw.info("commandstats").get("cmdstat_get", {}).get("calls", 0))
        started = time.perf_counter()
        client.call("pay", {"amount": 5000}, responses={"ok": {"action": "accept"}}, state=first["requestState"])
        took = time.perf_counter() - started
        after = int(raw.info("commandstats").get("cmdstat_get", {}).get("calls", 0))
    assert took >= hold * 0.9
    return (after - before) / took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    runs = 5 if parser.parse_args().quick else 15
    private = PrivateRedis().start()  # its own: the command counts are this bench's alone
    base = private.url
    store = f"{base}?app=bench-page-wait-{os.urandom(3).hex()}"
    rows: list[tuple[str, str]] = []
    try:
        for poll in (0.2, 0.05):
            with LoopbackServer(replica(store, poll)) as a, LoopbackServer(replica(store, poll)) as b:
                seen = [one(a, b, 0.5) for _ in range(runs)]
                short = replica(store, poll)
                short.page_wait = 2.0
                with LoopbackServer(short) as lone:
                    rate = gets_per_second(base, lone, 2.0)
            rows.append((f"{poll:g} s", f"median {statistics.median(seen) * 1000:.0f} ms, max "
                         f"{max(seen) * 1000:.0f} ms over {runs}; {rate:.1f} Redis GET/s per held retry"))
    finally:
        private.stop()
    print("poll   page completed on B -> held retry answered on A")
    for poll_text, figures in rows:
        print(f"{poll_text:6} {figures}")


if __name__ == "__main__":
    main()
