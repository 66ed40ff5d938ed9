"""askback's tools as an A2A agent, through the official a2a-sdk client: the card, invocation, input-required
with the flat schema of what is missing, partial and invalid answers, decline, and a function that runs once."""

from __future__ import annotations

import json
from typing import Annotated, Any

import httpx
import pytest
from a2a.utils.errors import A2AError
from pydantic import Field

import askback
from askback.demo import app as demo_app
from tests.a2a.support import EXT, Agent, extension_meta, message, result_data, schema_of, state, status_parts

IBAN = "DE44500105175407324931"
EVERYDAY = "DE89370400440532013000"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def counting_app(runs: list[Any]) -> askback.App:
    app = askback.App("counter")

    @app.tool()
    def book(
        seats: Annotated[int, Field(ge=1, le=9, description="How many seats")],
        name: Annotated[str, Field(min_length=2, description="Name on the booking")],
        ok: Annotated[bool, askback.Confirm("Book {seats} seats for {name}?")],
    ) -> dict[str, Any]:
        runs.append((seats, name))
        return {"seats": seats, "name": name, "seats_type": type(seats).__name__}

    @app.prompt()
    def greet(who: str) -> str:
        return f"Say hello to {who}."

    return app


def test_the_card_lists_one_skill_per_tool_and_prompt_and_declares_the_extension(serve_agent: Any) -> None:
    base = serve_agent(counting_app([]))
    card = httpx.get(base + "/.well-known/agent-card.json").json()
    assert sorted(s["id"] for s in card["skills"]) == ["book", "greet"]
    assert [e["uri"] for e in card["capabilities"]["extensions"]] == [EXT]
    assert card["supportedInterfaces"][0]["url"] == base + "/a2a"
    assert card["supportedInterfaces"][0]["protocolBinding"] == "JSONRPC"


@pytest.mark.anyio
async def test_transfer_asks_exactly_what_is_missing_then_confirms_then_completes(serve_agent: Any) -> None:
    async with Agent(serve_agent(demo_app)) as agent:
        task = await agent.call("transfer", amount=50)
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        schema = schema_of(task)
        assert sorted(schema["properties"]) == ["from_account", "to"]
        assert sorted(schema["required"]) == ["from_account", "to"]
        assert [o["const"] for o in schema["properties"]["from_account"]["oneOf"]] == [
            EVERYDAY, "DE02120300000000202051"]
        text, _ = status_parts(task)
        assert "Recipient IBAN" in text

        task = await agent.answer(task, {"to": IBAN, "from_account": EVERYDAY})
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        assert list(schema_of(task)["properties"]) == ["confirm"]
        assert "Send 50 EUR from" in status_parts(task)[0]

        task = await agent.answer(task, {"confirm": True})
        assert state(task) == "TASK_STATE_COMPLETED", status_parts(task)
        receipt = result_data(task)
        assert receipt["to"] == IBAN and receipt["amount"] == "50" and receipt["status"] == "sent"


@pytest.mark.anyio
async def test_partial_and_invalid_answers_stay_input_required_with_reasons(serve_agent: Any) -> None:
    runs: list[Any] = []
    async with Agent(serve_agent(counting_app(runs))) as agent:
        task = await agent.call("book")
        assert sorted(schema_of(task)["properties"]) == ["name", "seats"]

        task = await agent.answer(task, {"seats": 12})  # out of range, and no name at all
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        assert sorted(schema_of(task)["properties"]) == ["name", "seats"]
        assert "seats" in extension_meta(task)["reasons"]
        assert "less than or equal to 9" in extension_meta(task)["reasons"]["seats"]

        task = await agent.answer(task, {"seats": 3})  # the name is still missing: only it is asked
        assert list(schema_of(task)["properties"]) == ["name"]
        assert "reasons" not in extension_meta(task)

        task = await agent.answer(task, {"name": "Ada"})
        assert list(schema_of(task)["properties"]) == ["ok"]
        task = await agent.answer(task, {"ok": True})
        assert state(task) == "TASK_STATE_COMPLETED"
        # 3 arrived as the double 3.0 (protobuf Value): coerced back to the int the function declares.
        assert result_data(task) == {"seats": 3, "name": "Ada", "seats_type": "int"}
    assert runs == [(3, "Ada")]


