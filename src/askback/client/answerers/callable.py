"""Answer with a Python function: one call per question."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from askback.client.answerers.base import Asked
from askback.client.questions import Question, response_for
from askback.client.secret_forms import screen
from askback.types import Capabilities

AnswerFn = Callable[[Question], Any | Awaitable[Any]]


class CallableAnswerer:
    """Calls `fn(question)` (plain or async) for each question and sends what it returns.

    The return value is read by `askback.client.response_for`: for a form, a mapping of field → value (or a
    bare value for a one-field form, or `decline()` / `cancel()`); for a URL step, `True` once done; for
    sampling, the reply text; for roots, a list of URIs or paths. It is validated against the question before
    it is sent. Declare only what `fn` can answer: forms by default.

    A form that asks for a credential (a password, an API key...) is not filled, nor an answer that looks like
    one sent, unless `allow_secret_forms` (or the client's own): the call stops with `SecretForm` and the
    server is told the form was declined (`askback.client.secret_forms`).
    """

    screens_secret_forms = True  # the guard runs here (`Client` need not run it again)

    def __init__(
        self,
        fn: AnswerFn,
        *,
        form: bool = True,
        url: bool = False,
        sampling: bool = False,
        roots: bool = False,
        allow_secret_forms: bool = False,
    ) -> None:
        self.fn = fn
        self.allow_secret_forms = allow_secret_forms
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
        screen(asked.questions, out, allowed=self.allow_secret_forms or asked.allow_secret_forms)
        return out
