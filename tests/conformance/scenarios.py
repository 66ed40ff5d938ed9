"""Which conformance scenarios run, and which are expected to fail today and why.

The server scenarios are every server scenario harness 0.2.0-alpha.12 lists for MCP 2026-07-28 (`conformance
list --requirements 2026-07-28`: 37 required, plus the 3 it lists as pending) and the 10 scenarios of the tasks
extension (SEP-2663; the harness scores no extension, they run strictly all the same). The client scenarios are the
2026-07-28 ones `client.py` can take part in, the 25 sign-in (`auth/*`) ones among them, run at that wire.
`LEGACY_SERVER` are the server scenarios the harness runs for 2025-11-25, against the same server, with their own
`LEGACY_EXPECTED_FAILURES`.

`EXPECTED_FAILURES` names, per scenario, the checks that fail until a feature lands, with the reason. A
scenario counts as expected to fail only when exactly those checks (or some of them) fail; any other failing
check fails the run, and so does a listed scenario that passes: remove its entry when its feature lands.
"""

from __future__ import annotations

from dataclasses import dataclass

MRTR_SERVER = (
    "input-required-result-basic-elicitation",
    "input-required-result-basic-sampling",
    "input-required-result-basic-list-roots",
    "input-required-result-request-state",
    "input-required-result-multiple-input-requests",
    "input-required-result-multi-round",
    "input-required-result-missing-input-response",
    "input-required-result-non-tool-request",
    "input-required-result-result-type",
    "input-required-result-unsupported-methods",
    "input-required-result-tampered-state",
    "input-required-result-capability-check",
    "input-required-result-ignore-extra-params",
    "input-required-result-validate-input",
)

TASKS_SERVER = (
    "tasks-lifecycle",
    "tasks-capability-negotiation",
    "tasks-wire-fields",
    "tasks-request-state-removal",
    "tasks-mrtr-input",
    "tasks-request-headers",
    "tasks-dispatch-and-envelope",
    "tasks-status-notifications",
    "tasks-required-task-error",
    "tasks-mrtr-composition",
)

OTHER_SERVER = (
    "server-stateless",
    "completion-complete",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-error",
    "tools-call-with-progress",
    "server-sse-multiple-streams",
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "sep-2164-resource-not-found",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "dns-rebinding-protection",
    "caching",
    # listed by the harness as pending for 2026-07-28 (not yet scored):
    "json-schema-2020-12",
    "http-header-validation",
    "http-custom-header-server-validation",
)

SERVER = MRTR_SERVER + TASKS_SERVER + OTHER_SERVER

# The handshake era: every server scenario harness 0.2.0-alpha.12 runs for `--spec-version 2025-11-25`, run
# against the same server (each opens an `initialize` session; askback asks over its back-channel).
LEGACY = "2025-11-25"
LEGACY_SERVER = (
    "server-initialize",
    "server-session-lifecycle",
    "logging-set-level",
    "ping",
    "completion-complete",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-with-logging",
    "tools-call-error",
    "tools-call-with-progress",
    "tools-call-sampling",
    "tools-call-elicitation",
    "json-schema-2020-12",
    "elicitation-sep1034-defaults",
    "server-sse-polling",
    "server-sse-multiple-streams",
    "elicitation-sep1330-enums",
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "resources-subscribe",
    "resources-unsubscribe",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "dns-rebinding-protection",
)

# The 25 sign-in scenarios harness 0.2.0-alpha.12 requires of a 2026-07-28 client (`conformance list
# --requirements 2026-07-28`), run at that wire (`--spec-version 2026-07-28`). Each mock server answers HTTP 401;
# `client.py` signs in with `askback.SignIn`. The scenarios that apply to 2025-11-25 too run again at that
# wire (`LEGACY_AUTH_CLIENT`), where the client falls back to the `initialize` handshake once signed in.
AUTH_CLIENT = (
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/authorization-server-migration",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
)
MODERN = "2026-07-28"
LEGACY_AUTH_CLIENT = AUTH_CLIENT[:14]  # the ones the harness lists for 2025-11-25 as well

CLIENT = (
    "sep-2322-client-request-state",
    "tools_call",
    "request-metadata",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
    "json-schema-2020-12-preservation",
    *AUTH_CLIENT,
)

# Scenarios the harness has for 2026-07-28 that this runner does not start, and why (printed with every run).
NOT_RUN = {
    "auth/* extension scenarios (client credentials, enterprise-managed, DPoP, workload identity)":
        "extensions the harness does not score; askback's client signs in with the authorization code only",
}

# A pseudo check: the client under test exited non-zero or timed out (the harness reports it in its log).
CLIENT_EXIT = "client-exit"
# A pseudo check: the scenario ran and no check succeeded or failed (none at all, or only SKIPPED/INFO ones).
# A run that verified nothing says nothing about the server, so it is never a pass.
NO_CHECKS = "no-checks"


@dataclass(frozen=True)
class Expected:
    reason: str
    checks: frozenset[str]


def _expect(reason: str, *checks: str) -> Expected:
    return Expected(reason, frozenset(checks))


EXPECTED_FAILURES: dict[str, Expected] = {
    "tasks-status-notifications": _expect(
        "no server can pass it with this harness: its run() returns one constant SKIPPED check and sends no "
        "request (notifications/tasks moved to the subscriptions/listen stream; the harness's rewrite is pending; "
        "test_harness.py checks the harness's source says so)",
        NO_CHECKS,
    ),
}


# The same rules for the 2025-11-25 run (its scenarios share names with the 2026-07-28 ones, not their state).
LEGACY_EXPECTED_FAILURES: dict[str, Expected] = {
}


def expected_for(scenario: str, label: str = "") -> Expected | None:
    """The expected failure of `scenario` in the run `label` names (the 2025-11-25 era has its own list)."""
    table = LEGACY_EXPECTED_FAILURES if label == LEGACY else EXPECTED_FAILURES
    return table.get(scenario)
