"""End to end with the official MCP SDK's `Client`, on both protocol eras, over real loopback HTTP and stdio.

Each test runs twice: `mode="2026-07-28"` (stateless; the SDK drives the `input_required` retry loop with the
sealed `requestState`) and `mode="legacy"` (the 2025-11-25 `initialize` handshake; askback asks the same
questions over the session's back-channel within the one request). The client's callbacks are the only
answerers, so every assertion about what was asked is an assertion about what reached the client.
"""


import dataclasses
import sys
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any

import mcp_types as types
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from pydantic import Field

import askback
from askback.demo import app as demo_app
from tests.conformance.server import app as conformance_app

pytestmark = pytest.mark.anyio

MODES = ("2026-07-28", "legacy")
by_mode = pytest.mark.parametrize("mode", MODES)

TO = "DE44500105175407324931"
SAVINGS = "DE02120300000000202051"
EVERYDAY = "DE89370400440532013000"
CONFORMANCE_SERVER = Path(__file__).resolve().parents[1] / "conformance" / "server.py"

Serve = Callable[[askback.App], str]
Answer = Callable[[types.ElicitRequestFormParams], types.ElicitResult]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


# -- answerers ---------------------------------------------------------------------------------------------
def field_of(params: types.ElicitRequestFormParams) -> str:
    """The single field a form question asks for."""
    properties = params.requested_schema["properties"]
    assert len(properties) == 1, properties
    return str(next(iter(properties)))


def accept(**content: Any) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content=content)


class Elicitor:
    """An `elicitation_callback` that records every form it is shown and answers with a script."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.asked: list[types.ElicitRequestFormParams] = []
        self.request_ids: list[types.RequestId] = []

    async def __call__(self, context: ClientRequestContext,
                       params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        assert isinstance(params, types.ElicitRequestFormParams), f"expected a form question, got {params!r}"
        self.asked.append(params)
        self.request_ids.append(context.request_id)
        return self.answer(params)

    def assert_era(self, mode: str, keys: list[str]) -> None:
        """Prove which path carried the questions.

        On 2026-07-28 the SDK's input_required driver calls back with the `inputRequests` key as the request
        id (askback keys each request by parameter name); on the legacy back-channel it is the JSON-RPC id of
        the server's own `elicitation/create` request.
        """
        if mode == "legacy":
            assert all(isinstance(i, int) for i in self.request_ids), self.request_ids
        else:
            assert sorted(map(str, self.request_ids)) == sorted(keys), self.request_ids

    def fields(self) -> list[str]:
        return [field_of(p) for p in self.asked]

    def asked_for(self, name: str) -> list[types.ElicitRequestFormParams]:
        return [p for p in self.asked if field_of(p) == name]


def by_field(**answers: Callable[[types.ElicitRequestFormParams], types.ElicitResult]) -> Answer:
    """Answer each form by the name of the field it asks for; an unexpected question fails the test."""

    def answer(params: types.ElicitRequestFormParams) -> types.ElicitResult:
        name = field_of(params)
        assert name in answers, f"unexpected question for {name!r}: {params.message!r}"
        return answers[name](params)

    return answer


def value(v: Any) -> Callable[[types.ElicitRequestFormParams], types.ElicitResult]:
    return lambda params: accept(**{field_of(params): v})


class Sampler:
    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.prompts: list[str] = []

    async def __call__(self, context: ClientRequestContext, params: types.CreateMessageRequestParams
                       ) -> types.CreateMessageResult | types.CreateMessageResultWithTools | types.ErrorData:
        content = params.messages[0].content
        assert isinstance(content, types.TextContent)
        self.prompts.append(content.text)
        return types.CreateMessageResult(role="assistant", content=types.TextContent(text=self.reply),
                                         model="test-model")


class RootsLister:
    def __init__(self, *uris: str) -> None:
        self.uris = uris
        self.calls = 0

    async def __call__(self, context: ClientRequestContext) -> types.ListRootsResult | types.ErrorData:
        self.calls += 1
        return types.ListRootsResult(roots=[types.Root(uri=u, name=f"root {i}")
                                            for i, u in enumerate(self.uris)])


def text_of(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


@pytest.fixture
def counted_transfer(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """The demo's real `transfer`, wrapped so the test sees every time its body runs."""
    spec = demo_app.tools["transfer"]
    runs: list[dict[str, Any]] = []

    def counting(**kwargs: Any) -> Any:
        runs.append(kwargs)
        return spec.fn(**kwargs)

    monkeypatch.setitem(demo_app.tools, "transfer", dataclasses.replace(spec, fn=counting))
    yield runs


