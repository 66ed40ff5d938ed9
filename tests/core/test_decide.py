"""The engine's rules, one by one, on real specs built from signatures."""


import datetime
import enum
import warnings
from decimal import Decimal
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

import askback
from askback.core.outcomes import AskRound, Refusal, Run
from askback.core.progress import Progress
from askback.core.questions import FormQuestion, RootsQuestion, SamplingQuestion
from askback.core.spec import SpecError, UnaskableWarning
from askback.types import Capabilities
from tests.core.driver import form, play


def make_app() -> askback.App:
    return askback.App("test-app")


def questions(outcome: Any) -> dict[str, Any]:
    assert isinstance(outcome, AskRound), outcome
    return {q.key: q for q in outcome.questions}


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


def test_each_missing_value_is_one_question_with_its_exact_schema() -> None:
    app = make_app()

    @app.tool()
    def book(
        city: Annotated[str, Field(min_length=2, max_length=40, description="City to visit")],
        nights: Annotated[int, Field(ge=1, le=14, title="Nights")],
        day: datetime.date,
        when: datetime.datetime,
        price: Annotated[Decimal, Field(gt=0, description="Budget in EUR")],
        pets: bool,
        room: Literal["single", "double"],
        color: Color,
        extras: list[Literal["breakfast", "parking"]],
        note: str = "none",
    ) -> str:
        return city

    qs = questions(play(app.tools["book"], {}))
    assert list(qs) == ["city", "nights", "day", "when", "price", "pets", "room", "color", "extras"]
    props = {k: q.schema["properties"][k] for k, q in qs.items()}
    assert props["city"] == {"type": "string", "minLength": 2, "maxLength": 40, "description": "City to visit",
                             "title": "City"}
    assert props["nights"] == {"type": "integer", "minimum": 1, "maximum": 14, "title": "Nights"}
    assert props["day"]["format"] == "date" and props["when"]["format"] == "date-time"
    assert props["price"]["type"] == "number" and props["price"]["minimum"] == 0
    assert props["pets"]["type"] == "boolean"
    assert props["room"]["enum"] == ["single", "double"]
    assert props["color"]["enum"] == ["red", "blue"]
    assert props["extras"] == {"type": "array", "items": {"type": "string", "enum": ["breakfast", "parking"]},
                               "title": "Extras"}
    for key, q in qs.items():
        assert q.schema["required"] == [key] and q.schema["type"] == "object"


def test_defaults_prefill_and_are_not_asked() -> None:
    app = make_app()

    @app.tool()
    def greet(name: str, greeting: str = "Hello", times: Annotated[int, Field(default=1, ge=1)] = 1) -> str:
        return name

    outcome = play(app.tools["greet"], {"name": "Ada"})
    assert outcome == Run({"name": "Ada", "greeting": "Hello", "times": 1})


def test_values_are_validated_into_their_types() -> None:
    app = make_app()

    @app.tool()
    def pay(amount: Annotated[Decimal, Field(gt=0)], day: datetime.date) -> str:
        return "x"

    outcome = play(app.tools["pay"], {"amount": "12.50", "day": "2026-12-01"})
    assert outcome == Run({"amount": Decimal("12.50"), "day": datetime.date(2026, 12, 1)})


def test_an_invalid_argument_is_asked_again_saying_why() -> None:
    app = make_app()

    @app.tool()
    def pay(amount: Annotated[Decimal, Field(gt=0)]) -> str:
        return "x"

    qs = questions(play(app.tools["pay"], {"amount": -5}))
    q = qs["amount"]
    assert isinstance(q, FormQuestion)
    assert q.note and "greater than 0" in q.note
    assert "greater than 0" in q.full_message


def test_an_invalid_answer_is_asked_again_then_a_valid_one_completes() -> None:
    app = make_app()

    @app.tool()
    def pay(amount: Annotated[int, Field(gt=0)]) -> str:
        return "x"

    spec = app.tools["pay"]
    first = play(spec, {})
    assert isinstance(first, AskRound)
    again = play(spec, {}, responses={"amount": form(amount=-1)}, progress=first.progress)
    assert isinstance(again, AskRound)
    assert "greater than 0" in (again.questions[0].note or "")  # type: ignore[union-attr]
    done = play(spec, {}, responses={"amount": form(amount=3)}, progress=again.progress)
    assert done == Run({"amount": 3})


