"""The client under test for the official MCP conformance harness: `python tests/conformance/client.py URL`.

The harness starts a mock server per client scenario and runs this file with the mock's URL as the last
argument; `MCP_CONFORMANCE_SCENARIO` names the scenario and `MCP_CONFORMANCE_CONTEXT` (JSON) may carry the
calls the scenario wants made. Everything goes through `askback.Client`, answering every form with a callable:
booleans yes, other fields their default or a placeholder.

- `sep-2322-client-request-state`: calls each `test_mrtr_*` tool. While the first flow waits for its answer it
  calls `test_mrtr_unrelated` on the same client, which must carry none of that flow's `inputResponses` or
  `requestState`.
- `json-schema-2020-12-preservation`: sends the `inputSchema` it received for `json_schema_2020_12_tool` back,
  verbatim, to `json_schema_echo`, so the harness sees what the client kept.
- `json-schema-ref-no-deref`: lists the tools only (the mock serves nothing else); the harness checks that the
  client did not fetch the network `$ref` in a schema.
- `auth/*`: the mock server answers HTTP 401 and its authorization server grants without a person, so the
  client signs in with `askback.SignIn(authorize="http")` (the authorization URL's redirects followed over
  HTTP, as a browser would), its tokens in a fresh data directory; then it lists the tools and calls each. It
  gives the harness's client ID metadata document URL (used only where the authorization server takes one),
  and for `auth/pre-registration` the client ID and secret the scenario's context carries.
- every other scenario: lists the tools, then calls each one, with the context's arguments when the scenario
  gives them (`http-custom-headers`), else with a placeholder for each required argument.

It exits 0 when every call it made completed.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio

import askback

UNRELATED = "test_mrtr_unrelated"
# The client ID metadata document URL the harness's authorization servers expect (auth/basic-cimd).
CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"
PLACEHOLDERS: dict[str, Any] = {"boolean": True, "integer": 1, "number": 1, "string": "conformance"}


def placeholder(field: askback.client.Field) -> Any:
    if field.has_default:
        return field.default
    if field.choices:
        return [field.choices[0].value] if field.multiple else field.choices[0].value
    return PLACEHOLDERS.get(field.type, "conformance")


def placeholder_arguments(tool: Mapping[str, Any]) -> dict[str, Any]:
    """A value for each required argument, by its JSON Schema type."""
    schema = tool.get("inputSchema") or {}
    properties = schema.get("properties") or {}
    return {
        name: PLACEHOLDERS.get(str(properties.get(name, {}).get("type")), "conformance")
        for name in schema.get("required") or []
    }


def context() -> dict[str, Any]:
    given = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    return given if isinstance(given, dict) else {}


def context_calls() -> dict[str, dict[str, Any]]:
    """The arguments the scenario asks for, by tool name (`MCP_CONFORMANCE_CONTEXT.toolCalls`)."""
    return {call["name"]: dict(call.get("arguments") or {}) for call in context().get("toolCalls") or []}


def form_answerer() -> askback.CallableAnswerer:
    async def answer(question: askback.client.Question) -> Any:
        assert isinstance(question, askback.client.FormQuestion)
        return {f.name: placeholder(f) for f in question.fields}

    return askback.CallableAnswerer(answer)


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


async def schema_echo(url: str) -> int:
    async with askback.Client(url, answerer=form_answerer(), timeout=25) as client:
        tools = {t["name"]: t for t in await client.list_tools()}
        schema = tools["json_schema_2020_12_tool"]["inputSchema"]
        result = await client.call_tool("json_schema_echo", {"schema": schema})
    print(f"json_schema_echo: {'error' if result.is_error else 'complete'}")
    return 1 if result.is_error else 0


async def list_only(url: str) -> int:
    async with askback.Client(url, answerer=form_answerer(), timeout=25) as client:
        tools = await client.list_tools()
    print(f"{len(tools)} tools listed")
    return 0


async def every_tool(url: str, sign_in: askback.SignIn | None = None) -> int:
    given = context_calls()
    failed = 0
    async with askback.Client(url, answerer=form_answerer(), timeout=25, sign_in=sign_in) as client:
        for tool in await client.list_tools():
            name = tool["name"]
            result = await client.call_tool(name, given.get(name, placeholder_arguments(tool)))
            print(f"{name}: {'error' if result.is_error else 'complete'}")
            failed += bool(result.is_error)
    return 1 if failed else 0


async def signed_in(url: str) -> int:
    given = context()
    with tempfile.TemporaryDirectory(prefix="askback-oauth-") as data_dir:
        sign_in = askback.SignIn(
            authorize="http", client_name="askback-conformance", client_metadata_url=CLIENT_METADATA_URL,
            client_id=given.get("client_id"), client_secret=given.get("client_secret"), data_dir=Path(data_dir),
        )
        try:
            return await every_tool(url, sign_in)
        except askback.client.ClientError as exc:
            print(f"askback: {exc}", file=sys.stderr)
            return 1


SCENARIOS = {
    "sep-2322-client-request-state": request_state,
    "json-schema-2020-12-preservation": schema_echo,
    "json-schema-ref-no-deref": list_only,
}


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: client.py SERVER_URL")
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "sep-2322-client-request-state")
    run = signed_in if scenario.startswith("auth/") else SCENARIOS.get(scenario, every_tool)
    sys.exit(anyio.run(run, sys.argv[-1]))
