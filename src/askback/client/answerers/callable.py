"""Answer with a Python function: one call per question."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from askback.client.answerers.base import Asked
from askback.client.questions import Question, response_for
from askback.types import Capabilities

AnswerFn = Callable[[Question], Any | Awaitable[Any]]


class CallableAnswerer:
    """Calls `fn(question)` (plain or async) for each question and sends what it returns.

    The return value is read by `askback.client.response_for`: for a form, a mapping of field → value (or a
    bare value for a one-field form, or `decline()` / `cancel()`); for a URL step, `True` once done; for
    sampling, the reply text; for roots, a list of URIs or paths. It is validated against the question before
    it is sent. Declare only what `fn` can answer: forms by default.
    """

    def __init__(
        self, fn: AnswerFn, *, form: bool = True, url: bool = False, sampling: bool = False, roots: bool = False
    ) -> None:
        self.fn = fn
        self._capabilities = Capabilities(form=form, url=url, sampling=sampling, roots=roots)

    @property
    def capabilities(self) -> Capabilities:
        return self._capabilities

    async def answer(self, asked: Asked) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for question in asked.questions:
            value = self.fn(question)
            if inspect.isawaitable(value):
                value = await value
            out[question.key] = response_for(question, value)
        return out
