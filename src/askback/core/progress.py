"""What a flow has gathered so far: the record every progress holder keeps between rounds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Progress:
    values: dict[str, Any] = field(default_factory=dict)  # parameter -> JSON value, from answers
    answered: dict[str, str] = field(default_factory=dict)  # parameter -> fingerprint of the question answered
    asked: dict[str, str] = field(default_factory=dict)  # key -> fingerprint of the question asked last round
    rounds: int = 0
