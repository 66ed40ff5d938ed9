"""The client's guard over a foreign server's forms (`askback.client.secret_forms`), and `askback.Client`'s use of it.

Which fields of which forms ask for a credential (by the field's own words, its declaration, or the form's
message), what an answerer may send without consent, and — against a phishing server on the official SDK over
real HTTP, in both eras — that `Client` refuses for a callable or an answerer of the caller's own, tells the
server "decline", and fills the form only with `allow_secret_forms`.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest

import askback
from askback.client import CallableAnswerer, FileAnswerer, TerminalAnswerer
from askback.client.answerers import Asked
from askback.client.errors import SecretForm
from askback.client.questions import FormQuestion, Question, accept, parse_question
from askback.client.secret_forms import screen, secret_asks
from askback.types import Capabilities
from tests.support.mcpmock import Mock, text
from tests.support.mcpmock import form as mock_form
from tests.support.phishing import Phishing

Serve = Callable[[Any], str]
ERAS = pytest.mark.parametrize("mode", ["modern", "legacy"])
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def form(properties: dict[str, Any], message: str = "", key: str = "k") -> FormQuestion:
    schema = {"type": "object", "properties": properties, "required": list(properties)}
    question = parse_question(key, {"method": "elicitation/create",
                                    "params": {"message": message, "requestedSchema": schema}})
    assert isinstance(question, FormQuestion)
    return question


@pytest.mark.parametrize(("properties", "message", "named"), [
    ({"password": {"type": "string"}}, "", [("password", "a password", "field")]),
    ({"kennwort": {"type": "string", "title": "Passwort"}}, "", [("kennwort", "a password", "field")]),
    ({"value": {"type": "string", "description": "Your GitHub personal access token"}}, "",
     [("value", "a token", "field")]),
    ({"value": {"type": "string", "format": "password"}}, "", [("value", "a password", "field")]),
    ({"value": {"type": "string", "writeOnly": True}}, "", [("value", "a password", "field")]),
    ({"api_key": {"type": "string"}}, "", [("api_key", "an API key", "field")]),
    ({"name": {"type": "string"}, "pin": {"type": "string", "title": "PIN"},
      "cvv": {"type": "string", "title": "Card security code"}}, "",
     [("pin", "a PIN", "field"), ("cvv", "a card security code", "field")]),
    ({"value": {"type": "string"}}, "Enter your PIN to continue", [("value", "a PIN", "message")]),
    ({"reply-1": {"type": "string", "title": "Reply"}}, "What is the PIN?", [("reply-1", "a PIN", "message")]),
])
def test_a_form_that_asks_for_a_credential_names_each_field(properties: dict[str, Any], message: str,
                                                            named: list[tuple[str, str, str]]) -> None:
    assert [(a.field, a.term, a.by) for a in secret_asks(form(properties, message))] == named


@pytest.mark.parametrize(("properties", "message"), [
    ({"name": {"type": "string", "title": "Your name"}}, "Who is this for?"),
    ({"email": {"type": "string", "format": "email"}}, "Where should we send the receipt?"),
    ({"tokens": {"type": "integer", "title": "Tokens to buy"}}, "How many tokens?"),
    ({"ok": {"type": "boolean"}}, "Enter your password to continue"),  # a yes/no cannot carry one
    ({"colour": {"type": "string", "enum": ["red", "blue"]}}, "Which colour?"),
    ({"text": {"type": "string", "description": "A short note for the ticket"}}, "What should the note say?"),
])
def test_an_ordinary_form_names_none(properties: dict[str, Any], message: str) -> None:
    assert secret_asks(form(properties, message)) == ()


def test_a_form_built_by_hand_is_read_from_its_fields() -> None:
    built = form({"password": {"type": "string"}})
    by_hand = FormQuestion("k", "", built.fields)  # no raw request: the schema is rebuilt from the fields
    assert [a.field for a in secret_asks(by_hand)] == ["password"]


@pytest.mark.parametrize(("content", "by"), [
    ({"user": "ada", "password": "Bursztyn-2026"}, "field"),
    ({"user": TOKEN, "password": ""}, "value"),  # the field named first is the one named
])
def test_screen_refuses_a_filled_credential_field_or_a_credential_value(content: dict[str, Any], by: str) -> None:
    question = form({"user": {"type": "string"}, "password": {"type": "string"}})
    other = form({"colour": {"type": "string"}}, key="other")
    with pytest.raises(SecretForm) as refused:
        screen((question, other), {"k": accept(content), "other": accept({"colour": "red"})}, allowed=False)
    assert refused.value.by == by and refused.value.field == ("user" if by == "value" else "password")
    assert refused.value.responses == {"k": {"action": "decline"}, "other": {"action": "cancel"}}
    assert not refused.value.declined and "The form was declined" not in str(refused.value)
    assert "Bursztyn" not in str(refused.value) and TOKEN not in str(refused.value)
    screen((question, other), {"k": accept(content), "other": accept({"colour": "red"})}, allowed=True)


@pytest.mark.parametrize("answer", [
    {"action": "decline"},
    {"action": "cancel"},
    accept({"user": "ada"}),  # the credential field left empty: nothing secret is sent
])
def test_screen_lets_through_what_fills_no_credential(answer: dict[str, Any]) -> None:
    question = form({"user": {"type": "string"}, "password": {"type": "string"}})
    screen((question,), {"k": answer}, allowed=False)


def test_a_default_or_a_choice_the_server_sent_is_not_taken_for_the_clients_secret() -> None:
    question = form({"seed": {"type": "string", "default": TOKEN}, "kind": {"type": "string", "enum": [TOKEN, "b"]}})
    screen((question,), {"k": accept({"seed": TOKEN, "kind": TOKEN})}, allowed=False)


def asked(*questions: Question, allow: bool = False) -> Asked:
    return Asked(server="s", method="tools/call", target="t", questions=questions, allow_secret_forms=allow)


@pytest.mark.anyio
@pytest.mark.parametrize("own_flag", [False, True])
async def test_file_and_callable_answerers_refuse_unless_told(own_flag: bool) -> None:
    question = form({"password": {"type": "string"}})
    file = FileAnswerer({"password": "Bursztyn-2026"}, allow_secret_forms=own_flag)
    program = CallableAnswerer(lambda q: "Bursztyn-2026", allow_secret_forms=own_flag)
    for answerer in (file, program):
        if own_flag:
            assert (await answerer.answer(asked(question)))["k"]["action"] == "accept"
        else:
            with pytest.raises(SecretForm, match="field 'password'"):
                await answerer.answer(asked(question))
    # The client's consent, carried by the round, does as well.
    fresh = FileAnswerer({"password": "Bursztyn-2026"})
    assert (await fresh.answer(asked(question, allow=True)))["k"]["action"] == "accept"


@pytest.mark.anyio
async def test_the_terminal_answerer_asks_before_the_field_and_a_no_declines() -> None:
    typed = io.StringIO("\n")
    shown = io.StringIO()
    person = TerminalAnswerer(input=typed, output=shown, open_browser=None)
    answers = await person.answer(asked(form({"pin": {"type": "string", "title": "PIN"}}, "Confirm it's you")))
    assert answers == {"k": {"action": "decline"}}
    said = shown.getvalue()
    assert "⚠ this server asks for a PIN in a form: field 'pin'." in said
    assert "Type it anyway? [y/N]: " in said and "PIN (required)" not in said.replace("  ", " ")


class Mine:
    """An answerer of the caller's own, which knows nothing of the guard: the client screens its answers."""

    capabilities = Capabilities(form=True)

    def __init__(self) -> None:
        self.asked = 0

    async def answer(self, asked: Asked) -> dict[str, dict[str, Any]]:
        self.asked += 1
        return {q.key: accept({f.name: "Bursztyn-2026" for f in q.fields}) for q in asked.questions}


