"""The conformance runner's own rules: strict verdicts, the expected-failure list, and its install cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conformance import scenarios, toolchain
from tests.conformance.results import Verdict, read_outcome, verdict
from tests.conformance.scenarios import CLIENT_EXIT, NO_CHECKS, Expected
from tests.conftest import free_port

RUNNER = Path(__file__).resolve().parent / "run.py"
EXPECTED = Expected("waits for a feature", frozenset({"feature-check"}))


def outcome_of(tmp_path: Path, checks: list[dict[str, Any]], *, exit_code: int = 0, log: str = "") -> Any:
    out = tmp_path / "server-x-2026-12-01T00-00-00-000Z"
    out.mkdir(parents=True, exist_ok=True)
    (out / "checks.json").write_text(json.dumps(checks))
    return read_outcome("server", "x", tmp_path, exit_code, log)


def check(check_id: str, status: str = "SUCCESS") -> dict[str, Any]:
    return {"id": check_id, "status": status, "errorMessage": f"{check_id} is {status}"}


def test_a_scenario_passes_only_when_every_check_succeeds(tmp_path: Path) -> None:
    outcome = outcome_of(tmp_path, [check("a"), check("b"), check("c", "SKIPPED"), check("d", "INFO")])
    assert verdict(outcome, None) is Verdict.PASS


def test_a_warning_fails_the_scenario(tmp_path: Path) -> None:
    outcome = outcome_of(tmp_path, [check("a"), check("b", "WARNING")], exit_code=0)
    assert verdict(outcome, None) is Verdict.FAIL
    assert outcome.warned == 1 and "b" in outcome.bad


def test_no_checks_or_a_client_that_exits_non_zero_fails(tmp_path: Path) -> None:
    assert verdict(read_outcome("server", "x", tmp_path, 1, ""), None) is Verdict.FAIL
    exited = outcome_of(tmp_path, [check("a")], exit_code=1, log="⚠️  CLIENT EXITED WITH ERROR (code 1)")
    assert set(exited.bad) == {CLIENT_EXIT}
    assert verdict(exited, None) is Verdict.FAIL


@pytest.mark.parametrize("checks", [
    [],
    [check("a", "SKIPPED")],
    [check("a", "SKIPPED"), check("b", "INFO")],
], ids=["no checks", "one skipped", "skipped and info"])
def test_a_scenario_that_checked_nothing_fails_and_says_so(tmp_path: Path, checks: list[dict[str, Any]]) -> None:
    outcome = outcome_of(tmp_path, checks)
    assert verdict(outcome, None) is Verdict.FAIL
    assert list(outcome.bad) == [NO_CHECKS], outcome.bad
    assert f"{len(checks)} in checks.json, none succeeded or failed" in outcome.bad[NO_CHECKS]
    if checks:  # the harness's own reason for skipping is shown
        assert "a is SKIPPED" in outcome.bad[NO_CHECKS]


def test_a_scenario_listed_as_checking_nothing_fails_the_run_once_the_harness_checks_it(tmp_path: Path) -> None:
    empty = Expected("the harness checks nothing here yet", frozenset({NO_CHECKS}))
    assert verdict(outcome_of(tmp_path / "1", [check("a", "SKIPPED")]), empty) is Verdict.XFAIL
    assert verdict(outcome_of(tmp_path / "2", [check("a")]), empty) is Verdict.XPASS
    assert verdict(outcome_of(tmp_path / "3", [check("a", "FAILURE")]), empty) is Verdict.FAIL


def test_an_expected_failure_holds_only_for_its_own_checks(tmp_path: Path) -> None:
    failing_as_expected = outcome_of(tmp_path / "1", [check("a"), check("feature-check", "FAILURE")], exit_code=1)
    assert verdict(failing_as_expected, EXPECTED) is Verdict.XFAIL
    also_failing_elsewhere = outcome_of(tmp_path / "2", [check("feature-check", "FAILURE"), check("b", "FAILURE")])
    assert verdict(also_failing_elsewhere, EXPECTED) is Verdict.FAIL


def test_an_expected_failure_that_passes_fails_the_run_so_the_list_stays_true(tmp_path: Path) -> None:
    result = verdict(outcome_of(tmp_path, [check("feature-check")]), EXPECTED)
    assert result is Verdict.XPASS and result.counts_as_failure


def test_the_expected_failures_name_planned_scenarios_with_reasons_and_never_an_mrtr_one() -> None:
    planned = set(scenarios.SERVER) | set(scenarios.CLIENT)
    for name, expected in scenarios.EXPECTED_FAILURES.items():
        assert name in planned and expected.reason and expected.checks, name
    assert not set(scenarios.MRTR_SERVER) & set(scenarios.EXPECTED_FAILURES)
    # A tasks scenario may be listed only as one the harness checks nothing in, never as one askback fails.
    for name in set(scenarios.TASKS_SERVER) & set(scenarios.EXPECTED_FAILURES):
        assert scenarios.EXPECTED_FAILURES[name].checks == {NO_CHECKS}, name
    assert len(scenarios.TASKS_SERVER) == 10 and not any("tasks" in k for k in scenarios.NOT_RUN)
    assert "sep-2322-client-request-state" not in scenarios.EXPECTED_FAILURES
    # The 25 sign-in scenarios 2026-07-28 requires of a client all run, and none may be an expected failure.
    assert len(scenarios.AUTH_CLIENT) == 25 and set(scenarios.AUTH_CLIENT) <= set(scenarios.CLIENT)
    assert not set(scenarios.AUTH_CLIENT) & set(scenarios.EXPECTED_FAILURES)
    assert set(scenarios.LEGACY_AUTH_CLIENT) <= set(scenarios.AUTH_CLIENT)


def test_the_legacy_era_lists_planned_scenarios_and_never_the_reporting_ones() -> None:
    for name, expected in scenarios.LEGACY_EXPECTED_FAILURES.items():
        assert name in scenarios.LEGACY_SERVER and expected.reason and expected.checks, name
    # A tool's askback.Context covers these: they must pass on 2025-11-25, never be expected to fail.
    reporting = {"logging-set-level", "tools-call-with-logging", "tools-call-with-progress"}
    assert reporting <= set(scenarios.LEGACY_SERVER)
    assert not reporting & set(scenarios.LEGACY_EXPECTED_FAILURES)
    # Each era reads its own table: the 2026-07-28 one's entries say nothing of the 2025-11-25 run.
    assert scenarios.expected_for("tasks-status-notifications") is not None
    assert scenarios.expected_for("tasks-status-notifications", scenarios.LEGACY) is None


def _fake_install(cache: Path) -> None:
    """A cache as a finished install leaves it (marks and the files the runner runs), without the real 230 MB."""
    package = toolchain.node_package()
    node_dir = cache / f"node-{toolchain.NODE_VERSION}-{package.removeprefix('node-')}"
    harness_dir = cache / f"conformance-{toolchain.HARNESS_VERSION}-{toolchain.harness_digest()}"
    for directory, probe in ((node_dir, Path("node_modules", package, "bin", "node")),
                             (harness_dir, Path("node_modules/@modelcontextprotocol/conformance/dist/index.js"))):
        (directory / probe).parent.mkdir(parents=True)
        (directory / probe).write_text("")
        (directory / toolchain.COMPLETE).write_text("")


def test_a_complete_cache_is_reused_without_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_install(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # no npm: any install attempt would fail
    tools = toolchain.ensure(tmp_path, say=pytest.fail)
    assert tools.node.is_file() and tools.cli.is_file()


def test_a_half_installed_cache_is_installed_again_and_an_unreachable_registry_is_a_clear_setup_error(
    tmp_path: Path,
) -> None:
    if shutil.which("npm") is None:
        pytest.skip("npm is not on PATH: this test needs it to try an install")
    cache = tmp_path / "cache"
    package = toolchain.node_package()
    half = cache / f"node-{toolchain.NODE_VERSION}-{package.removeprefix('node-')}"
    (half / "node_modules" / package / "bin").mkdir(parents=True)
    (half / "node_modules" / package / "bin" / "node").write_text("truncated")  # no completion mark
    stale = cache / ".partial-node-killed"
    stale.mkdir()
    os.utime(stale, (time.time() - 2 * toolchain.STALE_PARTIAL_SECONDS,) * 2)
    env = {**os.environ, "npm_config_registry": f"http://127.0.0.1:{free_port()}/",  # nothing listens there
           "npm_config_cache": str(tmp_path / "npm-cache"), "npm_config_fetch_retries": "0",
           "npm_config_fetch_timeout": "5000", "npm_config_offline": "false"}
    run = subprocess.run([sys.executable, str(RUNNER), "--install-only", "--cache", str(cache)],
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"CANNOT RUN: could not install node {toolchain.NODE_VERSION} from the npm registry" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr
    assert sorted(p.name for p in cache.iterdir()) == []  # the half install and every partial are gone
