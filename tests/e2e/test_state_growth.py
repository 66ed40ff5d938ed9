"""What a flow carries in its requestState grows with what was answered, not faster, and fits the default cap.

Each round re-seals every earlier answer, so with the former 16 KiB cap and no compression an answer over about
11 KB followed by one more round failed. Over real HTTP, with the default `App` settings.
"""

from __future__ import annotations

import os
from itertools import pairwise
from typing import Annotated, Any

import askback
from askback.core.state import DEFAULT_MAX_STATE_BYTES, b64url
from tests.support.rawclient import RawClient, accept

ROUNDS = 5


def chained_app() -> askback.App:
    """`notes`: a title and a body in the first round, then a key and a text per round, each pair asked after the
    previous key (only the short keys are named in questions: an answer shown in a question is guarded)."""
    app = askback.App("growth")

    @app.tool()
    def notes(
        title: Annotated[str, askback.Ask("Title?")],
        body: Annotated[str, askback.Ask("Body?")],
        k1: Annotated[str, askback.Ask("A key after {title}?")],
        t1: Annotated[str, askback.Ask("A text after {title}?")],
        k2: Annotated[str, askback.Ask("A key after {k1}?")],
        t2: Annotated[str, askback.Ask("A text after {k1}?")],
        k3: Annotated[str, askback.Ask("A key after {k2}?")],
        t3: Annotated[str, askback.Ask("A text after {k2}?")],
        k4: Annotated[str, askback.Ask("A key after {k3}?")],
        t4: Annotated[str, askback.Ask("A text after {k3}?")],
    ) -> str:
        return f"{title}: {len(body)} chars, {k1} {k2} {k3} {k4}, {len(t1 + t2 + t3 + t4)} chars of text"

    return app


def play(url: str, answer: Any) -> tuple[str, list[int]]:
    """Answer every question with `answer(key)` until the call completes; the final text and each state's size."""
    sizes: list[int] = []
    with RawClient(url) as client:
        result = client.call("notes")["result"]
        while result["resultType"] == "input_required":
            sizes.append(len(result["requestState"]))
            responses = {key: accept(**{field: answer(field)
                                        for field in request["params"]["requestedSchema"]["properties"]})
                         for key, request in result["inputRequests"].items()}
            reply = client.call("notes", responses=responses, state=result["requestState"])
            assert "result" in reply, reply
            result = reply["result"]
        assert not result.get("isError"), result
        return result["content"][0]["text"], sizes


def log_text(size: int) -> str:
    lines = (f"2026-12-01T10:{i // 60 % 60:02d}:{i % 60:02d}Z INFO order {1000 + i} shipped to warehouse {i % 7}\n"
             for i in range(size // 40))
    return "".join(lines)[:size]


def test_a_50_kb_answer_then_four_more_rounds_fits_the_default_cap(serve) -> None:  # type: ignore[no-untyped-def]
    big = log_text(50_000)
    text, sizes = play(serve(chained_app()), lambda field: big if field == "body" else field.upper())
    assert text == "TITLE: 50000 chars, K1 K2 K3 K4, 8 chars of text"
    assert len(sizes) == ROUNDS
    assert max(sizes) <= DEFAULT_MAX_STATE_BYTES


def test_an_incompressible_50_kb_answer_then_four_more_rounds_fits_the_default_cap(serve) -> None:  # type: ignore[no-untyped-def]
    """Random text (a key file's worth of base64, a photo's EXIF dump): compression cannot help, the cap must."""
    big = b64url(os.urandom(37_500))  # 50,000 characters
    text, sizes = play(serve(chained_app()), lambda field: big if field == "body" else field.upper())
    assert text == "TITLE: 50000 chars, K1 K2 K3 K4, 8 chars of text"
    assert len(sizes) == ROUNDS and min(sizes[1:]) > 50_000  # carried every round after it was given
    assert max(sizes) <= DEFAULT_MAX_STATE_BYTES


def increments(sizes: list[int]) -> list[int]:
    return [b - a for a, b in pairwise(sizes)]


def test_state_grows_at_most_linearly_with_random_answers(serve) -> None:  # type: ignore[no-untyped-def]
    """Incompressible 1 KB texts: each round adds about one text's base64, never more as rounds go on."""
    answers: dict[str, str] = {}

    def answer(field: str) -> str:
        return field if field.startswith(("k", "title")) else answers.setdefault(field, b64url(os.urandom(768)))

    _, sizes = play(serve(chained_app()), answer)
    steps = increments(sizes)[1:]  # from round 3 on, one 1,024-char text (and a short key) more per round
    assert len(steps) == ROUNDS - 2
    assert all(1024 < step <= 1.4 * 1024 + 120 for step in steps), (sizes, steps)


def test_state_grows_at_most_linearly_with_repetitive_answers(serve) -> None:  # type: ignore[no-untyped-def]
    """The same 2 KB paragraph every round: compression keeps each round's growth small, never growing."""
    paragraph = "All work and no play makes a flow a dull flow. " * 44
    _, sizes = play(serve(chained_app()), lambda field: field if field.startswith(("k", "title")) else paragraph)
    steps = increments(sizes)[1:]
    assert all(step <= 200 for step in steps), (sizes, steps)
    assert max(sizes) < len(paragraph), sizes  # five copies of it carried in less than one
