"""The client's round loop without I/O: what it sends next, what a result means, when it stops."""

from __future__ import annotations

from typing import Any

import pytest

from askback.client import DeadlineExceeded, PageNotFinished, Pending, ProtocolError, Server, TooManyRounds
from askback.client.loop import AnswerNeeded, Done, Limits, Loop, Wait, WaitPage

SERVER = Server(url="http://127.0.0.1:1/mcp")
QUESTION = {"q": {"method": "elicitation/create", "params": {"message": "Name?", "requestedSchema": {
    "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}}
PAGE = {"api_key": {"method": "elicitation/create", "params": {
    "mode": "url", "message": "Enter the key", "url": "https://bank.example/askback/p/T1"}}}
OK = {"api_key": {"action": "accept"}}
ODD_STATE = ' {"nonce": "a b", "n": 1.0} ==\n\t'  # JSON-looking, with spaces: must come back byte for byte


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def loop(limits: Limits | None = None, clock: Clock | None = None, jitter: float = 0.5, **kw: Any) -> Loop:
    return Loop("tools/call", {"name": "t", "arguments": {"a": 1}}, server=SERVER, protocol_version="2026-07-28",
                limits=limits, clock=clock or Clock(), jitter=lambda: jitter, **kw)


def asking(state: str | None = None, requests: dict[str, Any] | None = QUESTION) -> dict[str, Any]:
    result: dict[str, Any] = {"resultType": "input_required"}
    if requests is not None:
        result["inputRequests"] = requests
    if state is not None:
        result["requestState"] = state
    return result


def test_first_request_carries_no_answers_and_no_state() -> None:
    assert loop().request() == {"name": "t", "arguments": {"a": 1}}


def test_a_result_without_result_type_is_complete() -> None:
    step = loop().receive({"content": [{"type": "text", "text": "ok"}]})
    assert step == Done({"content": [{"type": "text", "text": "ok"}]})


def test_the_state_is_echoed_exactly_with_the_answers_and_the_same_arguments() -> None:
    lp = loop()
    step = lp.receive(asking(ODD_STATE))
    assert isinstance(step, AnswerNeeded)
    assert [q.key for q in step.pending.questions] == ["q"]
    lp.answered({"q": {"action": "accept", "content": {"name": "Ada"}}})
    retry = lp.request()
    assert retry["requestState"] == ODD_STATE
    assert retry["inputResponses"] == {"q": {"action": "accept", "content": {"name": "Ada"}}}
    assert retry["arguments"] == {"a": 1} and retry["name"] == "t"


def test_no_state_is_sent_when_the_server_gave_none() -> None:
    lp = loop()
    lp.receive(asking("first"))
    lp.answered({"q": {"action": "decline"}})
    lp.receive(asking(None))  # the next round has no state: the old one must not be reused
    lp.answered({"q": {"action": "decline"}})
    assert "requestState" not in lp.request()


def test_a_state_only_round_waits_with_growing_jittered_backoff_then_resets() -> None:
    low = loop(Limits(backoff_initial=0.1, backoff_max=0.3), jitter=0.0)
    waits = [low.receive(asking("s", requests=None)) for _ in range(4)]
    assert waits == [Wait(0.05), Wait(0.1), Wait(0.15), Wait(0.15)]  # 0.1, 0.2, 0.3 (cap), halved by jitter 0
    assert low.request() == {"name": "t", "arguments": {"a": 1}, "requestState": "s"}  # no inputResponses
    assert isinstance(low.receive(asking("s")), AnswerNeeded)
    assert low.receive(asking("s", requests=None)) == Wait(0.05)  # questions reset the backoff
    high = loop(Limits(backoff_initial=0.1), jitter=1.0)
    assert high.receive(asking("s", requests=None)) == Wait(0.1)


def test_the_round_cap_stops_with_the_open_questions() -> None:
    lp = loop(Limits(max_rounds=2))
    for _ in range(2):
        assert isinstance(lp.receive(asking("s")), AnswerNeeded)
        lp.answered({})
    with pytest.raises(TooManyRounds) as raised:
        lp.receive(asking("s3"))
    assert raised.value.pending is not None
    assert raised.value.pending.request_state == "s3"
    assert "more than 2 rounds" in str(raised.value) and "Open questions: q" in str(raised.value)


def test_the_deadline_reports_the_open_questions() -> None:
    clock = Clock()
    lp = loop(Limits(timeout=30), clock=clock)
    assert lp.remaining() == 30
    lp.receive(asking("s"))
    clock.now += 45
    assert lp.remaining() == 0
    expired = lp.expired()
    assert isinstance(expired, DeadlineExceeded)
    assert expired.pending is not None and expired.pending.request_state == "s"
    assert loop(Limits(timeout=None)).remaining() is None


@pytest.mark.parametrize("result", [
    {"resultType": "task"},
    {"resultType": "input_required"},
    {"resultType": "input_required", "inputRequests": [], "requestState": "s"},
    {"resultType": "input_required", "requestState": 7},
    {"resultType": "input_required", "inputRequests": {"q": {"method": "tasks/get"}}},
    "not an object",
])
def test_malformed_results_are_protocol_errors(result: Any) -> None:
    with pytest.raises(ProtocolError):
        loop().receive(result)


def test_resuming_starts_with_the_saved_questions_and_state() -> None:
    saved = Pending(SERVER, "tools/call", {"name": "t", "arguments": {"a": 1}}, QUESTION, ODD_STATE, rounds=3)
    lp = loop(resume=saved)
    first = lp.start()
    assert isinstance(first, AnswerNeeded) and first.pending is saved
    lp.answered({"q": {"action": "accept", "content": {"name": "Ada"}}})
    assert lp.request()["requestState"] == ODD_STATE
    assert loop().start() is None


def test_a_page_step_asked_again_after_it_was_accepted_is_waited_for_not_asked() -> None:
    clock = Clock()
    lp = loop(Limits(max_rounds=2, url_wait=20), clock=clock)
    assert isinstance(lp.receive(asking("s1", PAGE)), AnswerNeeded)
    assert lp.answered(OK) is True  # the wait starts at the acceptance (the server may hold the next request)
    waits = []
    for n in range(6):  # more rounds than max_rounds: waiting for a page is not a round of questions
        step = lp.receive(asking(f"s{n + 2}", PAGE))
        assert isinstance(step, WaitPage) and step.pending.request_state == f"s{n + 2}"
        assert lp.request()["inputResponses"] == OK and lp.request()["requestState"] == f"s{n + 2}"
        waits.append((step.seconds, step.first))
        clock.now += step.seconds
    assert waits == [(1, False), (2, False), (4, False), (5, False), (5, False), (3, False)]  # capped at the bound
    with pytest.raises(PageNotFinished) as raised:
        lp.receive(asking("s9", PAGE))
    assert "The page step at bank.example was not finished within 20 s" in str(raised.value)
    assert raised.value.pending is not None and raised.value.pending.request_state == "s9"
    assert lp.rounds == 1


def test_a_declined_or_new_url_or_a_new_question_is_answered_again_and_restarts_the_wait() -> None:
    lp = loop()
    lp.receive(asking("s", PAGE))
    lp.answered({"api_key": {"action": "decline"}})
    assert isinstance(lp.receive(asking("s", PAGE)), AnswerNeeded)  # declined before: the person is asked again
    lp.answered(OK)
    assert isinstance(lp.receive(asking("s", PAGE)), WaitPage)
    moved = {"api_key": {**PAGE["api_key"], "params": {**PAGE["api_key"]["params"], "url": "https://bank.example/2"}}}
    assert isinstance(lp.receive(asking("s", moved)), AnswerNeeded)  # another URL: another step
    lp.answered(OK)
    mixed = lp.receive(asking("s", {**moved, **QUESTION}))
    assert isinstance(mixed, AnswerNeeded) and mixed.again == frozenset({"api_key"})  # only the form is new
    assert lp.answered({**OK, "q": {"action": "accept", "content": {"name": "Ada"}}}) is True
    step = lp.receive(asking("s", moved))
    assert isinstance(step, WaitPage) and step.seconds == 1  # a fresh stretch of waiting
    assert not step.first  # it was told at the acceptance, not again here


def test_no_page_wait_at_all_stops_at_the_first_repeat() -> None:
    lp = loop(Limits(url_wait=0))
    lp.receive(asking("s", PAGE))
    lp.answered(OK)
    with pytest.raises(PageNotFinished):
        lp.receive(asking("s", PAGE))