def test_only_unanswered_questions_are_asked_again() -> None:
    app = make_app()

    @app.tool()
    def move(src: str, dst: str, reason: str) -> str:
        return src

    spec = app.tools["move"]
    first = play(spec, {})
    assert isinstance(first, AskRound)
    second = play(spec, {}, responses={"src": form(src="a"), "dst": form(dst="b"), "junk": 1},
                  progress=first.progress)
    assert list(questions(second)) == ["reason"]
    assert isinstance(second, AskRound)
    third = play(spec, {}, responses={"reason": form(reason="tidy")}, progress=second.progress)
    assert third == Run({"src": "a", "dst": "b", "reason": "tidy"})


def test_a_question_that_names_another_value_waits_for_it() -> None:
    app = make_app()

    @app.tool()
    def survey(name: Annotated[str, askback.Ask("Your name?")],
               color: Annotated[str, askback.Ask("{name}, your favourite colour?")]) -> str:
        return name

    spec = app.tools["survey"]
    first = play(spec, {})
    assert list(questions(first)) == ["name"]
    assert isinstance(first, AskRound)
    second = play(spec, {}, responses={"name": form(name="Ada")}, progress=first.progress)
    q = questions(second)["color"]
    assert q.message == "Ada, your favourite colour?"


def test_declining_a_value_question_ends_the_call() -> None:
    app = make_app()

    @app.tool()
    def f(x: str) -> str:
        return x

    first = play(app.tools["f"], {})
    assert isinstance(first, AskRound)
    for action, reason in (("decline", "declined"), ("cancel", "cancelled")):
        out = play(app.tools["f"], {}, responses={"x": {"action": action}}, progress=first.progress)
        assert isinstance(out, Refusal) and out.reason == reason and "Nothing was done" in out.message


# -- choices ---------------------------------------------------------------------------------------------

def accounts(caller: askback.Caller) -> list[askback.Option]:
    table = {
        "none": [],
        "one": [askback.Option("A1", "Main")],
        "two": [askback.Option("A1", "Main"), askback.Option("A2", "Savings")],
    }
    return table[caller.principal or "two"]


def choice_app() -> askback.App:
    app = make_app()

    @app.tool()
    def spend(account: Annotated[str, askback.OneOf(accounts)], amount: int) -> str:
        return account

    return app


def test_no_option_is_a_clear_refusal() -> None:
    out = play(choice_app().tools["spend"], {"amount": 1}, principal="none")
    assert isinstance(out, Refusal) and out.reason == "no_options"


def test_exactly_one_option_is_used_without_asking() -> None:
    out = play(choice_app().tools["spend"], {"amount": 1}, principal="one")
    assert out == Run({"account": "A1", "amount": 1})


def test_several_options_are_a_single_select_with_titles() -> None:
    q = questions(play(choice_app().tools["spend"], {"amount": 1}, principal="two"))["account"]
    prop = q.schema["properties"]["account"]
    assert prop["oneOf"] == [{"const": "A1", "title": "Main"}, {"const": "A2", "title": "Savings"}]


def test_a_supplied_value_not_among_the_options_is_asked_again() -> None:
    spec = choice_app().tools["spend"]
    q = questions(play(spec, {"amount": 1, "account": "ZZ"}, principal="two"))["account"]
    assert "not one of the options" in (q.note or "")
    assert play(spec, {"amount": 1, "account": "A2"}, principal="two") == Run({"account": "A2", "amount": 1})
    # even with a single option, a wrong supplied value is never silently replaced
    assert isinstance(play(spec, {"amount": 1, "account": "ZZ"}, principal="one"), AskRound)


def test_an_answer_outside_the_options_is_refused() -> None:
    spec = choice_app().tools["spend"]
    first = play(spec, {"amount": 1})
    assert isinstance(first, AskRound)
    again = play(spec, {"amount": 1}, responses={"account": form(account="A9")}, progress=first.progress)
    assert isinstance(again, AskRound)


