"""Defect 9: which Host and Origin values `askback serve` accepts, over real HTTP.

Off loopback the server refuses to start unless it is told what to check (or, explicitly, to check nothing),
and it says at start what it checks. Servers on `0.0.0.0` run in a private network namespace, where that address
reaches only the namespace's own loopback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import askback
from askback.config import ExposureError
from askback.mcp.http import http_app
from tests.e2e.serving import isolated_network, refused, responses, started, statuses
from tests.e2e.test_cli import ROOT, serve_env
from tests.e2e.workers import pin_workers, probed, release

GOOD_HOST = "mcp.example.test"
# No secrets and no approvals on pages: an app that can be served beyond this machine without page_auth (the
# demo asks for an API key on a page, so only a loopback-only server may run it without page authentication).
PLAIN_APP = "tests/conformance/server.py"
REFUSED_HOST, REFUSED_ORIGIN = 421, 403


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = serve_env(tmp_path / "data", **extra)
    for name in ("ASKBACK_ALLOWED_HOSTS", "ASKBACK_ALLOWED_ORIGINS", "ASKBACK_ALLOW_ANY_ORIGIN"):
        if name not in extra:
            env.pop(name, None)
    return env


def in_namespace(tmp_path: Path, args: list[str], headers: list[dict[str, str]], **extra: str) -> dict[str, Any]:
    """Serve with `args` inside a private network namespace and send a tools/list with each set of headers."""
    job = json.dumps({"args": args, "headers": headers})
    run = subprocess.run([*isolated_network(), sys.executable, "-m", "tests.e2e.serving", job], cwd=ROOT,
                         env=env_for(tmp_path, **extra), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr + run.stdout
    outcome: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return outcome


# -- refusing to start ------------------------------------------------------------------------------------
@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_a_host_reachable_from_elsewhere_without_allow_lists_refuses_to_start(tmp_path: Path, host: str) -> None:
    line = refused(["askback.demo:app", "--host", host, "--port", "0"], env_for(tmp_path),
                   prefix=isolated_network())
    assert "--allowed-host" in line and "--allow-any-origin" in line, line


def test_the_demo_refuses_too(tmp_path: Path) -> None:
    line = refused(["--host", "0.0.0.0", "--port", "0"], env_for(tmp_path), command="demo",
                   prefix=isolated_network())
    assert "--allowed-host" in line, line


def test_origins_alone_do_not_say_which_hosts_to_accept(tmp_path: Path) -> None:
    line = refused(["askback.demo:app", "--host", "0.0.0.0", "--port", "0"],
                   env_for(tmp_path, ASKBACK_ALLOWED_ORIGINS="https://app.example.test"), prefix=isolated_network())
    assert "--allowed-host" in line, line


@pytest.mark.parametrize(("flags", "says"), [
    (["--allowed-host", "http://mcp.example.test"], "not a URL"),
    (["--allowed-host", "*"], "--allow-any-origin"),
    (["--allowed-origin", "https://app.example.test/"], "no path"),
    (["--allowed-origin", "app.example.test"], "scheme"),
    (["--allow-any-origin", "--allowed-host", GOOD_HOST], "--allow-any-origin"),
], ids=["host as URL", "host star", "origin with slash", "origin without scheme", "any plus list"])
def test_malformed_allow_lists_are_refused(tmp_path: Path, flags: list[str], says: str) -> None:
    line = refused(["askback.demo:app", "--port", "0", *flags], env_for(tmp_path))
    assert says in line, line


# -- checking on loopback, over real HTTP -----------------------------------------------------------------
def test_loopback_default_refuses_foreign_host_and_origin_and_says_so(tmp_path: Path) -> None:
    with started(["askback.demo:app", "--port", "0"], env_for(tmp_path)) as server:
        port = server.url.split(":")[2].split("/")[0]
        assert statuses(server.url, [{}, {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"},
                                     {"Host": f"evil.test:{port}"}, {"Origin": "http://evil.test"}]) == [
            200, 200, REFUSED_HOST, REFUSED_ORIGIN]
    checks = [line for line in server.lines if "Host" in line]
    assert checks and "127.0.0.1:*" in checks[0] and "Origin" in checks[0], server.lines


@pytest.mark.parametrize("how", ["flags", "environment"])
def test_allowed_hosts_and_origins_are_checked(tmp_path: Path, how: str) -> None:
    if how == "flags":
        args, extra = ["--allowed-host", f"{GOOD_HOST}:*", "--allowed-origin", "https://app.example.test"], {}
    else:
        args, extra = [], {"ASKBACK_ALLOWED_HOSTS": f"{GOOD_HOST}:*, other.example.test",
                           "ASKBACK_ALLOWED_ORIGINS": "https://app.example.test"}
    with started([PLAIN_APP, "--port", "0", *args], env_for(tmp_path, **extra)) as server:
        port = server.url.split(":")[2].split("/")[0]
        good = f"{GOOD_HOST}:{port}"
        assert statuses(server.url, [
            {"Host": good},
            {"Host": good, "Origin": "https://app.example.test"},
            {"Host": f"127.0.0.1:{port}"},  # the loopback defaults are replaced by the list
            {"Host": f"evil.test:{port}"},
            {"Host": good, "Origin": "https://evil.test"},
            {"Host": good, "Origin": f"http://{good}"},  # origins are exactly the list once one is given
        ]) == [200, 200, REFUSED_HOST, REFUSED_HOST, REFUSED_ORIGIN, REFUSED_ORIGIN]
    checks = " ".join(server.lines)
    assert f"{GOOD_HOST}:*" in checks and "https://app.example.test" in checks, server.lines


def test_origins_default_to_the_allowed_hosts(tmp_path: Path) -> None:
    with started([PLAIN_APP, "--port", "0", "--allowed-host", f"{GOOD_HOST}:*"], env_for(tmp_path)) as s:
        port = s.url.split(":")[2].split("/")[0]
        good = f"{GOOD_HOST}:{port}"
        assert statuses(s.url, [{"Host": good, "Origin": f"https://{good}"}, {"Host": good, "Origin": f"http://{good}"},
                                {"Host": good, "Origin": "https://evil.test"}]) == [200, 200, REFUSED_ORIGIN]


def test_every_worker_checks_the_same_lists(tmp_path: Path) -> None:
    # One connection pinned to each worker: each worker is shown to accept the allowed host and refuse another.
    with started([probed(tmp_path, PLAIN_APP), "--port", "0", "--workers", "2", "--allowed-host", f"{GOOD_HOST}:*"],
                 env_for(tmp_path)) as server:
        port = server.url.split(":")[2].split("/")[0]
        workers = pin_workers(server.url, 2, headers={"Host": f"{GOOD_HOST}:{port}"})
        try:
            answers = {w.pid: responses(w.client.http, server.url, [
                {"Host": f"{GOOD_HOST}:{port}"}, {"Origin": f"http://{GOOD_HOST}:{port}"},
                {"Host": f"evil.test:{port}"}]) for w in workers}
            for worker in workers:
                assert all(worker.answered(r) for r in answers[worker.pid]), f"worker {worker.pid}: not pinned"
        finally:
            release(workers)
    assert len(answers) == 2, answers
    assert {pid: [r.status_code for r in rs] for pid, rs in answers.items()} == {
        pid: [200, 200, REFUSED_HOST] for pid in answers}


# -- 0.0.0.0 with the lists, and with the explicit opt-out ------------------------------------------------


def test_all_interfaces_with_allowed_hosts_starts_and_checks(tmp_path: Path) -> None:
    outcome = in_namespace(tmp_path, [PLAIN_APP, "--host", "0.0.0.0", "--port", "0",
                                      "--allowed-host", f"{GOOD_HOST}:*"],
                           [{"Host": f"{GOOD_HOST}:{{port}}"}, {"Host": "evil.test:{port}"},
                            {"Host": "127.0.0.1:{port}"}, {"Host": f"{GOOD_HOST}:{{port}}", "Origin": "http://evil.test"}])
    assert outcome["statuses"] == [200, REFUSED_HOST, REFUSED_HOST, REFUSED_ORIGIN], outcome
    assert any(f"{GOOD_HOST}:*" in line for line in outcome["lines"]), outcome


def test_all_interfaces_with_allow_any_origin_starts_and_says_nothing_is_checked(tmp_path: Path) -> None:
    outcome = in_namespace(tmp_path, [PLAIN_APP, "--host", "0.0.0.0", "--port", "0"],
                           [{"Host": "evil.test:{port}", "Origin": "http://evil.test"}],
                           ASKBACK_ALLOW_ANY_ORIGIN="1")
    assert outcome["statuses"] == [200], outcome
    assert any("not checked" in line for line in outcome["lines"]), outcome


def test_an_app_with_secrets_needs_page_authentication_off_loopback(tmp_path: Path) -> None:
    # The demo asks for an API key on a page: off loopback, who opens that page must be checked.
    line = refused(["askback.demo:app", "--host", "0.0.0.0", "--port", "0", "--allowed-host", f"{GOOD_HOST}:*"],
                   env_for(tmp_path), prefix=isolated_network())
    assert "page_auth" in line and "loopback" in line, line


# -- the library refuses the same way ---------------------------------------------------------------------
def test_http_app_off_loopback_needs_lists_or_the_opt_out() -> None:
    app = askback.App("exposed", keys="1EpzWJq1XAxLZrGsMvYh8tvxvaxJpDrYc9J0hm3n6Xw", store="memory://")
    with pytest.raises(ExposureError, match="allowed_hosts"):
        http_app(app, host="0.0.0.0")
    http_app(app, host="0.0.0.0", allowed_hosts=[GOOD_HOST])
    http_app(app, host="0.0.0.0", allow_any_origin=True)