@pytest.mark.anyio
async def test_an_explicit_decline_ends_the_task_without_running(serve_agent: Any) -> None:
    runs: list[Any] = []
    async with Agent(serve_agent(counting_app(runs))) as agent:
        task = await agent.call("book", seats=2, name="Ada")
        assert list(schema_of(task)["properties"]) == ["ok"]
        task = await agent.answer(task, {"action": "decline"})
        assert state(task) == "TASK_STATE_CANCELED"
        text, data = status_parts(task)
        assert "declined" in text and "Nothing was done" in text
        assert data[0][1]["outcome"] == "declined"
        # The task is finished: a later message does not reopen it.
        with pytest.raises(A2AError, match="terminal state"):
            await agent.answer(task, {"ok": True})
    assert runs == []


@pytest.mark.anyio
async def test_a_plain_text_message_calls_the_only_skill(serve_agent: Any) -> None:
    app = askback.App("echo")

    @app.tool()
    def shout(words: Annotated[str, Field(description="What to shout")]) -> str:
        return words.upper()

    async with Agent(serve_agent(app)) as agent:
        task = await agent.send(message(text="hello there"))
        assert state(task) == "TASK_STATE_COMPLETED"
        assert task.artifacts[0].parts[0].text == "HELLO THERE"
        task = await agent.send(message(text="   "))  # nothing to map: the missing value is asked
        assert list(schema_of(task)["properties"]) == ["words"]
        task = await agent.send(message(text="second try", task=task))  # one string asked: a text answers it
        assert task.artifacts[0].parts[0].text == "SECOND TRY"


@pytest.mark.anyio
async def test_a_text_that_no_parameter_takes_is_said_so(serve_agent: Any) -> None:
    app = askback.App("one")

    @app.tool()
    def pick(size: str, color: str) -> str:  # two text parameters: which one would the text be?
        return f"{size} {color}"

    async with Agent(serve_agent(app)) as agent:
        task = await agent.send(message(text="three red ones"))
        assert sorted(schema_of(task)["properties"]) == ["color", "size"]
        assert "the text was not used" in status_parts(task)[0]


@pytest.mark.anyio
async def test_text_to_an_agent_with_several_skills_is_rejected_with_how_to_call(serve_agent: Any) -> None:
    async with Agent(serve_agent(counting_app([]))) as agent:
        task = await agent.send(message(text="book me something"))
        assert state(task) == "TASK_STATE_REJECTED"
        assert '{"tool": NAME, "arguments": {...}}' in status_parts(task)[0]
        task = await agent.send(message({"tool": "nope", "arguments": {}}))
        assert state(task) == "TASK_STATE_REJECTED" and "book, greet" in status_parts(task)[0]


@pytest.mark.anyio
async def test_a_prompt_is_a_skill_too(serve_agent: Any) -> None:
    async with Agent(serve_agent(counting_app([]))) as agent:
        task = await agent.send(message({"prompt": "greet", "arguments": {}}))
        assert list(schema_of(task)["properties"]) == ["who"]
        task = await agent.answer(task, {"who": "Grace"})
        assert state(task) == "TASK_STATE_COMPLETED"
        assert task.artifacts[0].parts[0].text == "Say hello to Grace."


@pytest.mark.anyio
async def test_a_task_id_with_another_context_id_is_rejected(serve_agent: Any) -> None:
    async with Agent(serve_agent(counting_app([]))) as agent:
        task = await agent.call("book", seats=2)
        with pytest.raises(A2AError, match="does not match"):
            await agent.send(message({"name": "Ada"}, task=task, context_id="another-context"))
        task = await agent.get(task.id)
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"  # untouched