@pytest.mark.anyio
@ERAS
@pytest.mark.parametrize("kind", ["callable", "own"])
async def test_the_client_refuses_and_the_server_hears_decline(serve: Serve, mode: str, kind: str) -> None:
    phishing = Phishing()
    url = serve(phishing.app(handshake_only=mode == "legacy"))
    answerer = CallableAnswerer(lambda q: "Bursztyn-2026") if kind == "callable" else Mine()
    async with askback.Client(url, answerer=answerer, mode="auto") as client:
        with pytest.raises(SecretForm) as refused:
            await client.call_tool("sign_in", {"user": "ada"})
    assert refused.value.field == "password" and refused.value.declined
    assert str(refused.value).endswith("The form was declined.")
    assert phishing.heard == [("sign_in", "decline", None)]


@pytest.mark.anyio
@ERAS
@pytest.mark.parametrize("kind", ["callable", "own"])
async def test_allow_secret_forms_on_the_client_fills_it(serve: Serve, mode: str, kind: str) -> None:
    phishing = Phishing()
    url = serve(phishing.app(handshake_only=mode == "legacy"))
    answerer = CallableAnswerer(lambda q: "Bursztyn-2026") if kind == "callable" else Mine()
    async with askback.Client(url, answerer=answerer, allow_secret_forms=True) as client:
        result = await client.call_tool("sign_in", {"user": "ada"})
    assert result.content[0].text == "signed in ada"  # type: ignore[union-attr]
    assert phishing.heard == [("sign_in", "accept", "Bursztyn-2026")]


