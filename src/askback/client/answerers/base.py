"""The answerer interface: given one round of questions, return one answer per question key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from askback.client.questions import Question
from askback.types import Capabilities


@dataclass(frozen=True)
class Asked:
    """One round of questions, with who asks and what for."""

    server: str
    method: str
    target: str
    questions: tuple[Question, ...]
    round: int = 1
    arguments: Mapping[str, Any] = field(default_factory=dict)
    server_url: str | None = None
    # The caller consented to fill forms that ask for a credential, and to send answers that look like one
    # (`Client(allow_secret_forms=True)`, `askback call --allow-secret-forms`).
    allow_secret_forms: bool = False


@runtime_checkable
class Answerer(Protocol):
    """Answers questions. `capabilities` is declared to the server: exactly what `answer` can honour."""

    @property
    def capabilities(self) -> Capabilities: ...

    async def answer(self, asked: Asked) -> dict[str, dict[str, Any]]:
        """One wire answer per question key (`askback.client.accept(...)`, `decline()`, `cancel()`, ...).

        Raise `askback.client.Postpone` to keep the questions for later instead.
        """
        ...


@runtime_checkable
class Waits(Protocol):
    """An answerer that wants to know when the client waits for page steps it accepted (to say so, once)."""

    def waiting(self, asked: Asked, seconds: float) -> None:
        """The client now waits, for at most `seconds`, for the URL steps in `asked` to be finished."""
        ...


@runtime_checkable
class WatchesTasks(Protocol):
    """An answerer that wants to know what a task the server runs for the call is doing (to show it)."""

    def task_status(self, task_id: str, status: str, message: str | None) -> None:
        """The task's status (`working`, `input_required`, …) or its message changed; both are the server's
        text."""
        ...


@runtime_checkable
class ScreensSecrets(Protocol):
    """An answerer that runs the client's guard over forms asking for a credential itself (the terminal asks the
    person; a file or a callable refuses unless allowed). The client screens the answers of any other one."""

    screens_secret_forms: bool


class Postpone(Exception):
    """Raised by an answerer: do not answer now; the call ends with `Postponed` carrying the pending questions."""


class Later:
    """Answers nothing: every round is postponed (for saving the questions to answer elsewhere).

    `capabilities` is what the answerer that will take over can honour, so the server asks what it can.
    """

    def __init__(self, capabilities: Capabilities) -> None:
        self._capabilities = capabilities

    @property
    def capabilities(self) -> Capabilities:
        return self._capabilities

    async def answer(self, asked: Asked) -> dict[str, dict[str, Any]]:
        raise Postpone()
