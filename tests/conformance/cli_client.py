"""The `askback` command under the official MCP conformance harness: `python tests/conformance/cli_client.py URL`.

`client.py` puts `askback.Client` (Python) under the harness; this puts the command a person types.

The harness starts a mock server for one client scenario and runs this with the mock's URL as the last
argument (the scenario's name in `MCP_CONFORMANCE_SCENARIO`, its inputs in `MCP_CONFORMANCE_CONTEXT`).

- `sep-2322-client-request-state` drives `askback.Client` in Python: it lists the mock's tools and calls each
  `test_mrtr_*` tool, answering every form with a callable (booleans yes, other fields their default or a
  placeholder). While the first flow waits for its answer, it calls `test_mrtr_unrelated` on the same client,
  which must carry none of that flow's `inputResponses` or `requestState`.
- Every other scenario drives the `askback` command as a person would: `askback tools URL`, then
  `askback call URL TOOL --args JSON --answers {}` for each tool call the scenario's context names (else for
  each listed tool, with placeholder arguments from its schema; forms take their defaults). Each command is a
  fresh process, so each first `tools/call` is a first call.
- `auth/*`: the same commands with `--sign-in http` (the mock authorization server grants without a person),
  the harness's client ID metadata document URL and, for `auth/pre-registration`, the context's client ID (its
  secret in `ASKBACK_OAUTH_CLIENT_SECRET`), all in one fresh data directory: `askback tools` signs in, and each
  `askback call` after it uses the tokens it kept.

It exits 0 when every call completed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio

import askback

UNRELATED = "test_mrtr_unrelated"
CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"
ECHO = "json_schema_echo"
LIST_ONLY = {"json-schema-ref-no-deref"}  # scenarios about what a client does with a listing (its mock calls nothing)


def placeholder(field: askback.client.Field) -> Any:
    if field.has_default:
        return field.default
    if field.choices:
        return [field.choices[0].value] if field.multiple else field.choices[0].value
    return {"boolean": True, "integer": 1, "number": 1}.get(field.type, "conformance")


async def request_state(url: str) -> int:
    finished: list[str] = []
    called_unrelated: list[bool] = []
    client: askback.Client

    async def answer(question: askback.client.Question) -> Any:
        if not called_unrelated:
            called_unrelated.append(True)
            unrelated = await client.call_tool(UNRELATED)  # between the rounds of another flow
            if not unrelated.is_error:
                finished.append(UNRELATED)
        assert isinstance(question, askback.client.FormQuestion)
        return {f.name: placeholder(f) for f in question.fields}

    async with askback.Client(url, answerer=askback.CallableAnswerer(answer), timeout=25) as client:
        names = [t["name"] for t in await client.list_tools()]
        for name in sorted(n for n in names if n.startswith("test_mrtr_") and n != UNRELATED):
            result = await client.call_tool(name)
            print(f"{name}: {'error' if result.is_error else 'complete'}")
            if not result.is_error:
                finished.append(name)
    expected = {n for n in names if n.startswith("test_mrtr_")}
    return 0 if set(finished) == expected else 1


SIGN_IN: list[str] = []  # the sign-in flags of an auth/* scenario
ENV: dict[str, str] = dict(os.environ)


def askback_command(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "askback.cli", *args, *SIGN_IN], capture_output=True, text=True,
                          timeout=25, env=ENV)
    print(f"askback {' '.join(args[:2])}: exit {done.returncode}", done.stderr.strip(), file=sys.stderr)
    return done


def arguments_for(schema: Any) -> dict[str, Any]:
    """Placeholder arguments for every property of a tool's input schema."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    values = {"boolean": True, "integer": 1, "number": 1, "array": [], "object": {}}
    return {name: values.get(prop.get("type"), "conformance") if isinstance(prop, dict) else "conformance"
            for name, prop in (properties or {}).items()}


def with_the_command(url: str, scenario: str, context: dict[str, Any]) -> int:
    listed = askback_command("tools", url, "--json")
    if listed.returncode != 0 or scenario in LIST_ONLY:
        return listed.returncode
    tools = json.loads(listed.stdout)
    calls = context.get("toolCalls")
    if not isinstance(calls, list):
        schemas = {t["name"]: t.get("inputSchema") for t in tools}
        calls = [{"name": name, "arguments": arguments_for(schema)} for name, schema in schemas.items()]
        for call in calls:
            if call["name"] == ECHO:  # echo another tool's schema back, exactly as it was listed
                focal = [s for n, s in schemas.items() if n != ECHO]
                call["arguments"] = {"schema": focal[0] if focal else {}}
    with tempfile.TemporaryDirectory() as scratch:
        answers = Path(scratch) / "answers.json"
        answers.write_text("{}")  # a form is answered with its defaults
        codes = [askback_command("call", url, c["name"], "--args", json.dumps(c.get("arguments") or {}),
                                 "--answers", str(answers), "--json").returncode for c in calls]
    return 0 if all(code == 0 for code in codes) else 1


def main(url: str) -> int:
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "sep-2322-client-request-state")
    if scenario == "sep-2322-client-request-state":
        return anyio.run(request_state, url)
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    context = context if isinstance(context, dict) else {}
    if not scenario.startswith("auth/"):
        return with_the_command(url, scenario, context)
    SIGN_IN.extend(["--sign-in", "http", "--oauth-client-metadata-url", CLIENT_METADATA_URL])
    if isinstance(context.get("client_id"), str):
        SIGN_IN.extend(["--oauth-client-id", context["client_id"]])
        ENV["ASKBACK_OAUTH_CLIENT_SECRET"] = str(context.get("client_secret") or "")
    with tempfile.TemporaryDirectory(prefix="askback-oauth-") as data_dir:
        ENV["ASKBACK_DATA_DIR"] = data_dir
        return with_the_command(url, scenario, {})


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: client.py SERVER_URL")
    sys.exit(main(sys.argv[-1]))
