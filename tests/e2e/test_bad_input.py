"""Adversarial input over real loopback HTTP, with a raw JSON-RPC client and nothing in between.

Every exchange goes through `CheckedClient`, which fails the test on an HTTP 5xx or a Python traceback in the
response body, so each case below also proves "no crash, no leak". Tool bodies count their runs: a refused
request must never have run one.
"""


import base64
import dataclasses
import json
import logging
import random
import secrets
import string
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Annotated, Any, Literal

import httpx
import pytest
from pydantic import Field

import askback
import askback.demo
from askback.demo import app as demo_app
from tests.support.rawclient import RawClient, accept

Serve = Callable[[askback.App], str]

# Frozen on purpose: the one message a client sees for every bad requestState. Changing it is a wire change.
FROZEN = "Invalid or expired requestState; start the request again without it."

KEY_A = base64.urlsafe_b64encode(bytes(range(32))).decode().rstrip("=")
KEY_B = base64.urlsafe_b64encode(bytes(range(100, 132))).decode().rstrip("=")

TO_IBAN = "DE44500105175407324931"
OTHER_IBAN = "FR1420041010050500013M02606"
SAVINGS = "DE02120300000000202051"
EVERYDAY = "DE89370400440532013000"
T0 = 1_900_000_000  # a fixed "now" for the policy clock


# -- the client ----------------------------------------------------------------------------------------------
class CheckedClient(RawClient):
    """`RawClient` that also keeps each raw HTTP response and checks it is never a 5xx or a traceback."""

    def __init__(self, url: str, **kw: Any) -> None:
        super().__init__(url, **kw)
        self.exchanges: list[httpx.Response] = []
        self.http.event_hooks["response"].append(self._record)

    def __enter__(self) -> "CheckedClient":
        return self

    def _record(self, response: httpx.Response) -> None:
        response.read()
        self.exchanges.append(response)

    @property
    def last_text(self) -> str:
        return self.exchanges[-1].text

    def send(self, method: str, params: dict[str, Any] | None = None, *,
             capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        data = super().send(method, params, capabilities=capabilities)
        raw = self.exchanges[-1]
        assert raw.status_code < 500, f"HTTP {raw.status_code}: {raw.text[:500]}"
        assert "Traceback" not in raw.text, raw.text[:2000]
        assert 'File "' not in raw.text, raw.text[:2000]
        return data

    def call_raw(self, name: str, arguments: dict[str, Any], **params: Any) -> dict[str, Any]:
        """A tools/call whose `inputResponses` / `requestState` may be any JSON value, not just the right types."""
        return self.send("tools/call", {"name": name, "arguments": arguments, **params})


def result_of(response: dict[str, Any]) -> dict[str, Any]:
    assert "error" not in response, response
    result: dict[str, Any] = response["result"]
    return result


def asked(response: dict[str, Any]) -> dict[str, Any]:
    result = result_of(response)
    assert result["resultType"] == "input_required", result
    return result


def completed(response: dict[str, Any]) -> dict[str, Any]:
    result = result_of(response)
    assert result["resultType"] == "complete", result
    assert not result.get("isError"), result
    return result


def assert_state_rejected(response: dict[str, Any], cause: str = "") -> None:
    """The exact frozen error: code, message and nothing else (no `data` that could carry the reason)."""
    assert "result" not in response, f"{cause}: accepted: {response}"
    assert response.get("error") == {"code": -32602, "message": FROZEN}, f"{cause}: {response}"


@dataclass
class Calls:
    """How many times a tool body ran, and with what."""

    n: int = 0
    seen: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ran(self, **values: Any) -> None:
        with self.lock:
            self.n += 1
            self.seen.append(values)


def launcher(name: str = "launcher", **kw: Any) -> tuple[askback.App, Calls]:
    """One tool whose last round is a confirmation: a state that opens would run it."""
    app = askback.App(name, **kw)
    calls = Calls()

    @app.tool()
    def launch(code: str, ok: Annotated[bool, askback.Confirm("Launch {code}?")], note: str = "") -> str:
        calls.ran(code=code, note=note)
        return f"launched {code}"

    return app, calls


CONFIRM = {"ok": accept(ok=True)}


# -- (1) tampered requestState -------------------------------------------------------------------------------
def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _raw(token: str) -> bytes:
    return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))


def _flip(token: str, index: int) -> str:
    raw = bytearray(_raw(token))
    raw[index] ^= 0x01
    return _b64(bytes(raw))


