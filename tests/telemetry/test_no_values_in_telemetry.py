"""No argument, answer, secret, state or page ticket reaches a span or a metric label: 10,000 generated flows.

`fuzz_probe` plays the flows in a process of its own (in-process ASGI calls to the fast route, see its
docstring) with a canary in every value a caller or a person sends; this test checks every string that reached
the SDK's in-memory exporter and metric reader. Beyond "no canary", it holds them to a closed list: the
conventions' names, askback's attribute names and fixed codes, the tools' and questions' names, request ids and
keyed flow ids. A value that is none of those fails the test, whatever it is.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from urllib.parse import urlsplit

from tests.e2e.test_cli import ROOT

FLOWS = 10_000
FIXED = {
    "", "tools/call plan", "tools/call echo", "tools/call connect", "plan", "echo", "connect",
    "first", "second", "ok", "api_key", "note",
    "mcp.method.name", "mcp.protocol.version", "jsonrpc.request.id", "gen_ai.operation.name", "gen_ai.tool.name",
    "error.type", "rpc.response.status_code", "tools/call", "2026-07-28", "execute_tool", "tool_error", "-32602",
    "askback.flow.id", "askback.round", "askback.result.type", "askback.questions", "askback.outcome",
    "askback.refusal.reason", "askback.rejection.reason", "askback.link", "previous_round",
    "input_required", "complete", "task", "completed", "declined", "cancelled", "refused", "expired", "rejected",
    "failed", "not_authentic", "not_canonical", "not_base64url", "truncated", "malformed_body", "replayed",
    "unknown_key", "unknown_version", "too_many_rounds", "invalid_arguments",
    "mcp.server.operation.duration", "askback.flows", "askback.flow.rounds",
}


def test_ten_thousand_flows_leave_no_value_in_spans_or_metric_labels() -> None:
    run = subprocess.run([sys.executable, "-m", "tests.telemetry.fuzz_probe", str(FLOWS), "22"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["flows"] == FLOWS and seen["spans"] == seen["requests"] > 2 * FLOWS
    # The flows went where they should, so the canaries were really carried through every kind of ending.
    outcomes = seen["outcomes"]
    assert {"completed", "declined", "cancelled", "failed", "rejected"} <= set(outcomes), outcomes
    assert len(seen["states"]) > FLOWS and len(seen["urls"]) > 100
    strings = set(seen["seen"]) | set(seen["labels"])
    assert not [s for s in strings if "cnry" in s]
    # A span's status text is the JSON-RPC error message the client was sent (the SDK's span keeps it): fixed
    # texts of askback's, which may name a question's key, never a value.
    assert seen["statuses"] and not [s for s in seen["statuses"] if "cnry" in s]
    tickets = {urlsplit(url).path.rsplit("/", 1)[-1] for url in seen["urls"]}
    unexpected = {s for s in strings - FIXED if not re.fullmatch(r"[0-9a-f]{32}|[0-9]{1,6}", s)}
    assert not unexpected, sorted(unexpected)[:20]
    assert not strings & tickets and not strings & set(seen["states"])
