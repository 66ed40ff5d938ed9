"""The client stands alone: importing it loads none of the server side and none of the SDK's stack.

The guard (`askback.guard`, shared with the server) is loaded when the first form arrives, and it is the only
part of the server side a form brings in. While the guard still delegates to `askback.core.secrets`, what
`import askback.guard` loads by itself is allowed there; once the guard is neutral that allowance is empty.

Checked in a fresh interpreter, because this test process has long since imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

SERVER_SIDE = ("askback.app", "askback.stores", "askback.core", "askback.flow", "askback.mcp", "cryptography", "mcp")
GUARD = ("askback.guard",)  # loaded at the first form, not with the client


def of(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == s or m.startswith(s + ".") for s in names))


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
    assert of(modules, SERVER_SIDE) == []
    assert of(modules, GUARD) == []


def test_a_form_loads_the_guard_and_nothing_else_of_the_server() -> None:
    # What the guard loads by itself when it reads a name, a text and a value (its tables on first use).
    guard_alone = loaded_after("from askback.guard import credential_term, credential_value, field_credential\n"
                               "field_credential('name', {'type': 'string'}), credential_term('Your name?')\n"
                               "credential_value('Ada')")
    modules = loaded_after(
        "import anyio\n"
        "from askback.client import FileAnswerer, Asked\n"
        "from askback.client.questions import parse_question\n"
        "q = parse_question('k', {'method': 'elicitation/create', 'params': {'message': 'Your name?',\n"
        "    'requestedSchema': {'type': 'object', 'properties': {'name': {'type': 'string'}}}}})\n"
        "asked = Asked(server='s', method='tools/call', target='t', questions=(q,))\n"
        "anyio.run(FileAnswerer({'name': 'Ada'}).answer, asked)"
    )
    assert "askback.guard.names" in modules and "askback.guard.values" in modules  # both guards ran
    assert of(guard_alone, SERVER_SIDE) == []  # the guard is neutral: it loads nothing of the server
    assert of(modules, SERVER_SIDE) == []


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
    assert of(modules, GUARD) == []  # a connection without a form needs no guard
