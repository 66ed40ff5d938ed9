"""The adopted call's rounds without a server: the progress is bound to its call, and nothing is trusted to fit."""

from __future__ import annotations

from typing import Any

import pytest

from askback.adoption.answers import take
from askback.adoption.decide import VALUES_KEY, AskConfirm, AskValues, Go, Refuse, Tool, ToSdk, decide, values_digest
from askback.adoption.options import ToolOptions
from askback.adoption.progress import LastRound, Progress, resume
from askback.core.markers import OneOf, Option
from askback.core.schemacheck import MISSING, problems
from askback.types import Capabilities

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "service": {"type": "string", "title": "Service"},
        "env": {"enum": ["staging", "production"], "type": "string"},
        "replicas": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1},
        "tags": {"type": "object", "properties": {"team": {"type": "string"}}},
    },
    "required": ["service", "env"],
}
DEPLOY = Tool("deploy", SCHEMA)
FORM = Capabilities(form=True)


def test_problems_name_missing_and_refused_fields_without_their_values() -> None:
    found = problems(SCHEMA, {"env": "qa", "replicas": "many"})
    assert found == {"service": MISSING, "env": "it must be one of: staging, production",
                     "replicas": "it must be of type integer"}
    assert problems(SCHEMA, {"service": "api", "env": "staging", "tags": {"team": 3}}) == {
        "tags": "team: it must be of type string"}


def test_a_progress_made_for_other_arguments_or_another_tool_supplies_nothing() -> None:
    progress = Progress.start("deploy", {"service": "api"}).answered({"env": "production"})
    state = progress.encode()
    assert resume(state, "deploy", {"service": "api"}).answers == {"env": "production"}
    assert resume(state, "deploy", {"service": "web"}).answers == {}
    assert resume(state, "rotate", {"service": "api"}).answers == {}


def test_a_state_that_is_not_askbacks_is_carried_for_the_sdk() -> None:
    sdk_state = '{"v":3,"outcomes":{},"asked":{}}'
    progress = resume(sdk_state, "deploy", {})
    assert progress.inner == sdk_state and progress.answers == {}
    assert resume(progress.encode(), "deploy", {}).inner == sdk_state


def test_answers_from_the_state_are_validated_again() -> None:
    # An answer carried in the state is merged and checked like an argument: a bad one is asked again.
    decision = decide(DEPLOY, {"service": "api", "env": "staging", "replicas": 50}, FORM)
    assert isinstance(decision, AskValues) and decision.fields == ("replicas",)
    assert "it must be at most 5" in decision.question.message


def test_only_asked_fields_are_taken_and_choices_map_back() -> None:
    tool = Tool("t", {"type": "object", "properties": {"n": {"enum": [1, 2], "type": "integer"},
                                                       "s": {"type": "string"}}})
    taken = take(tool, LastRound(VALUES_KEY, ("n",)), "accept", {"n": "2", "s": "sneaked"})
    assert taken.values == {"n": 2}


def test_a_pasted_credential_is_dropped_and_noted() -> None:
    taken = take(DEPLOY, LastRound(VALUES_KEY, ("service",)), "accept",
                 {"service": "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"})
    assert taken.values == {} and "service" in taken.notes
    decision = decide(DEPLOY, {"env": "staging"}, FORM, notes=taken.notes)
    assert isinstance(decision, AskValues) and taken.notes["service"] in decision.question.full_message


def test_a_nested_object_cannot_be_a_form_so_the_sdk_answers() -> None:
    assert isinstance(decide(DEPLOY, {"service": "a", "env": "staging", "tags": 3}, FORM), ToSdk)


def test_no_form_elicitation_leaves_it_to_the_sdk() -> None:
    assert isinstance(decide(DEPLOY, {}, Capabilities()), ToSdk)


def test_a_confirmation_holds_for_the_values_confirmed_only() -> None:
    tool = Tool("deploy", SCHEMA, ToolOptions(confirm="Deploy {service} to {env}?"))
    values = {"service": "api", "env": "staging"}
    ask = decide(tool, values, FORM)
    assert isinstance(ask, AskConfirm) and ask.question.message == "Deploy api to staging?"
    assert isinstance(decide(tool, values, FORM, confirmed=ask.digest), Go)
    other = {"service": "api", "env": "production"}
    assert isinstance(decide(tool, other, FORM, confirmed=ask.digest), AskConfirm)
    assert ask.digest == values_digest("deploy", values)


def test_a_caller_value_that_asks_for_a_credential_is_not_confirmed() -> None:
    tool = Tool("deploy", SCHEMA, ToolOptions(confirm="Deploy {service}?"))
    decision = decide(tool, {"service": "api and type your PIN here", "env": "staging"}, FORM)
    assert isinstance(decision, Refuse) and decision.refusal.reason == "unconfirmable"


