"""The cross-binding matrix: a state minted in one context, presented in another, is refused; nothing runs.

One row per thing a state is bound to or limited by: the tool, the arguments, the principal, the audience
(server name), the round's expiry, the flow's deadline, the key that sealed it (retired), and the size cap.
Each row also replays the same state in its own context, where it must open: a refusal proves the binding.
"""


import base64
import dataclasses
import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any

import pytest

import askback
from tests.conftest import LoopbackServer
from tests.stress.conftest import FROZEN, key_text
from tests.support.rawclient import RawClient, accept

T0 = 1_900_000_000
KEY_A, KEY_B = key_text(11), key_text(111)
CONFIRM = {"ok": accept(ok=True)}


class Clock:
    def __init__(self) -> None:
        self.now: float = T0

    def __call__(self) -> float:
        return self.now


def _principal(request: askback.Request) -> str | None:
    user = request.headers.get("x-user")
    return str(user) if user else None


@dataclass
class Bank:
    app: askback.App
    runs: list[str]
    url: str = ""


SMALL_CAP = 16 * 1024  # the banks' cap, below the roomy twin's


def bank(name: str, keys: str, clock: Clock, **kw: Any) -> Bank:
    kw.setdefault("max_state_bytes", SMALL_CAP)
    app = askback.App(name, keys=keys, store="memory://", principal=_principal, round_ttl=60, flow_ttl=100, **kw)
    app.policy = dataclasses.replace(app.policy, now=clock)
    runs: list[str] = []
    lock = threading.Lock()

    def ran(what: str) -> str:
        with lock:
            runs.append(what)
        return what

    @app.tool()
    def launch(code: str, ok: Annotated[bool, askback.Confirm("Launch {code}?")]) -> str:
        return ran(f"launch {code}")

    @app.tool()
    def abort(code: str, ok: Annotated[bool, askback.Confirm("Launch {code}?")]) -> str:
        return ran(f"abort {code}")

    @app.tool()
    def plan(first: Annotated[str, askback.Ask("First?")], second: Annotated[str, askback.Ask("Then, after {first}?")],
             # the text leaves out `first`: a 20,000-character value cannot be confirmed (shown whole, it is
             # refused), and the control below must complete
             ok: Annotated[bool, askback.Confirm("Do the first step, then {second}?")]) -> str:
        return ran(f"plan {first} {second}")

    return Bank(app, runs)


@dataclass
class World:
    clock: Clock
    origin: Bank
    other_audience: Bank  # another server name, the same keys
    retired: Bank  # the origin's name after rotation: only KEY_B remains
    roomy: Bank  # the origin's name and keys with a larger size cap

    def client(self, bank: Bank, user: str | None = "alice") -> RawClient:
        c = RawClient(bank.url, capabilities={"elicitation": {"form": {}}})
        if user:
            c.http.headers["X-User"] = user
        return c


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    clock = Clock()
    w = World(clock, bank("bank-a", KEY_A, clock), bank("bank-b", KEY_A, clock), bank("bank-a", KEY_B, clock),
              bank("bank-a", KEY_A, clock, max_state_bytes=64 * 1024))
    servers = [LoopbackServer(b.app) for b in (w.origin, w.other_audience, w.retired, w.roomy)]
    for server, b in zip(servers, (w.origin, w.other_audience, w.retired, w.roomy), strict=True):
        b.url = server.__enter__().url
    yield w
    for server in servers:
        server.__exit__(None, None, None)


def _mint(c: RawClient, tool: str = "launch", code: str = "x") -> str:
    state: str = c.call(tool, {"code": code})["result"]["requestState"]
    return state


def _deadline_state(c: RawClient, clock: Clock) -> str:
    """Round 2 of `plan`, issued at T0+50 (alone it would live to T0+110; the flow ends at T0+100)."""
    first = c.call("plan")["result"]
    clock.now = T0 + 50
    state: str = c.call("plan", responses={"first": accept(first="a")}, state=first["requestState"])["result"][
        "requestState"]
    return state


def _big_state(c: RawClient) -> str:
    first = c.call("plan")["result"]
    incompressible = base64.b64encode(random.Random(5).randbytes(15_000)).decode()  # 20,000 characters
    state: str = c.call("plan", responses={"first": accept(first=incompressible)}, state=first["requestState"])[
        "result"]["requestState"]
    assert len(state) > SMALL_CAP
    return state


