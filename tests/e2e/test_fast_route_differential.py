"""The lean 2026-07-28 path answers exactly what the SDK path answers.

The same corpus goes over real loopback HTTP to two servers of the same app: one with the fast route off (every
request on the SDK path) and one with it on (the default). Each exchange must give the same HTTP status, the
same content type and the same body (JSON compared as parsed JSON). Only what is legitimately random is
normalised before comparing: a sealed `requestState` (a fresh nonce every time) becomes `<state>`. Multi-round
cases replay each server's own state back to it. Each case also says which path must answer it on the server
with the fast route on, and the counts prove it did: a fast route that handed everything on would fail here.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from starlette.authentication import AuthCredentials, AuthenticationBackend
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection

import askback
from askback.mcp.fast import FastRoute
from askback.mcp.http import http_app
from tests.conftest import LoopbackServer
from tests.e2e.fastpath_app import make_app

V = "2026-07-28"
CAPS: dict[str, Any] = {"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}
Observation = tuple[int, str, Any]


def meta(caps: Any = None, version: str = V, **extra: Any) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": {"name": "diff", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": CAPS if caps is None else caps,
        **extra,
    }


@dataclass
class Req:
    """One HTTP request, built from the body unless `raw` is given; headers are derived unless overridden."""

    body: Any = None
    raw: bytes | None = None
    method: str = "POST"
    headers: dict[str, str | None] = field(default_factory=dict)
    extra_headers: list[tuple[str, str]] = field(default_factory=list)

    def http(self) -> tuple[str, list[tuple[str, str]], bytes]:
        body = self.raw if self.raw is not None else json.dumps(self.body).encode()
        derived: dict[str, str | None] = {"content-type": "application/json",
                                          "accept": "application/json, text/event-stream"}
        if isinstance(self.body, dict):
            params = self.body.get("params") if isinstance(self.body.get("params"), dict) else {}
            version = (params.get("_meta") or {}).get("io.modelcontextprotocol/protocolVersion") \
                if isinstance(params.get("_meta"), dict) else None
            derived["mcp-protocol-version"] = version if isinstance(version, str) else V
            if isinstance(self.body.get("method"), str):
                derived["mcp-method"] = self.body["method"]
            name = params.get("name", params.get("uri"))
            if isinstance(name, str):
                derived["mcp-name"] = name
        else:
            derived["mcp-protocol-version"] = V
        derived.update(self.headers)
        pairs = [(k, v) for k, v in derived.items() if v is not None] + self.extra_headers
        return self.method, pairs, body


def call(method: str, params: dict[str, Any] | None = None, *, id: Any = 1, caps: Any = None,
         version: str = V, **envelope: Any) -> dict[str, Any]:
    p = dict(params or {})
    p.setdefault("_meta", meta(caps, version))
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": p, **envelope}


def tool(name: str, arguments: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    return call("tools/call", {"name": name, "arguments": arguments or {}}, **kw)


Step = Callable[[list[Any]], Req]  # earlier bodies of this case (parsed) -> the next request


@dataclass
class Case:
    name: str
    steps: list[Step]
    lean: list[bool]  # per step: must the fast route answer it (True) or hand it on (False)
    auth: str | None = None  # a bearer token for the authenticated server


def once_(req: Req, lean: bool) -> tuple[list[Step], list[bool]]:
    return [lambda _: req], [lean]


def state_of(body: Any) -> str:
    return str(body["result"]["requestState"])


def keys_of(body: Any) -> list[str]:
    return list(body["result"]["inputRequests"])


def retry(name: str, arguments: dict[str, Any], answers: Callable[[list[str]], dict[str, Any]],
          method: str = "tools/call", target_key: str = "name", **kw: Any) -> Step:
    def step(previous: list[Any]) -> Req:
        last = previous[-1]
        params: dict[str, Any] = {target_key: name, "inputResponses": answers(keys_of(last)),
                                  "requestState": state_of(last)}
        if method != "resources/read":
            params["arguments"] = arguments
        return Req(call(method, params, id=len(previous) + 1, **kw))
    return step


def accept(values: dict[str, Any]) -> Callable[[list[str]], dict[str, Any]]:
    return lambda keys: {k: {"action": "accept", "content": values} for k in keys}


def first(body: dict[str, Any], lean: bool = True) -> Step:
    return lambda _: Req(body)


def corpus() -> list[Case]:
    cases: list[Case] = []

    def add(name: str, steps: list[Step], lean: list[bool], auth: str | None = None) -> None:
        cases.append(Case(name, steps, lean, auth))

    # -- valid rounds --------------------------------------------------------------------------------------
    add("value: ask then answer", [first(tool("greet")), retry("greet", {}, accept({"name": "Ada"}))], [True, True])
    add("value: given as argument", [first(tool("greet", {"name": "Ada"}))], [True])
    add("choice", [first(tool("pick")), retry("pick", {}, accept({"colour": "green"}))], [True, True])
    add("choice: not an option", [first(tool("pick")), retry("pick", {}, accept({"colour": "mauve"}))], [True, True])
    add("confirm: yes", [first(tool("delete", {"path": "/tmp/x"})),
                         retry("delete", {"path": "/tmp/x"}, accept({"sure": True}))], [True, True])
    add("confirm: declined", [first(tool("delete", {"path": "/tmp/x"})),
                              retry("delete", {"path": "/tmp/x"}, lambda ks: {k: {"action": "decline"} for k in ks})],
        [True, True])
    add("confirm: cancelled", [first(tool("delete", {"path": "/tmp/x"})),
                               retry("delete", {"path": "/tmp/x"}, lambda ks: {k: {"action": "cancel"} for k in ks})],
        [True, True])
    add("multi-round", [
        first(tool("trip", {"seats": 2})),
        retry("trip", {"seats": 2}, lambda ks: {k: {"action": "accept", "content": {"origin": "Oslo"}}
                                                if "origin" in k else
                                                {"action": "accept", "content": {"destination": "Rome"}}
                                                for k in ks}),
        retry("trip", {"seats": 2}, accept({"ok": True})),
    ], [True, True, True])
    add("wrong type answer", [first(tool("greet")), retry("greet", {}, accept({"name": 42}))], [True, True])
    add("non-object answer", [first(tool("greet")), retry("greet", {}, lambda ks: {k: "Ada" for k in ks})],
        [True, False])
    add("answer for an unknown key", [first(tool("greet")),
                                      retry("greet", {}, lambda ks: {"nope": {"action": "accept", "content": {}}})],
        [True, True])
    add("output schema", [first(tool("pay", {"amount": 5, "to": "Bo"}))], [True])
    add("output schema: bad argument", [first(tool("pay", {"amount": -5, "to": "Bo"}))], [True])
    add("author-shaped result", [first(tool("shaped"))], [True])
    add("list result", [first(tool("listing"))], [True])
    add("None result", [first(tool("nothing"))], [True])
    add("tool error", [first(tool("refuses", {"reason": "policy"}))], [True])
    add("tool crash", [first(tool("crashes"))], [True])
    add("sampling", [first(tool("model_says")), retry("model_says", {}, lambda ks: {k: {
        "role": "assistant", "content": {"type": "text", "text": "teal"}, "model": "m"} for k in ks})], [True, True])
    add("roots", [first(tool("where")), retry("where", {}, lambda ks: {k: {"roots": [{"uri": "file:///w"}]}
                                                                      for k in ks})], [True, True])
    add("single use: replayed final round", [
        first(tool("once")), retry("once", {}, accept({"ok": True})),
        lambda prev: Req(call("tools/call", {"name": "once", "arguments": {},
                                             "inputResponses": {k: {"action": "accept", "content": {"ok": True}}
                                                                for k in keys_of(prev[0])},
                                             "requestState": state_of(prev[0])}, id=9)),
    ], [True, True, True])
    add("prompt", [first(call("prompts/get", {"name": "haiku"})),
                   retry("haiku", {}, accept({"topic": "rain"}), method="prompts/get")], [True, True])
    add("prompt: argument given", [first(call("prompts/get", {"name": "haiku", "arguments": {"topic": "sun"}}))],
        [True])
    add("prompt: unknown", [first(call("prompts/get", {"name": "nope"}))], [False])
    add("resource with input", [first(call("resources/read", {"uri": "notes://tea"})),
                                retry("notes://tea", {}, accept({"depth": "long"}), method="resources/read",
                                      target_key="uri")], [True, True])
    add("resource: bytes", [first(call("resources/read", {"uri": "blob://x"}))], [True])
    add("resource: data", [first(call("resources/read", {"uri": "data://x"}))], [True])
    add("resource: unknown", [first(call("resources/read", {"uri": "nope://x"}))], [False])
    add("capability-less client", [first(tool("greet", caps={}))], [True])
    add("form only client, confirm", [first(tool("delete", {"path": "p"}, caps={"elicitation": {}}))], [True])
    add("no sampling capability", [first(tool("model_says", caps={"elicitation": {}}))], [True])

    # -- states -----------------------------------------------------------------------------------------------
    add("tampered state", [first(tool("greet")), lambda prev: Req(call("tools/call", {
        "name": "greet", "arguments": {}, "inputResponses": {k: {"action": "accept", "content": {"name": "A"}}
                                                             for k in keys_of(prev[0])},
        "requestState": state_of(prev[0])[:-4] + "AAAA"}, id=2))], [True, True])
    add("state from another tool", [first(tool("greet")), lambda prev: Req(call("tools/call", {
        "name": "pick", "arguments": {}, "requestState": state_of(prev[0])}, id=2))], [True, True])
    add("garbage state", [first(tool("greet", {}) | {"params": {**tool("greet")["params"], "requestState": "xyz"}})],
        [True])
    add("non-string state", [first({**tool("greet"), "params": {**tool("greet")["params"], "requestState": 5}})],
        [False])
    add("inputResponses not an object", [first({**tool("greet"), "params": {**tool("greet")["params"],
                                                                            "inputResponses": [1]}})], [False])

    # -- envelope, ids, methods ---------------------------------------------------------------------------------
    add("unknown tool", [first(tool("nope"))], [False])
    add("string id", [first(tool("greet", id="abc"))], [True])
    add("null id", [first(tool("greet", id=None))], [False])
    add("bool id", [first(tool("greet", id=True))], [False])
    add("float id", [first(tool("greet", id=1.5))], [False])
    add("jsonrpc 1.0", [first({**tool("greet"), "jsonrpc": "1.0"})], [False])
    add("extra envelope key", [first({**tool("greet"), "extra": 1})], [True])  # the SDK's model ignores it
    add("batch", [first([tool("greet")])], [False])
    add("notification", [first({k: v for k, v in tool("greet").items() if k != "id"})], [False])
    add("parse error", [lambda _: Req(raw=b'{"jsonrpc": "2.0", "id": 1, ')], [False])
    add("not UTF-8", [lambda _: Req(raw=json.dumps(tool("greet")).encode("utf-16"))], [False])
    add("UTF-8 BOM", [lambda _: Req(raw=b"\xef\xbb\xbf" + json.dumps(tool("greet")).encode(),
                                    headers={"mcp-method": "tools/call", "mcp-name": "greet"})], [True])
    add("tools/list", [first(call("tools/list"))], [False])
    add("server/discover", [first(call("server/discover"))], [False])
    add("unknown method", [first(call("nope/nope"))], [False])
    add("initialize at 2026", [first(call("initialize", {"protocolVersion": V, "capabilities": {},
                                                         "clientInfo": {"name": "c", "version": "1"}}))], [False])
    add("params not an object", [first({**tool("greet"), "params": [1]})], [False])
    add("arguments not an object", [first({**tool("greet"), "params": {**tool("greet")["params"],
                                                                       "arguments": [1]}})], [False])
    add("name not a string", [first({**tool("greet"), "params": {**tool("greet")["params"], "name": 5}})], [False])

    # -- _meta, versions, capabilities ---------------------------------------------------------------------
    add("no _meta", [first({**tool("greet"), "params": {"name": "greet", "arguments": {}}})], [False])
    add("_meta without capabilities", [first({**tool("greet"), "params": {"name": "greet", "_meta": {
        "io.modelcontextprotocol/protocolVersion": V}}})], [False])
    add("_meta not an object", [first({**tool("greet"), "params": {"name": "greet", "_meta": 5}})], [False])
    add("capabilities not an object", [first(tool("greet", caps=5))], [False])
    add("capabilities, snake-case part", [first(tool("greet", caps={"roots": {"list_changed": True}}))], [False])
    add("capabilities, unknown part", [first(tool("greet", caps={"tasks": 5}))], [False])
    # A tool that cannot run as a task: the extension changes nothing, on either path.
    add("tasks extension", [first(tool("greet", caps={**CAPS, "extensions": {"io.modelcontextprotocol/tasks": {}}}))],
        [True])
    add("bad clientInfo", [first({**tool("greet"), "params": {**tool("greet")["params"], "_meta": {
        **meta(), "io.modelcontextprotocol/clientInfo": 5}}})], [False])
    add("unsupported version", [first(tool("greet", version="2099-01-01"))], [False])
    add("version header mismatch", [lambda _: Req(tool("greet"), headers={"mcp-protocol-version": "2099-01-01"})],
        [False])
    add("no version header", [lambda _: Req(tool("greet"), headers={"mcp-protocol-version": None})], [False])

    # -- routing headers --------------------------------------------------------------------------------------
    add("no Mcp-Name", [lambda _: Req(tool("greet"), headers={"mcp-name": None})], [False])
    add("Mcp-Name mismatch", [lambda _: Req(tool("greet"), headers={"mcp-name": "pick"})], [False])
    add("Mcp-Name duplicated", [lambda _: Req(tool("greet"), extra_headers=[("mcp-name", "greet")])], [False])
    add("Mcp-Name base64", [lambda _: Req(tool("greet"), headers={
        "mcp-name": "=?base64?" + base64.b64encode(b"greet").decode() + "?="})], [True])
    add("Mcp-Name bad base64", [lambda _: Req(tool("greet"), headers={"mcp-name": "=?base64?Z3JlZXQ?="})], [False])
    add("Mcp-Method mismatch", [lambda _: Req(tool("greet"), headers={"mcp-method": "tools/list"})], [False])
    add("no Mcp-Method", [lambda _: Req(tool("greet"), headers={"mcp-method": None})], [False])
    add("Mcp-Param header", [lambda _: Req(tool("greet"), extra_headers=[("mcp-param-region", "eu")])], [False])
    add("x-mcp-header tool without its header", [first(tool("regional", {"region": "eu"}))], [False])
    add("x-mcp-header tool with its header", [lambda _: Req(tool("regional", {"region": "eu"}),
                                                            extra_headers=[("mcp-param-region", "eu")])], [False])

    # -- HTTP ---------------------------------------------------------------------------------------------------
    add("Accept SSE only", [lambda _: Req(tool("greet"), headers={"accept": "text/event-stream"})], [False])
    add("Accept */*", [lambda _: Req(tool("greet"), headers={"accept": "*/*"})], [True])
    add("Accept missing (the client's default */*)", [lambda _: Req(tool("greet"), headers={"accept": None})],
        [True])
    add("Accept HTML only", [lambda _: Req(tool("greet"), headers={"accept": "text/html"})], [False])
    add("Content-Type text", [lambda _: Req(tool("greet"), headers={"content-type": "text/plain"})], [False])
    add("Content-Type with charset", [lambda _: Req(tool("greet"),
                                                    headers={"content-type": "application/json; charset=utf-8"})],
        [True])
    add("foreign Host", [lambda _: Req(tool("greet"), headers={"host": "evil.example"})], [False])
    add("Host localhost", [lambda _: Req(tool("greet"), headers={"host": "localhost:1234"})], [True])
    add("foreign Origin", [lambda _: Req(tool("greet"), headers={"origin": "http://evil.example"})], [False])
    add("loopback Origin", [lambda _: Req(tool("greet"), headers={"origin": "http://127.0.0.1:9"})], [True])
    add("GET", [lambda _: Req(method="GET", raw=b"")], [False])
    add("DELETE", [lambda _: Req(method="DELETE", raw=b"")], [False])
    add("too large", [lambda _: Req(tool("greet", {"name": "x" * (4 * 1024 * 1024 + 10)}))], [False])

    # -- who is calling ------------------------------------------------------------------------------------------
    add("principal: hook", [lambda _: Req(tool("who"), headers={"x-user": "ada"}),
                            lambda prev: Req(call("tools/call", {
                                "name": "who", "arguments": {},
                                "inputResponses": {k: {"action": "accept", "content": {"ok": True}}
                                                   for k in keys_of(prev[0])},
                                "requestState": state_of(prev[0])}, id=2), headers={"x-user": "ada"})],
        [True, True])
    add("principal: state of another caller", [lambda _: Req(tool("who"), headers={"x-user": "ada"}),
                                               lambda prev: Req(call("tools/call", {
                                                   "name": "who", "arguments": {},
                                                   "inputResponses": {k: {"action": "accept", "content": {"ok": True}}
                                                                      for k in keys_of(prev[0])},
                                                   "requestState": state_of(prev[0])}, id=2),
                                                   headers={"x-user": "grace"})], [True, True])
    return cases


def authed_corpus() -> list[Case]:
    """The same confirmation with an authenticated principal, behind the user's authentication middleware."""
    def round2(token: str) -> Step:
        return lambda prev: Req(call("tools/call", {
            "name": "who", "arguments": {},
            "inputResponses": {k: {"action": "accept", "content": {"ok": True}} for k in keys_of(prev[0])},
            "requestState": state_of(prev[0])}, id=2), headers={"authorization": f"Bearer {token}"})
    first_round: Step = lambda _: Req(tool("who"), headers={"authorization": "Bearer token-ada"})  # noqa: E731
    return [
        Case("auth: same principal", [first_round, round2("token-ada")], [True, True]),
        Case("auth: other principal", [first_round, round2("token-grace")], [True, True]),
        Case("auth: plain greet", [lambda _: Req(tool("greet", {"name": "A"}),
                                                 headers={"authorization": "Bearer token-ada"})], [True]),
        Case("auth: no token", [lambda _: Req(tool("greet", {"name": "A"}))], [True]),
    ]


