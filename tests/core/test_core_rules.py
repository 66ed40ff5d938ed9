"""Rules the reshaped core keeps: guarded forms as sent, inert rendering, multi-select choices, lookups, kinds."""


import dataclasses
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

import pytest
from pydantic import BaseModel, Field

import askback
from askback.core import kinds
from askback.core.decide import CallInput, decide
from askback.core.forms import NO_DEFAULT
from askback.core.kinds import Param, RoundView
from askback.core.marks import Mark, MarkRequest
from askback.core.outcomes import AskRound, LookUp, Refusal, Run
from askback.core.questions import FormQuestion
from askback.core.spec import build_spec
from askback.core.text import inert, render, show
from askback.guard import GUARD
from askback.types import Capabilities
from tests.core.driver import form, play


def asked(outcome: Any) -> dict[str, FormQuestion]:
    assert isinstance(outcome, AskRound), outcome
    return {q.key: q for q in outcome.questions if isinstance(q, FormQuestion)}


# -- the secret guard on forms as they are sent ------------------------------------------------------------
def test_a_question_rendered_into_asking_for_a_credential_is_refused() -> None:
    app = askback.App("t")

    @app.tool()
    def login(what: str, answer: Annotated[str, askback.Ask("Please enter your {what} to continue")]) -> str:
        return answer

    out = play(app.tools["login"], {"what": "online banking password"})
    assert isinstance(out, Refusal) and out.reason == "unsafe_question" and out.is_error
    assert "online banking" not in out.message  # the caller's words are not echoed back
    assert isinstance(play(app.tools["login"], {"what": "favourite colour"}), AskRound)


@pytest.mark.parametrize("memo", ["pin it", "my bearer token for lunch", "password reset party", "otp"])
def test_a_callers_words_inside_a_confirmation_do_not_fail_the_call(memo: str) -> None:
    app = askback.App("t")

    @app.tool()
    def send(memo: str, ok: Annotated[bool, askback.Confirm("Send with memo {memo}?")]) -> str:
        return memo

    q = asked(play(app.tools["send"], {"memo": memo}))["ok"]
    assert q.message == f"Send with memo {memo}?"


# -- caller values in question text are inert ------------------------------------------------------------
SPOOFS = [
    "x\x1b[2K\rSend 1.00 EUR to own savings",
    "a\nb",
    "a\r\nFake line",
    "\u202eevil\u202c",
    "zero\u200bwidth",
    "bell\x07",
    "c1\x9bcsi",
    "line\u2028sep",
    "tag\U000e0041",
    "\ufeffbom",
]


@pytest.mark.parametrize("value", SPOOFS)
def test_rendered_values_are_visible_and_inert(value: str) -> None:
    app = askback.App("t")

    @app.tool()
    def pay(to: str, ok: Annotated[bool, askback.Confirm("Send 1.00 EUR to {to}?")]) -> str:
        return to

    text = asked(play(app.tools["pay"], {"to": value}))["ok"].message
    assert text.startswith("Send 1.00 EUR to ") and text.endswith("?")
    assert all(ch.isprintable() for ch in text), repr(text)
    assert "\x1b" not in text and "\r" not in text and "\n" not in text


def test_inert_text_is_whole_and_lists_read_naturally() -> None:
    assert inert("x" * 5000) == "x" * 5000  # never cut: what a person confirms is what runs
    assert len(inert("x" * 1000, 300)) == 300  # a log line alone is bounded
    assert show(["ada", "grace"]) == "ada, grace"
    assert render("Invite {who}?", {"who": ["ada", "grace"]}) == "Invite ada, grace?"
    assert render("{n:.2f} EUR", {"n": 3.14159}) == "3.14 EUR"
    assert render("to {x}", {"x": "\x1b[31mred"}) == "to \\x1b[31mred"


# -- multi-select from a runtime list -------------------------------------------------------------------
def people(caller: askback.Caller) -> list[askback.Option]:
    return [askback.Option("ada", "Ada Lovelace"), askback.Option("grace", "Grace Hopper"), askback.Option("alan")]


def test_a_list_typed_choice_is_a_multi_select_with_bounds() -> None:
    app = askback.App("t")

    @app.tool()
    def meet(attendees: Annotated[list[str], askback.OneOf(people), Field(min_length=1, max_length=2)]) -> str:
        return ", ".join(attendees)

    spec = app.tools["meet"]
    first = play(spec, {})
    prop = asked(first)["attendees"].schema["properties"]["attendees"]
    assert prop["type"] == "array" and prop["minItems"] == 1 and prop["maxItems"] == 2
    assert prop["items"]["anyOf"][0] == {"const": "ada", "title": "Ada Lovelace"}
    assert isinstance(first, AskRound)
    done = play(spec, {}, responses={"attendees": form(attendees=["ada", "alan"])}, progress=first.progress)
    assert isinstance(done, Run) and done.values == {"attendees": ["ada", "alan"]}
    wrong = play(spec, {}, responses={"attendees": form(attendees=["ada", "bob"])}, progress=first.progress)
    assert "not among the options" in (asked(wrong)["attendees"].note or "")
    too_many = play(spec, {}, responses={"attendees": form(attendees=["ada", "alan", "grace"])},
                    progress=first.progress)
    assert isinstance(too_many, AskRound)
    assert isinstance(play(spec, {"attendees": ["grace"]}), Run)


# -- an invalid nested argument says what is wrong --------------------------------------------------------
class Geo(BaseModel):
    lat: float
    lon: float


class Address(BaseModel):  # holds another model: no flat form can ask for it (a flat model is one form)
    street: str
    city: str
    geo: Geo


