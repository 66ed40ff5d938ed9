"""What an adopting app says about one of its tools, without touching the tool."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter

from askback.core.markers import OneOf


@dataclass(frozen=True, slots=True)
class ToolOptions:
    """Per-tool options of `askback.adopt`.

    `confirm`: a confirmation asked with the final values before the call goes on; `{name}` parts show the
    values (inert and whole, as every confirmation askback asks). `secret`: parameters that are credentials:
    never asked in a form, only out of band. `choices`: parameters whose value must be one of the options a
    provider gives at call time (`askback.OneOf(provider)`; the provider's parameters are matched by name:
    `caller` receives the `askback.Caller`, any other name is an argument of the tool, and the choice waits
    until those are known).
    """

    confirm: str | None = None
    secret: tuple[str, ...] = ()
    choices: Mapping[str, OneOf] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.secret, str):  # ("api_key") is a string, not a tuple: the easy slip, refused early
            raise TypeError(f"secret= takes a tuple of parameter names, got the string {self.secret!r}")


def confirm_problem(template: str) -> str | None:
    """Why a `confirm=` text is not a template its values can be shown in, or None."""
    try:
        list(Formatter().parse(template))
    except ValueError as exc:
        return str(exc)
    return None
