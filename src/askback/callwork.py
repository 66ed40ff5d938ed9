"""The `askback.Work` of a call that is not a task: the function runs within the request that called it.

A task's function asks through its task record (`askback.tasks.runner.TaskWork`). A call that is not a task has
two cases:

- `InlineWork`: nothing can reach the person while the request runs (a 2026-07-28 request answers once, with
  its result): a question ends the call with a tool error saying a task is needed.
- `ConversedWork`: the request has a back-channel (a 2025-11-25 session): each question is asked through it,
  exactly as `Flow.converse` asks a missing value, and each answer is read with the rules a task's question
  uses (`askback.core.work`): an invalid answer is asked again with the reason, a decline is the person's.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from askback.core.decide import AnswerGuard
from askback.core.errors import NeedsTask, ToolError
from askback.core.guarding import Guard
from askback.core.markers import Option, Work
from askback.core.questions import Question, UrlQuestion
from askback.core.text import render
from askback.core.work import (
    Accepted,
    Again,
    DeclinedAnswer,
    QuestioningWork,
    UnsafeQuestion,
    WorkQuestion,
    link_answer,
    secret_page_question,
)
from askback.pagestep import PageStep
from askback.pagewait import Gone

if TYPE_CHECKING:  # the flow builds this work, and its runtime is the flow's
    from askback.runtime import Runtime

logger = logging.getLogger("askback")

AskOne = Callable[[Question], Awaitable[Any]]
Status = Callable[[str], Awaitable[None]]
Notify = Callable[[UrlQuestion], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class SessionPages:
    """What a session's work needs to ask a secret on askback's page: the runtime and the flow's id and
    deadline, who called (the page checks it is them), where the request came in (a link's base when no public
    URL is set), how to tell the client a page step is done, and whether it went away (the wait then ends)."""

    runtime: Runtime
    flow_id: bytes
    deadline: float
    principal: str | None
    origin: str | None
    notify: Notify | None = None
    gone: Gone | None = None


class InlineWork(Work):
    """Progress is ignored; a question ends the call (only a task could ask it here)."""

    def __init__(self, tool: str) -> None:
        self._tool = tool

    def _cannot(self) -> NeedsTask:
        return NeedsTask(
            f"{self._tool} needs to ask a question during its work, which only a task can do: call it again "
            "declaring the tasks extension (io.modelcontextprotocol/tasks). Nothing more was done."
        )

    async def confirm(self, text: str, *, not_secret: bool = False, **values: Any) -> bool:
        raise self._cannot()

    async def choose(
        self,
        text: str,
        options: Sequence[Option | str | int | float | bool],
        *,
        not_secret: bool = False,
        **values: Any,
    ) -> Any:
        raise self._cannot()

    async def ask(
        self,
        text: str,
        kind: Any = str,
        *,
        field: str = "value",
        not_secret: bool = False,
        secret: bool = False,
        **values: Any,
    ) -> Any:
        raise self._cannot()

    async def status(self, text: str, **values: Any) -> None:
        return None


class ConversedWork(QuestioningWork):
    """Each question asked over the request's back-channel through `ask`, while the function waits.

    `can_ask`: whether this client can be asked a form at all (it declared form elicitation and the request has
    a back-channel); if not, a question ends the call with a tool error saying so. The function has run up to
    that question, so the message says that nothing MORE was done, never that nothing was. `max_asks` bounds
    how often one question is asked again after unusable answers (the flow's round limit). `status` sends a
    `work.status` text to the client, if the request asked for progress (else it is not shown).
    """

    def __init__(self, tool: str, ask: AskOne, *, can_ask: bool, answer_guard: AnswerGuard, guard: Guard,
                 max_asks: int, status: Status | None = None, pages: SessionPages | None = None,
                 asks_urls: bool = False) -> None:
        """`pages`: how a `secret=True` question is asked on askback's page (None: this server serves none);
        `asks_urls`: whether the client declared URL elicitation and the request has a back-channel."""
        self.tool = tool
        self.guard = guard
        self._pages = pages
        self.asks_secrets = pages is not None
        self.asks_urls = asks_urls
        if pages is None:
            self.no_page_step = ("this server does not serve askback's pages (they are served over HTTP, on "
                                 "loopback or with page_auth)")
        self._ask_one = ask
        self._can_ask = can_ask
        self._answer_guard = answer_guard
        self._max_asks = max_asks
        self._status = status
        self._ordinal = 0

    async def status(self, text: str, **values: Any) -> None:
        if self._status is not None:
            await self._status(render(text, values) if values else text)

    async def _ask(self, build: Callable[[], WorkQuestion]) -> Any:
        try:
            question = build()
        except UnsafeQuestion as exc:  # the tool's own bug, safe to name: it asked for a credential in a form
            logger.error("%s: %s", self.tool, exc)
            raise ToolError(f"{self.tool} failed: {exc}. Nothing more was done.") from None
        if question.kind == "secret":
            return await self._page_step(question)
        if not self._can_ask:
            raise NeedsTask(
                f"{self.tool} needs to ask a question during its work, and this client cannot be asked: it did "
                "not declare form elicitation. Call it again from a client that supports elicitation. "
                "Nothing more was done."
            )
        key = f"work{self._ordinal}"
        self._ordinal += 1
        note: str | None = None
        for _ in range(self._max_asks):
            reading = question.read(await self._ask_one(question.question(key, note)), self._answer_guard)
            if not isinstance(reading, Again):
                return reading
            note = f"The previous answer was not accepted: {reading.reason}."
        raise ToolError(f"{self.tool} asked {self._max_asks} times without a usable answer. Nothing more was done.")

    async def _page_step(self, question: WorkQuestion) -> Accepted | DeclinedAnswer:
        """A secret asked during the work: the page link goes over the back-channel as a URL question; once the
        person accepted it, the call waits for the page (as a Secret parameter's step waits), tells the client
        the step is complete, and hands the function the value, taken from the store once."""
        pages = self._pages
        assert pages is not None
        key = f"work{self._ordinal}"
        self._ordinal += 1
        # a name no parameter can have (the flow's Secret parameters' steps share its id)
        step = PageStep(pages.runtime, pages.flow_id, f"work:{key}", pages.deadline)
        mark = await step.open(question, tool=self.tool, principal=pages.principal, base_url=pages.origin)
        link = secret_page_question(self.tool, question, key, mark.url)
        refused = link_answer(await self._ask_one(link))
        if refused is not None:
            return refused
        if not await step.wait(also=pages.gone):
            return DeclinedAnswer("cancel")  # the flow's time ran out, or the client went away
        if pages.notify is not None:
            await pages.notify(link)
        return await step.outcome()
