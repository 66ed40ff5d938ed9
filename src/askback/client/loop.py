"""The round loop of one asking request, without I/O: what to send next and what a result means.

`Loop` is fed each raw result and says what comes next: `Done` (the final result), `Answer` (questions for
the answerer), or `Wait` (a round with state but no questions: retry after a backoff with jitter). The rules
it keeps, whatever drives it:

- a result without `resultType` is complete;
- the retry carries the same method and params, the answers, and the `requestState` exactly as received —
  never parsed, never sent when the server gave none, never kept past this one call;
- `max_rounds` input_required results at most, and a wall-clock deadline; each ends with an exception
  carrying the open questions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from askback.client.errors import ProtocolError
from askback.client.pending import DeadlineExceeded, Pending, Server, TooManyRounds, target_of
from askback.client.questions import parse_questions

DEFAULT_MAX_ROUNDS = 16
DEFAULT_TIMEOUT = 600.0


@dataclass(frozen=True)
class Limits:
    """How long a call may take: rounds, wall-clock seconds (None: no deadline), and the state-only backoff."""

    max_rounds: int = DEFAULT_MAX_ROUNDS
    timeout: float | None = DEFAULT_TIMEOUT
    backoff_initial: float = 0.1
    backoff_max: float = 2.0

    def __post_init__(self) -> None:
        if self.max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        if self.timeout is not None and self.timeout <= 0:
            raise ValueError("timeout must be positive (or None for no deadline)")


@dataclass(frozen=True)
class Done:
    """The server finished: its result, as sent."""

    result: dict[str, Any]


@dataclass(frozen=True)
class Answer:
    """The server asks: answer `pending.questions`, then call `Loop.answered`."""

    pending: Pending


@dataclass(frozen=True)
class Wait:
    """The server sent state and no questions: send the retry after this many seconds."""

    seconds: float


Step = Done | Answer | Wait


class Loop:
    """One asking request (`tools/call`, `prompts/get`, `resources/read`) from first send to final result."""

    def __init__(
        self,
        method: str,
        params: Mapping[str, Any],
        *,
        server: Server,
        protocol_version: str,
        server_name: str | None = None,
        limits: Limits | None = None,
        resume: Pending | None = None,
        clock: Callable[[], float] = time.monotonic,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self.method = method
        self.params = {k: v for k, v in params.items() if k not in ("inputResponses", "requestState", "_meta")}
        self.server = server
        self.protocol_version = protocol_version
        self.server_name = server_name
        self.limits = limits or Limits()
        self.clock = clock
        self.jitter = jitter
        self.deadline = None if self.limits.timeout is None else clock() + self.limits.timeout
        self.pending: Pending | None = resume
        self.rounds = resume.rounds if resume is not None else 0
        self._state: str | None = resume.request_state if resume is not None else None
        self._responses: dict[str, Any] | None = None
        self._state_only = 0

    @property
    def target(self) -> str:
        """The tool or prompt name, or the resource URI."""
        return target_of(self.method, self.params)

    def start(self) -> Step | None:
        """When resuming, the saved questions come first; else None (send `request()`)."""
        return Answer(self.pending) if self.pending is not None and self.pending.input_requests else None

    def request(self) -> dict[str, Any]:
        """The params of the next request: the original ones, plus the answers and state of the last round."""
        params = dict(self.params)
        if self._responses is not None:
            params["inputResponses"] = self._responses
        if self._state is not None:
            params["requestState"] = self._state
        return params

    def receive(self, result: Any) -> Step:
        if not isinstance(result, Mapping):
            raise ProtocolError(f"{self.method} returned a result that is not an object")
        kind = result.get("resultType", "complete")
        if kind == "complete":
            self.pending = None
            return Done(dict(result))
        if kind != "input_required":
            raise ProtocolError(f"{self.method} returned resultType {kind!r}, which this client does not know")
        requests = result.get("inputRequests")
        state = result.get("requestState")
        if requests is not None and not isinstance(requests, Mapping):
            raise ProtocolError("inputRequests is not an object")
        if state is not None and not isinstance(state, str):
            raise ProtocolError("requestState is not a string")
        if not requests and state is None:
            raise ProtocolError("an input_required result carries neither inputRequests nor requestState")
        requests = dict(requests or {})
        parse_questions(requests)  # malformed questions fail here, before anything is asked
        self.rounds += 1
        self.pending = Pending(
            self.server, self.method, self.params, requests, state, self.rounds, self.protocol_version, self.server_name
        )
        if self.rounds > self.limits.max_rounds:
            raise TooManyRounds(
                f"The server asked for more than {self.limits.max_rounds} rounds; the call stops here.", self.pending
            )
        self._state = state
        self._responses = None
        if not requests:
            self._state_only += 1
            delay = min(self.limits.backoff_max, self.limits.backoff_initial * 2 ** (self._state_only - 1))
            return Wait(delay * (0.5 + self.jitter() / 2))
        self._state_only = 0
        return Answer(self.pending)

    def answered(self, responses: Mapping[str, Any]) -> None:
        """The answers to the last `Answer`'s questions, sent with the next request."""
        self._responses = dict(responses)

    def remaining(self) -> float | None:
        """Seconds left before the deadline (never negative), or None without a deadline."""
        return None if self.deadline is None else max(0.0, self.deadline - self.clock())

    def expired(self) -> DeadlineExceeded:
        return DeadlineExceeded(f"The call ran past its deadline of {self.limits.timeout:g} s.", self.pending)
