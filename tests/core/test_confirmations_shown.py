"""What a person confirms is what runs: values whole (never cut), invisible characters spelled out, a choice with
its title beside its value, and no confirmation that a caller's value turns into a request for a credential.

Each rule is checked on the three places a person confirms: an in-band `Confirm`, an approval page's text and
table (`Confirm(out_of_band=True)`, read from the `MarkRequest` the page is minted from), and a task's
`work.confirm`.
"""

from __future__ import annotations

import inspect
import shutil
import subprocess
from collections.abc import Mapping
from typing import Annotated, Any

import pytest

import askback
from askback.client.inert import one_line as client_one_line
from askback.client.inert import shown as client_shown
from askback.core.confirming import MAX_CONFIRM_CHARS
from askback.core.decide import CallInput, decide
from askback.core.kinds import ChoiceParam
from askback.core.markers import Option
from askback.core.marks import MarkRequest
from askback.core.outcomes import AskRound, LookUp, Outcome, Refusal
from askback.core.questions import FormQuestion
from askback.core.spec import Spec
from askback.core.text import inert, render, show
from askback.core.work import UnconfirmableQuestion, confirm_question
from askback.guard import GUARD
from askback.invisible import IGNORABLE_RANGES, is_hidden
from askback.types import Capabilities
from tests.core.driver import form, play
from tests.support.redis import IN_CI

MALLORY = "DE00" + "0" * 250 + "-MALLORY-" + "9" * 37  # 300 characters; the tail is what matters
ACCOUNTS = [
    Option("DE89370400440532013000", "Everyday account (DE89 …3000)"),
    Option("DE02120300000000202051", "Savings account (DE02 …2051)"),
]

EVERYTHING = Capabilities.everything()


def accounts(caller: askback.Caller) -> list[Option]:
    return ACCOUNTS


def bank() -> askback.App:
    app = askback.App("bank")

    @app.tool()
    def pay(to: str, memo: str, ok: Annotated[bool, askback.Confirm("Pay {to} with memo {memo}?")]) -> str:
        return to

    @app.tool()
    def approve(to: str, memo: str,
                ok: Annotated[bool, askback.Confirm("Pay {to}?", out_of_band=True)]) -> str:
        return to

    @app.tool()
    def move(source: Annotated[str, askback.OneOf(accounts)], amount: int,
             ok: Annotated[bool, askback.Confirm("Move {amount} EUR from {source}?")]) -> str:
        return source

    @app.tool()
    def move_approved(source: Annotated[str, askback.OneOf(accounts)], amount: int,
                      ok: Annotated[bool, askback.Confirm("Move {amount} EUR?", out_of_band=True)]) -> str:
        return source

    @app.tool()
    def split(sources: Annotated[list[str], askback.OneOf(accounts)],
              ok: Annotated[bool, askback.Confirm("Split between {sources}?")]) -> str:
        return ",".join(sources)

    return app


APP = bank()


def spec(name: str) -> Spec:
    return APP.tools[name]


def confirm_text(name: str, arguments: Mapping[str, Any]) -> str:
    """The in-band confirmation's text for a call whose every value is an argument."""
    outcome = play(spec(name), arguments)
    assert isinstance(outcome, AskRound), outcome
    (question,) = [q for q in outcome.questions if isinstance(q, FormQuestion)]
    assert question.key == "ok"
    return question.message


def approval(name: str, arguments: Mapping[str, Any]) -> MarkRequest | Refusal:
    """What the approval page would be minted from (or the refusal instead of a page)."""
    options: dict[str, list[Option]] = {}
    while True:
        call = CallInput(arguments=arguments, caps=Capabilities.everything(), options=options, guard=GUARD)
        outcome = decide(spec(name), call)
        if isinstance(outcome, Refusal):
            return outcome
        assert isinstance(outcome, LookUp), outcome
        if outcome.marks:
            (request,) = outcome.marks
            return request
        for option_name in outcome.options:
            p = spec(name).param(option_name)
            assert isinstance(p, ChoiceParam)
            raw = p.marker.provider(outcome.caller)
            assert not inspect.isawaitable(raw)
            options[option_name] = list(raw)


