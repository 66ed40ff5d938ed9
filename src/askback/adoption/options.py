"""What an adopting app (or a gateway's policy file) says about one of its tools, without touching the tool."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Any

from askback.core.markers import OneOf
from askback.core.marks import APPROVE_WITH, ApproveWith


@dataclass(frozen=True, slots=True)
class Above:
    """The approval is given on askback's page when the numeric argument `argument` is above `limit` (an amount
    threshold, as the demo's transfer has), and confirmed in the form at or below it."""

    argument: str
    limit: float

    def __post_init__(self) -> None:
        if isinstance(self.limit, bool) or not isinstance(self.limit, int | float):
            raise TypeError(f"Above({self.argument!r}, ...) takes a number as its limit, got {self.limit!r}")


@dataclass(frozen=True, slots=True)
class ToolOptions:
    """Per-tool options of `askback.adopt` (and of the gateway's policy file, which becomes these).

    `confirm`: a confirmation asked with the final values before the call goes on; `{name}` parts show the
    values (inert and whole, as every confirmation askback asks). `out_of_band`: that confirmation is an
    approval given on askback's page instead, where no agent answering forms can reach (`True`: always;
    `Above("amount", 1000)`: above that amount). `secret`: parameters that are credentials: never asked in a
    form, only on askback's page. `choices`: parameters whose value must be one of the options a provider gives
    at call time (`askback.OneOf(provider)`; the provider's parameters are matched by name: `caller` receives
    the `askback.Caller`, any other name is an argument of the tool, and the choice waits until those are
    known). `once`: the final call runs once; a replay of its last round is refused. `approve_with`: what the
    approval page takes as a yes ("page": its button; "passkey": a passkey enrolled for the caller,
    docs/passkeys.md); None: the app's `approve_with` (or `ASKBACK_APPROVE_WITH`).
    """

    confirm: str | None = None
    secret: tuple[str, ...] = ()
    choices: Mapping[str, OneOf] = field(default_factory=dict)
    out_of_band: bool | Above = False
    once: bool = False
    approve_with: ApproveWith | None = None

    def __post_init__(self) -> None:
        if isinstance(self.secret, str):  # ("api_key") is a string, not a tuple: the easy slip, refused early
            raise TypeError(f"secret= takes a tuple of parameter names, got the string {self.secret!r}")
        if self.out_of_band is not False and self.confirm is None:
            raise TypeError("out_of_band= needs a confirm= text: it is what the person approves on the page")
        if self.approve_with is not None and self.approve_with not in APPROVE_WITH:
            raise TypeError(f"approve_with= is one of {', '.join(APPROVE_WITH)}, got {self.approve_with!r}")
        if self.approve_with is not None and self.out_of_band is False:
            raise TypeError("approve_with= needs out_of_band=: it says how the approval on the page is given")

    @property
    def needs_pages(self) -> bool:
        """Whether a call of this tool may need a step on askback's pages (a secret, an approval)."""
        return bool(self.secret) or self.out_of_band is not False

    def approved_on_page(self, values: Mapping[str, Any]) -> bool:
        """Whether the confirmation of these final values is an approval on the page (else a form's yes)."""
        if not isinstance(self.out_of_band, Above):
            return bool(self.out_of_band)
        value = values.get(self.out_of_band.argument)
        if value is None:
            return False  # an optional amount not given is not above anything
        try:
            return float(value) > self.out_of_band.limit
        except (TypeError, ValueError):
            return True  # not a number: the stricter way


def confirm_problem(template: str) -> str | None:
    """Why a `confirm=` text is not a template its values can be shown in, or None."""
    try:
        list(Formatter().parse(template))
    except ValueError as exc:
        return str(exc)
    return None