def test_providers_receive_the_values_they_name() -> None:
    app = make_app()
    seen: list[str] = []

    def branches(repo: str) -> list[str]:
        seen.append(repo)
        return ["main", "dev"]

    @app.tool(namespace=locals())
    def deploy(repo: str, branch: Annotated[str, askback.OneOf(branches)]) -> str:
        return branch

    spec = app.tools["deploy"]
    assert list(questions(play(spec, {}))) == ["repo"]  # the choice waits for repo
    assert seen == []
    q = questions(play(spec, {"repo": "acme/app"}))["branch"]
    assert seen == ["acme/app"] and q.schema["properties"]["branch"]["enum"] == ["main", "dev"]


# -- confirmations ---------------------------------------------------------------------------------------

def confirm_app(kind: Any = bool) -> askback.App:
    app = make_app()

    @app.tool(once=True, namespace=locals())
    def send(amount: int, to: str, ok: Annotated[kind, askback.Confirm("Send {amount} to {to}?")]) -> str:
        return to

    return app


def test_a_confirmation_waits_for_every_value_then_renders_them() -> None:
    spec = confirm_app().tools["send"]
    first = play(spec, {"amount": 5})
    assert list(questions(first)) == ["to"]
    assert isinstance(first, AskRound)
    second = play(spec, {"amount": 5}, responses={"to": form(to="Bob")}, progress=first.progress)
    q = questions(second)["ok"]
    assert q.message == "Send 5 to Bob?"
    assert q.schema["properties"]["ok"]["type"] == "boolean"
    assert isinstance(second, AskRound)
    done = play(spec, {"amount": 5}, responses={"ok": form(ok=True)}, progress=second.progress)
    assert done == Run({"amount": 5, "to": "Bob", "ok": True}, claim=True)


def test_a_confirmation_is_bound_to_its_text_and_values() -> None:
    spec = confirm_app().tools["send"]
    asked = play(spec, {"amount": 5, "to": "Bob"})
    assert isinstance(asked, AskRound)
    # The same answer presented for other values (another flow's progress) is not accepted.
    other = play(spec, {"amount": 6, "to": "Bob"})
    assert isinstance(other, AskRound)
    replayed = play(spec, {"amount": 6, "to": "Bob"}, responses={"ok": form(ok=True)}, progress=asked.progress)
    assert isinstance(replayed, AskRound)
    assert play(spec, {"amount": 6, "to": "Bob"}, responses={"ok": form(ok=True)},
                progress=other.progress) == Run({"amount": 6, "to": "Bob", "ok": True}, claim=True)


@pytest.mark.parametrize("answer", [{"action": "decline"}, {"action": "cancel"}, form(ok=False)])
def test_declining_a_confirmation_runs_nothing(answer: dict[str, Any]) -> None:
    spec = confirm_app().tools["send"]
    asked = play(spec, {"amount": 5, "to": "Bob"})
    assert isinstance(asked, AskRound)
    out = play(spec, {"amount": 5, "to": "Bob"}, responses={"ok": answer}, progress=asked.progress)
    assert isinstance(out, Refusal) and "Nothing was done" in out.message


def test_a_tool_can_branch_on_a_decline_with_answer() -> None:
    spec = confirm_app(askback.Answer).tools["send"]
    asked = play(spec, {"amount": 5, "to": "Bob"})
    assert isinstance(asked, AskRound)
    out = play(spec, {"amount": 5, "to": "Bob"}, responses={"ok": {"action": "decline"}}, progress=asked.progress)
    assert isinstance(out, Run) and out.values["ok"] == askback.Answer(action="decline")


def test_a_confirmation_is_never_accepted_without_state() -> None:
    spec = confirm_app().tools["send"]
    out = play(spec, {"amount": 5, "to": "Bob"}, responses={"ok": form(ok=True)})
    assert isinstance(out, AskRound)


def test_a_confirmation_cannot_be_passed_as_an_argument() -> None:
    spec = confirm_app().tools["send"]
    assert "ok" not in spec.input_schema["properties"]
    assert isinstance(play(spec, {"amount": 5, "to": "Bob", "ok": True}), AskRound)


def test_confirm_must_be_bool_or_answer() -> None:
    app = make_app()
    with pytest.raises(SpecError):
        @app.tool()
        def f(ok: Annotated[str, askback.Confirm("Sure?")]) -> None: ...


# -- state-less answers, capabilities, limits ------------------------------------------------------------

