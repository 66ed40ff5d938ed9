"""The round loop of one asking request, without I/O: what to send next and what a result means.

`Loop` is fed each raw result and says what comes next: `Done` (the final result), `AnswerNeeded` (questions for
the answerer), or `Wait` (a round with state but no questions: retry after a backoff with jitter). The rules
it keeps, whatever drives it:

- a result without `resultType` is complete;
- the retry carries the same method and params, the answers, and the `requestState` exactly as received —
  never parsed, never sent when the server gave none, never kept past this one call;
- `max_rounds` input_required results at most, and a wall-clock deadline; each ends with an exception
  carrying the open questions;
- a URL question asked again, with the same URL, after it was accepted means "the page step is not finished
  yet" (the server learns that only from its own store): it is not put to the person again but answered
  `accept` again after a growing wait (`WaitPage`), up to `url_wait` seconds, and such rounds do not count
  against `max_rounds` (the person answered nothing new).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from askback.client.errors import ProtocolError
from askback.client.limits import DEFAULT_MAX_ROUNDS as DEFAULT_MAX_ROUNDS
from askback.client.limits import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
from askback.client.limits import DEFAULT_URL_WAIT as DEFAULT_URL_WAIT
from askback.client.pending import DeadlineExceeded, PageNotFinished, Pending, Server, TooManyRounds, target_of
from askback.client.questions import UrlQuestion, parse_questions


@dataclass(frozen=True)
class Limits:
    """How long a call may take: rounds, wall-clock seconds (None: no deadline), the state-only backoff, and
    how long to wait for a page step the person agreed to take (with its own, slower backoff)."""

    max_rounds: int = DEFAULT_MAX_ROUNDS
    timeout: float | None = DEFAULT_TIMEOUT
    backoff_initial: float = 0.1
    backoff_max: float = 2.0
    url_wait: float = DEFAULT_URL_WAIT
    url_backoff_initial: float = 1.0
    url_backoff_max: float = 5.0

    def __post_init__(self) -> None:
        if self.max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        if self.timeout is not None and self.timeout <= 0:
            raise ValueError("timeout must be positive (or None for no deadline)")
        if self.url_wait < 0:
            raise ValueError("url_wait must not be negative")


@dataclass(frozen=True)
class Done:
    """The server finished: its result, as sent."""

    result: dict[str, Any]


@dataclass(frozen=True)
class AnswerNeeded:
    """The server asks: answer `pending.questions`, then call `Loop.answered`.

    `again` are the keys of URL questions the person already accepted, asked again with the same URL: the
    answer to those is `accept` once more, without asking (their page step is under way).
    """

    pending: Pending
    again: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Wait:
    """The server sent state and no questions: send the retry after this many seconds."""

    seconds: float


@dataclass(frozen=True)
class WaitPage:
    """Only page steps under way were asked again: send the retry (already answered) after `seconds`.

    `first` is true for the first wait of a stretch: the moment to tell the person, once, that the client waits.
    """

    seconds: float
    pending: Pending
    first: bool


@dataclass(frozen=True)
class Started:
    """The server runs the call as a task (the MCP tasks extension): follow it with `askback.client.tasks`.

    `created` is the `CreateTaskResult` as sent; `call` the call it runs (its `rounds` so far included)."""

    created: dict[str, Any]
    call: Pending


Step = Done | AnswerNeeded | Wait | WaitPage | Started


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
        tasks: bool = False,
        clock: Callable[[], float] = time.monotonic,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self.method = method
        self.params = {k: v for k, v in params.items() if k not in ("inputResponses", "requestState", "_meta")}
        self.server = server
        self.protocol_version = protocol_version
        self.server_name = server_name
        self.limits = limits or Limits()
        self.tasks = tasks  # the client declared the tasks extension: a tools/call may become a task
        self.clock = clock
        self.jitter = jitter
        self.deadline = None if self.limits.timeout is None else clock() + self.limits.timeout
        self.pending: Pending | None = resume
        self.rounds = resume.rounds if resume is not None else 0
        self._state: str | None = resume.request_state if resume is not None else None
        self._responses: dict[str, Any] | None = None
        self._state_only = 0
        self._accepted: dict[str, str] = {}  # URL question key -> the URL the person agreed to go to
        self._page_since: float | None = None  # when the current stretch of waiting for a page began
        self._page_waits = 0

    @property
    def target(self) -> str:
        """The tool or prompt name, or the resource URI."""
        return target_of(self.method, self.params)

    def start(self) -> Step | None:
        """When resuming, the saved questions come first; else None (send `request()`)."""
        return AnswerNeeded(self.pending) if self.pending is not None and self.pending.input_requests else None

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
        if kind == "task":
            if not (self.tasks and self.method == "tools/call"):
                # The extension: a task for a request that cannot be one (or undeclared) is an invalid response.
                raise ProtocolError(f"{self.method} returned a task, which this request cannot be")
            self.pending = Pending(
                self.server, self.method, self.params, {}, None, self.rounds, self.protocol_version, self.server_name
            )
            return Started(dict(result), self.pending)
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
        questions = parse_questions(requests)  # malformed questions fail here, before anything is asked
        again = frozenset(q.key for q in questions if isinstance(q, UrlQuestion) and self._accepted.get(q.key) == q.url)
        if questions and len(again) == len(questions):
            return self._wait_page(requests, state, again)
        self._page_since, self._page_waits = None, 0
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
        return AnswerNeeded(self.pending, again)

    def _wait_page(self, requests: dict[str, Any], state: str | None, again: frozenset[str]) -> WaitPage:
        """The page steps the person agreed to are not finished yet: wait 1 s, 2 s, 4 s, then 5 s each time."""
        self.pending = Pending(
            self.server, self.method, self.params, requests, state, self.rounds, self.protocol_version, self.server_name
        )
        now = self.clock()
        first = self._page_since is None
        if self._page_since is None:
            self._page_since = now
        left = self._page_since + self.limits.url_wait - now
        if left <= 0:
            raise self.page_not_finished()
        self._page_waits += 1
        delay = min(self.limits.url_backoff_max, self.limits.url_backoff_initial * 2 ** (self._page_waits - 1))
        self._state = state
        self._responses = {key: {"action": "accept"} for key in again}
        return WaitPage(min(delay, left), self.pending, first)

    def page_left(self) -> float | None:
        """Seconds left to wait for the page step under way (never negative), or None when none is.

        A server may hold a retry until the page is done (askback does, up to its `page_wait`): the request
        itself is then bounded by what is left, so `url_wait` stays the client's bound."""
        if self._page_since is None:
            return None
        return max(0.0, self._page_since + self.limits.url_wait - self.clock())

    def page_not_finished(self) -> PageNotFinished:
        assert self.pending is not None
        hosts = sorted({q.host for q in self.pending.questions if isinstance(q, UrlQuestion)})
        return PageNotFinished(
            f"The page step at {', '.join(hosts)} was not finished within {self.limits.url_wait:g} s; "
            "the call stops here.",
            self.pending,
        )

    def answered(self, responses: Mapping[str, Any]) -> bool:
        """The answers to the last `AnswerNeeded`'s questions, sent with the next request.

        True when they accept a page step and so start the wait for it: the server may hold the very next
        request until the page is done, so `url_wait` counts from here."""
        self._responses = dict(responses)
        urls = {q.key: q.url for q in self.pending.questions if isinstance(q, UrlQuestion)} if self.pending else {}
        accepted = False
        for key, url in urls.items():
            answer = responses.get(key)
            if isinstance(answer, Mapping) and answer.get("action") == "accept":
                self._accepted[key] = url
                accepted = True
            else:
                self._accepted.pop(key, None)
        if accepted and self._page_since is None:
            self._page_since = self.clock()
            return True
        return False

    def remaining(self) -> float | None:
        """Seconds left before the deadline (never negative), or None without a deadline."""
        return None if self.deadline is None else max(0.0, self.deadline - self.clock())

    def expired(self) -> DeadlineExceeded:
        return DeadlineExceeded(f"The call ran past its deadline of {self.limits.timeout:g} s.", self.pending)
