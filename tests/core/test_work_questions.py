"""Questions a running function asks: the same builders, secret guard, inert text and validation as parameters."""

from __future__ import annotations

from typing import Annotated

import pytest
from pydantic import Field

from askback.core.work import (
    Accepted,
    Again,
    DeclinedAnswer,
    UnsafeQuestion,
    choice_question,
    confirm_question,
    value_question,
)
from askback.guard import GUARD, answer_problem


def test_a_question_for_a_credential_is_refused() -> None:
    with pytest.raises(UnsafeQuestion):
        value_question("What is the database password?", str, guard=GUARD)
    with pytest.raises(UnsafeQuestion):
        value_question("Which one?", str, field="api_key", guard=GUARD)


def test_caller_values_in_the_text_are_shown_inert() -> None:
    q = confirm_question("Delete {name}?", {"name": "report\u202e.txt\x1b[2J"}, guard=GUARD)
    assert "\u202e" not in q.message and "\x1b" not in q.message
    assert "<U+202E>" in q.message


def test_an_invalid_value_is_asked_again_with_the_reason_never_a_failure() -> None:
    q = value_question("How many days back?", Annotated[int, Field(ge=1, le=90)], guard=GUARD)
    assert isinstance(q.read({"action": "accept", "content": {"value": 400}}), Again)
    assert isinstance(q.read({"action": "accept", "content": {}}), Again)
    assert isinstance(q.read("not an answer"), Again)
    assert q.read({"action": "accept", "content": {"value": 30}}) == Accepted(30)


def test_a_choice_takes_only_one_of_its_options() -> None:
    q = choice_question("Keep which copy?", ["a.txt", "b.txt"], guard=GUARD)
    assert q.prop["enum"] == ["a.txt", "b.txt"]
    assert isinstance(q.read({"action": "accept", "content": {"choice": "c.txt"}}), Again)
    assert q.read({"action": "accept", "content": {"choice": "b.txt"}}) == Accepted("b.txt")


def test_a_confirmation_wants_yes_or_no_and_a_decline_is_an_answer() -> None:
    q = confirm_question("Proceed?", guard=GUARD)
    assert isinstance(q.read({"action": "accept", "content": {"confirm": "yes"}}), Again)
    assert q.read({"action": "decline"}) == DeclinedAnswer("decline")
    assert q.read({"action": "cancel"}) == DeclinedAnswer("cancel")


def test_an_answer_that_carries_a_credential_is_asked_again() -> None:
    q = value_question("Which branch?", str, guard=GUARD)
    leaked = {"action": "accept", "content": {"value": "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}}
    assert isinstance(q.read(leaked, answer_problem), Again)


def test_the_fingerprint_ignores_the_key_so_a_re_run_recognises_a_question() -> None:
    three, four = (confirm_question(f"Delete {n} files?", guard=GUARD) for n in (3, 4))
    assert three.fingerprint == confirm_question("Delete 3 files?", guard=GUARD).fingerprint
    assert three.fingerprint != four.fingerprint


def test_a_declared_secret_skips_the_word_check_and_is_read_as_a_secret() -> None:
    from askback.core.markers import Secret
    from askback.core.work import SecretNotKept, secret_question

    q = secret_question("Your new API key for {host}", {"host": "db\u202e1"})
    assert q.kind == "secret" and "\u202e" not in q.message  # the shown value is inert
    reading = q.read({"action": "accept", "content": {"value": "sk-live-123"}})
    assert isinstance(reading, Accepted) and isinstance(reading.value, Secret)
    assert reading.value.reveal() == "sk-live-123" and "sk-live-123" not in repr(reading.value)
    assert isinstance(q.read({"action": "accept", "content": {"value": ""}}), Again)
    assert q.read({"action": "decline"}) == DeclinedAnswer("decline")
    with pytest.raises(SecretNotKept):  # never written to a task record
        q.to_json(reading.value)


def test_a_runner_without_the_page_step_refuses_a_secret_question_saying_the_work_had_started() -> None:
    import asyncio

    from askback.callwork import ConversedWork
    from askback.core.work import SecretsUnavailable

    asked: list[object] = []

    async def ask(question: object) -> object:
        asked.append(question)
        return {"action": "accept", "content": {"value": "x"}}

    work = ConversedWork("rotate", ask, can_ask=True, answer_guard=answer_problem, guard=GUARD, max_asks=3)
    with pytest.raises(SecretsUnavailable) as info:
        asyncio.run(work.ask("Your new API key", secret=True))
    assert "already started" in str(info.value) and "retry" not in str(info.value).lower()
    assert asked == []  # never asked in a form
    with pytest.raises(TypeError):
        asyncio.run(work.ask("Your new API key", int, secret=True))


def test_a_page_link_answer_and_a_finished_page_read_the_same_for_every_runner() -> None:
    from askback.core.markers import Secret
    from askback.core.work import DeclinedAnswer, SecretGone, link_answer, page_reading

    assert link_answer({"action": "decline"}) == DeclinedAnswer("decline")
    assert link_answer({"action": "cancel"}) == DeclinedAnswer("cancel")
    assert link_answer({"action": "accept"}) is None  # the person is on the page: the page decides
    assert link_answer("nonsense") is None
    assert page_reading("rejected", None) == DeclinedAnswer("decline")
    entered = page_reading("done", "s3cr3t-value")
    assert isinstance(entered, Accepted) and isinstance(entered.value, Secret)
    assert entered.value.reveal() == "s3cr3t-value" and "s3cr3t-value" not in repr(entered)
    with pytest.raises(SecretGone):  # done, but the value was already taken: never a replay
        page_reading("done", None)


def test_a_client_without_url_elicitation_is_missing_a_capability_before_anything_is_asked() -> None:
    import asyncio

    from askback.callwork import ConversedWork
    from askback.core.errors import MissingCapability

    asked: list[object] = []

    async def ask(question: object) -> object:
        asked.append(question)
        return {"action": "accept"}

    work = ConversedWork("rotate", ask, can_ask=True, answer_guard=answer_problem, guard=GUARD, max_asks=3)
    work.asks_secrets = True  # a runner with the page step, for a client that cannot open a link
    with pytest.raises(MissingCapability) as info:
        asyncio.run(work.ask("Your new API key", secret=True))
    assert info.value.required == {"elicitation": {"url": {}}}
    assert "already started" in str(info.value) and "Nothing was done" not in str(info.value)
    assert asked == []
