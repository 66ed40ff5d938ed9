"""Property-based mutation of `requestState` over real HTTP: every mutant is refused, and nothing runs.

The tool's last round is a confirmation, so any state that opened would run it. Each mutant is sent as that
last round; the answer must be exactly the frozen JSON-RPC error, and the tool's run counter must stay at
zero. Mutations: bit flips, truncation (of the bytes and of the text), extension, re-encodings of the same
bytes (padding, the standard alphabet, a non-canonical last character, whitespace, percent-encoding), a
state swapped in from another flow (other arguments, other tool), and two states of the same request spliced.
10,000 cases under ASKBACK_STRESS=full; a few hundred by default.
"""


import base64
import threading
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import askback
from tests.conftest import LoopbackServer
from tests.stress.conftest import FROZEN, key_text, size
from tests.support.rawclient import RawClient, accept

CASES = size(300, 10_000)
CONFIRM = {"ok": accept(ok=True)}
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
KINDS = ("flip", "truncate_bytes", "truncate_text", "extend_bytes", "extend_text", "re_encode", "swap", "splice")


class Target:
    def __init__(self) -> None:
        self.app = askback.App("mutation", keys=key_text(7), store="memory://")
        self.runs = 0
        self.lock = threading.Lock()

        @self.app.tool()
        def launch(code: str, ok: Annotated[bool, askback.Confirm("Launch {code}?")]) -> str:
            with self.lock:
                self.runs += 1
            return f"launched {code}"

        @self.app.tool()
        def abort(code: str, ok: Annotated[bool, askback.Confirm("Launch {code}?")]) -> str:
            with self.lock:
                self.runs += 1
            return f"aborted {code}"


@pytest.fixture(scope="module")
def target() -> Iterator[tuple[Target, RawClient, dict[str, Any]]]:
    t = Target()
    with LoopbackServer(t.app) as server, RawClient(server.url) as client:
        def mint(tool: str, code: str) -> str:
            state: str = client.call(tool, {"code": code})["result"]["requestState"]
            return state

        pool = {
            "token": mint("launch", "alpha"),
            "same_request": [mint("launch", "alpha") for _ in range(4)],  # other flows, the same request
            "other_flows": [mint("launch", f"other-{i}") for i in range(4)] + [mint("abort", "alpha")],
        }
        yield t, client, pool


def _raw(token: str) -> bytes:
    return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def mutant(data: st.DataObject, pool: dict[str, Any]) -> tuple[str, str]:
    """(kind, mutated token); never the original token."""
    token: str = pool["token"]
    raw = bytearray(_raw(token))
    # Spread evenly over the kinds (a plain sampled_from leans hard towards its first entries).
    kind = data.draw(st.integers(0, 2**20).map(lambda n: KINDS[n % len(KINDS)]), label="kind")
    if kind == "flip":
        for _ in range(data.draw(st.integers(1, 3))):
            i = data.draw(st.integers(0, len(raw) - 1))
            raw[i] ^= 1 << data.draw(st.integers(0, 7))
        out = _b64(bytes(raw))
    elif kind == "truncate_bytes":
        out = _b64(bytes(raw[: data.draw(st.integers(0, len(raw) - 1))]))
    elif kind == "truncate_text":
        out = token[: data.draw(st.integers(0, len(token) - 1))]
    elif kind == "extend_bytes":
        out = _b64(bytes(raw) + data.draw(st.binary(min_size=1, max_size=48)))
    elif kind == "extend_text":
        out = token + data.draw(st.text(ALPHABET + "=+/ .~%\n", min_size=1, max_size=12))
    elif kind == "re_encode":
        how = data.draw(st.sampled_from(["padding", "standard", "last_char", "whitespace", "percent", "upper"]))
        kind = f"re_encode:{how}"
        if how == "padding":
            out = token + "=" * data.draw(st.integers(1, 3))
        elif how == "standard":
            out = base64.b64encode(bytes(raw)).decode()
        elif how == "last_char" and len(token) % 4 in (2, 3):
            spare = 4 if len(token) % 4 == 2 else 2  # unused low bits of the final character
            last = ALPHABET.index(token[-1])
            out = token[:-1] + ALPHABET[last ^ data.draw(st.integers(1, spare - 1))]
        elif how == "whitespace":
            i = data.draw(st.integers(0, len(token)))
            out = token[:i] + data.draw(st.sampled_from([" ", "\n", "\t", "\r\n"])) + token[i:]
        elif how == "percent":
            out = urllib.parse.quote(token, safe="") + "%3D"
        else:
            i = data.draw(st.integers(0, len(token) - 1))
            out = token[:i] + token[i].swapcase() + token[i + 1:]
    elif kind == "swap":
        out = data.draw(st.sampled_from(pool["other_flows"]))
    else:  # splice: the head of this state, the tail of another state of the same request
        other = _raw(data.draw(st.sampled_from(pool["same_request"])))
        cut = data.draw(st.integers(1, len(raw) - 1))
        spliced = bytes(raw[:cut]) + other[cut:]
        out = _b64(spliced if spliced not in (bytes(raw), other) else spliced + b"\x00")
    if out == token:
        out = token + "A"
    return kind, out


def test_every_mutated_state_is_refused_with_the_frozen_error_and_nothing_runs(
        target: tuple[Target, RawClient, dict[str, Any]], report: Callable[..., None]) -> None:
    t, client, pool = target
    kinds: Counter[str] = Counter()

    @settings(max_examples=CASES, deadline=None, database=None, derandomize=not bool(CASES > 1000),
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        kind, bad = mutant(data, pool)
        kinds[kind.split(":")[0]] += 1
        response = client.call("launch", {"code": "alpha"}, responses=CONFIRM, state=bad)
        assert "result" not in response, f"{kind}: a mutated state opened: {response}"
        assert response.get("error") == FROZEN, f"{kind}: {response}"
        assert t.runs == 0, f"{kind}: the function ran"

    check()
    total = sum(kinds.values())
    # Control: the untouched state still opens, so every refusal above was the mutation's doing.
    done = client.call("launch", {"code": "alpha"}, responses=CONFIRM, state=pool["token"])
    assert done["result"]["content"][0]["text"] == "launched alpha" and t.runs == 1
    report(cases=total, accepted=0, runs=0, **{f"by_{k}": v for k, v in sorted(kinds.items())})
    assert total >= CASES, f"only {total} cases ran"
    assert set(kinds) == set(KINDS), kinds
