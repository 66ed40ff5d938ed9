"""The answerers on their own: a file, a callable, and a person (the terminal, fed from a string)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from askback.client import (
    AnswerRejected,
    Asked,
    CallableAnswerer,
    FileAnswerer,
    InvalidAnswer,
    NoMoreInput,
    Postpone,
    TerminalAnswerer,
    UnknownQuestion,
    decline,
)
from askback.client.questions import Question, parse_question
from askback.types import Capabilities

pytestmark = pytest.mark.anyio

TO = {"method": "elicitation/create", "params": {"mode": "form", "message": "transfer needs a value for \"IBAN\".",
      "requestedSchema": {"type": "object", "required": ["to"], "properties": {
          "to": {"type": "string", "minLength": 15, "title": "To", "description": "Recipient IBAN"}}}}}
ACCOUNT = {"method": "elicitation/create", "params": {"mode": "form", "message": "Choose an account.",
           "requestedSchema": {"type": "object", "required": ["from_account"], "properties": {"from_account": {
               "type": "string", "title": "From account",
               "oneOf": [{"const": "DE89", "title": "Everyday"}, {"const": "DE02", "title": "Savings"}]}}}}}
PALETTE = {"method": "elicitation/create", "params": {"message": "Colour?", "requestedSchema": {
    "type": "object", "required": ["shades"],
    "properties": {"colour": {"type": "string", "default": "blue"}, "shades": {"type": "integer"}}}}}
URL = {"method": "elicitation/create", "params": {"mode": "url", "message": "Connect your bank",
       "url": "https://bank.example.net/connect?session=abc"}}
IBAN = "DE44500105175407324931"


def asked(**requests: dict[str, Any]) -> Asked:
    questions: tuple[Question, ...] = tuple(parse_question(k, r) for k, r in requests.items())
    return Asked(server="bank", method="tools/call", target="transfer", questions=questions,
                 server_url="http://127.0.0.1:8000/mcp")


# -- file ------------------------------------------------------------------------------------------------
async def test_file_answers_by_key_or_field_name_with_defaults(tmp_path: Path) -> None:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps({"to": IBAN, "from_account": "savings", "shades": 3}))
    answers = await FileAnswerer(path).answer(asked(to=TO, account=ACCOUNT, **{"sdk:palette": PALETTE}))
    assert answers == {"to": {"action": "accept", "content": {"to": IBAN}},
                       "account": {"action": "accept", "content": {"from_account": "DE02"}},
                       "sdk:palette": {"action": "accept", "content": {"colour": "blue", "shades": 3}}}
    by_key = FileAnswerer({"sdk:palette": {"colour": "red", "shades": 2}})
    assert (await by_key.answer(asked(**{"sdk:palette": PALETTE})))["sdk:palette"]["content"] == {
        "colour": "red", "shades": 2}
    assert (await FileAnswerer({"to": {"action": "decline"}}).answer(asked(to=TO)))["to"] == decline()


async def test_file_names_the_question_it_cannot_answer_or_postpones() -> None:
    with pytest.raises(UnknownQuestion, match="no answer for the question 'account' \\(fields: from_account\\)"):
        await FileAnswerer({"to": IBAN}).answer(asked(to=TO, account=ACCOUNT))
    with pytest.raises(Postpone):
        await FileAnswerer({"to": IBAN}, missing="postpone").answer(asked(to=TO, account=ACCOUNT))
    with pytest.raises(InvalidAnswer, match=r"'to'.*at least 15 characters"):
        await FileAnswerer({"to": "DE44"}).answer(asked(to=TO))


async def test_file_stops_when_the_server_asks_the_same_question_again() -> None:
    answerer = FileAnswerer({"to": IBAN})
    await answerer.answer(asked(to=TO))
    with pytest.raises(AnswerRejected, match="did not accept the answer to 'to'"):
        await answerer.answer(asked(to=TO))


async def test_file_accepts_url_steps_only_when_it_says_so_and_prints_the_url() -> None:
    other = {"method": "elicitation/create", "params": {"mode": "url", "message": "Approve",
                                                        "url": "https://xn--bnk-qla.example/p/2"}}
    with pytest.raises(UnknownQuestion, match='a step on a web page: "accept_url": true in the answers accepts it'):
        await FileAnswerer({"to": IBAN}, url=True).answer(asked(link=URL))
    err = io.StringIO()
    everything = FileAnswerer({"accept_url": True}, output=err)
    assert everything.capabilities == Capabilities(form=True, url=True)  # it can honour URL steps: declared
    assert await everything.answer(asked(link=URL, ok=other)) == {"link": {"action": "accept"},
                                                                 "ok": {"action": "accept"}}
    lines = err.getvalue().splitlines()
    assert "askback: bank asks for a step on a web page (link): Connect your bank" in lines
    assert "askback: open https://bank.example.net/connect?session=abc" in lines
    assert any(line.startswith("askback: warning: the host is written in punycode") for line in lines)
    everything.waiting(asked(link=URL), 12)
    assert err.getvalue().endswith("askback: waiting for the page step to finish… (at most 12 s)\n")
    some = FileAnswerer({"accept_url": ["ok"], "link": False}, output=io.StringIO())
    assert await some.answer(asked(link=URL, ok=other)) == {"link": decline(), "ok": {"action": "accept"}}
    with pytest.raises(Postpone):
        await FileAnswerer({"accept_url": ["ok"]}, missing="postpone").answer(asked(link=URL))
    with pytest.raises(Exception, match='"accept_url" in the answers must be true, false or a list'):
        FileAnswerer({"accept_url": "yes"})


async def test_file_accepts_a_url_step_again_only_when_its_url_is_new() -> None:
    answerer = FileAnswerer({"accept_url": True}, output=io.StringIO())
    await answerer.answer(asked(link=URL))
    moved = {"method": "elicitation/create", "params": {**URL["params"], "url": "https://bank.example.net/2"}}
    assert await answerer.answer(asked(link=moved)) == {"link": {"action": "accept"}}
    with pytest.raises(AnswerRejected):
        await answerer.answer(asked(link=moved))


def test_file_declares_forms_only_unless_told(tmp_path: Path) -> None:
    assert FileAnswerer({}).capabilities == Capabilities(form=True)
    assert FileAnswerer({}, url=True, sampling=True).capabilities == Capabilities(form=True, url=True, sampling=True)
    bad = tmp_path / "list.json"
    bad.write_text("[1]")
    with pytest.raises(Exception, match="must hold a JSON object"):
        FileAnswerer(bad)


# -- callable --------------------------------------------------------------------------------------------
async def test_callable_plain_and_async_values_are_validated() -> None:
    async def fill(question: Question) -> Any:
        return IBAN if question.key == "to" else "Everyday"

    assert await CallableAnswerer(fill).answer(asked(to=TO, account=ACCOUNT)) == {
        "to": {"action": "accept", "content": {"to": IBAN}},
        "account": {"action": "accept", "content": {"from_account": "DE89"}}}
    with pytest.raises(InvalidAnswer):
        await CallableAnswerer(lambda q: "short").answer(asked(to=TO))


# -- terminal --------------------------------------------------------------------------------------------
def terminal(lines: list[str], **kw: Any) -> tuple[TerminalAnswerer, io.StringIO]:
    out = io.StringIO()
    return TerminalAnswerer(input=io.StringIO("".join(line + "\n" for line in lines)), output=out, **kw), out


async def test_terminal_shows_fields_reprompts_on_bad_entries_and_lets_the_person_edit() -> None:
    person, out = terminal(["DE44", IBAN, "3", "Savings", "1", IBAN[:-1] + "2", "y"])
    answers = await person.answer(asked(to=TO, account=ACCOUNT))
    assert answers == {"to": {"action": "accept", "content": {"to": IBAN[:-1] + "2"}},
                       "account": {"action": "accept", "content": {"from_account": "DE02"}}}
    shown = out.getvalue()
    assert "bank asks 2 questions for the tool transfer" in shown
    assert "Recipient IBAN" in shown and "text, at least 15 characters" in shown
    assert "1) Everyday  [DE89]" in shown and "2) Savings  [DE02]" in shown
    assert "Not accepted: must be at least 15 characters long (this one is 4). Try again." in shown
    assert "Not accepted: '3' is not one of the options (Everyday, Savings). Try again." in shown
    assert "2. From account: Savings" in shown


async def test_terminal_defaults_decline_cancel_and_end_of_input() -> None:
    person, _ = terminal(["", "/decline", "x", ""])
    answers = await person.answer(asked(**{"sdk:palette": PALETTE}))
    assert answers == {"sdk:palette": {"action": "decline"}}
    person, _ = terminal(["/cancel", ""])
    assert (await person.answer(asked(to=TO)))["to"] == {"action": "cancel"}
    person, _ = terminal(["", "2", ""])  # Enter takes the default colour; then shades 2; then send
    assert (await person.answer(asked(**{"sdk:palette": PALETTE})))["sdk:palette"]["content"] == {
        "colour": "blue", "shades": 2}
    person, _ = terminal([IBAN])  # one field answered at its own prompt: sent without a second review
    assert (await person.answer(asked(to=TO)))["to"]["content"] == {"to": IBAN}
    person, _ = terminal([])
    with pytest.raises(NoMoreInput):
        await person.answer(asked(to=TO))


async def test_terminal_url_step_shows_the_whole_url_and_its_host_and_asks_consent() -> None:
    opened: list[str] = []
    person, out = terminal(["n"], open_browser=lambda url: opened.append(url) or True)
    assert await person.answer(asked(link=URL)) == {"link": {"action": "accept"}}
    assert opened == []  # the person will open it themselves: nothing was opened
    shown = out.getvalue()
    assert "    https://bank.example.net/connect?session=abc\n            ^^^^^^^^^^^^^^^^\n" in shown
    assert "host: bank.example.net" in shown
    assert "! it is not the host of the MCP server you called (127.0.0.1)" in shown
    assert "Press Enter when you have finished" not in shown  # the client waits for the page, not the person
    person, _ = terminal(["maybe", "y"], open_browser=lambda url: opened.append(url) or True)
    await person.answer(asked(link=URL))
    assert opened == ["https://bank.example.net/connect?session=abc"]
    person, _ = terminal(["/decline"], open_browser=lambda url: opened.append(url) or True)
    assert await person.answer(asked(link=URL)) == {"link": {"action": "decline"}}
    assert TerminalAnswerer(url=False).capabilities == Capabilities(form=True)


async def test_terminal_url_step_without_a_browser_prints_the_url_and_a_failed_browser_is_said() -> None:
    person, out = terminal([""], open_browser=None)
    assert await person.answer(asked(link=URL)) == {"link": {"action": "accept"}}
    assert "No browser to open here: open the URL above yourself." in out.getvalue()
    person, out = terminal(["y"], open_browser=lambda url: False)
    assert await person.answer(asked(link=URL)) == {"link": {"action": "accept"}}
    assert "The browser could not be started: open the URL above yourself." in out.getvalue()
    person.waiting(asked(link=URL), 300)
    assert out.getvalue().endswith("Waiting for the page step to finish… (Ctrl-C to stop; at most 300 s)\n")


async def test_terminal_never_opens_a_link_that_is_not_a_web_address() -> None:
    opened: list[str] = []
    script = {"method": "elicitation/create", "params": {"mode": "url", "message": "Go",
                                                         "url": "javascript:alert(1)"}}
    person, out = terminal([""], open_browser=lambda url: opened.append(url) or True)
    assert await person.answer(asked(link=script)) == {"link": {"action": "accept"}}
    assert opened == [] and "this is not a web address (javascript): it is not opened" in out.getvalue()


@pytest.mark.parametrize(("url", "warning"), [
    ("https://xn--bnk-qla.example/askback/p/T", "written in punycode (xn--): it reads as 'bänk.example'"),
    ("https://pаypal.example/login", "mixes letters of several scripts (Cyrillic, Latin)"),
    ("https://127.0.0.1:8000@evil.example/p", "the part before '@' (127.0.0.1:8000) is only a user name: "
                                              "the site is evil.example"),
    ("http://bank.example/key", "not encrypted (http://)"),
])
async def test_terminal_warns_about_a_look_alike_or_unsafe_link(url: str, warning: str) -> None:
    request = {"method": "elicitation/create", "params": {"mode": "url", "message": "Enter your key", "url": url}}
    person, out = terminal([""], open_browser=None)
    await person.answer(asked(link=request))
    warnings = [line for line in out.getvalue().splitlines() if line.startswith("    ! ")]
    assert any(warning in line for line in warnings), warnings


async def test_terminal_person_answers_sampling_when_allowed() -> None:
    sample = {"method": "sampling/createMessage", "params": {"maxTokens": 20, "messages": [
        {"role": "user", "content": {"type": "text", "text": "Capital of France?"}}]}}
    person, out = terminal(["Paris", ""], sampling=True)
    answers = await person.answer(asked(s=sample))
    assert answers["s"]["content"] == {"type": "text", "text": "Paris"}
    assert "user: Capital of France?" in out.getvalue()


GITHUB = {"method": "elicitation/create", "params": {"mode": "form", "message": "Your GitHub login?",
          "requestedSchema": {"type": "object", "required": ["github_login"], "properties": {
              "github_login": {"type": "string", "title": "Github login"}}}}}


@pytest.mark.parametrize("at", [1, 2])
async def test_terminal_cancel_at_one_question_cancels_the_whole_round_unasked(at: int) -> None:
    lines = [IBAN, "/cancel"] if at == 2 else ["/cancel"]
    person, out = terminal(lines)
    answers = await person.answer(asked(to=TO, account=ACCOUNT, login=GITHUB))
    assert answers == {"to": {"action": "cancel"}, "account": {"action": "cancel"}, "login": {"action": "cancel"}}
    shown = out.getvalue()
    assert "cancelled." in shown and "The other questions are not asked." in shown
    assert "Github login" not in shown and "Your answers:" not in shown  # neither asked nor reviewed
    if at == 1:
        assert "From account" not in shown


async def test_terminal_cancel_while_changing_an_answer_cancels_the_round() -> None:
    person, out = terminal([IBAN, "1", "1", "/cancel"])  # answer both, change #1, then /cancel
    answers = await person.answer(asked(to=TO, account=ACCOUNT))
    assert answers == {"to": {"action": "cancel"}, "account": {"action": "cancel"}}
    assert out.getvalue().count("Your answers:") == 1


async def test_terminal_decline_still_asks_the_rest() -> None:
    person, _ = terminal(["/decline", "1", "y"])
    answers = await person.answer(asked(to=TO, account=ACCOUNT))
    assert answers == {"to": {"action": "decline"},
                       "account": {"action": "accept", "content": {"from_account": "DE89"}}}


async def test_file_yes_and_no_words_read_as_the_terminal_reads_them() -> None:
    confirm = {"method": "elicitation/create", "params": {"message": "Send?", "requestedSchema": {
        "type": "object", "required": ["confirm"], "properties": {"confirm": {"type": "boolean"}}}}}
    for word, meaning in (("yes", True), ("No", False), ("true", True)):
        answers = await FileAnswerer({"confirm": word}).answer(asked(confirm=confirm))
        assert answers == {"confirm": {"action": "accept", "content": {"confirm": meaning}}}
    with pytest.raises(InvalidAnswer, match=r"expected yes or no \(true or false\)"):
        await FileAnswerer({"confirm": "sure"}).answer(asked(confirm=confirm))