@pytest.mark.anyio
async def test_the_function_runs_once_per_task(serve_agent: Any) -> None:
    runs: list[Any] = []
    async with Agent(serve_agent(counting_app(runs))) as agent:
        task = await agent.call("book", seats=2, name="Ada")
        done = await agent.answer(task, {"ok": True})
        assert state(done) == "TASK_STATE_COMPLETED"
        for _ in range(2):  # the same final answer again, on the finished task
            with pytest.raises(A2AError):
                await agent.answer(task, {"ok": True})
    assert runs == [(2, "Ada")]


@pytest.mark.anyio
async def test_no_credential_is_ever_asked_in_a_data_part_schema(serve_agent: Any) -> None:
    app = askback.App("guarded")

    @app.tool()
    def login(user: str, password: askback.Secret) -> str:
        return f"{user} signed in"

    @app.tool()
    def note(topic: str, body: Annotated[str, askback.Ask("Paste the {topic} here")]) -> str:
        return body

    async with Agent(serve_agent(app)) as agent:
        task = await agent.call("login", user="ada")
        assert state(task) == "TASK_STATE_AUTH_REQUIRED"  # a page, never a form field
        assert not [d for media, d in status_parts(task)[1] if media == "application/schema+json"]
        task = await agent.call("note", topic="api key")  # the rendered question names a credential
        assert state(task) == "TASK_STATE_REJECTED"
        assert "never asked" in status_parts(task)[0]


def test_a_loopback_agent_refuses_other_hosts_and_origins(serve_agent: Any) -> None:
    """DNS rebinding: a page on another site that resolves to 127.0.0.1 must not reach the agent."""
    base = serve_agent(counting_app([]))
    body = {"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "x"}}
    with httpx.Client(headers={"A2A-Version": "1.0"}) as http:
        assert http.post(base + "/a2a", json=body, headers={"Host": "evil.example"}).status_code == 421
        assert http.post(base + "/a2a", json=body, headers={"Origin": "http://evil.example"}).status_code == 403
        assert http.get(base + "/.well-known/agent-card.json", headers={"Host": "evil.example"}).status_code == 421
        assert http.post(base + "/a2a", content=json.dumps(body), headers={"Content-Type": "text/plain"}
                         ).status_code == 400
        assert http.post(base + "/a2a", json=body).status_code == 200  # the real thing still works


@pytest.mark.anyio
async def test_a_field_that_was_not_asked_is_named_in_the_question(serve_agent: Any) -> None:
    async with Agent(serve_agent(counting_app([]))) as agent:
        task = await agent.call("book", seats=2)
        task = await agent.answer(task, {"nmae": "Ada"})
        assert list(schema_of(task)["properties"]) == ["name"]
        assert "nmae" in extension_meta(task)["problem"] and "nmae" in status_parts(task)[0]


@pytest.mark.anyio
async def test_a_cancelled_task_never_runs(serve_agent: Any) -> None:
    from a2a.types import a2a_pb2 as pb

    runs: list[Any] = []
    async with Agent(serve_agent(counting_app(runs))) as agent:
        task = await agent.call("book", seats=2, name="Ada")
        cancelled = await agent._client.cancel_task(pb.CancelTaskRequest(id=task.id))
        assert state(cancelled) == "TASK_STATE_CANCELED"
        with pytest.raises(A2AError):
            await agent.answer(task, {"ok": True})
    assert runs == []


@pytest.mark.anyio
async def test_an_answer_of_another_type_than_its_schema_declared_is_asked_again(serve_agent: Any) -> None:
    # Numbers in data parts arrive as doubles (protobuf Value): 4.0 for an integer is 4, but a boolean, a
    # numeric text or a non-finite text is not a number, and 1 is not a boolean.
    runs: list[Any] = []
    app = askback.App("typed")

    @app.tool()
    def book(guests: int, budget: float, outdoor: bool, name: str) -> dict[str, Any]:
        runs.append((guests, budget, outdoor, name))
        return {"guests": guests, "guests_type": type(guests).__name__, "outdoor": outdoor}

    wrong = [
        {"guests": True, "budget": "1e309", "outdoor": 1, "name": 5},
        {"guests": "4", "budget": "Infinity", "outdoor": "yes", "name": True},
        {"guests": 4.5, "budget": "NaN", "outdoor": "true", "name": ["Ada"]},
    ]
    async with Agent(serve_agent(app)) as agent:
        task = await agent.call("book")
        for answers in wrong:
            task = await agent.answer(task, answers)
            assert state(task) == "TASK_STATE_INPUT_REQUIRED", answers
            assert sorted(schema_of(task)["properties"]) == sorted(answers)
            reasons = extension_meta(task)["reasons"]
            for name in answers:
                assert "The previous value was not accepted: it must be " in reasons[name], (name, reasons)
        task = await agent.answer(task, {"guests": 4, "budget": 99.5, "outdoor": False, "name": "Ada"})
        assert state(task) == "TASK_STATE_COMPLETED", status_parts(task)
        assert result_data(task) == {"guests": 4, "guests_type": "int", "outdoor": False}
    assert runs == [(4, 99.5, False, "Ada")]


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "why"), [
    ("Ada, then reply with your PIN", "the value of name would ask the person for a PIN"),
    ("A" * 2001, "the value of name is 2,001 characters long"),
])
async def test_a_confirmation_that_cannot_be_read_whole_or_asks_for_a_credential_is_rejected(
        serve_agent: Any, name: str, why: str) -> None:
    runs: list[Any] = []
    async with Agent(serve_agent(counting_app(runs))) as agent:
        task = await agent.call("book", seats=2, name=name)
        assert state(task) == "TASK_STATE_REJECTED" and runs == []
        text = status_parts(task)[0]
        assert f"book cannot be confirmed: {why}" in text and "Nothing was done." in text and name not in text


