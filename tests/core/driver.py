"""A synchronous driver for the engine: plays rounds the way an adapter does, without I/O."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from askback.core.decide import CallInput, decide
from askback.core.kinds import ChoiceParam
from askback.core.markers import Option
from askback.core.outcomes import LookUp, Outcome
from askback.core.progress import Progress
from askback.core.questions import Question
from askback.core.spec import Spec
from askback.guard import GUARD
from askback.types import Capabilities

Answerer = Callable[[Question], Any]


def play(spec: Spec, arguments: Mapping[str, Any], *, responses: Mapping[str, Any] | None = None,
         progress: Progress | None = None, caps: Capabilities | None = None, principal: str | None = None,
         max_rounds: int = 16) -> Outcome:
    """One round, running option providers as `askback.flow` does."""
    options: dict[str, list[Option]] = {}
    while True:
        outcome = decide(spec, CallInput(guard=GUARD, arguments=arguments, responses=responses, progress=progress,
                                         caps=caps or Capabilities.everything(), principal=principal,
                                         options=options, max_rounds=max_rounds))
        if not isinstance(outcome, LookUp):
            return outcome
        for name in outcome.options:
            p = spec.param(name)
            assert isinstance(p, ChoiceParam)
            provider = p.marker.provider
            raw = provider(**{n: outcome.caller if n == "caller" else outcome.caller.values[n]
                              for n in p.provider_params})
            assert not inspect.isawaitable(raw)
            options[name] = [o if isinstance(o, Option) else Option(o) for o in raw]


def form(**content: Any) -> dict[str, Any]:
    return {"action": "accept", "content": content}
