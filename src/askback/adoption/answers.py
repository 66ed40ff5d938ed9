"""A person's answer to the last round's question, read into values, a confirmation or a refusal.

Only the fields that were asked are read (an answer cannot add an argument nobody asked for); a choice
offered as a string maps back to the number it stands for; a value that reads as a credential is dropped
and asked again with the reason. Everything taken is validated again, with all the arguments, by the next
round's decision: an answer is never trusted to fit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from askback.adoption.decide import Tool
from askback.adoption.progress import LastRound
from askback.core.forms import from_choice
from askback.core.markers import Option
from askback.core.outcomes import Refusal


@dataclass(frozen=True, slots=True)
class Taken:
    values: dict[str, Any] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # why an answered field was not taken
    confirmed: str | None = None  # the digest of the values confirmed
    refusal: Refusal | None = None  # a decline or cancel: the call ends, nothing ran


def take(
    tool: Tool, asked: LastRound, action: Any, content: Any, options: Mapping[str, Sequence[Option]] | None = None
) -> Taken:
    if action in ("decline", "cancel"):
        what = ("the page step" if asked.page is not None else
                "the confirmation" if asked.confirm is not None else "the question for its values")
        if action == "decline":
            return Taken(refusal=Refusal("declined", f"{tool.name} was not run: the person declined {what}."))
        return Taken(refusal=Refusal("cancelled", f"{tool.name} was not run: the person cancelled {what}."))
    if action != "accept" or not isinstance(content, Mapping) or asked.page is not None:
        return Taken()  # a page step's outcome is the page's to record: "accept" only says the person will go
    if asked.confirm is not None:
        return Taken(confirmed=asked.confirm if content.get("confirm") is True else None,
                     refusal=None if content.get("confirm") is True else _said_no(tool))
    from askback.guard import answer_problem

    values: dict[str, Any] = {}
    notes: dict[str, str] = {}
    for name in asked.fields:
        if name not in content:
            continue
        value = content[name]
        offered = (options or {}).get(name)
        _, choices = tool.form_field(name)
        if offered is not None:
            choices = {str(o.value): o.value for o in offered}
        if choices:
            value = from_choice(choices, value)
        problem = answer_problem(value) if isinstance(value, str) else None
        if problem is not None:
            notes[name] = problem.rstrip(".")
            continue
        values[name] = value
    return Taken(values, notes)


def _said_no(tool: Tool) -> Refusal:
    return Refusal("declined", f"{tool.name} was not run: the person did not confirm it.")

