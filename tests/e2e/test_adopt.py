"""`askback.adopt` on an `MCPServer` app, served by the SDK's own `streamable_http_app()` on loopback.

Driven with the official SDK `Client` on both eras (2026-07-28: `input_required` rounds under the SDK's seal;
legacy: the 2025-11-25 back-channel), and with a raw client where a test needs a capability the SDK client
does not let a caller choose (form elicitation without URL mode).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mcp_types as types
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext

from tests.support import adopted
from tests.support.rawclient import RawClient

pytestmark = pytest.mark.anyio

MODES = ("2026-07-28", "legacy")
by_mode = pytest.mark.parametrize("mode", MODES)
Serve = Callable[[Any], str]
Runs = list[tuple[str, dict[str, Any]]]
Answer = Callable[[types.ElicitRequestFormParams], types.ElicitResult]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Elicitor:
    """Records every form it is shown; answers each with the next of its scripted answers."""

    def __init__(self, *answers: Answer) -> None:
        self.answers = list(answers)
        self.asked: list[types.ElicitRequestFormParams] = []

    async def __call__(self, context: ClientRequestContext,
                       params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        assert isinstance(params, types.ElicitRequestFormParams), params
        self.asked.append(params)
        assert self.answers, f"unexpected question: {params.message!r}"
        return self.answers.pop(0)(params)

    def fields(self) -> list[list[str]]:
        return [list(p.requested_schema["properties"]) for p in self.asked]


def accept(**content: Any) -> Answer:
    return lambda params: types.ElicitResult(action="accept", content=content)


def decline(params: types.ElicitRequestFormParams) -> types.ElicitResult:
    return types.ElicitResult(action="decline")


def text_of(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


def serve_adopted(serve: Serve, runs: Runs) -> str:
    return serve(adopted.adopted(runs).streamable_http_app())


# -- missing and invalid values: one round, exactly those fields ---------------------------------------------
@by_mode
async def test_missing_values_are_asked_in_one_round_and_merged(serve: Serve, mode: str) -> None:
    runs: Runs = []
    elicitor = Elicitor(accept(service="api", env="production"))
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("deploy", {})
    assert not result.is_error, text_of(result)
    assert text_of(result) == "Deployed api to production with 1 replicas."
    assert runs == [("deploy", {"service": "api", "env": "production", "replicas": 1})]
    (form,) = elicitor.asked
    schema = form.requested_schema
    assert sorted(schema["properties"]) == ["env", "service"]  # exactly the missing ones, not `replicas`
    assert schema["properties"]["env"]["enum"] == ["staging", "production"]
    assert schema["properties"]["service"]["description"] == "Service to deploy"
    assert sorted(schema["required"]) == ["env", "service"]


@by_mode
async def test_invalid_values_are_asked_with_their_reasons(serve: Serve, mode: str) -> None:
    runs: Runs = []
    elicitor = Elicitor(accept(env="staging", replicas=3))
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("deploy", {"service": "api", "env": "qa", "replicas": 9})
    assert text_of(result) == "Deployed api to staging with 3 replicas."
    (form,) = elicitor.asked
    assert sorted(form.requested_schema["properties"]) == ["env", "replicas"]
    assert form.requested_schema["properties"]["replicas"]["maximum"] == 5
    assert "replicas was not accepted: it must be at most 5" in form.message
    assert "env was not accepted: it must be one of: staging, production" in form.message
    assert "qa" not in form.message and "9" not in form.message  # a refused value is never echoed


@by_mode
async def test_an_invalid_answer_is_asked_again_never_failed(serve: Serve, mode: str) -> None:
    runs: Runs = []
    elicitor = Elicitor(accept(service="api", env="staging", replicas=7), accept(replicas=2))
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("deploy", {"replicas": 9})
    assert text_of(result) == "Deployed api to staging with 2 replicas."
    assert elicitor.fields() == [["service", "env", "replicas"], ["replicas"]]
    assert "it must be at most 5" in elicitor.asked[1].message
    assert len(runs) == 1


@by_mode
async def test_a_declined_question_runs_nothing(serve: Serve, mode: str) -> None:
    runs: Runs = []
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=Elicitor(decline)) as client:
        result = await client.call_tool("deploy", {"service": "api"})
    assert runs == []
    assert "declined" in text_of(result)
    assert result.meta is not None and result.meta["askback/refusal"]["outcome"] == "declined"


# -- a client that cannot be asked gets the SDK's own error, unchanged -----------------------------------------
@by_mode
@pytest.mark.parametrize("arguments", [{}, {"service": "api", "env": "qa"}])
async def test_without_elicitation_the_sdk_answers_as_without_askback(serve: Serve, mode: str,
                                                                      arguments: dict[str, Any]) -> None:
    plain_url = serve(adopted.build().streamable_http_app())
    adopted_url = serve_adopted(serve, [])
    results = []
    for url in (plain_url, adopted_url):
        async with Client(url, mode=mode) as client:
            results.append(await client.call_tool("deploy", arguments))
    plain, adopted_result = results
    assert plain.is_error and "validation error" in text_of(plain)
    assert adopted_result.model_dump() == plain.model_dump()


# -- confirm= : the final values, confirmed before the call goes on ------------------------------------------
@by_mode
async def test_confirm_shows_the_final_values_and_runs_on_yes(serve: Serve, mode: str) -> None:
    runs: Runs = []
    elicitor = Elicitor(accept(quantity=3), accept(confirm=True))
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("order", {"item": "lamp"})
    assert text_of(result) == "Ordered 3 x lamp."
    assert elicitor.fields() == [["quantity"], ["confirm"]]
    assert elicitor.asked[1].message == "Order 3 x lamp?"
    assert runs == [("order", {"item": "lamp", "quantity": 3})]


@by_mode
async def test_confirm_answered_no_runs_nothing(serve: Serve, mode: str) -> None:
    runs: Runs = []
    elicitor = Elicitor(accept(confirm=False))
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("order", {"item": "lamp", "quantity": 1})
    assert runs == [] and "did not confirm" in text_of(result)


async def test_confirm_without_elicitation_is_minus_32021(serve: Serve) -> None:
    with RawClient(serve_adopted(serve, [])) as raw:
        reply = raw.call("order", {"item": "lamp", "quantity": 1}, capabilities={})
    assert reply["error"]["code"] == -32021
    assert reply["error"]["data"]["requiredCapabilities"] == {"elicitation": {"form": {}}}


# -- secrets: never in a form; out of band, or -32021 without URL mode ----------------------------------------
@pytest.mark.parametrize(("tool", "field"), [("rotate", "api_key"), ("login", "password")])
async def test_a_secret_without_url_mode_is_minus_32021_and_never_a_form(serve: Serve, tool: str,
                                                                           field: str) -> None:
    runs: Runs = []
    with RawClient(serve_adopted(serve, runs)) as raw:
        reply = raw.call(tool, {}, capabilities={"elicitation": {"form": {}}})
    assert "result" not in reply, reply
    assert reply["error"]["code"] == -32021
    assert reply["error"]["data"]["requiredCapabilities"] == {"elicitation": {"url": {}}}
    assert field in reply["error"]["message"]
    assert [m["name"] for m in reply["error"]["data"]["missing"]] == [field]
    assert runs == []


@by_mode
async def test_a_secret_with_url_mode_is_refused_clearly(serve: Serve, mode: str) -> None:
    runs: Runs = []
    elicitor = Elicitor()  # asked nothing: a credential is never a form question
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("rotate", {"service": "billing"})
    assert elicitor.asked == [] and runs == []
    assert result.is_error and "out of band" in text_of(result) and "api_key" in text_of(result)


# -- the tool's own resolvers keep working, after and without askback's round -----------------------------------
@by_mode
@pytest.mark.parametrize("arguments", [{}, {"text": "Hi"}])
async def test_the_sdk_resolver_still_asks(serve: Serve, mode: str, arguments: dict[str, Any]) -> None:
    runs: Runs = []
    answers = ([] if arguments else [accept(text="Hi")]) + [accept(shades=3)]
    elicitor = Elicitor(*answers)
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("banner", arguments)
    assert text_of(result) == "Hi: 3 shades of blue"
    assert elicitor.asked[-1].message == "Which palette should the banner use?"
    assert len(elicitor.asked) == len(answers)
    assert runs == [("banner", {"text": "Hi", "shades": 3})]


@by_mode
async def test_a_confirmation_holds_across_the_resolvers_round(serve: Serve, mode: str) -> None:
    """The confirmation given before the SDK's resolver asked is not asked again on the retry after it."""
    server = adopted.build([])
    import askback

    askback.adopt(server, tools={"banner": askback.ToolOptions(confirm="Render {text}?")})
    elicitor = Elicitor(accept(confirm=True), accept(shades=2))
    async with Client(serve(server.streamable_http_app()), mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("banner", {"text": "Hi"})
    assert text_of(result) == "Hi: 2 shades of blue"
    assert elicitor.fields() == [["confirm"], ["colour", "shades"]]


# -- the state: sealed by the SDK, bound to the call ------------------------------------------------------------
async def test_the_round_state_is_the_sdks_seal_and_a_changed_call_is_refused(serve: Serve) -> None:
    runs: Runs = []
    with RawClient(serve_adopted(serve, runs)) as raw:
        first = raw.call("deploy", {"service": "api"})["result"]
        assert first["resultType"] == "input_required"
        state = first["requestState"]
        assert state.startswith("v1.") and "askback" not in state  # the SDK's AES-GCM token, not plaintext
        (key,) = first["inputRequests"]
        answer = {key: {"action": "accept", "content": {"env": "staging"}}}
        other = raw.call("deploy", {"service": "web"}, responses=answer, state=state)
        assert other["error"]["code"] == -32602  # bound to the original arguments by the SDK's boundary
        done = raw.call("deploy", {"service": "api"}, responses=answer, state=state)["result"]
    assert done["content"][0]["text"] == "Deployed api to staging with 1 replicas."
    assert runs == [("deploy", {"service": "api", "env": "staging", "replicas": 1})]


async def test_an_answer_cannot_add_a_field_that_was_not_asked(serve: Serve) -> None:
    runs: Runs = []
    with RawClient(serve_adopted(serve, runs)) as raw:
        first = raw.call("deploy", {"service": "api"})["result"]
        (key,) = first["inputRequests"]
        answer = {key: {"action": "accept", "content": {"env": "staging", "replicas": 5, "service": "web"}}}
        done = raw.call("deploy", {"service": "api"}, responses=answer, state=first["requestState"])["result"]
    assert runs == [("deploy", {"service": "api", "env": "staging", "replicas": 1})]
    assert done["content"][0]["text"] == "Deployed api to staging with 1 replicas."


async def test_adopt_refuses_to_run_twice_or_without_the_boundary() -> None:
    import askback

    server = adopted.adopted()
    with pytest.raises(ValueError, match="already"):
        askback.adopt(server)
    bare = adopted.build()
    bare.middleware.clear()
    with pytest.raises(ValueError, match="RequestStateBoundary"):
        askback.adopt(bare)


async def test_an_unknown_tool_gets_the_sdks_own_answer(serve: Serve) -> None:
    answers = []
    for url in (serve(adopted.build().streamable_http_app()), serve_adopted(serve, [])):
        with RawClient(url) as raw:
            reply = raw.call("no_such_tool", {"x": 1})
            reply.pop("id")
            answers.append(reply)
    assert answers[0] == answers[1]


@pytest.mark.parametrize("fields", [{"requestState": 5}, {"inputResponses": [1]}, {"inputResponses": "x"}])
async def test_malformed_retry_fields_get_the_sdks_own_answer(serve: Serve, fields: dict[str, Any]) -> None:
    answers = []
    for url in (serve(adopted.build().streamable_http_app()), serve_adopted(serve, [])):
        with RawClient(url) as raw:
            reply = raw.send("tools/call", {"name": "deploy", "arguments": {}, **fields})
            reply.pop("id")
            answers.append(reply)
    assert answers[0] == answers[1]


async def test_a_legacy_connection_without_a_back_channel_gets_the_sdks_own_answer(serve: Serve) -> None:
    """Stateless legacy HTTP keeps no handshake, so no request carries a declared elicitation (and no server
    request could reach the client): nothing is asked, the SDK answers as without askback."""
    results = []
    for server in (adopted.build(), adopted.adopted()):
        url = serve(server.streamable_http_app(stateless_http=True, json_response=True))
        async with Client(url, mode="legacy", elicitation_callback=Elicitor()) as client:
            results.append(await client.call_tool("deploy", {}))
    assert results[0].is_error and results[1].model_dump() == results[0].model_dump()


# -- choices from a provider (OneOf) ------------------------------------------------------------------------------
@by_mode
async def test_a_choice_is_offered_with_its_titles_and_confirmed_by_them(serve: Serve, mode: str) -> None:
    runs: Runs = []
    elicitor = Elicitor(accept(amount=5, from_account=adopted.SAVINGS), accept(confirm=True))
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("pay", {})
    assert text_of(result) == f"Paid 5 from {adopted.SAVINGS}."
    choice = elicitor.asked[0].requested_schema["properties"]["from_account"]
    assert choice["oneOf"] == [{"const": adopted.EVERYDAY, "title": "Everyday account"},
                               {"const": adopted.SAVINGS, "title": "Savings account"}]
    assert elicitor.asked[1].message == f"Pay 5 from Savings account [{adopted.SAVINGS}]?"


@by_mode
async def test_a_value_outside_the_choices_is_asked_again(serve: Serve, mode: str) -> None:
    runs: Runs = []
    elicitor = Elicitor(accept(from_account=adopted.EVERYDAY), accept(confirm=True))
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("pay", {"amount": 5, "from_account": "DE00 someone else's"})
    assert text_of(result) == f"Paid 5 from {adopted.EVERYDAY}."
    assert elicitor.fields()[0] == ["from_account"]
    assert "from_account was not accepted: it must be one of the choices offered" in elicitor.asked[0].message


@by_mode
async def test_a_choice_waits_for_what_its_provider_needs_and_one_option_is_not_asked(serve: Serve,
                                                                                       mode: str) -> None:
    runs: Runs = []
    elicitor = Elicitor(accept(country="fr"), accept(city="Lyon"))
    async with Client(serve_adopted(serve, runs), mode=mode, elicitation_callback=elicitor) as client:
        assert text_of(await client.call_tool("ship", {})) == "Shipping to Lyon, fr."
        assert elicitor.fields() == [["country"], ["city"]]
        assert elicitor.asked[1].requested_schema["properties"]["city"]["enum"] == ["Paris", "Lyon"]
        assert text_of(await client.call_tool("ship", {"country": "lu"})) == "Shipping to Luxembourg, lu."
    assert len(elicitor.asked) == 2  # one city only: used without asking
