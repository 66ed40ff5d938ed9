"""Form shapes from a parameter's declaration: a model asked as one form with its defaults (SEP-1034), and titled
single and multiple choices (SEP-1330: `askback.Titles`, and the older `enumNames` spelling kept as declared).
"""

from enum import Enum
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field, TypeAdapter

import askback
from askback.core.kinds import FormParam
from askback.core.outcomes import AskRound, Refusal, Run
from askback.core.questions import FormQuestion
from askback.core.spec import build_spec
from askback.guard import GUARD, SecretInForm
from tests.core.driver import form, play

Region = Annotated[Literal["eu", "us", "ap"], askback.Titles({"eu": "Europe", "us": "United States"})]


class Colour(Enum):
    RED = "red"
    BLUE = "blue"


class Profile(BaseModel):
    name: Annotated[str, Field(description="User name")] = "John Doe"
    age: int = 30
    score: float = 95.5
    status: Literal["active", "inactive"] = "active"
    verified: bool = True
    size: Literal[1, 2, 3] = 2
    region: Region = "eu"
    nickname: str  # no default: the one field the person must fill in


def profile_tool(profile: Annotated[Profile, askback.Ask("Check your profile")]) -> str:
    return profile.model_dump_json()


def _asked(outcome: Any) -> FormQuestion:
    assert isinstance(outcome, AskRound), outcome
    (question,) = outcome.questions
    assert isinstance(question, FormQuestion)
    return question


def test_a_model_is_one_form_with_each_default_prefilled() -> None:
    spec = build_spec(profile_tool, kind="tool", guard=GUARD)
    assert isinstance(spec.param("profile"), FormParam)
    question = _asked(play(spec, {}))
    props = question.schema["properties"]
    assert question.message == "Check your profile"
    assert {k: p.get("default") for k, p in props.items()} == {
        "name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": True, "size": "2",
        "region": "eu", "nickname": None}
    assert props["name"] == {"type": "string", "title": "Name", "description": "User name", "default": "John Doe"}
    assert props["size"]["enum"] == ["1", "2", "3"]  # a choice among numbers is offered as text
    assert question.schema["required"] == ["nickname"]


def test_a_model_form_answer_is_checked_per_field_and_built_into_the_model() -> None:
    spec = build_spec(profile_tool, kind="tool", guard=GUARD)
    question = _asked(play(spec, {}))
    outcome = play(spec, {}, responses={"profile": form(nickname="jd", age=41, size="3", region="us", extra=1)})
    assert isinstance(outcome, Run), outcome
    built = outcome.values["profile"]
    assert (built.nickname, built.age, built.size, built.region, built.name) == ("jd", 41, 3, "us", "John Doe")

    wrong = _asked(play(spec, {}, responses={"profile": form(nickname="jd", age="41")}))
    assert wrong.fingerprint == question.fingerprint
    assert wrong.note == "The previous value was not accepted: age: it must be a whole number, not text."
    missing = _asked(play(spec, {}, responses={"profile": form(age=41)}))
    assert missing.note is not None and "Field required" in missing.note
    declined = play(spec, {}, responses={"profile": {"action": "decline"}})
    assert isinstance(declined, Refusal) and declined.reason == "declined"


def test_a_model_sent_as_an_argument_is_not_asked() -> None:
    spec = build_spec(profile_tool, kind="tool", guard=GUARD)
    outcome = play(spec, {"profile": {"nickname": "al"}})
    assert isinstance(outcome, Run) and outcome.values["profile"].age == 30
    assert spec.input_schema["required"] == ["profile"]


def test_a_model_form_is_read_by_the_secret_guard() -> None:
    class Login(BaseModel):
        user: str
        password: str

    def login(account: Login) -> str:
        return account.user

    with pytest.raises(SecretInForm):
        build_spec(login, kind="tool", guard=GUARD)


def test_titles_make_titled_single_and_multiple_choices() -> None:
    single = TypeAdapter(Region).json_schema()
    assert single == {"type": "string", "oneOf": [{"const": "eu", "title": "Europe"},
                                                  {"const": "us", "title": "United States"},
                                                  {"const": "ap", "title": "ap"}]}
    multi = TypeAdapter(Annotated[list[Colour], askback.Titles({"red": "Red", "blue": "Blue"})]).json_schema()
    assert multi["type"] == "array"
    assert multi["items"] == {"anyOf": [{"const": "red", "title": "Red"}, {"const": "blue", "title": "Blue"}]}

    def pick(
        region: Region,
        colours: Annotated[list[Colour], askback.Titles({"red": "Red", "blue": "Blue"})],
        plain: list[Literal["a", "b"]],
    ) -> str:
        return f"{region} {colours} {plain}"

    spec = build_spec(pick, kind="tool", guard=GUARD)
    asked = play(spec, {})
    assert isinstance(asked, AskRound)
    props = {q.key: q.schema["properties"] for q in asked.questions if isinstance(q, FormQuestion)}
    assert props["region"]["region"]["oneOf"][0] == {"const": "eu", "title": "Europe"}
    assert "enum" not in props["region"]["region"]
    assert props["colours"]["colours"]["items"] == {
        "anyOf": [{"const": "red", "title": "Red"}, {"const": "blue", "title": "Blue"}]}
    assert props["plain"]["plain"]["items"] == {"type": "string", "enum": ["a", "b"]}
    done = play(spec, {}, responses={"region": form(region="ap"), "colours": form(colours=["blue"]),
                                     "plain": form(plain=["b"])})
    assert isinstance(done, Run) and done.values["colours"] == [Colour.BLUE]
    # Titles only change what is shown: the type still decides what is valid.
    again = play(spec, {}, responses={"region": form(region="mars"), "colours": form(colours=["blue"]),
                                      "plain": form(plain=["b"])})
    assert isinstance(again, AskRound) and [q.key for q in again.questions] == ["region"]


def test_enum_names_are_kept_only_when_they_name_every_value() -> None:
    def legacy(
        kept: Annotated[Literal["a", "b"], Field(json_schema_extra={"enumNames": ["Ay", "Bee"]})],
        dropped: Annotated[Literal["a", "b"], Field(json_schema_extra={"enumNames": ["Ay"]})],
    ) -> str:
        return kept + dropped

    asked = play(build_spec(legacy, kind="tool", guard=GUARD), {})
    assert isinstance(asked, AskRound)
    props = {q.key: q.schema["properties"][q.key] for q in asked.questions if isinstance(q, FormQuestion)}
    assert props["kept"]["enumNames"] == ["Ay", "Bee"]
    assert "enumNames" not in props["dropped"]
