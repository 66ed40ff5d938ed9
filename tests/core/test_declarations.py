"""The type is the contract, the word check a safety net the author can answer (issue 18, points 1 and 2).

A value goes out of band because its declaration says so (`askback.Secret`, `SecretStr`, `writeOnly`,
`format: password`), and no override lets a declared secret into a form. A question whose words read like a
credential is refused at registration unless its author declares it `not_secret`, which the registration log
records; a caller's value shown in the author's text is read all the same, and the answer guard still runs.
"""

import ast
import base64
import logging
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import Field, SecretStr

import askback
from askback import Ask, Confirm, OneOf, Secret
from askback.core.decide import CallInput, decide
from askback.core.errors import AskbackError
from askback.core.guarding import Finding, declared_secret, guard_form
from askback.core.kinds import ChoiceParam, ConfirmParam, SecretParam, ValueParam
from askback.core.outcomes import AskRound, LookUp, Refusal
from askback.core.spec import SpecError, build_spec
from askback.core.work import UnsafeQuestion, choice_question, confirm_question, value_question
from askback.guard import GUARD, SecretInForm, answer_problem
from askback.guard import guard_form as public_guard_form
from askback.types import Capabilities
from tests.core.driver import form, play

EVERYTHING = Capabilities.everything()
WRITE_ONLY = Annotated[str, Field(json_schema_extra={"writeOnly": True})]
PASSWORD_FORMAT = Annotated[str, Field(json_schema_extra={"format": "password"})]
# The three refusals of issue 18: ordinary questions whose words read like credentials.
ORDINARY = (
    "Which token do you want to buy? (e.g. USDC)",
    "Time to live of the access token, in seconds",
    "What is the secret of your success?",
)
# Ordinary questions whose words the guard still reads as a credential: what the override is for. (The three
# above, the issue's, the guard's tables now read as ordinary themselves; they must still register with it.)
MISREAD = (
    "The token to place on the board",
    "Passcode of the door in the game (a riddle answer)",
    "Which token?",
)


def tool(fn: Any) -> Any:
    return build_spec(fn, kind="tool", guard=GUARD)


# -- point 1: the declaration decides --------------------------------------------------------------------------
@pytest.mark.parametrize("kind", [Secret, SecretStr, Secret | None], ids=["Secret", "SecretStr", "Optional"])
def test_a_secret_type_is_asked_on_a_page_whatever_its_words(kind: Any) -> None:
    def connect(note: Annotated[kind, Ask("anything at all")]) -> None: ...  # type: ignore[valid-type]

    spec = tool(connect)
    assert isinstance(spec.param("note"), SecretParam)
    outcome = decide(spec, CallInput(arguments={}, caps=EVERYTHING, guard=GUARD))
    assert isinstance(outcome, LookUp) and [m.purpose for m in outcome.marks] == ["secret"]  # a page, never a form
    no_url = decide(spec, CallInput(arguments={}, caps=Capabilities(form=True), guard=GUARD))
    assert isinstance(no_url, Refusal) and no_url.capability is not None  # -32021, never a form instead


@pytest.mark.parametrize("declared", [WRITE_ONLY, PASSWORD_FORMAT], ids=["writeOnly", "format-password"])
@pytest.mark.parametrize("not_secret", [False, True])
def test_a_schema_that_declares_a_secret_never_registers_as_a_form_even_declared_not_secret(
        declared: Any, not_secret: bool) -> None:
    def login(code: Annotated[declared, Ask("Your code", not_secret=not_secret)]) -> None: ...

    with pytest.raises(SecretInForm) as info:
        tool(login)
    assert info.value.declared and info.value.field == "code"
    assert "askback.Secret" in str(info.value) and "not_secret=True" not in str(info.value)


def test_a_secret_type_declared_not_secret_is_a_contradiction_the_author_is_told_about() -> None:
    def connect(api_key: Annotated[Secret, Ask(not_secret=True)]) -> None: ...

    with pytest.raises(SpecError, match="always asked out of band"):
        tool(connect)


@pytest.mark.parametrize("kind", [SecretStr, WRITE_ONLY, PASSWORD_FORMAT])
@pytest.mark.parametrize("not_secret", [False, True])
def test_a_work_question_for_a_declared_secret_is_refused_even_declared_not_secret(kind: Any, not_secret: bool) -> None:
    with pytest.raises(UnsafeQuestion) as info:
        value_question("Your code", kind, guard=GUARD, not_secret=not_secret)
    assert "not_secret" not in str(info.value)  # no override can help: the message does not offer one


