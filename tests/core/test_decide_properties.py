"""Properties of the engine over generated calls and answers."""


from decimal import Decimal
from typing import Annotated, Any, Literal

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

import askback
from askback.core.outcomes import AskRound, LookUp, Refusal, Run
from askback.core.questions import FormQuestion
from tests.core.driver import form, play

app = askback.App("props")


def accounts(caller: askback.Caller) -> list[askback.Option]:
    return [askback.Option("A1", "Main"), askback.Option("A2", "Savings")]


@app.tool(once=True)
def transfer(
    amount: Annotated[Decimal, Field(gt=0, le=1000)],
    to: Annotated[str, Field(min_length=3, max_length=10)],
    speed: Literal["slow", "fast"],
    account: Annotated[str, askback.OneOf(accounts)],
    ok: Annotated[bool, askback.Confirm("Send {amount} to {to} from {account}?")],
    memo: str = "",
) -> str:
    return to


SPEC = app.tools["transfer"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
keys = st.sampled_from(["amount", "to", "speed", "account", "ok", "memo", "other"])


def valid(values: dict[str, Any]) -> bool:
    return (isinstance(values["amount"], Decimal) and 0 < values["amount"] <= 1000
            and 3 <= len(values["to"]) <= 10 and values["speed"] in ("slow", "fast")
            and values["account"] in ("A1", "A2") and values["ok"] is True)


@settings(max_examples=300, deadline=None)
@given(arguments=st.dictionaries(keys, json_values, max_size=6),
       responses=st.one_of(json_values, st.dictionaries(keys, json_values, max_size=6)))
def test_never_raises_and_never_completes_with_bad_values(arguments: dict[str, Any], responses: Any) -> None:
    first = play(SPEC, arguments)
    assert isinstance(first, AskRound | Refusal)
    later = play(SPEC, arguments, responses=responses,
                 progress=first.progress if isinstance(first, AskRound) else None)
    assert not isinstance(later, LookUp)
    if isinstance(later, Run):
        assert valid(later.values)


good_values = st.fixed_dictionaries({
    "amount": st.decimals(min_value=Decimal("0.01"), max_value=Decimal(1000), places=2),
    "to": st.text(alphabet="ABCDEFGH0123", min_size=3, max_size=10),
    "speed": st.sampled_from(["slow", "fast"]),
    "account": st.sampled_from(["A1", "A2"]),
})


@settings(max_examples=200, deadline=None)
@given(target=good_values, given_upfront=st.sets(st.sampled_from(["amount", "to", "speed", "account"])),
       per_round=st.integers(min_value=1, max_value=4), data=st.data())
def test_a_cooperative_client_always_finishes_with_its_values(
        target: dict[str, Any], given_upfront: set[str], per_round: int, data: st.DataObject) -> None:
    arguments = {k: (str(v) if k == "amount" else v) for k, v in target.items() if k in given_upfront}
    outcome = play(SPEC, arguments)
    confirm_seen = False
    for _ in range(12):
        if not isinstance(outcome, AskRound):
            break
        asked = [q for q in outcome.questions if isinstance(q, FormQuestion)]
        assert not confirm_seen, "nothing is asked after the confirmation"
        if any(q.key == "ok" for q in asked):
            assert [q.key for q in asked] == ["ok"], "the confirmation is asked alone, last"
            confirm_seen = True
        chosen = data.draw(st.permutations(asked))[:per_round]
        responses = {q.key: form(**{q.key: True if q.key == "ok" else
                                    (float(target[q.key]) if q.key == "amount" else target[q.key])})
                     for q in chosen}
        outcome = play(SPEC, arguments, responses=responses, progress=outcome.progress)
    assert isinstance(outcome, Run), outcome
    assert confirm_seen
    assert outcome.values["to"] == target["to"] and outcome.values["account"] == target["account"]
    assert outcome.values["amount"] == Decimal(str(float(target["amount"]))) or "amount" in given_upfront
