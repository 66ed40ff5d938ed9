"""docs/replicas.md's one-machine recipe, run as written: a local Redis, two `askback serve`, a crossing flow.

The page's ```bash block runs in an empty directory with bash, with the interpreter running these tests first on
the PATH (its `python` and `askback`) and no ASKBACK_* variables of ours. Only its ports change (6390, 8001 and
8002 become free ones, so it can run on a shared machine); what it prints must be the page's ```text block.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import free_port
from tests.support.redis import IN_CI

PAGE = Path(__file__).resolve().parents[2] / "docs" / "replicas.md"
SECTION = "## One machine: two replicas and a local Redis"
PORTS = ("6390", "8001", "8002")


def recipe() -> tuple[str, str]:
    """The section's bash block and the output the page says it prints."""
    text = PAGE.read_text(encoding="utf-8")
    assert SECTION in text, f"{PAGE.name} lost its section {SECTION!r}"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    script = re.search(r"^```bash\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    shown = re.search(r"^```text\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    assert script and shown, f"the section {SECTION!r} needs a ```bash block and the ```text it prints"
    return script.group(1), shown.group(1)


def test_the_one_machine_recipe_runs_as_written_and_prints_what_the_page_shows(tmp_path: Path) -> None:
    if shutil.which("redis-server") is None:
        if IN_CI:
            pytest.fail("the one-machine recipe needs redis-server, and CI must run it")
        pytest.skip("the one-machine recipe needs redis-server (Debian: apt-get install redis-server)")
    script, shown = recipe()
    ports = {port: str(free_port()) for port in PORTS}
    for port, free in ports.items():
        assert port in script, f"the recipe no longer uses port {port}: update PORTS"
        script = re.sub(rf"\b{port}\b", free, script)
    # Whatever fails half-way, nothing the recipe started outlives the test.
    guard = "trap 'kill $(jobs -p) 2>/dev/null; [ -f redis.pid ] && kill \"$(cat redis.pid)\" 2>/dev/null' EXIT\n"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKBACK_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(["bash", "-e", "-c", guard + script], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    logs = "\n".join(f"--- {p.name}\n{p.read_text()[-2000:]}" for p in sorted(tmp_path.glob("*.log")))
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{logs}"
    printed = done.stdout
    for port, free in ports.items():  # the script prints the ports it was given; the page names its own
        printed = re.sub(rf"\b{free}\b", port, printed)
    assert printed == shown, f"{printed}\n{done.stderr}"