# -- 1. the demo transfer: two questions, then the confirmation naming all values, then one run ---------------
@by_mode
async def test_demo_transfer_asks_confirms_and_runs_once(serve: Serve, mode: str,
                                                         counted_transfer: list[dict[str, Any]]) -> None:
    url = serve(demo_app)
    elicitor = Elicitor(by_field(to=value(TO), from_account=value(SAVINGS), confirm=value(True)))
    async with Client(url, mode=mode, elicitation_callback=elicitor) as client:
        assert client.protocol_version == ("2026-07-28" if mode != "legacy" else "2025-11-25")
        result = await client.call_tool("transfer", {"amount": 50})

    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    assert result.structured_content["status"] == "sent"
    assert result.structured_content["to"] == TO
    assert result.structured_content["from_account"] == SAVINGS
    assert result.structured_content["reference"].startswith("TX-")

    # The first two questions (in either order: 2026-07-28 answers them concurrently), then the confirmation.
    assert len(elicitor.asked) == 3, elicitor.fields()
    assert sorted(elicitor.fields()[:2]) == ["from_account", "to"]
    assert elicitor.fields()[2] == "confirm"

    (to_q,) = elicitor.asked_for("to")
    to_schema = to_q.requested_schema["properties"]["to"]
    assert to_schema["type"] == "string"
    assert to_schema["description"] == "Recipient IBAN"
    assert to_q.requested_schema["required"] == ["to"]

    (account_q,) = elicitor.asked_for("from_account")
    account_schema = account_q.requested_schema["properties"]["from_account"]
    assert account_schema["oneOf"] == [
        {"const": EVERYDAY, "title": "Everyday account (DE89 …3000)"},
        {"const": SAVINGS, "title": "Savings account (DE02 …2051)"},
    ]

    (confirm_q,) = elicitor.asked_for("confirm")
    assert "50" in confirm_q.message and SAVINGS in confirm_q.message and TO in confirm_q.message
    assert confirm_q.message == f"Send 50 EUR from Savings account (DE02 …2051) [{SAVINGS}] to {TO}?"
    assert confirm_q.requested_schema["properties"]["confirm"]["type"] == "boolean"

    elicitor.assert_era(mode, ["to", "from_account", "confirm"])
    assert len(counted_transfer) == 1
    assert counted_transfer[0]["amount"] == Decimal(50)
    assert counted_transfer[0]["to"] == TO and counted_transfer[0]["from_account"] == SAVINGS
    assert counted_transfer[0]["confirm"] is True


# -- 2. a declined confirmation ends the call without running the body -------------------------------------------
def delete_app() -> tuple[askback.App, list[str]]:
    app = askback.App("deleter")
    runs: list[str] = []

    @app.tool()
    def delete_repo(
        repo: Annotated[str, Field(description="Repository to delete, as owner/name")],
        confirm: Annotated[bool, askback.Confirm("Really delete {repo}? This cannot be undone.")],
    ) -> str:
        runs.append(repo)
        return f"Deleted {repo}."

    return app, runs


