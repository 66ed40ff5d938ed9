"""The task lifecycle without I/O: statuses, keys unique for a task's life, stale keys, partial answers, re-runs."""

from __future__ import annotations

import pytest

from askback.core import tasks
from askback.core.tasks import IllegalMove, TaskState


def fresh() -> TaskState:
    return TaskState(tool="cleanup", values={"days": 3}, created_at=100.0, updated_at=100.0, ttl_seconds=60,
                     poll_ms=500)


def test_a_question_parks_the_task_and_its_answer_resumes_it() -> None:
    state, key = tasks.ask(fresh(), "fp-1", {"method": "elicitation/create"}, 101.0, 0)
    assert state.status == "input_required"
    assert [a.key for a in state.outstanding] == [key]
    state = tasks.answered(state, key, {"accepted": True}, 102.0)
    assert state.status == "working"
    assert state.outstanding == ()
    assert state.updated_at == 102.0


def test_keys_are_never_reused_even_after_an_answer_or_a_re_ask() -> None:
    state = fresh()
    seen: list[str] = []
    for n in range(5):
        state, key = tasks.ask(state, f"fp-{n}", {}, 101.0 + n, n)
        seen.append(key)
        if n % 2:
            state = tasks.superseded(state, key, 102.0 + n)
        else:
            state = tasks.answered(state, key, {"accepted": n}, 102.0 + n)
    assert len(set(seen)) == len(seen)


def test_only_outstanding_keys_of_an_update_count() -> None:
    state, first = tasks.ask(fresh(), "a", {}, 101.0, 0)
    state, second = tasks.ask(state, "b", {}, 101.0, 1)
    state = tasks.answered(state, first, {"accepted": 1}, 102.0)
    assert tasks.accepted_keys(state, [first, second, "q99", "invented"]) == [second]


def test_a_partial_answer_keeps_the_task_waiting_for_the_rest() -> None:
    state, first = tasks.ask(fresh(), "a", {}, 101.0, 0)
    state, second = tasks.ask(state, "b", {}, 101.0, 1)
    state = tasks.answered(state, first, {"accepted": 1}, 102.0)
    assert state.status == "input_required"
    assert [a.key for a in state.outstanding] == [second]


def test_a_terminal_task_never_moves_again() -> None:
    done = tasks.completed(fresh(), {"content": []}, 101.0)
    for move in (lambda s: tasks.cancelled(s, 102.0), lambda s: tasks.failed(s, {"code": -32603, "message": "x"},
                                                                              102.0)):
        with pytest.raises(IllegalMove):
            move(done)
    assert not tasks.can_move("cancelled", "working")


def test_a_finished_task_keeps_no_answers() -> None:
    state, key = tasks.ask(fresh(), "a", {"method": "elicitation/create", "params": {"message": "Delete?"}}, 101.0, 0)
    state = tasks.answered(state, key, {"accepted": "secret-ish answer"}, 102.0)
    done = tasks.completed(state, {"content": []}, 103.0)
    assert all(a.answer is None and a.request == {} for a in done.asked)


def test_a_re_run_finds_the_same_question_answered_and_drops_answers_of_another_path() -> None:
    state, key = tasks.ask(fresh(), "first", {}, 101.0, 0)
    state = tasks.answered(state, key, {"accepted": True}, 102.0)
    state, later = tasks.ask(state, "second", {}, 103.0, 1)
    state = tasks.answered(state, later, {"accepted": 7}, 104.0)
    same, found = tasks.recorded(state, 0, "first")
    assert found is not None and found.answer == {"accepted": True}
    other, found = tasks.recorded(same, 0, "something else")
    assert found is None
    assert all(a.superseded and a.answer is None for a in other.asked)
