"""The client stands alone: importing it loads none of the server side and none of the SDK's stack.

Checked in a fresh interpreter, because this test process has long since imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

SERVER_SIDE = ("askback.app", "askback.stores", "askback.core", "askback.flow", "askback.mcp", "cryptography", "mcp")


def loaded_after(statement: str) -> set[str]:
    probe = f"import sys, json\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    return set(json.loads(done.stdout))


@pytest.mark.parametrize("statement", [
    "import askback.client",
    "from askback.client import Client, TerminalAnswerer, FileAnswerer, Pending",
    "import askback; askback.Client",
])
def test_importing_the_client_loads_no_server_code(statement: str) -> None:
    modules = loaded_after(statement)
    leaked = sorted(m for m in modules if any(m == s or m.startswith(s + ".") for s in SERVER_SIDE))
    assert leaked == []


def test_the_sdk_is_loaded_on_first_connection_only() -> None:
    modules = loaded_after(
        "import anyio\n"
        "from askback.client import Client\n"
        "async def go():\n"
        "    try:\n"
        "        async with Client('http://127.0.0.1:9/mcp'):\n"
        "            pass\n"
        "    except Exception:\n"
        "        pass\n"
        "anyio.run(go)"
    )
    assert "mcp.client.session" in modules