@by_mode
@pytest.mark.parametrize("how", ["decline", "answer_no"])
async def test_declined_confirmation_does_nothing(serve: Serve, mode: str, how: str) -> None:
    app, runs = delete_app()
    url = serve(app)

    def refuse(params: types.ElicitRequestFormParams) -> types.ElicitResult:
        assert "Really delete acme/site?" in params.message
        return types.ElicitResult(action="decline") if how == "decline" else accept(confirm=False)

    elicitor = Elicitor(by_field(confirm=refuse))
    async with Client(url, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("delete_repo", {"repo": "acme/site"})

    assert elicitor.fields() == ["confirm"]
    elicitor.assert_era(mode, ["confirm"])
    assert not result.is_error
    assert "Nothing was done" in text_of(result)
    assert result.structured_content is not None
    assert result.structured_content["outcome"] == "declined"
    assert runs == []


# -- 3. an invalid answer is asked again, saying why -------------------------------------------------------------------
def payment_app() -> tuple[askback.App, list[int]]:
    app = askback.App("payments")
    runs: list[int] = []

    @app.tool()
    def pay(amount: Annotated[int, Field(gt=0, description="Amount to pay, in whole EUR")]) -> str:
        runs.append(amount)
        return f"Paid {amount} EUR."

    return app, runs


@by_mode
async def test_invalid_answer_is_asked_again_with_the_reason(serve: Serve, mode: str) -> None:
    app, runs = payment_app()
    url = serve(app)
    answers = iter([-5, 7])
    elicitor = Elicitor(by_field(amount=lambda params: accept(amount=next(answers))))
    async with Client(url, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("pay", {})

    assert not result.is_error, text_of(result)
    assert text_of(result) == "Paid 7 EUR."
    assert runs == [7]
    elicitor.assert_era(mode, ["amount", "amount"])
    first, second = elicitor.asked
    assert "not accepted" not in first.message
    assert second.message.startswith(first.message)
    assert "The previous value was not accepted" in second.message
    assert "greater than 0" in second.message
    assert "-5" not in second.message  # the rejected value is not echoed back
    assert second.requested_schema == first.requested_schema


# -- 4. sampling and roots questions, answered by the client's callbacks --------------------------------------------
@by_mode
async def test_sampling_and_roots_complete_through_callbacks(serve: Serve, mode: str) -> None:
    url = serve(conformance_app)
    elicitor = Elicitor(by_field(name=value("Ada")))
    sampler = Sampler("Good morning,")
    roots = RootsLister("file:///home/ada/project", "file:///tmp/scratch")
    async with Client(url, mode=mode, elicitation_callback=elicitor, sampling_callback=sampler,
                      list_roots_callback=roots) as client:
        multiple = await client.call_tool("test_input_required_result_multiple_inputs", {})
        sampled = await client.call_tool("test_input_required_result_sampling", {})
        listed = await client.call_tool("test_input_required_result_list_roots", {})

    assert not multiple.is_error, text_of(multiple)
    assert text_of(multiple) == "Good morning, Ada (2 roots)"
    assert text_of(sampled) == "The model answered: Good morning,"
    assert text_of(listed) == "Roots: file:///home/ada/project, file:///tmp/scratch"
    assert sampler.prompts == ["Generate a greeting", "What is the capital of France?"]
    assert roots.calls == 2
    assert elicitor.fields() == ["name"]
    elicitor.assert_era(mode, ["user_name"])
    assert elicitor.asked[0].message == "What is your name?"


@by_mode
async def test_multi_round_question_names_the_earlier_answer(serve: Serve, mode: str) -> None:
    url = serve(conformance_app)

    def color(params: types.ElicitRequestFormParams) -> types.ElicitResult:
        assert params.message == "Step 2: Ada, what is your favorite color?"
        return accept(color="teal")

    elicitor = Elicitor(by_field(name=value("Ada"), color=color))
    async with Client(url, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("test_input_required_result_multi_round", {})

    assert text_of(result) == "Ada likes teal."
    assert elicitor.fields() == ["name", "color"]
    elicitor.assert_era(mode, ["step1", "step2"])


@by_mode
async def test_choice_outside_the_options_is_asked_again(serve: Serve, mode: str,
                                                         counted_transfer: list[dict[str, Any]]) -> None:
    url = serve(demo_app)
    accounts = iter(["DE00000000000000000000", EVERYDAY])
    elicitor = Elicitor(by_field(from_account=lambda params: accept(from_account=next(accounts)),
                                 confirm=value(True)))
    async with Client(url, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("transfer", {"amount": "12.50", "to": TO})

    assert not result.is_error, text_of(result)
    assert elicitor.fields() == ["from_account", "from_account", "confirm"]
    again = elicitor.asked[1].message
    assert "The previous value was not accepted" in again
    assert "Everyday account" in again and "Savings account" in again
    assert elicitor.asked[2].message == f"Send 12.50 EUR from Everyday account (DE89 …3000) [{EVERYDAY}] to {TO}?"
    assert [r["from_account"] for r in counted_transfer] == [EVERYDAY]


# -- 5. prompts and resource templates ask too ---------------------------------------------------------------------
@by_mode
async def test_demo_prompt_asks_then_renders(serve: Serve, mode: str) -> None:
    url = serve(demo_app)

    def audience(params: types.ElicitRequestFormParams) -> types.ElicitResult:
        assert params.message == "Who are the release notes for?"
        assert params.requested_schema["properties"]["audience"]["enum"] == ["users", "developers"]
        return accept(audience="developers")

    elicitor = Elicitor(by_field(audience=audience))
    async with Client(url, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.get_prompt("release_notes", {"version": "1.4.0"})

    assert elicitor.fields() == ["audience"]
    elicitor.assert_era(mode, ["audience"])
    (message,) = result.messages
    assert isinstance(message.content, types.TextContent)
    assert message.content.text == "Write release notes for version 1.4.0, addressed to developers. Keep it short."


@by_mode
async def test_demo_resource_template_asks_then_reads(serve: Serve, mode: str) -> None:
    url = serve(demo_app)

    def language(params: types.ElicitRequestFormParams) -> types.ElicitResult:
        assert params.message == "Which language?"
        assert params.requested_schema["properties"]["language"]["enum"] == ["en", "de", "fr"]
        return accept(language="fr")

    elicitor = Elicitor(by_field(language=language))
    async with Client(url, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.read_resource("demo://greeting/Ada")

    assert elicitor.fields() == ["language"]
    elicitor.assert_era(mode, ["language"])
    (content,) = result.contents
    assert isinstance(content, types.TextResourceContents)
    assert content.text == "Bonjour, Ada!"
    assert str(content.uri) == "demo://greeting/Ada"


# -- 6. a client that declared no elicitation is never asked: a tool error names what is missing -----------------
@by_mode
async def test_client_without_elicitation_gets_error_naming_missing_values(
        serve: Serve, mode: str, counted_transfer: list[dict[str, Any]]) -> None:
    url = serve(demo_app)
    async with Client(url, mode=mode) as client:
        # No elicitation_callback: the SDK declares no elicitation capability. The transfer needs a confirmation
        # only the client can give, so the call cannot complete: MCP's -32021, naming what is missing.
        with pytest.raises(MCPError) as raised:
            await client.call_tool("transfer", {"amount": 50})

    error = raised.value.error
    assert error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert error.data["requiredCapabilities"] == {"elicitation": {"form": {}}}
    text = error.message
    assert "did not declare: confirm (form elicitation)." in text, text
    assert "send these missing values as arguments: to, from_account." in text, text
    assert "Nothing was done" in text
    missing = {m["name"]: m for m in error.data["missing"]}
    assert {"to", "from_account", "confirm"} <= set(missing)
    assert "amount" not in missing  # it was given
    assert missing["to"]["asArgument"] is True and missing["from_account"]["asArgument"] is True
    assert missing["to"]["schema"].get("description") == "Recipient IBAN"
    assert missing["confirm"]["asArgument"] is False
    assert counted_transfer == []


async def test_values_a_caller_can_send_are_a_tool_error_naming_each(serve: Serve) -> None:
    app = askback.App("plain")

    @app.tool()
    def greet(name: Annotated[str, Field(description="Who to greet")], times: int = 1) -> str:
        return f"Hello, {name}!"

    async with Client(serve(app), mode="2026-07-28") as client:
        result = await client.call_tool("greet", {})
    assert result.is_error is True
    assert "Call greet again with these arguments: name." in text_of(result)


@by_mode
async def test_unanswerable_question_is_reported_by_the_sdk(serve: Serve, mode: str) -> None:
    """What the SDK does when a client that declares elicitation cannot answer: an error, never a run."""
    app, runs = payment_app()
    url = serve(app)

    async def cannot(context: ClientRequestContext,
                     params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        return types.ErrorData(code=types.INVALID_REQUEST, message="no user at this terminal")

    async with Client(url, mode=mode, elicitation_callback=cannot) as client:
        # 2026-07-28: the SDK's driver raises the callback's ErrorData itself. Legacy: the back-channel request
        # fails inside askback's handler, which passes the client's error on as the call's JSON-RPC error.
        with pytest.raises(MCPError, match="no user at this terminal"):
            await client.call_tool("pay", {})
    assert runs == []


# -- 7. stdio: `askback serve FILE --stdio` driven by the SDK on both eras -----------------------------------------
@by_mode
async def test_stdio_serve_completes_the_elicitation_fixture(mode: str, tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "askback.cli", "serve", str(CONFORMANCE_SERVER), "--stdio"],
        env={"ASKBACK_DATA_DIR": str(tmp_path / "stdio-data")},
        cwd=str(CONFORMANCE_SERVER.parents[2]),
    )
    elicitor = Elicitor(by_field(name=value("Grace")))
    async with Client(params, mode=mode, elicitation_callback=elicitor) as client:
        result = await client.call_tool("test_input_required_result_elicitation", {})

    assert not result.is_error, text_of(result)
    assert text_of(result) == "Hello, Grace!"
    assert elicitor.fields() == ["name"]
    elicitor.assert_era(mode, ["user_name"])
    assert elicitor.asked[0].message == "What is your name?"