def test_stateless_answers_are_validated_afresh_on_plain_tools_only() -> None:
    app = make_app()

    @app.tool()
    def plain(x: int) -> int:
        return x

    @app.tool(once=True)
    def single(x: int) -> int:
        return x

    assert play(app.tools["plain"], {}, responses={"x": form(x=4)}) == Run({"x": 4})
    assert isinstance(play(app.tools["plain"], {}, responses={"x": form(x="four")}), AskRound)
    assert isinstance(play(app.tools["single"], {}, responses={"x": form(x=4)}), AskRound)


def test_an_answer_is_only_taken_for_the_question_asked_under_its_key() -> None:
    app = make_app()

    @app.tool()
    def f(x: int, y: int) -> int:
        return x

    spec = app.tools["f"]
    first = play(spec, {"y": 1})
    assert isinstance(first, AskRound)
    forged = Progress(values=first.progress.values, answered={}, asked={"x": "not-the-fingerprint"}, rounds=1)
    assert isinstance(play(spec, {"y": 1}, responses={"x": form(x=2)}, progress=forged), AskRound)


def test_nothing_is_asked_that_the_client_did_not_declare() -> None:
    app = make_app()

    @app.tool()
    def f(x: Annotated[int, Field(description="The x")], y: str,
          s: Annotated[str, askback.Sample("Say hi")]) -> int:
        return x

    out = play(app.tools["f"], {"y": "given"}, caps=Capabilities(sampling=True))
    assert isinstance(out, Refusal) and out.reason == "cannot_ask"
    missing = {m.name: m for m in out.missing}
    assert set(missing) == {"x", "s"}
    assert missing["x"].schema["type"] == "integer" and missing["x"].as_argument
    assert not missing["s"].as_argument
    assert "x" in out.message


def test_sampling_and_roots_are_questions_of_their_own_kind() -> None:
    app = make_app()

    @app.tool()
    def f(topic: str, summary: Annotated[str, askback.Sample("Summarise {topic}", max_tokens=20)],
          roots: Annotated[list[askback.Root], askback.Roots()]) -> str:
        return summary

    spec = app.tools["f"]
    asked = play(spec, {"topic": "owls"})
    qs = questions(asked)
    assert isinstance(qs["summary"], SamplingQuestion) and qs["summary"].prompt == "Summarise owls"
    assert isinstance(qs["roots"], RootsQuestion)
    assert isinstance(asked, AskRound)
    done = play(spec, {"topic": "owls"}, progress=asked.progress, responses={
        "summary": {"role": "assistant", "content": {"type": "text", "text": "Owls hoot."}, "model": "m"},
        "roots": {"roots": [{"uri": "file:///w", "name": "W"}]},
    })
    assert done == Run({"topic": "owls", "summary": "Owls hoot.",
                             "roots": [askback.Root(uri="file:///w", name="W")]})


def test_a_sample_with_a_default_stands_in_when_sampling_is_not_declared() -> None:
    app = make_app()

    @app.tool()
    def f(summary: Annotated[str, askback.Sample("Summarise")] = "(no summary)") -> str:
        return summary

    assert play(app.tools["f"], {}, caps=Capabilities(form=True)) == Run({"summary": "(no summary)"})


def test_nested_models_warn_at_registration_and_cannot_be_asked() -> None:
    # A flat model is asked as one form (tests/core/test_form_shapes.py); one holding another model cannot be.
    class Geo(BaseModel):
        lat: float
        lon: float

    class Address(BaseModel):
        street: str
        city: str
        geo: Geo | None = None

    app = make_app()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        @app.tool(namespace=locals())
        def ship(address: Address, note: str = "") -> str:
            return address.city

    assert any(issubclass(w.category, UnaskableWarning) and "address" in str(w.message) for w in caught)
    out = play(app.tools["ship"], {})
    assert isinstance(out, Refusal) and out.reason == "cannot_ask" and "address" in out.message
    assert play(app.tools["ship"], {"address": {"street": "1 Main", "city": "Oslo"}}) == Run(
        {"address": Address(street="1 Main", city="Oslo"), "note": ""})


