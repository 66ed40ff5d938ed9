"""The demo's transfer across two replicas, exported over OTLP/HTTP by `askback serve` itself, is one linked trace.

Two `askback serve askback.demo:app` processes share a key ring and a SQLite store; the only telemetry settings
are the standard variables (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`, the batch delays), pointing at
a small OTLP receiver in this test. The transfer's three rounds go a, b, a; the receiver must see three SERVER
spans chained by links, from both services, with askback's attributes and the flow metrics.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from pathlib import Path
from typing import Any

from tests.replicas.conftest import Replica
from tests.support.rawclient import RawClient, accept
from tests.telemetry.otlp_receiver import Receiver

KEYS = "fCfM8QZeuyWJ3fCWOyk9fDv1vihu_gsBvHsQj0qHUVY"


def _transfer(a: str, b: str) -> list[dict[str, Any]]:
    with RawClient(a) as first, RawClient(b) as second:
        r1 = first.call("transfer", {"amount": 50})["result"]
        r2 = second.call("transfer", {"amount": 50}, state=r1["requestState"], responses={
            "to": accept(to="DE44500105175407324931"),
            "from_account": accept(from_account="DE02120300000000202051")})["result"]
        r3 = first.call("transfer", {"amount": 50}, state=r2["requestState"],
                        responses={"confirm": accept(confirm=True)})["result"]
    return [r1, r2, r3]


def test_a_transfer_over_two_replicas_is_one_linked_trace_at_the_otlp_receiver(tmp_path: Path) -> None:
    with Receiver() as receiver:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ASKBACK_", "OTEL_"))}
        env.update(ASKBACK_KEYS=KEYS, ASKBACK_STORE=f"sqlite:///{tmp_path / 'shared.db'}",
                   ASKBACK_DATA_DIR=str(tmp_path), OTEL_EXPORTER_OTLP_ENDPOINT=receiver.endpoint,
                   OTEL_BSP_SCHEDULE_DELAY="50", OTEL_METRIC_EXPORT_INTERVAL="200")
        replicas = [Replica(name, tmp_path, {**env, "OTEL_SERVICE_NAME": f"bank-{name}"}, target="askback.demo:app")
                    for name in ("a", "b")]
        try:
            for replica in replicas:
                replica.start()
            a, b = (f"http://127.0.0.1:{r.port}/mcp" for r in replicas)
            results = _transfer(a, b)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                with receiver.lock:
                    rounds = [s for s in receiver.spans if s["name"] == "tools/call transfer"]
                    flows = [m for m in receiver.metrics if m["name"] == "askback.flows"]
                if len(rounds) >= 3 and flows:
                    break
                time.sleep(0.1)
        finally:
            for replica in replicas:
                replica.stop()
    assert [r["resultType"] for r in results] == ["input_required", "input_required", "complete"]
    rounds.sort(key=lambda s: s["attributes"]["askback.round"])
    (tmp_path / "trace.json").write_text(json.dumps(rounds, indent=1))
    assert [s["service"] for s in rounds] == ["bank-a", "bank-b", "bank-a"]
    assert [s["kind"] for s in rounds] == ["SERVER"] * 3
    assert [s["attributes"]["askback.round"] for s in rounds] == [1, 2, 3]
    assert [s["attributes"]["askback.result.type"] for s in rounds] == ["input_required", "input_required",
                                                                        "complete"]
    assert [s["attributes"].get("askback.questions") for s in rounds] == [["to", "from_account"], ["confirm"], None]
    assert rounds[2]["attributes"]["askback.outcome"] == "completed"
    assert len({s["attributes"]["askback.flow.id"] for s in rounds}) == 1  # the same key ring: the same hash
    assert rounds[0]["links"] == []
    for before, after in itertools.pairwise(rounds):
        assert [(link["trace"], link["span"]) for link in after["links"]] == [(before["trace"], before["span"])]
    for span in rounds:
        assert span["attributes"]["gen_ai.tool.name"] == "transfer"
        assert span["attributes"]["mcp.method.name"] == "tools/call"
    completed = [m for m in flows if m["attributes"].get("askback.outcome") == "completed"]
    assert completed and completed[-1]["value"] == 1