def test_a_declared_secret_is_never_a_form_question() -> None:
    tool = Tool("t", {"type": "object", "properties": {"token": {"type": "string", "format": "password"}},
                      "required": ["token"]})
    decision = decide(tool, {}, Capabilities(form=True, url=True))
    assert isinstance(decision, Refuse) and decision.capability is None
    assert decision.refusal.reason == "cannot_ask"
    no_url = decide(tool, {}, FORM)
    assert isinstance(no_url, Refuse) and no_url.capability is not None
    assert no_url.capability.required == {"elicitation": {"url": {}}}


def test_a_choice_with_no_options_is_refused_and_one_waiting_is_not_asked_yet() -> None:
    schema = {"type": "object", "properties": {"country": {"type": "string"}, "city": {"type": "string"}},
              "required": ["country", "city"]}
    tool = Tool("ship", schema, ToolOptions(choices={"city": OneOf(lambda country: [])}))
    waiting = decide(tool, {}, FORM)  # the options are not looked up yet: only the country is asked
    assert isinstance(waiting, AskValues) and waiting.fields == ("country",)
    refused = decide(tool, {"country": "de"}, FORM, options={"city": []})
    assert isinstance(refused, Refuse) and refused.refusal.reason == "no_options"
    offered = decide(tool, {"country": "fr"}, FORM, options={"city": [Option("Paris"), Option("Lyon")]})
    assert isinstance(offered, AskValues) and offered.question.schema["properties"]["city"]["enum"] == [
        "Paris", "Lyon"]


# -- page steps: decided from their marks, never from a value ---------------------------------------------------
def test_a_credential_is_a_page_step_after_the_forms_fields_and_its_value_never_in_the_decision() -> None:
    from askback.adoption.decide import AskPage, NeedMark, secret_step
    from askback.core.marks import Mark

    tool = Tool("connect", {"type": "object", "properties": {"bank": {"type": "string"},
                                                              "api_key": {"type": "string"}},
                            "required": ["bank", "api_key"]}, ToolOptions(secret=("api_key",)))
    both = Capabilities(form=True, url=True)
    first = decide(tool, {}, both, pages=True)
    assert isinstance(first, AskValues) and first.fields == ("bank",)  # the form's fields first
    need = decide(tool, {"bank": "Acme"}, both, pages=True)
    assert isinstance(need, NeedMark) and need.request.purpose == "secret"
    pending = {secret_step("api_key"): Mark("pending", "http://127.0.0.1/askback/p/x")}
    ask = decide(tool, {"bank": "Acme"}, both, pages=True, marks=pending)
    assert isinstance(ask, AskPage) and ask.question.url.endswith("/askback/p/x")
    done = {secret_step("api_key"): Mark("done", "http://127.0.0.1/askback/p/x")}
    go = decide(tool, {"bank": "Acme"}, both, pages=True, marks=done)
    assert isinstance(go, Go) and go.secrets == ("api_key",) and go.arguments == {"bank": "Acme"}
    assert isinstance(decide(tool, {"bank": "Acme"}, FORM, pages=True), Refuse)  # no URL mode: -32021


def test_an_approval_on_the_page_is_for_exactly_the_values_shown() -> None:
    from askback.adoption.decide import NeedMark
    from askback.adoption.options import Above

    tool = Tool("pay", {"type": "object", "properties": {"amount": {"type": "number"}}, "required": ["amount"]},
                ToolOptions(confirm="Pay {amount}?", out_of_band=Above("amount", 100)))
    both = Capabilities(form=True, url=True)
    big, bigger = decide(tool, {"amount": 500}, both, pages=True), decide(tool, {"amount": 501}, both, pages=True)
    assert isinstance(big, NeedMark) and isinstance(bigger, NeedMark)
    assert big.request.purpose == "approval" and big.request.message == "Pay 500?"
    assert big.request.name != bigger.request.name  # another amount is another step: an approval is not reused
    assert isinstance(decide(tool, {"amount": 100}, both, pages=True), AskConfirm)  # at the limit: the form
    assert isinstance(decide(tool, {"amount": 500}, both, pages=False), Refuse)  # no pages: refused, not a form
    assert big.request.approve_with is None  # the app's approve_with decides (`Runtime.mark`)


def test_a_tools_approve_with_goes_to_its_page_and_is_checked_at_declaration() -> None:
    from askback.adoption.decide import NeedMark

    tool = Tool("wipe", {"type": "object", "properties": {}}, ToolOptions(confirm="Wipe?", out_of_band=True,
                                                                          approve_with="passkey"))
    asked = decide(tool, {}, Capabilities(form=True, url=True), pages=True)
    assert isinstance(asked, NeedMark) and asked.request.approve_with == "passkey"
    with pytest.raises(TypeError, match="approve_with= is one of page, passkey, got 'sms'"):
        ToolOptions(confirm="Wipe?", out_of_band=True, approve_with="sms")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="approve_with= needs out_of_band="):
        ToolOptions(confirm="Wipe?", approve_with="passkey")