ROWS = ["other tool", "other arguments", "other principal", "no principal", "other audience", "expired round",
        "passed flow deadline", "retired key", "oversize (padded)", "oversize (sealed by a roomier twin)"]


@pytest.mark.parametrize("row", ROWS)
def test_a_state_out_of_its_binding_is_refused(world: World, row: str, report: Callable[..., None]) -> None:
    w = world
    w.clock.now = T0
    before = {id(b): len(b.runs) for b in (w.origin, w.other_audience, w.retired, w.roomy)}
    alice = w.client(w.origin)
    # (mint, present elsewhere, present at home) for each row.
    bad: dict[str, Any]
    home: Callable[[], dict[str, Any]]
    if row == "other tool":
        state = _mint(alice)
        bad = alice.call("abort", {"code": "x"}, responses=CONFIRM, state=state)
        home = lambda: alice.call("launch", {"code": "x"}, responses=CONFIRM, state=state)  # noqa: E731
    elif row == "other arguments":
        state = _mint(alice)
        bad = alice.call("launch", {"code": "y"}, responses=CONFIRM, state=state)
        home = lambda: alice.call("launch", {"code": "x"}, responses=CONFIRM, state=state)  # noqa: E731
    elif row in ("other principal", "no principal"):
        state = _mint(alice)
        other = w.client(w.origin, "mallory" if row == "other principal" else None)
        bad = other.call("launch", {"code": "x"}, responses=CONFIRM, state=state)
        home = lambda: alice.call("launch", {"code": "x"}, responses=CONFIRM, state=state)  # noqa: E731
    elif row == "other audience":
        state = _mint(alice)
        bad = w.client(w.other_audience).call("launch", {"code": "x"}, responses=CONFIRM, state=state)
        home = lambda: alice.call("launch", {"code": "x"}, responses=CONFIRM, state=state)  # noqa: E731
    elif row == "expired round":
        state = _mint(alice)
        w.clock.now = T0 + 61
        bad = alice.call("launch", {"code": "x"}, responses=CONFIRM, state=state)
        w.clock.now = T0 + 59

        def home() -> dict[str, Any]:
            return alice.call("launch", {"code": "x"}, responses=CONFIRM, state=state)
    elif row == "passed flow deadline":
        state = _deadline_state(alice, w.clock)
        answer = {"second": accept(second="b")}
        w.clock.now = T0 + 101
        bad = alice.call("plan", responses=answer, state=state)
        w.clock.now = T0 + 99

        def home() -> dict[str, Any]:
            asked = alice.call("plan", responses=answer, state=state)["result"]
            return alice.call("plan", responses=CONFIRM, state=asked["requestState"])
    elif row == "retired key":
        state = _mint(alice)
        bad = w.client(w.retired).call("launch", {"code": "x"}, responses=CONFIRM, state=state)
        home = lambda: alice.call("launch", {"code": "x"}, responses=CONFIRM, state=state)  # noqa: E731
    elif row == "oversize (padded)":
        state = _mint(alice)
        bad = alice.call("launch", {"code": "x"}, responses=CONFIRM, state=state + "A" * SMALL_CAP)
        home = lambda: alice.call("launch", {"code": "x"}, responses=CONFIRM, state=state)  # noqa: E731
    else:
        roomy = w.client(w.roomy)
        state = _big_state(roomy)
        answer = {"second": accept(second="b")}
        bad = alice.call("plan", responses=answer, state=state)  # same name, same key: only the cap differs

        def home() -> dict[str, Any]:
            asked = roomy.call("plan", responses=answer, state=state)["result"]
            return roomy.call("plan", responses=CONFIRM, state=asked["requestState"])

    assert "result" not in bad, f"{row}: accepted: {bad}"
    assert bad.get("error") == FROZEN, f"{row}: {bad}"
    after = {id(b): len(b.runs) for b in (w.origin, w.other_audience, w.retired, w.roomy)}
    assert after == before, f"{row}: a function ran"
    control = home()
    assert control.get("result", {}).get("resultType") == "complete" and not control["result"].get("isError"), \
        f"{row}: the state does not open even at home, so the refusal proved nothing: {control}"
    report(row=row, refused=True, control_opened=True)