def _non_canonical(token: str) -> str:
    """Same bytes, other spelling: set a spare low bit of the last character (only unpadded lengths have one)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    last = alphabet.index(token[-1])
    spelled = token[:-1] + alphabet[last | 1]
    assert _raw(spelled) == _raw(token) and spelled != token  # a lenient decoder would accept it
    return spelled


def tamperings(token: str) -> dict[str, str]:
    raw = _raw(token)
    mid = len(token) // 2
    swapped = token[:mid] + ("A" if token[mid] != "A" else "B") + token[mid + 1:]
    return {
        "bit flip in the version byte": _flip(token, 0),
        "bit flip in the key id": _flip(token, 2),
        "bit flip in the nonce": _flip(token, 10),
        "bit flip in the middle": _flip(token, len(raw) // 2),
        "bit flip in the tag": _flip(token, len(raw) - 1),
        "character swapped in the middle": swapped,
        "truncated by one character": token[:-1],
        "truncated by four characters": token[:-4],
        "truncated to the header": token[:23],
        "extended with -TAMPERED": token + "-TAMPERED",
        "extended by one byte": _b64(raw + b"\x00"),
        "padding added": token + "=" * (4 - len(token) % 4),
        "standard base64 with padding": base64.b64encode(raw).decode(),
        "non-canonical last character": _non_canonical(token),
        "surrounding whitespace": f" {token}\n",
        "upper-cased": token.upper(),
        "empty string": "",
        "over the size cap": token * 200,
        "another app's layout, valid base64url": _b64(b"\x01" + raw[1:5] + bytes(len(raw) - 5)),
    }


def test_tampered_state_is_refused_with_one_frozen_message_and_nothing_runs(serve: Serve) -> None:
    app, calls = launcher()
    url = serve(app)
    with CheckedClient(url) as c:
        token = asked(c.call("launch", {"code": "alpha"}))["requestState"]
        assert len(token) % 4 in (2, 3), "precondition: the token needs spare bits for the non-canonical case"
        failures = []
        for cause, bad in tamperings(token).items():
            assert bad != token, cause
            response = c.call("launch", {"code": "alpha"}, responses=CONFIRM, state=bad)
            try:
                assert_state_rejected(response, cause)
            except AssertionError as exc:
                failures.append(str(exc))
        assert not failures, "\n".join(failures)
        assert calls.n == 0
        # Control: the untouched token opens, so every refusal above was the tampering's doing.
        assert completed(c.call("launch", {"code": "alpha"}, responses=CONFIRM, state=token))
        assert calls.n == 1


@pytest.mark.parametrize("state", [123, 1.5, True, ["x"], {"token": "x"}], ids=repr)
def test_non_string_state_gets_the_same_frozen_message(serve: Serve, state: Any,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="askback")
    app, calls = launcher()
    url = serve(app)
    with CheckedClient(url) as c:
        assert_state_rejected(c.call_raw("launch", {"code": "alpha"}, inputResponses=CONFIRM, requestState=state))
        assert calls.n == 0
    assert any("requestState" in r.getMessage() for r in caplog.records), "the reason goes to the server log"


def test_tampered_state_on_prompts_and_resources_gets_the_same_message(
        serve: Serve, demo: "tuple[askback.App, TransferCounter]") -> None:
    url = serve(demo[0])
    with CheckedClient(url) as c:
        prompt = {"name": "release_notes", "arguments": {"version": "1.4.0"}}
        token = asked(c.send("prompts/get", prompt))["requestState"]
        answer = {"audience": accept(audience="users")}
        for cause, bad in (("bit flip", _flip(token, 30)), ("extended", token + "-TAMPERED")):
            assert_state_rejected(c.send("prompts/get", {**prompt, "inputResponses": answer, "requestState": bad}),
                                  f"prompt: {cause}")
        assert result_of(c.send("prompts/get", {**prompt, "inputResponses": answer, "requestState": token}))

        resource = {"uri": "demo://greeting/Ada"}
        token = asked(c.send("resources/read", resource))["requestState"]
        answer = {"language": accept(language="fr")}
        for cause, bad in (("bit flip", _flip(token, 30)), ("truncated", token[:-2])):
            assert_state_rejected(c.send("resources/read", {**resource, "inputResponses": answer,
                                                            "requestState": bad}), f"resource: {cause}")
        read = result_of(c.send("resources/read", {**resource, "inputResponses": answer, "requestState": token}))
        assert read["contents"][0]["text"] == "Bonjour, Ada!"


# -- (2) cross-binding ---------------------------------------------------------------------------------------
def test_state_is_bound_to_target_arguments_and_method(serve: Serve) -> None:
    app = askback.App("binder")
    calls = Calls()
    text = "Run {code}?"  # the same question everywhere: only the binding tells the flows apart

    @app.tool()
    def alpha(code: str, ok: Annotated[bool, askback.Confirm(text)], note: str = "") -> str:
        calls.ran(tool="alpha", code=code, note=note)
        return "alpha ran"

    @app.tool()
    def beta(code: str, ok: Annotated[bool, askback.Confirm(text)], note: str = "") -> str:
        calls.ran(tool="beta", code=code, note=note)
        return "beta ran"

    @app.prompt(name="alpha")
    def alpha_prompt(code: str, ok: Annotated[bool, askback.Confirm(text)], note: str = "") -> str:
        calls.ran(tool="alpha prompt", code=code, note=note)
        return "prompt ran"

    url = serve(app)
    args = {"code": "x", "note": "a"}
    with CheckedClient(url) as c:
        from_alpha = asked(c.call("alpha", args))["requestState"]
        prompt_round = c.send("prompts/get", {"name": "alpha", "arguments": args})
        from_prompt = asked(prompt_round)["requestState"]

        assert_state_rejected(c.call("beta", args, responses=CONFIRM, state=from_alpha), "tool A -> tool B")
        assert_state_rejected(c.call("alpha", {**args, "note": "b"}, responses=CONFIRM, state=from_alpha),
                              "other argument value")
        assert_state_rejected(c.call("alpha", {**args, "extra": 1}, responses=CONFIRM, state=from_alpha),
                              "extra argument")
        assert_state_rejected(c.call("alpha", {"code": "x"}, responses=CONFIRM, state=from_alpha),
                              "argument dropped")
        assert_state_rejected(c.call("alpha", args, responses=CONFIRM, state=from_prompt), "prompt -> tool")
        assert_state_rejected(c.send("prompts/get", {"name": "alpha", "arguments": args,
                                                     "inputResponses": CONFIRM, "requestState": from_alpha}),
                              "tool -> prompt")
        assert calls.n == 0
        # Controls: each state opens where it was minted.
        completed(c.call("alpha", args, responses=CONFIRM, state=from_alpha))
        result_of(c.send("prompts/get", {"name": "alpha", "arguments": args, "inputResponses": CONFIRM,
                                         "requestState": from_prompt}))
        assert [s["tool"] for s in calls.seen] == ["alpha", "alpha prompt"]
        assert calls.seen[0]["note"] == "a"


def test_state_is_bound_to_server_name_and_key_ring(serve: Serve, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASKBACK_KEYS", KEY_A)
    origin, origin_calls = launcher("bank-a")
    other_name, other_calls = launcher("bank-b")  # same ASKBACK_KEYS, another audience
    foreign, foreign_calls = launcher("bank-a", keys=KEY_B)  # same name, a key the state was not sealed with
    replica, replica_calls = launcher("bank-a")  # same name, same keys: a replica must accept it
    rotated, rotated_calls = launcher("bank-a", keys=f"{KEY_B},{KEY_A}")  # new key seals, old still opens
    urls = {app.name + str(i): serve(app) for i, app in enumerate([origin, other_name, foreign, replica, rotated])}
    origin_url, other_url, foreign_url, replica_url, rotated_url = urls.values()

    with CheckedClient(origin_url) as c:
        token = asked(c.call("launch", {"code": "x"}))["requestState"]
    for url, cause in ((other_url, "other app name, same keys"), (foreign_url, "other key")):
        with CheckedClient(url) as c:
            assert_state_rejected(c.call("launch", {"code": "x"}, responses=CONFIRM, state=token), cause)
    assert other_calls.n == foreign_calls.n == 0
    for url in (replica_url, rotated_url):
        with CheckedClient(url) as c:
            completed(c.call("launch", {"code": "x"}, responses=CONFIRM, state=token))
    assert (replica_calls.n, rotated_calls.n, origin_calls.n) == (1, 1, 0)


def test_state_is_bound_to_the_principal(serve: Serve) -> None:
    def principal(request: askback.Request) -> str | None:
        user = request.headers.get("x-user")
        return str(user) if user else None

    app, calls = launcher("people", principal=principal)
    url = serve(app)
    with CheckedClient(url) as alice, CheckedClient(url) as mallory, CheckedClient(url) as anonymous:
        alice.http.headers["X-User"] = "alice"
        mallory.http.headers["X-User"] = "mallory"
        token = asked(alice.call("launch", {"code": "x"}))["requestState"]
        assert_state_rejected(mallory.call("launch", {"code": "x"}, responses=CONFIRM, state=token), "other user")
        assert_state_rejected(anonymous.call("launch", {"code": "x"}, responses=CONFIRM, state=token), "no user")
        assert calls.n == 0
        completed(alice.call("launch", {"code": "x"}, responses=CONFIRM, state=token))
        assert calls.n == 1


# -- (3) expiry ----------------------------------------------------------------------------------------------
class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_expired_round_is_refused(serve: Serve, monkeypatch: pytest.MonkeyPatch,
                                  caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="askback")
    app, calls = launcher("clocked", round_ttl=60, flow_ttl=600)
    clock = Clock(T0)
    monkeypatch.setattr(app, "policy", dataclasses.replace(app.policy, now=clock))  # a frozen policy: a new one
    url = serve(app)
    with CheckedClient(url) as c:
        token = asked(c.call("launch", {"code": "x"}))["requestState"]
        clock.now = T0 + 61
        assert_state_rejected(c.call("launch", {"code": "x"}, responses=CONFIRM, state=token), "round expired")
        assert "the round has expired" in caplog.text
        clock.now = T0 - 60  # a state "issued in the future" (beyond the allowed skew) is refused too
        assert_state_rejected(c.call("launch", {"code": "x"}, responses=CONFIRM, state=token), "future")
        assert "issued in the future" in caplog.text
        assert calls.n == 0
        clock.now = T0 + 59  # control: within the round's lifetime it opens
        completed(c.call("launch", {"code": "x"}, responses=CONFIRM, state=token))
        assert calls.n == 1


def test_flow_deadline_is_never_renewed_by_later_rounds(serve: Serve, monkeypatch: pytest.MonkeyPatch,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="askback")
    app = askback.App("deadline", round_ttl=60, flow_ttl=100)
    calls = Calls()

    @app.tool()
    def plan(first: Annotated[str, askback.Ask("First?")],
             second: Annotated[str, askback.Ask("Second, after {first}?")]) -> str:
        calls.ran(first=first, second=second)
        return f"{first} then {second}"

    clock = Clock(T0)
    monkeypatch.setattr(app, "policy", dataclasses.replace(app.policy, now=clock))  # a frozen policy: a new one
    url = serve(app)
    with CheckedClient(url) as c:
        r1 = asked(c.call("plan"))
        assert list(r1["inputRequests"]) == ["first"]
        clock.now = T0 + 50
        r2 = asked(c.call("plan", responses={"first": accept(first="a")}, state=r1["requestState"]))
        assert list(r2["inputRequests"]) == ["second"]
        # Round 2 was issued at T0+50 with a 60 s round: alone it would live to T0+110. The flow ends at T0+100.
        clock.now = T0 + 101
        assert_state_rejected(c.call("plan", responses={"second": accept(second="b")}, state=r2["requestState"]),
                              "flow deadline")
        assert "the flow deadline has passed" in caplog.text
        assert calls.n == 0
        clock.now = T0 + 99  # control
        assert completed(c.call("plan", responses={"second": accept(second="b")}, state=r2["requestState"]))
        assert calls.seen == [{"first": "a", "second": "b"}]


# -- (4) malformed inputResponses ----------------------------------------------------------------------------
def order_app() -> tuple[askback.App, Calls]:
    app = askback.App("shop")
    calls = Calls()

    @app.tool()
    def order(item: str, count: Annotated[int, Field(ge=1, le=10, description="How many")],
              size: Literal["s", "m", "l"]) -> dict[str, Any]:
        calls.ran(item=item, count=count, size=size)
        return {"item": item, "count": count, "size": size}

    return app, calls


MALFORMED_COUNT_ANSWERS: dict[str, Any] = {
    "a number": 3,
    "a string": "3",
    "a list": [accept(count=3)],
    "null": None,
    "an empty object": {},
    "no action": {"content": {"count": 3}},
    "an unknown action": {"action": "approve", "content": {"count": 3}},
    "action in other case": {"action": "ACCEPT", "content": {"count": 3}},
    "action not a string": {"action": 1, "content": {"count": 3}},
    "accept without content": {"action": "accept"},
    "content null": {"action": "accept", "content": None},
    "content a string": {"action": "accept", "content": "count=3"},
    "content a list": {"action": "accept", "content": [3]},
    "content a number": {"action": "accept", "content": 3},
    "content missing the field": {"action": "accept", "content": {}},
    "field under another name": {"action": "accept", "content": {"Count": 3}},
    "field a word": accept(count="many"),
    "field a fraction": accept(count=3.5),
    "field a list": accept(count=[3]),
    "field an object": accept(count={"$gt": 0}),
    "field null": accept(count=None),
    "field below the minimum": accept(count=0),
    "field above the maximum": accept(count=11),
}


def test_malformed_answers_never_complete_and_never_crash(serve: Serve) -> None:
    app, calls = order_app()
    url = serve(app)
    with CheckedClient(url) as c:
        r1 = asked(c.call("order", {"item": "tea"}))
        assert set(r1["inputRequests"]) == {"count", "size"}
        state = r1["requestState"]
        failures = []
        for cause, answer in MALFORMED_COUNT_ANSWERS.items():
            response = c.call_raw("order", {"item": "tea"}, requestState=state,
                                  inputResponses={"count": answer, "size": accept(size="m")})
            if "error" in response:
                if response["error"].get("code") != -32602:
                    failures.append(f"{cause}: {response}")
            elif response["result"].get("resultType") != "input_required" or (
                    "count" not in response["result"].get("inputRequests", {})):
                failures.append(f"{cause}: not asked again: {response['result']}")
        assert not failures, "\n".join(failures)
        assert calls.n == 0
        # Control: the same state with a good answer completes, with exactly the values given.
        done = completed(c.call("order", {"item": "tea"}, state=state,
                                responses={"count": accept(count=3), "size": accept(size="m")}))
        assert done["structuredContent"] == {"item": "tea", "count": 3, "size": "m"}
        assert calls.n == 1


def test_invalid_answer_is_asked_again_with_the_reason(serve: Serve) -> None:
    app, calls = order_app()
    url = serve(app)
    with CheckedClient(url) as c:
        r1 = asked(c.call("order", {"item": "tea"}))
        r2 = asked(c.call("order", {"item": "tea"}, state=r1["requestState"],
                          responses={"count": accept(count=11), "size": accept(size="xl")}))
        assert set(r2["inputRequests"]) == {"count", "size"}
        assert "less than or equal to 10" in r2["inputRequests"]["count"]["params"]["message"]
        assert "11" not in r2["inputRequests"]["count"]["params"]["message"]  # the value is not echoed
        # The re-asked question is answerable with the new state.
        done = completed(c.call("order", {"item": "tea"}, state=r2["requestState"],
                                responses={"count": accept(count=2), "size": accept(size="s")}))
        assert done["structuredContent"]["count"] == 2
        assert calls.n == 1


@pytest.mark.parametrize("responses", [[], "count=3", 3, True], ids=repr)
def test_input_responses_that_are_not_an_object_are_refused(serve: Serve, responses: Any) -> None:
    app, calls = order_app()
    url = serve(app)
    with CheckedClient(url) as c:
        state = asked(c.call("order", {"item": "tea"}))["requestState"]
        response = c.call_raw("order", {"item": "tea"}, inputResponses=responses, requestState=state)
        assert response["error"]["code"] == -32602, response
        assert calls.n == 0


def test_null_input_responses_just_asks_again(serve: Serve) -> None:
    app, calls = order_app()
    url = serve(app)
    with CheckedClient(url) as c:
        state = asked(c.call("order", {"item": "tea"}))["requestState"]
        again = asked(c.call_raw("order", {"item": "tea"}, inputResponses=None, requestState=state))
        assert set(again["inputRequests"]) == {"count", "size"}
        assert calls.n == 0


def test_unknown_extra_keys_never_reach_the_function(serve: Serve) -> None:
    app, calls = order_app()
    url = serve(app)
    with CheckedClient(url) as c:
        state = asked(c.call("order", {"item": "tea"}))["requestState"]
        responses = {
            "count": {"action": "accept", "content": {"count": 3, "admin": True}, "_meta": {"x": 1}},
            "size": {"action": "accept", "content": {"size": "m", "count": 9}},
            "item": accept(item="gold"),  # the arguments gave it; an answer never overrides them
            "admin": accept(admin=True),  # no such question
        }
        done = completed(c.call("order", {"item": "tea"}, state=state, responses=responses))
        assert done["structuredContent"] == {"item": "tea", "count": 3, "size": "m"}
        assert calls.seen == [{"item": "tea", "count": 3, "size": "m"}]


def test_an_answer_to_a_question_not_yet_asked_is_ignored(serve: Serve) -> None:
    app = askback.App("ordered")
    calls = Calls()

    @app.tool()
    def plan(first: Annotated[str, askback.Ask("First?")],
             second: Annotated[str, askback.Ask("Second, after {first}?")]) -> str:
        calls.ran(first=first, second=second)
        return "planned"

    url = serve(app)
    with CheckedClient(url) as c:
        r1 = asked(c.call("plan"))
        assert list(r1["inputRequests"]) == ["first"]
        r2 = asked(c.call("plan", state=r1["requestState"],
                          responses={"first": accept(first="a"), "second": accept(second="pre-filled")}))
        assert list(r2["inputRequests"]) == ["second"]  # its answer was sent before it was asked: not trusted
        assert "after a" in r2["inputRequests"]["second"]["params"]["message"]
        assert calls.n == 0


def test_malformed_sampling_and_roots_answers_are_asked_again(serve: Serve) -> None:
    app = askback.App("models")
    calls = Calls()

    @app.tool()
    def summarise(summary: Annotated[str, askback.Sample("Summarise", max_tokens=20)],
                  roots: Annotated[list[askback.Root], askback.Roots()]) -> str:
        calls.ran(summary=summary, roots=roots)
        return summary

    url = serve(app)
    good_sample = {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"}
    bad: list[dict[str, Any]] = [
        {"summary": {"role": "assistant", "content": {"type": "image", "data": "", "mimeType": "image/png"},
                     "model": "m"}, "roots": {"roots": []}},
        {"summary": {"role": "assistant", "content": 5, "model": "m"}, "roots": {"roots": []}},
        {"summary": good_sample, "roots": {"roots": "file:///"}},
        {"summary": good_sample, "roots": {"roots": [{"name": "no uri"}]}},
        {"summary": good_sample, "roots": [{"uri": "file:///"}]},
    ]
    with CheckedClient(url) as c:
        state = asked(c.call("summarise"))["requestState"]
        for responses in bad:
            response = c.call_raw("summarise", {}, inputResponses=responses, requestState=state)
            if "error" in response:
                assert response["error"]["code"] == -32602, response
            else:
                assert response["result"]["resultType"] == "input_required", (responses, response)
        assert calls.n == 0
        completed(c.call("summarise", state=state,
                         responses={"summary": good_sample, "roots": {"roots": [{"uri": "file:///w"}]}}))
        assert calls.n == 1


# -- (4b) answers of another JSON type than their form declared -------------------------------------------
def typed_app() -> tuple[askback.App, Calls]:
    app = askback.App("typed")
    calls = Calls()

    @app.tool()
    def book(guests: int, budget: float, outdoor: bool, name: str,
             level: Annotated[int, askback.OneOf(lambda: [1, 2, 3])]) -> str:
        calls.ran(guests=guests, budget=budget, outdoor=outdoor, name=name, level=level)
        return "booked"

    return app, calls


RIGHT = {"guests": 4, "budget": 99.5, "outdoor": False, "name": "Ada", "level": "2"}
WRONG_TYPED: dict[str, list[Any]] = {
    "guests": [True, "5", "4.0", 4.5, None],
    "budget": [True, "99.5", "1e309", "Infinity", "NaN"],
    "outdoor": ["yes", "true", 1, 0],
    "name": [5, True, ["Ada"]],
    "level": [2, 2.0, True],
}


def test_an_answer_of_another_type_than_its_form_declared_is_asked_again_over_http(serve: Serve) -> None:
    app, calls = typed_app()
    url = serve(app)
    with CheckedClient(url) as c:
        first = asked(c.call("book"))
        assert set(first["inputRequests"]) == set(RIGHT)
        state = first["requestState"]
        for name, wrongs in WRONG_TYPED.items():
            for wrong in wrongs:
                answers = {k: accept(**{k: wrong if k == name else v}) for k, v in RIGHT.items()}
                again = asked(c.call("book", state=state, responses=answers))
                assert list(again["inputRequests"]) == [name], (name, wrong, again)
                message = again["inputRequests"][name]["params"]["message"]
                assert "The previous value was not accepted: it must be " in message, (name, wrong, message)
        assert calls.n == 0
        completed(c.call("book", state=state, responses={k: accept(**{k: v}) for k, v in RIGHT.items()}))
        assert calls.seen == [{"guests": 4, "budget": 99.5, "outdoor": False, "name": "Ada", "level": 2}]


def test_a_json_number_too_large_for_a_double_is_not_a_finite_number(serve: Serve) -> None:
    # The literal 1e309 is valid JSON; Python's reader makes it infinity, which no form number can be.
    app, calls = typed_app()
    url = serve(app)
    with CheckedClient(url) as c:
        state = asked(c.call("book"))["requestState"]
        answers = {k: accept(**{k: v}) for k, v in RIGHT.items()}
        answers["budget"] = accept(budget=1.5)
        params = {"name": "book", "arguments": {}, "requestState": state, "inputResponses": answers,
                  "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
                            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}}
        raw = json.dumps({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": params})
        raw = raw.replace('"budget": 1.5', '"budget": 1e309')
        assert "1e309" in raw
        response = c.http.post(url, content=raw, headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "book"})
        assert response.status_code < 500 and "Traceback" not in response.text, response.text
        reply = response.json()
        again = asked(reply)
        assert list(again["inputRequests"]) == ["budget"], again
        assert "it must be a finite number, not an infinite" in again["inputRequests"]["budget"]["params"]["message"]
        assert calls.n == 0


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
async def test_the_sdk_client_in_either_era_is_asked_again_for_a_wrong_typed_answer(
        serve: Serve, mode: str, anyio_backend: str) -> None:
    # 2026-07-28: the SDK's input_required loop; legacy: askback asks over the session's back-channel.
    import mcp_types as types
    from mcp.client.client import Client

    app, calls = typed_app()
    url = serve(app)
    first_wrong = {"guests": True, "budget": "1e309", "outdoor": "yes", "name": 5, "level": 2}
    seen: dict[str, list[str]] = {}

    async def elicit(context: Any, params: Any) -> types.ElicitResult:
        (name,) = params.requested_schema["properties"]
        seen.setdefault(name, []).append(params.message)
        value = first_wrong[name] if len(seen[name]) == 1 else RIGHT[name]
        return types.ElicitResult(action="accept", content={name: value})

    async with Client(url, mode=mode, elicitation_callback=elicit) as client:
        result = await client.call_tool("book", {})
    assert not result.is_error, result
    assert {name: len(messages) for name, messages in seen.items()} == {name: 2 for name in RIGHT}, seen
    for name, (_, again) in seen.items():
        assert "The previous value was not accepted: it must be " in again, (name, again)
    assert calls.seen == [{"guests": 4, "budget": 99.5, "outdoor": False, "name": "Ada", "level": 2}]


# -- (5) answers without a state -----------------------------------------------------------------------------
@pytest.fixture
def demo(monkeypatch: pytest.MonkeyPatch) -> "Iterator[tuple[askback.App, TransferCounter]]":
    """The bundled demo app, with its key and store in this test's data dir, counting transfers that ran."""
    counter = TransferCounter()
    monkeypatch.setattr(askback.demo, "secrets", counter)  # transfer() draws its reference from here
    demo_app.__dict__.pop("runtime", None)
    yield demo_app, counter
    demo_app.__dict__.pop("runtime", None)


