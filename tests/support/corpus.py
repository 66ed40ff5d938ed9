"""The issue's measure over a server nobody here wrote: each required argument of each tool removed in turn.

For every (tool, required argument) pair, a call that is complete but for that argument must get exactly one
`input_required` round whose one form names that argument alone, and with the answer complete. The calls go
over the 2026-07-28 wire (`RawClient`), so the round itself is seen, not what a client library made of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tests.support.rawclient import RawClient, accept

FORM = "askback/adopt/values"  # the key of the one form askback asks a missing or refused value in
Pair = tuple[str, str]


def sample(schema: Mapping[str, Any]) -> Any:
    """A value the (flat) schema accepts."""
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if kind == "integer":
        return max(1, int(schema.get("minimum", 1)))
    if kind == "number":
        return max(1.5, float(schema.get("minimum", 1.5)))
    if kind == "boolean":
        return True
    if schema.get("format") == "uri":
        return "https://example.com/"
    return "x"


@dataclass
class Measured:
    asked: list[Pair] = field(default_factory=list)  # asked alone, and completed with the answer
    refused: list[Pair] = field(default_factory=list)  # refused, never asked (a credential)
    failed: dict[Pair, str] = field(default_factory=dict)  # anything else, with what went wrong

    @property
    def pairs(self) -> int:
        return len(self.asked) + len(self.refused) + len(self.failed)


def each_required_removed(
    raw: RawClient,
    *,
    values: Mapping[str, Mapping[str, Any]] | None = None,
    own_round: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None,
) -> Measured:
    """Measure every tool `raw`'s server lists. `values`: per tool, argument values to use instead of
    `sample`'s; `own_round`: the answers to an upstream's own round after the value was given (tool, result)."""
    measured = Measured()
    for tool in raw.send("tools/list")["result"]["tools"]:
        name, schema = tool["name"], tool.get("inputSchema") or {}
        chosen = (values or {}).get(name, {})
        required = [n for n in schema.get("required", []) if n in schema.get("properties", {})]
        full = {n: chosen.get(n, sample(schema["properties"][n])) for n in required}
        for removed in required:
            arguments = {n: v for n, v in full.items() if n != removed}
            reply = raw.call(name, arguments)
            result = reply.get("result", {})
            if "error" in reply or result.get("isError"):
                measured.refused.append((name, removed))
                continue
            requests = result.get("inputRequests") or {}
            form = requests.get(FORM, {}).get("params", {})
            if list(requests) != [FORM] or list(form.get("requestedSchema", {}).get("properties", {})) != [removed]:
                measured.failed[(name, removed)] = f"not asked alone: {result.get('resultType')} {list(requests)}"
                continue
            reply = raw.call(name, arguments, responses={FORM: accept(**{removed: full[removed]})},
                             state=result["requestState"])
            done = reply.get("result", {})
            if done.get("resultType") == "input_required" and own_round is not None:
                reply = raw.call(name, arguments, responses=own_round(name, done), state=done["requestState"])
                done = reply.get("result", {})
            if "error" in reply:
                measured.failed[(name, removed)] = f"error: {reply['error'].get('message')}"
                continue
            if done.get("isError") or done.get("resultType") != "complete":
                text = " ".join(c.get("text", "") for c in done.get("content", []))[:200]
                measured.failed[(name, removed)] = f"did not complete: {done.get('resultType')} {text}"
                continue
            measured.asked.append((name, removed))
    return measured
