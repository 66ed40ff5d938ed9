"""Steps a person completes elsewhere (an out-of-band page): what the engine asks the flow to look up.

A kind that needs one returns a `MarkRequest`; the flow answers with the step's `Mark` (minting the page's
ticket the first time), and the engine decides again with it. The value a page collects never comes back
here: the mark only says whether the step is done.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Purpose = Literal["secret", "approval"]
Status = Literal["pending", "done", "rejected"]


@dataclass(frozen=True, slots=True)
class MarkRequest:
    """What the page for one parameter must show: the purpose, the field's title, why, and for an approval
    the action as the person will read it, with its values (already rendered inert)."""

    name: str
    purpose: Purpose
    title: str
    message: str
    summary: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Mark:
    """Where an out-of-band step stands, and the page that completes it (the same URL every round)."""

    status: Status
    url: str


def page_message(tool: str, what: str) -> str:
    """The text of the URL question that sends the person to a page step (`what`: "enter your API key")."""
    return f"{tool}: open this page to {what}. It is not asked here, so it never passes through this chat."