class TransferCounter:
    """Stands in for the demo's `secrets` module: each receipt reference drawn is one transfer that ran."""

    def __init__(self) -> None:
        self.transfers = 0
        self._lock = threading.Lock()

    def token_hex(self, n: int) -> str:
        with self._lock:
            self.transfers += 1
        return secrets.token_hex(n)

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


def test_stateless_value_answer_completes_a_plain_tool(serve: Serve, demo: tuple[askback.App, Any]) -> None:
    url = serve(demo[0])
    args = {"repo": "octo/demo", "title": "Crash on start"}
    with CheckedClient(url) as c:
        r1 = asked(c.call("open_issue", args))
        assert list(r1["inputRequests"]) == ["github_login"]
        bad = asked(c.call("open_issue", args, responses={"github_login": accept(github_login=12345)}))
        assert "github_login" in bad["inputRequests"]
        done = completed(c.call("open_issue", args, responses={"github_login": accept(github_login="alice")}))
        assert done["structuredContent"]["reporter"] == "alice"


def test_stateless_confirmation_is_asked_again(serve: Serve) -> None:
    app, calls = launcher()
    url = serve(app)
    with CheckedClient(url) as c:
        for _ in range(3):
            again = asked(c.call("launch", {"code": "x"}, responses=CONFIRM))
            assert list(again["inputRequests"]) == ["ok"]
        assert calls.n == 0