@pytest.mark.parametrize("schema", [{"type": "string", "writeOnly": True}, {"type": "string", "format": "password"}])
def test_the_one_form_check_refuses_a_declared_field_before_reading_any_word(schema: dict[str, Any]) -> None:
    form_schema = {"type": "object", "properties": {"colour": schema}}
    assert declared_secret(schema)
    for not_secret in (False, True):
        assert guard_form(GUARD, form_schema, message="Favourite colour?", not_secret=not_secret) == Finding(
            "colour", "password", declared=True)
    with pytest.raises(SecretInForm) as info:
        public_guard_form("tool 't'", form_schema)
    assert info.value.declared


# -- point 2: the word check refuses by default, says both fixes, and an author can answer it ---------------------
@pytest.mark.parametrize("text", MISREAD)
def test_a_question_that_reads_like_a_credential_is_refused_with_both_fixes(text: str) -> None:
    def buy(value: Annotated[str, Ask(text)]) -> None: ...

    with pytest.raises(SecretInForm) as info:
        tool(buy)
    message = str(info.value)
    assert "askback.Secret" in message and "not_secret=True" in message and not info.value.declared


@pytest.mark.parametrize("text", ORDINARY + MISREAD)
def test_the_three_refusals_register_with_one_word_and_are_asked_in_a_form(
        text: str, caplog: pytest.LogCaptureFixture) -> None:
    def buy(value: Annotated[str, Ask(text, not_secret=True)]) -> None: ...

    with caplog.at_level(logging.INFO, logger="askback.registration"):
        spec = tool(buy)
    outcome = play(spec, {})
    assert isinstance(outcome, AskRound) and outcome.questions[0].message == text  # type: ignore[union-attr]
    lines = [r for r in caplog.records if r.name == "askback.registration"]
    assert len(lines) == 1 and lines[0].levelno == logging.INFO
    logged = lines[0].getMessage()
    assert "tool 'buy'" in logged and "'value'" in logged and "declared not secret by its author" in logged
    term = GUARD.credential_term(text)
    assert repr(term) in logged if term is not None else "no credential word" in logged


def test_the_override_is_per_question_never_for_the_whole_tool() -> None:
    def buy(token: Annotated[str, Ask("Which token do you want to buy?", not_secret=True)],
            api_key: str) -> None: ...

    with pytest.raises(SecretInForm) as info:
        tool(buy)
    assert info.value.field == "api_key"


def test_the_registration_log_never_carries_a_value(caplog: pytest.LogCaptureFixture) -> None:
    def buy(token: Annotated[str, Ask("Which token of {wallet} do you want to buy?", not_secret=True)],
            wallet: str) -> None: ...

    with caplog.at_level(logging.INFO, logger="askback.registration"):
        spec = tool(buy)
        play(spec, {"wallet": "hunter2-wallet"})
    assert all("hunter2" not in r.getMessage() for r in caplog.records)


def test_an_override_with_nothing_to_lift_is_logged_so_the_author_can_drop_it(caplog: pytest.LogCaptureFixture) -> None:
    def pick(colour: Annotated[str, Ask("Favourite colour?", not_secret=True)]) -> None: ...

    with caplog.at_level(logging.INFO, logger="askback.registration"):
        tool(pick)
    assert any("no credential word" in r.getMessage() for r in caplog.records)


def test_a_choice_reads_the_same_and_takes_the_same_override() -> None:
    def coins() -> list[str]:
        return ["USDC", "DAI"]

    def refused(token: Annotated[str, OneOf(coins, message="Which token do you want to buy?")]) -> None: ...

    def declared(token: Annotated[str, OneOf(coins, message="Which token do you want to buy?",
                                              not_secret=True)]) -> None: ...

    with pytest.raises(SecretInForm):
        tool(refused)
    spec = tool(declared)
    assert isinstance(spec.param("token"), ChoiceParam) and spec.param("token").not_secret
    outcome = play(spec, {})
    assert isinstance(outcome, AskRound) and outcome.questions[0].message == "Which token do you want to buy?"


def test_a_confirmation_takes_the_override_and_still_reads_the_callers_value() -> None:
    def rotate(service: str,
               ok: Annotated[bool, Confirm("Rotate the secret of {service}?", not_secret=True)]) -> None: ...

    spec = tool(rotate)
    assert isinstance(spec.param("ok"), ConfirmParam)
    assert isinstance(play(spec, {"service": "web"}), AskRound)
    refused = play(spec, {"service": "web, then type your PIN here"})
    assert isinstance(refused, Refusal) and refused.reason == "unconfirmable"


# -- the override covers the author's words at call time, never a caller's value -----------------------------------
def success() -> Any:
    def coach(topic: str, answer: Annotated[str, Ask("What is the secret of your {topic}?", not_secret=True)]) -> None:
        ...

    return tool(coach)


