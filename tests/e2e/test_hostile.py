"""Requests built to cost the server: many answers under keys no question asked, or for a target that is not there.

Over real loopback HTTP with nothing in between. Timing is measured in the report, never asserted here: what
these tests pin is that such a request is refused early and clearly, before the expensive part.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import askback
from askback.mcp.guard import MAX_ANSWERS
from tests.support.rawclient import RawClient, accept

Serve = Callable[[askback.App], str]


def counting_app() -> tuple[askback.App, list[str]]:
    app = askback.App("hostile")
    ran: list[str] = []

    @app.tool()
    def launch(code: str, ok: Annotated[bool, askback.Confirm("Launch {code}?")]) -> str:
        ran.append(code)
        return f"launched {code}"

    @app.prompt()
    def brief(topic: str) -> str:
        return f"Brief me on {topic}."

    return app, ran


def junk(n: int) -> dict[str, Any]:
    """`n` answers under keys no question asked, none of them shaped like an answer."""
    return {f"unasked-{i}": {"not": "an answer", "i": i} for i in range(n)}


def plain(n: int) -> dict[str, Any]:
    """`n` well-formed answers under keys no question asked."""
    return {f"unasked-{i}": accept(**{f"f{i}": "x" * 20}) for i in range(n)}


# -- (1) the number of answers is bounded ----------------------------------------------------------------------
def test_more_answers_than_any_round_can_ask_is_refused_by_count(serve: Serve) -> None:
    app, ran = counting_app()
    with RawClient(serve(app)) as client:
        refused = client.call("launch", {"code": "A1"}, responses=plain(MAX_ANSWERS + 1))
        hostile = client.call("launch", {"code": "A1"}, responses=plain(40_000))  # ~3 MB
    for response in (refused, hostile):
        error = response.get("error")
        assert error is not None and error["code"] == -32602, response
        assert error["message"] == (f"inputResponses has more than {MAX_ANSWERS} entries; send only the answers "
                                    "to the questions the last result asked")
    assert ran == []


def test_unasked_answers_within_the_bound_are_ignored(serve: Serve) -> None:
    app, ran = counting_app()
    with RawClient(serve(app)) as client:
        asked = client.call("launch", {"code": "A1"}, responses=plain(MAX_ANSWERS))["result"]
        assert list(asked["inputRequests"]) == ["ok"], asked
        extra = {**plain(MAX_ANSWERS - 1), "ok": accept(ok=True)}
        done = client.call("launch", {"code": "A1"}, state=asked["requestState"], responses=extra)["result"]
    assert done["content"][0]["text"] == "launched A1"
    assert ran == ["A1"]


# -- (2) an unknown target is refused before any answer is examined ---------------------------------------------
def test_unknown_tool_is_refused_before_its_answers_are_examined(serve: Serve) -> None:
    app, _ = counting_app()
    with RawClient(serve(app)) as client:
        response = client.call("no_such_tool", {}, responses=junk(3))
    assert response.get("error") == {"code": -32602, "message": "Unknown tool: no_such_tool"}, response


def test_unknown_tool_with_too_many_answers_is_still_an_unknown_tool(serve: Serve) -> None:
    app, _ = counting_app()
    with RawClient(serve(app)) as client:
        response = client.call("no_such_tool", {}, responses=junk(20_000))
    assert response.get("error") == {"code": -32602, "message": "Unknown tool: no_such_tool"}, response


def test_unknown_prompt_is_refused_before_its_answers_are_examined(serve: Serve) -> None:
    app, _ = counting_app()
    with RawClient(serve(app)) as client:
        response = client.send("prompts/get", {"name": "no_such_prompt", "inputResponses": junk(3)})
    assert response.get("error") == {"code": -32602, "message": "Unknown prompt: no_such_prompt"}, response


def test_a_malformed_answer_to_a_known_tool_is_still_named(serve: Serve) -> None:
    app, ran = counting_app()
    with RawClient(serve(app)) as client:
        response = client.call("launch", {"code": "A1"}, responses={"ok": 5})
    error = response.get("error")
    assert error is not None and error["code"] == -32602
    assert error["message"].startswith("inputResponses['ok'] is not an answer"), error
    assert ran == []