def test_single_use_tool_never_completes_from_stateless_answers(serve: Serve,
                                                                demo: "tuple[askback.App, TransferCounter]") -> None:
    app, counter = demo
    url = serve(app)
    everything = {"to": accept(to=TO_IBAN), "from_account": accept(from_account=SAVINGS),
                  "confirm": accept(confirm=True)}
    with CheckedClient(url) as c:
        for _ in range(3):
            again = asked(c.call("transfer", {"amount": 50}, responses=everything))
            assert set(again["inputRequests"]) == {"to", "from_account"}
        # Even with every other value in the arguments, the confirmation cannot be answered blind.
        full = {"amount": 50, "to": TO_IBAN, "from_account": SAVINGS}
        again = asked(c.call("transfer", full, responses=everything))
        assert list(again["inputRequests"]) == ["confirm"]
    assert counter.transfers == 0

    once = askback.App("once-plain")
    calls = Calls()

    @once.tool(once=True)
    def redeem(code: str) -> str:
        calls.ran(code=code)
        return "redeemed"

    with CheckedClient(serve(once)) as c:
        for _ in range(3):
            assert list(asked(c.call("redeem", responses={"code": accept(code="X1")}))["inputRequests"]) == ["code"]
    assert calls.n == 0


# -- (6) replay of a single-use flow -------------------------------------------------------------------------
def transfer_until_confirm(c: RawClient, amount: int = 50, to: str = TO_IBAN) -> str:
    """Rounds 1 and 2 of the demo transfer; returns the state the confirmation answers."""
    r1 = asked(c.call("transfer", {"amount": amount}))
    r2 = asked(c.call("transfer", {"amount": amount}, state=r1["requestState"],
                      responses={"to": accept(to=to), "from_account": accept(from_account=SAVINGS)}))
    assert list(r2["inputRequests"]) == ["confirm"]
    state: str = r2["requestState"]
    return state


