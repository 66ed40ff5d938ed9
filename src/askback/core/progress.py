"""What a flow has gathered so far: the record every progress holder keeps between rounds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


# The records a round makes (this one, the round, the engine's input and outcome, the envelope, the step) are
# plain slotted dataclasses, not frozen ones: a frozen dataclass sets each field through `object.__setattr__`,
# which made building them ~5x slower (0.95 against 0.20 µs for eight fields) and a measurable share of a
# round. Nothing changes them once built; they are never hashed.
@dataclass(slots=True)
class Progress:
    values: dict[str, Any] = field(default_factory=dict)  # parameter -> JSON value, from answers
    answered: dict[str, str] = field(default_factory=dict)  # parameter -> fingerprint of the question answered
    asked: dict[str, str] = field(default_factory=dict)  # key -> fingerprint of the question asked last round
    rounds: int = 0