def test_the_round_cap_ends_a_flow_that_never_finishes() -> None:
    app = make_app()

    @app.tool()
    def f(x: Annotated[int, Field(gt=0)]) -> int:
        return x

    spec = app.tools["f"]
    outcome = play(spec, {}, max_rounds=3)
    for _ in range(5):
        if not isinstance(outcome, AskRound):
            break
        outcome = play(spec, {}, responses={"x": form(x=-1)}, progress=outcome.progress, max_rounds=3)
    assert isinstance(outcome, Refusal) and outcome.reason == "too_many_rounds"


@pytest.mark.parametrize("responses", [
    [1, 2], "x", 5, {"x": 5}, {"x": "s"}, {"x": [1]}, {"x": {}}, {"x": {"action": "accept"}},
    {"x": {"action": "accept", "content": []}}, {"x": {"action": "accept", "content": {"y": 1}}},
    {"x": {"action": "maybe"}}, {"x": None},
])
def test_malformed_answers_never_complete(responses: Any) -> None:
    app = make_app()

    @app.tool()
    def f(x: int) -> int:
        return x

    first = play(app.tools["f"], {})
    assert isinstance(first, AskRound)
    out = play(app.tools["f"], {}, responses=responses, progress=first.progress)
    assert isinstance(out, AskRound)


def test_dependency_cycles_and_unknown_names_are_registration_errors() -> None:
    app = make_app()
    with pytest.raises(SpecError, match="cycle"):
        @app.tool()
        def f(a: Annotated[str, askback.Ask("{b}?")], b: Annotated[str, askback.Ask("{a}?")]) -> None: ...

    with pytest.raises(SpecError, match="unknown"):
        @app.tool()
        def g(a: Annotated[str, askback.Ask("{nope}?")]) -> None: ...


def test_a_step_only_the_client_can_complete_is_a_missing_capability() -> None:
    # MCP 2026-07-28: a confirmation the client cannot be asked is a missing capability (-32021), not a
    # tool error: retrying with arguments can never complete it.
    spec = confirm_app().tools["send"]
    out = play(spec, {"amount": 5}, caps=Capabilities())
    assert isinstance(out, Refusal) and out.reason == "missing_capability" and out.is_error
    assert out.required == {"elicitation": {"form": {}}}
    assert {m.name for m in out.missing} == {"to", "ok"}
    assert "again with these arguments" not in out.message
    assert "did not declare: ok (form elicitation)." in out.message
    app = make_app()

    @app.tool()
    def f(x: int, y: int) -> int:
        return x

    out = play(app.tools["f"], {"y": 1}, caps=Capabilities())
    assert isinstance(out, Refusal) and "Call f again with these arguments: x." in out.message


def test_integer_choices_are_offered_as_strings_and_come_back_as_numbers() -> None:
    app = make_app()

    class Level(enum.IntEnum):
        LOW = 1
        HIGH = 2

    @app.tool(namespace=locals())
    def f(n: Literal[1, 2], level: Level, many: list[Literal[3, 4]]) -> int:
        return n

    spec = app.tools["f"]
    asked = play(spec, {})
    props = {k: q.schema["properties"][k] for k, q in questions(asked).items()}
    assert props["n"]["enum"] == ["1", "2"] and props["level"]["enum"] == ["1", "2"]
    assert props["many"]["items"]["enum"] == ["3", "4"]
    assert isinstance(asked, AskRound)
    done = play(spec, {}, progress=asked.progress,
                responses={"n": form(n="2"), "level": form(level="1"), "many": form(many=["4"])})
    assert done == Run({"n": 2, "level": Level.LOW, "many": [4]})


def test_a_missing_nested_value_is_named_with_a_self_contained_schema() -> None:
    class Geo(BaseModel):
        lat: float

    class Address(BaseModel):
        city: str
        geo: Geo

    app = make_app()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnaskableWarning)

        @app.tool(namespace=locals())
        def ship(item: str, address: Address) -> str:
            return item

    out = play(app.tools["ship"], {"item": "book"})
    assert isinstance(out, Refusal)
    schema = out.missing[0].schema
    assert schema["$ref"] == "#/$defs/Address" and "Address" in schema["$defs"]


def test_no_warning_for_an_unaskable_parameter_that_has_a_default() -> None:
    app = make_app()
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnaskableWarning)

        @app.tool()
        def tag(item: str, tags: list[str] | None = None) -> str:
            return item