def test_an_invalid_nested_argument_is_named_with_its_problem() -> None:
    app = askback.App("t")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")

        @app.tool()
        def ship(address: Address) -> str:
            return address.city

    out = play(app.tools["ship"], {"address": {"street": "1 Main"}})
    assert isinstance(out, Refusal) and out.reason == "cannot_ask"
    (missing,) = out.missing
    assert missing.reason != "missing" and "required" in missing.reason.lower()
    assert "not accepted" in out.message


# -- a kind of its own: a step completed elsewhere -----------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class StampParam(Param):
    """A test kind: its value is a mark the flow looks up (as an out-of-band page would leave)."""

    kind: ClassVar[str] = "stamp"
    needs: ClassVar[str] = "url"

    def resolve(self, r: RoundView) -> kinds.Resolution:
        mark = r.marks.get(self.name)
        if mark is None:
            return MarkRequest(self.name, "approval", "Stamp", "Stamp it")
        r.values[self.name] = mark.status
        return kinds.KNOWN


def test_a_kind_can_wait_for_a_step_completed_elsewhere() -> None:
    def approve(stamp: str) -> str:
        return stamp

    spec = build_spec(approve, kind="tool", guard=GUARD)
    stamp = StampParam(name="stamp", annotation=str, title="Stamp", description=None,
                       default=NO_DEFAULT,
                       field="stamp", deps=())
    from dataclasses import replace

    spec = replace(spec, params=(stamp,), params_by_name={})
    first = decide(spec, CallInput(guard=GUARD, arguments={}, caps=Capabilities.everything()))
    assert isinstance(first, LookUp) and [m.name for m in first.marks] == ["stamp"] and first.options == ()
    done = decide(spec, CallInput(guard=GUARD, arguments={}, caps=Capabilities.everything(),
                                  marks={"stamp": Mark("done", "https://x")}))
    assert isinstance(done, Run) and done.kwargs == {"stamp": "done"}


def test_a_single_use_tool_asks_the_flow_to_claim_before_running() -> None:
    app = askback.App("t")

    @app.tool(once=True)
    def pay(x: int) -> int:
        return x

    @app.tool()
    def look(x: int) -> int:
        return x

    once = play(app.tools["pay"], {"x": 1})
    plain = play(app.tools["look"], {"x": 1})
    assert isinstance(once, Run) and once.claim
    assert isinstance(plain, Run) and not plain.claim


def test_decide_writes_nothing_into_the_spec() -> None:
    app = askback.App("t")

    @app.tool()
    def f(x: int, y: str) -> str:
        return y

    spec = app.tools["f"]
    before = _everything_in(spec)
    for _ in range(3):
        play(spec, {})
    # Every field (the parameters deeply, by repr) and every attribute outside the fields: a frozen dataclass
    # still takes `object.__setattr__`, so "nothing was added" is checked, not assumed from `frozen=True`.
    assert _everything_in(spec) == before


def _everything_in(spec: Any) -> dict[str, str]:
    state = {f.name: repr(getattr(spec, f.name)) for f in dataclasses.fields(spec)}
    extra = {name: repr(value) for name, value in getattr(spec, "__dict__", {}).items() if name not in state}
    return {**state, **{f"extra:{name}": value for name, value in extra.items()}}


def test_an_out_of_band_condition_must_name_parameters_of_the_tool() -> None:
    app = askback.App("t")
    with pytest.raises(askback.SpecError, match="unknown parameter"):
        @app.tool()
        def pay(amount: int, ok: Annotated[bool, askback.Confirm("Pay?", out_of_band=lambda total: total > 1)]) -> int:
            return amount


def test_a_yes_no_parameter_is_never_a_credential_whatever_its_name() -> None:
    app = askback.App("t")

    @app.tool()
    def door(pin_ok: bool, token_valid: bool = False) -> str:
        return "open"

    assert isinstance(play(app.tools["door"], {}), AskRound)


@pytest.mark.parametrize("pasted", [
    "4111 1111 1111 1111", "ghp_" + "a" * 36, "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----",
    "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
])
def test_a_credential_pasted_into_a_form_is_refused_and_never_kept(pasted: str) -> None:
    from askback.guard import answer_problem

    app = askback.App("t")

    @app.tool()
    def note(text: str) -> str:
        return text

    spec = app.tools["note"]
    first = play(spec, {})
    assert isinstance(first, AskRound)
    again = decide(spec, CallInput(arguments={}, responses={"text": form(text=pasted)}, progress=first.progress,
                                   caps=Capabilities.everything(), answer_guard=answer_problem, guard=GUARD))
    assert isinstance(again, AskRound), again
    assert "Do not paste" in (again.questions[0].note or "") or "not the place" in (again.questions[0].note or "")
    assert pasted not in repr(again.progress)
    fine = decide(spec, CallInput(guard=GUARD, arguments={}, responses={"text": form(text="DE44500105175407324931")},
                                  progress=first.progress, caps=Capabilities.everything(), answer_guard=answer_problem))
    assert isinstance(fine, Run)


def test_nothing_may_wait_for_a_secret_whose_value_is_read_only_at_run_time() -> None:
    app = askback.App("t")

    def banks(api_key: str) -> list[str]:
        return ["a"]

    with pytest.raises(askback.SpecError, match="secret 'api_key'"):
        @app.tool(namespace=locals())
        def connect(api_key: askback.Secret, bank: Annotated[str, askback.OneOf(banks)]) -> str:
            return bank


@pytest.mark.parametrize(("text", "credential"), [
    ("pάsswοrd", True),  # Greek alpha with tonos and omicron
    ("टोकन की संख्या", False),  # "number of tokens": a Devanagari mark is part of the word
])
def test_accented_look_alikes_fold_only_on_alphabets(text: str, credential: bool) -> None:
    from askback.guard import credential_term

    assert bool(credential_term(text)) is credential