# -- values are shown whole --------------------------------------------------------------------------------
def test_a_long_value_is_never_cut_in_band_on_a_page_or_in_a_task() -> None:
    text = confirm_text("pay", {"to": MALLORY, "memo": "rent"})
    assert text == f"Pay {MALLORY} with memo rent?" and "…" not in text
    page = approval("approve", {"to": MALLORY, "memo": "rent"})
    assert isinstance(page, MarkRequest)
    assert page.message == f"Pay {MALLORY}?" and dict(page.summary)["to"] == MALLORY
    assert confirm_question("Pay {to}?", {"to": MALLORY}, guard=GUARD).message == f"Pay {MALLORY}?"
    assert show(["ada", MALLORY]) == f"ada, {MALLORY}"
    assert render("{x}", {"x": {"to": MALLORY}}, whole=True) == f"to: {MALLORY}"


def test_a_secret_pages_reason_shows_its_value_whole_while_an_ordinary_question_keeps_its_marked_cut() -> None:
    app = askback.App("keys")

    @app.tool()
    def connect(bank: str, key: Annotated[askback.Secret, askback.Ask("the API key of {bank}")]) -> str:
        return bank

    @app.tool()
    def note(document: str, tone: Annotated[str, askback.Ask("Which tone for {document}?")]) -> str:
        return tone

    page = decide(app.tools["connect"], CallInput(arguments={"bank": MALLORY}, caps=EVERYTHING, guard=GUARD))
    assert isinstance(page, LookUp) and page.marks[0].message == f"the API key of {MALLORY}"
    # a question is answered, not approved: a long value in its text is cut, visibly, as before, so the secret
    # guard reads the question rather than every word of a document quoted into it
    document = "Reset your password at the login page. " * 100
    asked = play(app.tools["note"], {"document": document})
    assert isinstance(asked, AskRound)
    message = asked.questions[0].message
    assert message == f"Which tone for {document[:199]}…?" and len(message) < len(document)


def test_a_value_at_the_bound_is_asked_and_one_past_it_is_refused_not_cut() -> None:
    at_bound = "a" * MAX_CONFIRM_CHARS
    assert confirm_text("pay", {"to": at_bound, "memo": "m"}) == f"Pay {at_bound} with memo m?"
    assert isinstance(approval("approve", {"to": "bob", "memo": at_bound}), MarkRequest)
    for refused in (play(spec("pay"), {"to": "bob", "memo": at_bound + "b"}),
                    approval("approve", {"to": "bob", "memo": at_bound + "b"})):
        assert isinstance(refused, Refusal) and refused.reason == "unconfirmable" and refused.is_error
        assert "memo" in refused.message and f"{MAX_CONFIRM_CHARS + 1:,} characters" in refused.message
        assert "Nothing was done." in refused.message and "aaaa" not in refused.message
    with pytest.raises(UnconfirmableQuestion, match="the value of to is 2,001 characters"):
        confirm_question("Pay {to}?", {"to": at_bound + "b"}, guard=GUARD)


def test_the_bound_counts_the_value_as_shown_with_invisible_characters_spelled_out() -> None:
    hidden = "\u3164" * (MAX_CONFIRM_CHARS // 8 + 1)  # each is shown as <U+3164>, eight characters
    refused = play(spec("pay"), {"to": hidden, "memo": "m"})
    assert isinstance(refused, Refusal) and refused.reason == "unconfirmable"


# -- invisible characters are spelled out, wherever caller text is rendered inert --------------------------
# Default_Ignorable_Code_Point beyond Cf: fillers that are letters, a combining joiner, variation selectors,
# Khmer inherent vowels, and reserved default-ignorable code points.
IGNORABLE = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u034f", "\u17b4", "\u17b5", "\u180b", "\u180f", "\ufe00",
             "\ufe0f", "\U000e0100", "\U000e01ef", "\u2065", "\ufff0", "\U000e0fff"]


@pytest.mark.parametrize("char", IGNORABLE, ids=[f"U+{ord(c):04X}" for c in IGNORABLE])
def test_a_default_ignorable_character_is_visible_in_every_confirmation(char: str) -> None:
    plain, padded = "Alice", f"Alice{char}{char}"
    token = f"<U+{ord(char):04X}>"
    assert confirm_text("pay", {"to": padded, "memo": "m"}) == f"Pay Alice{token}{token} with memo m?"
    assert confirm_text("pay", {"to": plain, "memo": "m"}) != confirm_text("pay", {"to": padded, "memo": "m"})
    page = approval("approve", {"to": padded, "memo": "m"})
    assert isinstance(page, MarkRequest) and dict(page.summary)["to"] == f"Alice{token}{token}"
    assert token in page.message
    assert confirm_question("Pay {to}?", {"to": padded}, guard=GUARD).message == f"Pay Alice{token}{token}?"
    # the terminal client applies the same rule to what a server sends
    assert client_shown(padded) == client_one_line(padded) == f"Alice{token}{token}"