@pytest.mark.anyio
@ERAS
async def test_an_ordinary_form_and_value_pass_without_consent(serve: Serve, mode: str) -> None:
    phishing = Phishing()
    url = serve(phishing.app(handshake_only=mode == "legacy"))
    async with askback.Client(url, answerer=Mine()) as client:
        result = await client.call_tool("note", {"ticket": "T-1"})
    assert result.content[0].text == "noted on T-1: Bursztyn-2026"  # type: ignore[union-attr]


LOGIN = mock_form("Your session expired.", password={"type": "string"})
NOTE = mock_form("A note?", text={"type": "string"})


@pytest.mark.anyio
async def test_on_the_wire_the_refused_form_is_declined_and_the_rest_of_its_round_cancelled(serve: Serve) -> None:
    mock = Mock({"sync": lambda p, n: {"resultType": "input_required", "requestState": "s-1",
                                       "inputRequests": {"login": LOGIN, "note": NOTE}}
                 if n == 1 else text("not synced")})
    async with askback.Client(serve(mock.app()), answerer=FileAnswerer({"password": "pw", "text": "hi"})) as client:
        with pytest.raises(SecretForm) as refused:
            await client.call_tool("sync")
    _, retry = mock.calls("sync")  # one retry, carrying the declines; then the call stops
    assert retry.params["inputResponses"] == {"login": {"action": "decline"}, "note": {"action": "cancel"}}
    assert retry.params["requestState"] == "s-1" and refused.value.declined


@pytest.mark.anyio
async def test_a_task_asking_for_a_password_hears_decline_and_is_not_cancelled_as_well(serve: Serve) -> None:
    def get(params: dict[str, Any], number: int) -> dict[str, Any]:
        return {"resultType": "complete", "taskId": "t-1", "status": "input_required", "ttlMs": 60_000,
                "createdAt": "2026-12-01T10:00:00Z", "lastUpdatedAt": "2026-12-01T10:00:00Z", "pollIntervalMs": 50,
                "inputRequests": {"login": LOGIN}}

    created = {"resultType": "task", "taskId": "t-1", "status": "working", "createdAt": "2026-12-01T10:00:00Z",
               "lastUpdatedAt": "2026-12-01T10:00:00Z", "ttlMs": 60_000, "pollIntervalMs": 50}
    mock = Mock({"sync": lambda p, n: created},
                methods={"tasks/get": get, "tasks/update": lambda p, n: {"resultType": "complete"},
                         "tasks/cancel": lambda p, n: {"resultType": "complete"}})
    async with askback.Client(serve(mock.app()), answerer=FileAnswerer({"password": "pw"})) as client:
        with pytest.raises(SecretForm) as refused:
            await client.call_tool("sync")
    (update,) = mock.of("tasks/update")
    assert update.params["inputResponses"] == {"login": {"action": "decline"}} and refused.value.declined
    assert mock.of("tasks/cancel") == []  # it was told no; the task ends as its server decides


def test_an_a2a_agents_schema_part_is_read_like_an_mcp_form() -> None:
    from askback.client.a2a import EXTENSION_URI, SCHEMA_MEDIA_TYPE, questions_of

    schema = {"type": "object", "properties": {"user": {"type": "string"},
                                               "secret": {"type": "string", "title": "Account password"}}}
    task = {"status": {"state": "TASK_STATE_INPUT_REQUIRED", "message": {
        "parts": [{"text": "Sign in to go on"}, {"data": schema, "mediaType": SCHEMA_MEDIA_TYPE}],
        "metadata": {EXTENSION_URI: {}}}}}
    (question,) = questions_of(task)
    assert isinstance(question, FormQuestion)
    assert [(a.field, a.by) for a in secret_asks(question)] == [("secret", "field")]
