"""The SDK's OpenTelemetry span middleware runs only while a tracer provider is configured.

Without one its span is a no-op that still costs about 6% of a flow; with one (set even after the app was built)
every request gets the SDK's own span, unchanged. Observed in a process of its own: see tracing_probe.
"""

import json
import subprocess
import sys

from tests.e2e.test_cli import ROOT


def test_spans_only_while_a_tracer_provider_is_configured() -> None:
    run = subprocess.run([sys.executable, "-m", "tests.e2e.tracing_probe"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    before, after = seen["before"], seen["after"]
    assert before == {"status": 200, "spans": [], "extracts": 0, "configured": False}, seen
    assert after["status"] == 200 and after["configured"] is True, seen
    assert after["spans"] == ["tools/list"], seen  # the SDK's span, named as the SDK names it
    assert after["extracts"] == 1, seen  # and the request's trace context read for it
