"""`askback.Context`'s own rules, the same on every entry: what it checks, what it drops, what it redacts."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import askback
from askback.guard import answer_problem
from askback.toolcontext import REDACTED, QuietContext, ReportingContext, guarded

TOKEN = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"


def _reporting() -> tuple[ReportingContext, list[Any], list[Any]]:
    progress: list[Any] = []
    logs: list[Any] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async def on_log(level: str, data: Any) -> None:
        logs.append((level, data))

    return ReportingContext("ada", answer_guard=answer_problem, progress=on_progress, log=on_log), progress, logs


def test_progress_that_does_not_increase_is_dropped() -> None:
    ctx, progress, _ = _reporting()

    async def run() -> None:
        await ctx.progress(1, 3)
        await ctx.progress(1, 3)  # not larger: MCP forbids it
        await ctx.progress(0.5)
        await ctx.progress(2, 3, "two")

    asyncio.run(run())
    assert progress == [(1.0, 3.0, None), (2.0, 3.0, "two")]


@pytest.mark.parametrize("ctx", [QuietContext(None), _reporting()[0]], ids=["quiet", "reporting"])
def test_every_context_refuses_the_same_mistakes(ctx: askback.Context) -> None:
    with pytest.raises(ValueError, match="log level"):
        asyncio.run(ctx.log("verbose", "x"))
    with pytest.raises(ValueError, match="finite number"):
        asyncio.run(ctx.progress(float("nan")))
    with pytest.raises(ValueError, match="finite number"):
        asyncio.run(ctx.progress(True))


def test_a_credential_anywhere_in_a_log_is_redacted() -> None:
    ctx, _, logs = _reporting()
    secret = askback.Secret("hunter2")
    asyncio.run(ctx.log("error", f"key {TOKEN} refused", {"nested": [{"k": TOKEN}], "secret": secret, "n": 3}))
    assert logs == [("error", {"message": REDACTED, "data": {"nested": [{"k": REDACTED}], "secret": REDACTED,
                                                              "n": 3}})]


def test_guarded_keeps_plain_values_and_makes_the_rest_json() -> None:
    assert guarded({"a": (1, 2.5, None, True), 3: "x"}, answer_problem) == {"a": [1, 2.5, None, True], "3": "x"}
    assert guarded(float("inf"), answer_problem) == "inf"


def test_a_failing_sink_never_fails_the_function() -> None:
    async def broken(*args: Any) -> None:
        raise ConnectionError("client went away")

    ctx = ReportingContext(None, answer_guard=answer_problem, progress=broken, log=broken)
    asyncio.run(ctx.progress(1))
    asyncio.run(ctx.log("info", "still fine"))