# -- the two servers ----------------------------------------------------------------------------------------
class _Bearer(AuthenticationBackend):
    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, AuthenticatedUser] | None:
        scheme, _, token = conn.headers.get("authorization", "").partition(" ")
        subject = {"token-ada": "ada", "token-grace": "grace"}.get(token)
        if scheme.lower() != "bearer" or subject is None:
            return None
        access = AccessToken(token=token, client_id="c", scopes=["mcp"], expires_at=int(time.time()) + 600,
                             subject=subject, claims={"iss": "https://issuer.test"})
        return AuthCredentials(["mcp"]), AuthenticatedUser(access)


def _principal(request: askback.Request) -> str | None:
    return request.headers.get("x-user")


@dataclass
class Pair:
    sdk: str
    lean: str
    lean_path: FastRoute


def _lean_path(asgi: Any) -> FastRoute:
    router = asgi._router
    assert isinstance(router, FastRoute), "the fast route is on by default"
    return router


@pytest.fixture(scope="module")
def pair() -> Iterator[Pair]:
    sdk_asgi = http_app(make_app(principal=_principal), fast_route=False)
    lean_asgi = http_app(make_app(principal=_principal))
    with LoopbackServer(sdk_asgi) as sdk, LoopbackServer(lean_asgi) as lean:
        yield Pair(sdk.url, lean.url, _lean_path(lean_asgi))