CONFIRM_TRANSFER = {"confirm": accept(confirm=True)}


def test_replayed_final_round_is_refused_and_does_not_run_again(serve: Serve,
                                                               demo: "tuple[askback.App, TransferCounter]") -> None:
    app, counter = demo
    url = serve(app)
    with CheckedClient(url) as c:
        state = transfer_until_confirm(c)
        receipt = completed(c.call("transfer", {"amount": 50}, state=state, responses=CONFIRM_TRANSFER))
        assert receipt["structuredContent"]["status"] == "sent"
        assert Decimal(str(receipt["structuredContent"]["amount"])) == 50
        for _ in range(3):
            assert_state_rejected(c.call("transfer", {"amount": 50}, state=state, responses=CONFIRM_TRANSFER),
                                  "replay")
    assert counter.transfers == 1


def test_concurrent_replays_run_the_transfer_exactly_once(serve: Serve,
                                                          demo: "tuple[askback.App, TransferCounter]") -> None:
    app, counter = demo
    url = serve(app)
    with CheckedClient(url) as c:
        state = transfer_until_confirm(c)
    threads = 8
    barrier = threading.Barrier(threads)
    responses: list[dict[str, Any]] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def fire() -> None:
        try:
            with CheckedClient(url) as mine:
                mine.send("tools/list")  # connect first, so the barrier releases the calls themselves together
                barrier.wait(timeout=15)
                response = mine.call("transfer", {"amount": 50}, state=state, responses=CONFIRM_TRANSFER)
            with lock:
                responses.append(response)
        except BaseException as exc:
            with lock:
                errors.append(exc)

    workers = [threading.Thread(target=fire) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join(timeout=60)
    assert not errors, errors
    assert len(responses) == threads
    sent = [r for r in responses if "result" in r]
    assert len(sent) == 1, responses
    assert completed(sent[0])["structuredContent"]["status"] == "sent"
    for r in responses:
        if "error" in r:
            assert_state_rejected(r, "concurrent replay")
    assert counter.transfers == 1


def test_forked_single_use_flow_runs_once(serve: Serve, demo: "tuple[askback.App, TransferCounter]") -> None:
    """Round 1's state answered twice gives two round-2 states of one flow: only one may ever complete."""
    app, counter = demo
    url = serve(app)
    with CheckedClient(url) as c:
        r1 = asked(c.call("transfer", {"amount": 50}))
        branches = []
        for to in (TO_IBAN, OTHER_IBAN):
            r2 = asked(c.call("transfer", {"amount": 50}, state=r1["requestState"],
                              responses={"to": accept(to=to), "from_account": accept(from_account=SAVINGS)}))
            branches.append(r2["requestState"])
        first = completed(c.call("transfer", {"amount": 50}, state=branches[0], responses=CONFIRM_TRANSFER))
        assert first["structuredContent"]["to"] == TO_IBAN
        assert_state_rejected(c.call("transfer", {"amount": 50}, state=branches[1], responses=CONFIRM_TRANSFER),
                              "second branch of a forked flow")
    assert counter.transfers == 1


def test_choice_outside_the_callers_options_is_asked_again(serve: Serve,
                                                           demo: "tuple[askback.App, TransferCounter]") -> None:
    app, counter = demo
    url = serve(app)
    with CheckedClient(url) as c:
        r1 = asked(c.call("transfer", {"amount": 50}))
        r2 = asked(c.call("transfer", {"amount": 50}, state=r1["requestState"],
                          responses={"to": accept(to=TO_IBAN), "from_account": accept(from_account=OTHER_IBAN)}))
        assert list(r2["inputRequests"]) == ["from_account"]
        assert "not one of the options" in r2["inputRequests"]["from_account"]["params"]["message"]
    assert counter.transfers == 0


# -- (7) exceptions inside tools -----------------------------------------------------------------------------
SECRET = "pw=hunter2-7f3a"


def test_exceptions_become_generic_errors_and_tool_error_is_shown(serve: Serve,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="askback")
    app = askback.App("faulty")

    @app.tool()
    def crash() -> str:
        raise RuntimeError(f"database said {SECRET}")

    @app.tool()
    async def crash_async(code: str) -> str:
        raise KeyError(SECRET)

    @app.tool()
    def crash_after_confirm(ok: Annotated[bool, askback.Confirm("Really?")]) -> str:
        raise ValueError(SECRET)

    def broken_provider(caller: askback.Caller) -> list[askback.Option]:
        raise LookupError(SECRET)

    @app.tool()
    def choose(pick: Annotated[str, askback.OneOf(broken_provider)]) -> str:
        return pick

    @app.tool()
    def refuse(amount: int) -> str:
        raise askback.ToolError(f"amount {amount} is over your daily limit")

    @app.prompt()
    def crash_prompt(topic: str) -> str:
        raise RuntimeError(SECRET)

    url = serve(app)
    with CheckedClient(url) as c:
        ok_state = asked(c.call("crash_after_confirm"))["requestState"]
        outcomes = []
        for name, args, extra in (("crash", {}, {}), ("crash_async", {"code": "x"}, {}),
                                  ("crash_after_confirm", {}, {"responses": {"ok": accept(ok=True)},
                                                               "state": ok_state}),
                                  ("choose", {}, {})):
            outcomes.append(c.call(name, args, **extra))
            assert SECRET not in c.last_text, name
        for response in outcomes:
            result = result_of(response)
            assert result["isError"] is True, result
            text = result["content"][0]["text"]
            assert SECRET not in text and "Error" not in text, text
            assert "internal error" in text
        prompt = c.send("prompts/get", {"name": "crash_prompt", "arguments": {"topic": "x"}})
        assert prompt["error"]["code"] == -32603 and SECRET not in c.last_text, prompt

        shown = result_of(c.call("refuse", {"amount": 5}))
        assert shown["isError"] is True
        assert shown["content"] == [{"type": "text", "text": "amount 5 is over your daily limit"}]
    # The details are for the operator: logged, with the exception.
    assert SECRET in caplog.text
    assert any(r.exc_info for r in caplog.records)


# -- (7b) a -32021 says what its data says -------------------------------------------------------------------
DECLARATIONS: dict[str, dict[str, Any]] = {
    "none": {}, "form": {"elicitation": {"form": {}}}, "url": {"elicitation": {"url": {}}},
    "form+url": {"elicitation": {"form": {}, "url": {}}}, "sampling": {"sampling": {}},
}


@pytest.mark.parametrize("declared", DECLARATIONS)
@pytest.mark.parametrize("amount", [50, 2000])  # the demo confirms in a form up to 1,000 EUR, on a page above
def test_the_32021_text_names_the_capabilities_its_data_requires_over_http(
        serve: Serve, demo: "tuple[askback.App, TransferCounter]", declared: str, amount: int) -> None:
    app, counter = demo
    capabilities = DECLARATIONS[declared]
    url = serve(app)
    with CheckedClient(url, capabilities=capabilities) as c:
        reply = c.call("transfer", {"amount": amount, "to": TO_IBAN, "from_account": SAVINGS})
    need = "form" if amount <= 1000 else "url"
    if need in (capabilities.get("elicitation") or {}):
        assert "result" in reply, reply  # asked (in a form, or with a page link): no -32021
        return
    assert c.exchanges[-1].status_code == 400
    error = reply["error"]
    assert error["code"] == -32021, error
    required = error["data"]["requiredCapabilities"]
    assert required == {"elicitation": {need: {}}}
    text = "form elicitation" if need == "form" else "URL elicitation"
    other = "URL elicitation" if need == "form" else "form elicitation"
    assert f"did not declare: confirm ({text}). Nothing was done." in error["message"], error["message"]
    assert other not in error["message"]
    declare = error["message"].split("the client must declare ", 1)[1].split(" in its capabilities", 1)[0]
    assert json.loads(declare) == required
    (confirm,) = [m for m in error["data"]["missing"] if m["name"] == "confirm"]
    assert confirm["reason"].endswith(f"({text})"), confirm
    assert counter.transfers == 0


def test_a_resource_read_without_forms_is_never_told_to_send_arguments(serve: Serve,
                                                                       demo: "tuple[askback.App, Any]") -> None:
    # A read has no arguments beyond its URI: a value outside the URI only a form can bring is a missing
    # capability, whatever else the client declared; a value inside the URI is read again with another URI.
    app = askback.App("library")
    reads: list[Any] = []

    @app.resource("books://{title}")
    def book(title: str, edition: Annotated[int, Field(ge=1, description="Which edition")]) -> str:
        reads.append((title, edition))
        return f"{title}, edition {edition}"

    @app.resource("shelves://{number}")
    def shelf(number: int) -> str:
        return f"shelf {number}"

    demo_url = serve(demo[0])
    url = serve(app)
    for declared in ({}, {"elicitation": {"url": {}}}, {"sampling": {}, "roots": {}}):
        for target, uri in ((url, "books://Dune"), (demo_url, "demo://greeting/Ada")):
            with CheckedClient(target, capabilities=declared) as c:
                error = c.send("resources/read", {"uri": uri})["error"]
            assert error["code"] == -32021, (declared, error)
            assert error["data"]["requiredCapabilities"] == {"elicitation": {"form": {}}}
            assert "(form elicitation). Nothing was done." in error["message"], error["message"]
            assert "argument" not in error["message"], error["message"]
            assert all(m["asArgument"] is False for m in error["data"]["missing"]), error
    with CheckedClient(url) as c:  # declared: asked in a form
        assert c.send("resources/read", {"uri": "books://Dune"})["result"]["resultType"] == "input_required"
    with CheckedClient(url, capabilities={}) as c:
        bad_uri = c.send("resources/read", {"uri": "shelves://top"})["error"]
    assert bad_uri["code"] == -32602 and bad_uri["data"]["outcome"] == "cannot_ask", bad_uri
    assert bad_uri["message"].endswith("Read a URI of shelves://{number} with other values for: number."), bad_uri
    assert "again with these arguments" not in bad_uri["message"]
    assert reads == []


def test_a_prompt_without_forms_is_told_to_send_its_listed_arguments(serve: Serve,
                                                                   demo: "tuple[askback.App, Any]") -> None:
    url = serve(demo[0])
    with CheckedClient(url, capabilities={}) as c:
        listed = c.send("prompts/list")["result"]["prompts"]
        error = c.send("prompts/get", {"name": "release_notes", "arguments": {"version": "1.4.0"}})["error"]
    (entry,) = [p for p in listed if p["name"] == "release_notes"]
    assert "audience" in [a["name"] for a in entry["arguments"]]  # so sending it is something a client can do
    assert error["code"] == -32602 and error["data"]["outcome"] == "cannot_ask", error
    assert error["message"].endswith("Call release_notes again with these arguments: audience."), error


# -- (8) oversize state --------------------------------------------------------------------------------------
def test_state_over_the_cap_is_a_clear_tool_error(serve: Serve) -> None:
    app = askback.App("small", max_state_bytes=400)
    calls = Calls()

    @app.tool()
    def note(first: Annotated[str, askback.Ask("First?")],
             second: Annotated[str, askback.Ask("Second, after {first}?")]) -> str:
        calls.ran(first=first, second=second)
        return "noted"

    url = serve(app)
    with CheckedClient(url) as c:
        state = asked(c.call("note"))["requestState"]
        # Varied text: the state is compressed, so a repeated letter would fit in far less than its length.
        varied = "".join(random.Random(3).choices(string.ascii_lowercase + " ", k=5000))
        too_big = result_of(c.call("note", state=state, responses={"first": accept(first=varied)}))
        assert too_big["resultType"] == "complete" and too_big["isError"] is True, too_big
        text = too_big["content"][0]["text"]
        assert "requestState" in text and "cap of 400" in text, text
        assert varied[:50] not in text
        # Still serving; a short answer fits under the same cap and the flow finishes.
        small = asked(c.call("note", state=state, responses={"first": accept(first="short")}))
        completed(c.call("note", state=small["requestState"], responses={"second": accept(second="done")}))
        assert calls.seen == [{"first": "short", "second": "done"}]


# -- (9) the server log --------------------------------------------------------------------------------------
def test_log_has_the_rejection_reasons_but_no_answer_values(serve: Serve, caplog: pytest.LogCaptureFixture,
                                                            demo: "tuple[askback.App, TransferCounter]") -> None:
    caplog.set_level(logging.DEBUG)
    fake_iban = "ZZ99SECRETFAKE0000000042"
    short_fake = "ZZ99SECRET7"  # too short for an IBAN: refused, and must not be logged either
    app, counter = demo
    url = serve(app)
    with CheckedClient(url) as c:
        r1 = asked(c.call("transfer", {"amount": 50}))
        invalid = asked(c.call("transfer", {"amount": 50}, state=r1["requestState"], responses={
            "to": accept(to=short_fake), "from_account": accept(from_account=SAVINGS)}))
        assert list(invalid["inputRequests"]) == ["to"]
        assert short_fake not in c.last_text
        r2 = asked(c.call("transfer", {"amount": 50}, state=invalid["requestState"],
                          responses={"to": accept(to=fake_iban)}))
        state = r2["requestState"]
        assert_state_rejected(c.call("transfer", {"amount": 50}, state=_flip(state, 40),
                                     responses={"confirm": accept(confirm=True), "to": accept(to=fake_iban)}))
        assert_state_rejected(c.call("transfer", {"amount": 50}, state=state + "=",
                                     responses={"confirm": accept(confirm=True)}))
        completed(c.call("transfer", {"amount": 50}, state=state, responses={"confirm": accept(confirm=True)}))
        assert_state_rejected(c.call("transfer", {"amount": 50}, state=state,
                                     responses={"confirm": accept(confirm=True), "to": accept(to=fake_iban)}))
    assert counter.transfers == 1

    warnings = [r.getMessage() for r in caplog.records if r.name.startswith("askback")]
    assert any("did not authenticate" in m for m in warnings), warnings
    assert any("not base64url" in m for m in warnings), warnings
    assert any("replay" in m for m in warnings), warnings
    for record in caplog.records:
        logged = " ".join([record.getMessage(), repr(record.args), record.exc_text or ""])
        for value in (fake_iban, short_fake):
            assert value not in logged, f"{record.name}: {logged}"
    assert fake_iban not in caplog.text and short_fake not in caplog.text
