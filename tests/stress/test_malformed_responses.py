"""A corpus of malformed `inputResponses`: never a crash, never a completed call with bad data.

The tool checks what it is called with and records any value outside its declared types; a completed call is
fine only if it completed with good values. Every answer comes back as one of: a JSON-RPC -32602 naming what is
malformed, `input_required` asking again, or a completed call whose values pass the tool's own check. Never an
HTTP 5xx, a traceback, or an "internal error" result (an exception escaping askback).

The corpus: the hand-written cases of tests/e2e/test_bad_input.py (reused, not copied), plus generated ones:
arbitrary JSON in place of the whole `inputResponses`, of one answer, of its action, of its content, and of
the value, including wrong types, boundary numbers, huge and deep values, unknown keys and extra fields.
"""


import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Annotated, Any, Literal

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import Field

import askback
from tests.conftest import LoopbackServer
from tests.e2e.test_bad_input import MALFORMED_COUNT_ANSWERS
from tests.stress.conftest import key_text, size
from tests.support.rawclient import RawClient, accept

GENERATED = size(150, 3_000)
SIZES = ("s", "m", "l")


class Shop:
    def __init__(self) -> None:
        self.app = askback.App("shop-stress", keys=key_text(21), store="memory://")
        self.completed: list[dict[str, Any]] = []
        self.violations: list[dict[str, Any]] = []
        lock = threading.Lock()

        @self.app.tool()
        def order(item: str, count: Annotated[int, Field(ge=1, le=10, description="How many")],
                  size: Literal["s", "m", "l"], note: Annotated[str, Field(max_length=40)] = "") -> dict[str, Any]:
            values = {"item": item, "count": count, "size": size, "note": note}
            good = (item == "tea" and type(count) is int and 1 <= count <= 10 and size in SIZES
                    and isinstance(note, str) and len(note) <= 40)
            with lock:
                (self.completed if good else self.violations).append(values)
            return values

        @self.app.tool()
        def pair(first: Annotated[str, askback.Ask("First?")],
                 second: Annotated[str, askback.Ask("Second, after {first}?")]) -> str:
            return f"{first} {second}"


class Checked(RawClient):
    """Fails on an HTTP 5xx, a traceback in the body, or an internal-error result."""

    def send(self, method: str, params: dict[str, Any] | None = None, *,
             capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        try:
            data = super().send(method, params, capabilities=capabilities)
        except (json.JSONDecodeError, httpx.DecodingError) as exc:
            raise AssertionError(f"not a JSON-RPC answer: {exc}") from exc
        text = json.dumps(data)
        assert "Traceback" not in text and 'File "' not in text, text[:1000]
        result = data.get("result") or {}
        assert "internal error" not in json.dumps(result.get("content", "")), f"an exception escaped: {text[:500]}"
        return data


@pytest.fixture(scope="module")
def shop() -> Iterator[tuple[Shop, Checked]]:
    s = Shop()
    with LoopbackServer(s.app) as server, Checked(server.url) as client:
        yield s, client


def classify(response: dict[str, Any]) -> str:
    if "error" in response:
        assert response["error"]["code"] in (-32602, -32600), response
        return "error -32602"
    result = response["result"]
    if result.get("resultType") == "input_required":
        return "asked again"
    assert result.get("resultType") == "complete", result
    return "tool error" if result.get("isError") else "completed"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=10,
)
VALUES = st.one_of(
    JSON,
    st.sampled_from([0, 1, 10, 11, -1, 3.0, 3.5, 1e308, -0.0, True, False, "3", "m", "M", " m", "m\x00", "",
                     "x" * 5000, [3], {"$gt": 0}, None]),
    st.integers(),
)
ANSWER = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"action": st.sampled_from(["accept", "decline", "cancel", "ACCEPT", "", None, 1, ["accept"]])},
        optional={"content": st.one_of(JSON, st.dictionaries(
            st.sampled_from(["count", "size", "note", "item", "Count", "", "__proto__"]), VALUES, max_size=4)),
                  "_meta": JSON, "extra": JSON},
    ),
)
RESPONSES = st.one_of(
    JSON,
    st.dictionaries(st.sampled_from(["count", "size", "note", "item", "admin", "", "count "]), ANSWER, max_size=5),
)
NASTY: dict[str, Any] = {
    "deeply nested content": {"count": {"action": "accept", "content": {"count": json.loads("[" * 200 + "]" * 200)}}},
    "a huge answer": {"note": accept(note="n" * 200_000)},
    "many keys": {f"k{i}": accept(count=1) for i in range(2_000)},
    "count as a huge integer": {"count": accept(count=10**40), "size": accept(size="m")},
    "count as a float that is whole": {"count": accept(count=3.0), "size": accept(size="m")},
    "size with a NUL": {"count": accept(count=3), "size": accept(size="m\x00")},
    "answer under the argument's name": {"item": accept(item="gold"), "count": accept(count=3),
                                         "size": accept(size="m")},
}


def test_malformed_input_responses_never_crash_and_never_complete_with_bad_data(
        shop: tuple[Shop, Checked], report: Callable[..., None]) -> None:
    s, client = shop
    state = client.call("order", {"item": "tea"})["result"]["requestState"]
    outcomes: Counter[str] = Counter()

    def one(responses: Any) -> None:
        response = client.send("tools/call", {"name": "order", "arguments": {"item": "tea"},
                                              "inputResponses": responses, "requestState": state})
        outcomes[classify(response)] += 1
        assert not s.violations, f"completed with bad data: {s.violations} from {json.dumps(responses)[:300]}"

    for answer in MALFORMED_COUNT_ANSWERS.values():  # the hand-written corpus
        one({"count": answer, "size": accept(size="m")})
    for responses in NASTY.values():
        one(responses)
    fixed = sum(outcomes.values())

    @settings(max_examples=GENERATED, deadline=None, database=None, derandomize=GENERATED <= 1000,
              suppress_health_check=list(HealthCheck))
    @given(RESPONSES)
    def generated(responses: Any) -> None:
        one(responses)

    generated()
    # Still serving, and a good answer still completes with exactly what was given.
    done = client.call("order", {"item": "tea"}, state=state,
                       responses={"count": accept(count=3), "size": accept(size="m")})
    assert done["result"]["structuredContent"] == {"item": "tea", "count": 3, "size": "m", "note": ""}
    report(cases=sum(outcomes.values()), hand_written_and_nasty=fixed, violations=0, crashes=0,
           **{k.replace(" ", "_").replace("-", ""): v for k, v in sorted(outcomes.items())})


@pytest.mark.parametrize("where", ["answer", "argument"])
def test_a_lone_surrogate_is_treated_as_bad_input_not_an_internal_error(
        shop: tuple[Shop, Checked], where: str) -> None:
    s, client = shop
    tool = "pair" if where == "answer" else "order"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": tool, "arguments": {} if where == "answer" else {"item": "te\ud800a"},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientInfo": {"name": "stress", "version": "1"},
                  "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}}}
    if where == "answer":
        state = client.call("pair")["result"]["requestState"]
        body["params"].update(requestState=state, inputResponses={"first": accept(first="x\ud800")})  # type: ignore[attr-defined]
    raw = json.dumps(body)  # ensure_ascii: the surrogate travels as the JSON escape \ud800
    response = client.http.post(client.url, content=raw, headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool}).json()
    text = json.dumps(response)
    assert "internal error" not in text, text[:400]
    assert not s.violations
