"""What the engine decides for one round of one call."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from askback.core.errors import MissingCapability
from askback.core.markers import Caller
from askback.core.marks import MarkRequest
from askback.core.progress import Progress
from askback.core.questions import MissingValue, Question

RefusalReason = Literal[
    "declined",
    "cancelled",
    "no_options",
    "cannot_ask",
    "missing_capability",
    "unsafe_question",
    "unconfirmable",
    "too_many_rounds",
    "invalid_arguments",
]


@dataclass(frozen=True, slots=True)
class Run:
    """Every value is known and checked: run the function with `kwargs`.

    `claim`: the function is single-use, so the flow must claim its flow id (atomically, in the store) before
    running it, and not run it if the claim fails. `deferred`: parameters whose values were completed out of
    band and are read by the flow from the store inside that claim (never carried in any state).
    """

    values: dict[str, Any]
    kwargs: dict[str, Any] = field(default_factory=dict, compare=False)
    claim: bool = False
    deferred: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AskRound:
    """Ask these questions now (everything that can be asked this round) and keep `progress` for the next."""

    questions: tuple[Question, ...]
    progress: Progress


@dataclass(frozen=True, slots=True)
class LookUp:
    """The flow must look something up and decide again: `options` of these choices (their providers), and
    the `marks` of these steps completed elsewhere (an out-of-band page), by parameter name."""

    options: tuple[str, ...] = ()
    marks: tuple[MarkRequest, ...] = ()
    caller: Caller = field(default_factory=lambda: Caller(None))


@dataclass(frozen=True, slots=True)
class Refusal:
    """End the call without running the function, saying why.

    `capability` is the `-32021` error of a `missing_capability` refusal: every wire that shows one shows its
    text, and MCP raises it as is (made by `Refusal.missing_capability`, never by hand).
    """

    reason: RefusalReason
    message: str
    missing: tuple[MissingValue, ...] = ()
    capability: MissingCapability | None = field(default=None, compare=False)

    @classmethod
    def missing_capability(cls, error: MissingCapability, missing: tuple[MissingValue, ...]) -> Refusal:
        return cls("missing_capability", error.public_message, missing, error)

    @property
    def required(self) -> dict[str, Any]:
        """The client capabilities that would let the call complete (for `missing_capability`)."""
        return self.capability.required if self.capability is not None else {}

    @property
    def is_error(self) -> bool:
        """A decline or cancel is a person's deliberate answer; every other refusal is an error to act on."""
        return self.reason not in ("declined", "cancelled")


Outcome = Run | AskRound | LookUp | Refusal
