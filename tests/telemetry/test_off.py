"""Off by default costs nothing: with no provider set, a flow makes no call into OpenTelemetry; set later, the
very next flow is traced and counted in full.

Observed in a process of its own (`off_probe`: providers are set once per process), over real loopback HTTP, on
the fast route and on the SDK's path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from tests.e2e.test_cli import ROOT

ANSWERS = {"asked": "input_required", "done": "Hello Ada from Paris", "declined": False, "tampered": -32602}


@pytest.fixture(scope="module")
def seen() -> dict[str, Any]:
    run = subprocess.run([sys.executable, "-m", "tests.telemetry.off_probe"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return data


def test_off_a_flow_calls_no_opentelemetry_code(seen: dict[str, Any]) -> None:
    assert seen["off"] == {"fast": ANSWERS, "sdk": ANSWERS}
    # Before the answer was kept per provider object, these ten requests made 106 such calls: the providers
    # asked for (an `os.environ` lookup each) and the current span read, on every request.
    assert seen["off_calls"] == {}


def test_providers_set_while_serving_trace_and_count_the_next_flow(seen: dict[str, Any]) -> None:
    assert seen["on"] == {"fast": ANSWERS, "sdk": ANSWERS}
    rounds = [{k: v for k, v in s["attributes"].items() if k.startswith("askback.") and k != "askback.flow.id"}
              for s in seen["spans"]]
    one_entry = [
        {"askback.round": 1, "askback.result.type": "input_required", "askback.questions": ["city"]},
        {"askback.round": 2, "askback.result.type": "complete", "askback.outcome": "completed"},
        {"askback.round": 1, "askback.result.type": "input_required", "askback.questions": ["city"]},
        {"askback.round": 2, "askback.result.type": "complete", "askback.outcome": "declined"},
        {"askback.outcome": "rejected", "askback.rejection.reason": "not_base64url"},
    ]
    assert rounds == one_entry * 2  # the fast route's flows, then the SDK path's
    assert all(s["name"] == "tools/call greet" for s in seen["spans"])
    assert {"mcp.server.operation.duration", "askback.flows", "askback.flow.rounds"} <= set(seen["metrics"])
    assert seen["flows"] == {"completed": 2, "declined": 2, "rejected": 2}


def test_a_provider_named_by_the_apis_own_variables_is_on() -> None:
    """`OTEL_PYTHON_TRACER_PROVIDER` / `OTEL_PYTHON_METER_PROVIDER` name a provider the API loads on first use:
    the kept answer must ask for it, not take the unset global for off."""
    code = ("from askback.telemetry.providers import metering, tracing\n"
            "print([tracing(), metering(), tracing(), metering()])")
    env = {"OTEL_PYTHON_TRACER_PROVIDER": "sdk_tracer_provider", "OTEL_PYTHON_METER_PROVIDER": "sdk_meter_provider"}
    named = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env={**_environ(), **env})
    unset = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env=_environ())
    assert named.returncode == 0 and unset.returncode == 0, named.stderr + unset.stderr
    assert json.loads(named.stdout.lower()) == [True] * 4
    assert json.loads(unset.stdout.lower()) == [False] * 4


def _environ() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
