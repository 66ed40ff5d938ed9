"""One scenario's outcome, read from the harness's `checks.json`, and its verdict against the expected failures.

Strict: a check with status WARNING (a SHOULD the server or client missed) counts as failed, as a FAILURE
does; so does a harness that exits non-zero or writes no checks, a client under test that exits non-zero, and a
scenario in which no check succeeded or failed (an empty list, or only SKIPPED/INFO checks): it verified nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from tests.conformance.scenarios import CLIENT_EXIT, NO_CHECKS, Expected

BAD = ("FAILURE", "WARNING")


@dataclass
class Outcome:
    kind: str  # "server" or "client"
    scenario: str
    passed: int = 0
    failed: int = 0
    warned: int = 0
    bad: dict[str, str] = field(default_factory=dict)  # check id -> first message
    problem: str | None = None  # why there is nothing to count (no checks.json, a timeout ...)
    seconds: float = 0.0
    label: str = ""  # which server it ran against, when not the default one (the fast route on)

    @property
    def ok(self) -> bool:
        return self.problem is None and not self.bad


class Verdict(Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    XFAIL = "XFAIL"  # fails, in exactly the expected way
    XPASS = "XPASS"  # listed as expected to fail, but passes: the list is out of date

    @property
    def counts_as_failure(self) -> bool:
        return self in (Verdict.FAIL, Verdict.XPASS)


def read_outcome(kind: str, scenario: str, out_dir: Path, exit_code: int, log: str) -> Outcome:
    outcome = Outcome(kind, scenario)
    found = sorted(out_dir.rglob("checks.json"))
    if not found:
        outcome.problem = f"the harness wrote no checks.json (exit {exit_code})"
        return outcome
    try:
        checks = json.loads(found[0].read_text())
    except (OSError, ValueError) as exc:
        outcome.problem = f"unreadable {found[0].name}: {exc}"
        return outcome
    skipped: list[str] = []
    for check in checks:
        status = check.get("status")
        if status not in ("SUCCESS", *BAD):
            skipped.append(f"{check.get('id')} {status}: {check.get('errorMessage') or check.get('description') or ''}")
        if status == "SUCCESS":
            outcome.passed += 1
        elif status in BAD:
            outcome.failed += status == "FAILURE"
            outcome.warned += status == "WARNING"
            message = check.get("errorMessage") or check.get("description") or ""
            outcome.bad.setdefault(str(check.get("id")), f"{status}: {message}")
    if "CLIENT EXITED WITH ERROR" in log or "CLIENT TIMED OUT" in log:
        outcome.bad.setdefault(CLIENT_EXIT, "the client under test exited non-zero or timed out")
    if outcome.passed == 0 and not outcome.bad:
        outcome.bad[NO_CHECKS] = (f"the harness checked nothing ({len(checks)} in checks.json, none succeeded or failed"
                                  + (f"; {skipped[0]}" if skipped else "") + ")")
    if exit_code != 0 and not outcome.bad:
        outcome.problem = f"the harness exited {exit_code} although no check failed"
    return outcome


def verdict(outcome: Outcome, expected: Expected | None) -> Verdict:
    if expected is None:
        return Verdict.PASS if outcome.ok else Verdict.FAIL
    if outcome.ok:
        return Verdict.XPASS
    if outcome.problem is None and set(outcome.bad) <= expected.checks:
        return Verdict.XFAIL
    return Verdict.FAIL