@pytest.fixture(scope="module")
def authed_pair() -> Iterator[Pair]:
    def build(fast: bool) -> Any:
        asgi = http_app(make_app(), fast_route=fast)
        asgi.add_middleware(AuthContextMiddleware)
        asgi.add_middleware(AuthenticationMiddleware, backend=_Bearer())
        return asgi
    sdk_asgi, lean_asgi = build(False), build(True)
    with LoopbackServer(sdk_asgi) as sdk, LoopbackServer(lean_asgi) as lean:
        yield Pair(sdk.url, lean.url, _lean_path(lean_asgi))


def normalised(value: Any) -> Any:
    """A sealed state is fresh randomness every time, and a receipt's id names its flow (a fresh id): both are
    compared as placeholders (their effects are compared too)."""
    if isinstance(value, dict):
        placeholders = {"requestState": "<state>", "askback/receipt": "<receipt>"}
        return {k: (placeholders[k] if k in placeholders and isinstance(v, str) else normalised(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [normalised(v) for v in value]
    return value


def exchange(http: httpx.Client, url: str, req: Req) -> tuple[Observation, Any]:
    method, headers, body = req.http()
    response = http.request(method, url, headers=headers, content=body if method == "POST" else None)
    content_type = response.headers.get("content-type", "")
    try:
        parsed: Any = response.json()
    except ValueError:
        parsed = response.text
    return (response.status_code, content_type, normalised(parsed)), parsed


def run_case(pair: Pair, case: Case) -> None:
    with httpx.Client(timeout=30) as http:
        seen: dict[str, list[Any]] = {"sdk": [], "lean": []}
        for n, (step, lean) in enumerate(zip(case.steps, case.lean, strict=True)):
            observations = {}
            for side, url in (("sdk", pair.sdk), ("lean", pair.lean)):
                req = step(seen[side])
                before = pair.lean_path.counts.answered
                observations[side], parsed = exchange(http, url, req)
                seen[side].append(parsed)
                if side == "lean":
                    answered = pair.lean_path.counts.answered - before
                    assert answered == int(lean), f"{case.name} step {n}: fast route answered {answered}, " \
                                                  f"expected {int(lean)} ({pair.lean_path.counts.reasons})"
            assert observations["lean"] == observations["sdk"], f"{case.name} step {n}"


CORPUS = corpus()


@pytest.mark.parametrize("case", CORPUS, ids=[c.name for c in CORPUS])
def test_same_answer_on_both_paths(pair: Pair, case: Case) -> None:
    run_case(pair, case)


AUTHED = authed_corpus()


@pytest.mark.parametrize("case", AUTHED, ids=[c.name for c in AUTHED])
def test_same_answer_behind_authentication(authed_pair: Pair, case: Case) -> None:
    run_case(authed_pair, case)


def test_the_corpus_is_broad() -> None:
    assert len(CORPUS) + len(AUTHED) >= 54
    assert sum(any(c.lean) for c in CORPUS) >= 20 and sum(not any(c.lean) for c in CORPUS) >= 20


# -- request shapes generated ---------------------------------------------------------------------------------
_json = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                  max_size=3), max_leaves=6)
_answers = st.dictionaries(st.sampled_from(["name", "colour", "sure", "x"]),
                           st.one_of(st.fixed_dictionaries({"action": st.sampled_from(["accept", "decline", "cancel",
                                                                                        "maybe"])},
                                                           optional={"content": st.dictionaries(
                                                               st.sampled_from(["name", "colour", "sure"]),
                                                               _json, max_size=2)}), _json), max_size=3)


@st.composite
def requests(draw: st.DrawFn) -> Req:
    method = draw(st.sampled_from(["tools/call", "tools/call", "tools/call", "prompts/get", "resources/read",
                                   "tools/list"]))
    target = draw(st.sampled_from(["greet", "pick", "delete", "pay", "nope", "haiku", "notes://x", "blob://y"]))
    params: dict[str, Any] = {"uri" if method == "resources/read" else "name": target}
    if draw(st.booleans()):
        params["arguments"] = draw(st.one_of(st.dictionaries(st.sampled_from(["name", "path", "amount", "to",
                                                                              "topic"]), _json, max_size=3), _json))
    if draw(st.booleans()):
        params["inputResponses"] = draw(st.one_of(_answers, _json))
    if draw(st.integers(0, 4)) == 0:
        params["requestState"] = draw(st.one_of(st.text(max_size=8), _json))
    caps = draw(st.one_of(st.just(CAPS), st.just({}), st.just({"elicitation": {}}),
                          st.dictionaries(st.sampled_from(["elicitation", "sampling", "roots", "tasks", "x"]), _json,
                                          max_size=2)))
    params["_meta"] = meta(caps) if draw(st.integers(0, 6)) else draw(_json)
    body: dict[str, Any] = {"jsonrpc": draw(st.sampled_from(["2.0", "2.0", "2.0", "1.0"])), "method": method,
                            "params": params}
    if draw(st.integers(0, 6)):
        body["id"] = draw(st.one_of(st.integers(-3, 10**6), st.text(max_size=4), st.none(), st.booleans(),
                                    st.floats(allow_nan=False)))
    headers: dict[str, str | None] = {}
    if not draw(st.integers(0, 6)):
        headers["mcp-name"] = draw(st.one_of(st.none(), st.sampled_from(["greet", "pick", "=?base64?Z3JlZXQ=?="])))
    if not draw(st.integers(0, 8)):
        headers["accept"] = draw(st.sampled_from(["text/event-stream", "*/*", "application/*", "text/html"]))
    return Req(body, headers=headers)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(req=requests())
def test_generated_requests_get_the_same_answer(pair: Pair, req: Req) -> None:
    with httpx.Client(timeout=30) as http:
        sdk, _ = exchange(http, pair.sdk, req)
        lean, _ = exchange(http, pair.lean, req)
    assert lean == sdk
