"""A secret a function asks while it runs (`work.ask(text, secret=True)`), entered on askback's page.

The same step a Secret parameter's value takes (`askback.outofband`): a ticket for this flow and question,
whose link the runner puts to the client as a URL question; the person enters the value on the page, which
stores it sealed under the step's mark; the runner waits for the mark in the one page-wait loop
(`askback.pagewait.until`), then takes the value out of the store once. The value is never in a task record,
a state, an answer, a result or a log line: only the mark's status is read before it is taken.

A runner (a task's, a session's) decides where the URL question goes and how its answer comes back; what a
page step is, and how its outcome reads, is here, the same for both.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from askback.core.marks import Mark
from askback.core.work import Accepted, DeclinedAnswer, WorkQuestion, page_reading, secret_mark
from askback.outofband import NoPublicUrl
from askback.pagewait import Finished, until

if TYPE_CHECKING:  # the flow's module builds a session's work, which asks through this one
    from askback.runtime import Runtime


def flow_of(*parts: str) -> bytes:
    """A step's flow id, from what names it for its runner (a task id and its run): the ticket behind the link
    is what is unguessable, this only keeps two flows' marks apart."""
    return hashlib.sha256("\x00".join(("work page step", *parts)).encode()).digest()[:12]


@dataclass(frozen=True, slots=True)
class PageStep:
    """One page step: the flow it belongs to, its name, and when it ends (the flow's deadline)."""

    runtime: Runtime
    flow_id: bytes
    name: str
    deadline: float

    async def open(self, question: WorkQuestion, *, tool: str, principal: str | None,
                   base_url: str | None) -> Mark:
        """The step's mark, its ticket minted the first time (the same link every time after)."""
        oob = self.runtime.out_of_band
        if oob is None:
            raise NoPublicUrl("this runtime has no out-of-band pages")
        return await oob.mark(flow_id=self.flow_id, deadline=self.deadline, request=secret_mark(question, self.name),
                              principal=principal, audience=self.runtime.audience, tool=tool,
                              base_url=self.runtime.public_url or base_url)

    async def finished(self) -> bool:
        """Whether the page finished the step (or its record is gone)."""
        oob = self.runtime.out_of_band
        assert oob is not None
        return await oob.any_finished(self.flow_id, (self.name,))

    async def wait(self, *, also: Finished | None = None) -> bool:
        """Wait until the page finished the step, or `also()` says to stop looking; True if the page did.

        False as well when the flow's deadline passed first."""
        async def done() -> bool:
            return await self.finished() or (also is not None and await also())

        bound = self.deadline - self.runtime.clock()
        return await until(done, bound=bound, poll=self.runtime.page_wait.poll) and await self.finished()

    async def outcome(self) -> Accepted | DeclinedAnswer:
        """The finished step: the value entered, taken from the store once, or the person's refusal on the page."""
        oob = self.runtime.out_of_band
        assert oob is not None
        status = await oob.step_status(self.flow_id, self.name)
        if status == "rejected":
            return page_reading("rejected", None)
        return page_reading("done", await oob.take_secret(self.flow_id, self.name))