def test_runs_of_spaces_and_ordinary_scripts_are_shown_as_they_are() -> None:
    ordinary = ["Alice  Smith", "  leading", "Zoë Ångström", "東京都", "한국어 이름", "مرحبا", "שלום", "🙂", "a\u00a0b"]
    for text in ordinary:
        assert inert(text) == text and client_shown(text) == text
        assert confirm_text("pay", {"to": text, "memo": "m"}) == f"Pay {text} with memo m?"


def test_the_ignorable_table_is_unicodes_default_ignorable_property() -> None:
    """Every Default_Ignorable_Code_Point is hidden, and the table lists exactly those that are not Cf, as Perl's
    Unicode tables (derived from DerivedCoreProperties.txt) read the property: an independent source."""
    perl = shutil.which("perl")
    if perl is None:
        message = "perl is not installed: it is the independent reading of Default_Ignorable_Code_Point"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    script = (
        "for my $c (0..0x10FFFF) { next if $c >= 0xD800 && $c <= 0xDFFF; my $ch = chr($c);"
        " print sprintf('%X %d', $c, $ch =~ /\\p{Cf}/ ? 1 : 0), qq(\\n)"
        " if $ch =~ /\\p{Default_Ignorable_Code_Point}/ }"
    )
    listed = subprocess.run([perl, "-e", script], capture_output=True, text=True, check=True, timeout=120).stdout
    ignorable = {int(code, 16): flag == "1" for code, flag in (line.split() for line in listed.splitlines())}
    assert len(ignorable) > 4000 and 0x3164 in ignorable and 0x200B in ignorable
    assert [c for c in ignorable if not is_hidden(chr(c))] == []
    table = {c for a, b in IGNORABLE_RANGES for c in range(a, b + 1)}
    beyond_cf = {c for c, is_cf in ignorable.items() if not is_cf}
    assert beyond_cf <= table and {c for c in table - beyond_cf if c not in ignorable} == set()


# -- a caller's value that asks for a credential is refused at call time ----------------------------------
ASKING = [
    "and type your PIN",
    "then reply with your one-time code",
    "and paste your API key below",
    "and enter your online banking password",
    "and tell us your CVV",
    "und geben Sie Ihre PIN ein",
    "et saisissez votre mot de passe",
    "e introduzca su contraseña",
    "и введите пароль",
    "i podaj swój PIN",
    "并输入您的密码",
    "and ty\u200bpe your P\u200bIN",
    "and type your p1n",
]
ORDINARY = ["pin it", "secrets.txt", "PIN", "password reset party", "token sale", "my bearer token for lunch", "otp",
            "Alice", "DE89370400440532013000", "Type your name on the card", "Send it on Monday"]


def approve_app() -> askback.App:
    app = askback.App("approvals")

    @app.tool()
    def approve(item: str, ok: Annotated[bool, askback.Confirm("Approve {item}?")]) -> str:
        return item

    @app.tool()
    def approve_on_page(item: str, ok: Annotated[bool, askback.Confirm("Approve {item}?", out_of_band=True)]) -> str:
        return item

    @app.tool()
    def rotate(service: str, note: str = "",
               ok: Annotated[bool, askback.Confirm("Rotate the API key of {service}?", out_of_band=True)] = False,
               ) -> str:
        return service

    return app


APPROVALS = approve_app()


@pytest.mark.parametrize("item", ASKING)
def test_a_confirmation_a_callers_value_turns_into_a_credential_request_is_refused(item: str) -> None:
    for tool in ("approve", "approve_on_page"):
        outcome = play(APPROVALS.tools[tool], {"item": item}) if tool == "approve" else _approval(tool, item)
        assert isinstance(outcome, Refusal), (tool, outcome)
        assert outcome.reason == "unconfirmable" and outcome.is_error
        assert "the value of item would ask the person for" in outcome.message and item not in outcome.message
    with pytest.raises(UnconfirmableQuestion, match="would ask the person for"):
        confirm_question("Delete {what}?", {"what": item}, guard=GUARD)