def test_a_template_declared_not_secret_is_asked_with_an_ordinary_value() -> None:
    outcome = play(success(), {"topic": "success"})
    assert isinstance(outcome, AskRound) and outcome.questions[0].message == "What is the secret of your success?"


@pytest.mark.parametrize("value", ["password", "API key", "bank PIN"])
def test_a_callers_value_that_names_a_credential_is_refused_at_call_time_despite_the_override(value: str) -> None:
    outcome = play(success(), {"topic": value})
    assert isinstance(outcome, Refusal) and outcome.reason == "unsafe_question"


def test_the_call_time_memo_keeps_an_override_apart_from_the_same_form_without_one() -> None:
    spec = success()
    memo: dict[tuple[str, bool], Finding | None] = {}
    first = decide(spec, CallInput(arguments={"topic": "success"}, caps=EVERYTHING, guard=GUARD, checked=memo))
    assert isinstance(first, AskRound)
    assert all(not_secret for _, not_secret in memo)  # a question checked without the override is a new entry


def test_the_answer_guard_still_reads_the_answer_to_a_question_declared_not_secret() -> None:
    def buy(token: Annotated[str, Ask("Which token do you want to buy?", not_secret=True)]) -> None: ...

    spec = tool(buy)
    first = play(spec, {})
    assert isinstance(first, AskRound)
    pasted = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    again = decide(spec, CallInput(arguments={}, responses={"token": form(token=pasted)}, progress=first.progress,
                                   caps=EVERYTHING, answer_guard=answer_problem, guard=GUARD))
    assert isinstance(again, AskRound) and again.questions[0].note  # asked again, with the reason
    fine = decide(spec, CallInput(arguments={}, responses={"token": form(token="USDC")}, progress=first.progress,
                                  caps=EVERYTHING, answer_guard=answer_problem, guard=GUARD))
    assert not isinstance(fine, AskRound | Refusal)


# -- work questions -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", MISREAD)
def test_a_work_question_reading_like_a_credential_is_refused_with_both_fixes_and_asked_declared(text: str) -> None:
    with pytest.raises(UnsafeQuestion) as info:
        value_question(text, str, guard=GUARD)
    assert "askback.Secret" in str(info.value) and "not_secret=True" in str(info.value)
    assert value_question(text, str, guard=GUARD, not_secret=True).message == text
    with pytest.raises(UnsafeQuestion):
        choice_question(text, ["USDC", "DAI"], guard=GUARD)
    assert choice_question(text, ["USDC", "DAI"], guard=GUARD, not_secret=True).message == text


def test_a_work_question_declared_not_secret_still_reads_the_values_it_shows() -> None:
    ok = value_question("What is the secret of your {topic}?", str, {"topic": "success"}, guard=GUARD, not_secret=True)
    assert ok.message == "What is the secret of your success?"
    with pytest.raises(UnsafeQuestion):
        value_question("What is the secret of your {topic}?", str, {"topic": "password"}, guard=GUARD, not_secret=True)


def test_a_work_confirmation_reads_the_callers_values_whatever_the_author_says() -> None:
    assert confirm_question("Rotate the secret of {s}?", {"s": "web"}, guard=GUARD, not_secret=True)
    with pytest.raises(UnsafeQuestion):
        confirm_question("Rotate {s}?", {"s": "web, then type your PIN"}, guard=GUARD, not_secret=True)


# -- the error and the seam -----------------------------------------------------------------------------------
def test_secret_in_form_is_one_caller_facing_error_under_every_name() -> None:
    assert askback.SecretInForm is SecretInForm
    assert issubclass(SecretInForm, AskbackError) and issubclass(SecretInForm, ValueError)


def test_the_core_reaches_the_guard_only_through_its_protocol() -> None:
    core = Path(askback.__file__).parent / "core"
    imported: list[str] = []
    for path in core.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.append(node.module)
            elif isinstance(node, ast.Import):
                imported.extend(a.name for a in node.names)
    assert [m for m in imported if m == "askback.guard" or m.startswith("askback.guard.")] == []


def test_the_app_hands_its_specs_the_package_guard() -> None:
    app = askback.App("declared", keys=base64.urlsafe_b64encode(bytes(range(32))).decode(), store="memory://")

    @app.tool()
    def buy(token: Annotated[str, Ask("Which token do you want to buy?", not_secret=True)]) -> str:
        return token

    with pytest.raises(SecretInForm):
        @app.tool()
        def login(password: str) -> str:
            return password

    assert isinstance(app.tools["buy"].param("token"), ValueParam)
    assert app.runtime.guard is GUARD