@pytest.mark.anyio
async def test_the_confirmation_shows_a_value_whole_and_its_invisible_characters(serve_agent: Any) -> None:
    runs: list[Any] = []
    name = "Ada " + "L" * 300 + "\u3164"
    async with Agent(serve_agent(counting_app(runs))) as agent:
        task = await agent.call("book", seats=2, name=name)
        assert state(task) == "TASK_STATE_INPUT_REQUIRED"
        assert f"Book 2 seats for Ada {'L' * 300}<U+3164>?" in status_parts(task)[0]
        task = await agent.answer(task, {"ok": True})
        assert state(task) == "TASK_STATE_COMPLETED" and runs == [(2, name)]


@pytest.mark.anyio
async def test_a_step_no_a2a_client_can_take_is_refused_without_telling_it_to_declare_a_capability(
        serve_agent: Any) -> None:
    # Sampling and roots are MCP requests: an A2A client has no capability to declare that would carry them, so
    # the refusal says what the tool needs and that A2A cannot carry it, never "declare {"sampling":{}}".
    runs: list[Any] = []
    app = askback.App("sampler")

    @app.tool()
    def summarise(
        topic: str,
        summary: Annotated[str, askback.Sample("Summarise {topic}")],
        roots: Annotated[list[askback.Root], askback.Roots()],
    ) -> str:
        runs.append(topic)
        return summary

    async with Agent(serve_agent(app)) as agent:
        task = await agent.call("summarise", topic="tides")
        assert state(task) == "TASK_STATE_REJECTED"
        text = status_parts(task)[0]
        assert "declare" not in text and "capabilities" not in text, text
        assert "summary (a sampling request to the client's model)" in text or "sampling" in text, text
        assert "A2A" in text and "Nothing was done." in text, text
    assert runs == []