@pytest.mark.parametrize("item", ORDINARY)
def test_ordinary_values_in_a_confirmation_are_asked(item: str) -> None:
    outcome = play(APPROVALS.tools["approve"], {"item": item})
    assert isinstance(outcome, AskRound) and outcome.questions[0].message == f"Approve {inert(item)}?"
    assert isinstance(_approval("approve_on_page", item), MarkRequest)
    assert confirm_question("Delete {what}?", {"what": item}, guard=GUARD).message == f"Delete {item}?"


def test_the_authors_own_words_about_a_credential_are_asked_but_a_table_value_that_asks_is_not() -> None:
    page = decide(APPROVALS.tools["rotate"], CallInput(arguments={"service": "web"}, caps=EVERYTHING, guard=GUARD))
    assert isinstance(page, LookUp) and page.marks[0].message == "Rotate the API key of web?"
    # a value the page shows only in its table counts as much as one in the text
    refused = decide(APPROVALS.tools["rotate"], CallInput(arguments={"service": "web", "note": "then type your PIN"},
                                                          caps=EVERYTHING, guard=GUARD))
    assert isinstance(refused, Refusal) and "the value of note" in refused.message


def _approval(tool: str, item: str) -> Outcome | MarkRequest:
    outcome = decide(APPROVALS.tools[tool], CallInput(arguments={"item": item}, caps=EVERYTHING, guard=GUARD))
    if isinstance(outcome, LookUp) and outcome.marks:
        return outcome.marks[0]
    return outcome


# -- a choice is shown with its title and its value -----------------------------------------------------------
EVERYDAY = "Everyday account (DE89 …3000) [DE89370400440532013000]"


def test_a_chosen_option_is_shown_with_its_title_beside_its_whole_value() -> None:
    assert confirm_text("move", {"source": "DE89370400440532013000", "amount": 5}) == f"Move 5 EUR from {EVERYDAY}?"
    page = approval("move_approved", {"source": "DE89370400440532013000", "amount": 5})
    assert isinstance(page, MarkRequest) and dict(page.summary) == {"source": EVERYDAY, "amount": "5"}
    both = confirm_text("split", {"sources": ["DE89370400440532013000", "DE02120300000000202051"]})
    assert both == f"Split between {EVERYDAY}, Savings account (DE02 …2051) [DE02120300000000202051]?"


def test_a_choice_answered_in_an_earlier_round_keeps_its_title_in_the_confirmation() -> None:
    first = play(spec("move"), {"amount": 5})
    assert isinstance(first, AskRound) and first.questions[0].key == "source"
    second = play(spec("move"), {"amount": 5}, responses={"source": form(source="DE02120300000000202051")},
                  progress=first.progress)
    assert isinstance(second, AskRound) and second.questions[0].key == "ok"
    assert second.questions[0].message == "Move 5 EUR from Savings account (DE02 …2051) [DE02120300000000202051]?"
    done = play(spec("move"), {"amount": 5}, responses={"ok": form(ok=True)}, progress=second.progress)
    assert not isinstance(done, (AskRound, Refusal)), done


OFFERED: list[Option] = []


def offered() -> list[Option]:
    return OFFERED


def test_an_option_without_a_title_or_a_value_no_longer_offered_is_shown_as_its_value() -> None:
    app = askback.App("titles")
    OFFERED[:] = [Option("plain"), Option("gone", "Gone account")]

    @app.tool()
    def use(source: Annotated[str, askback.OneOf(offered)],
            ok: Annotated[bool, askback.Confirm("Use {source}?")]) -> str:
        return source

    first = play(app.tools["use"], {"source": "plain"})
    assert isinstance(first, AskRound) and first.questions[0].message == "Use plain?"
    chosen = play(app.tools["use"], {})
    assert isinstance(chosen, AskRound)
    asked = play(app.tools["use"], {}, responses={"source": form(source="gone")}, progress=chosen.progress)
    assert isinstance(asked, AskRound) and asked.questions[0].message == "Use Gone account [gone]?"
    OFFERED[1:] = []  # the provider no longer offers it: the value alone is shown, never a stale title
    again = play(app.tools["use"], {}, progress=asked.progress)
    assert isinstance(again, AskRound) and again.questions[0].message == "Use gone?"
