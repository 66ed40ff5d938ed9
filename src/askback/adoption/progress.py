"""The adopted call's progress across rounds: answers so far, what was asked, and the state of the SDK inside.

It rides in the `requestState` the SDK's `RequestStateBoundary` seals, so it reaches this code only as the
plaintext this code wrote. It is still bound to the tool's name and the digest of the original arguments
(defence in depth: a progress made for one call never supplies values to another, whatever codec the app
configured), and every value it carries is validated again with the arguments it is merged into.

The tool's own resolvers (the SDK's `Resolve`/`Elicit`) keep their state too: it is carried whole in `inner`
and handed back to the SDK unchanged, so the two flows never overwrite each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from askback.core import jsoncodec
from askback.core.questions import canonical_json, short_digest

VERSION = 1
MARK = "askback/adopt"  # the key that says a state is this module's (any other state is the SDK's own)


def arguments_digest(tool: str, arguments: Mapping[str, Any]) -> str:
    return short_digest(canonical_json([tool, dict(arguments)]), 16)


@dataclass(frozen=True, slots=True)
class LastRound:
    """The question of the last round: its key and the fields it asked, the digest of the values it asked
    a person to confirm (an answer confirms those values only), or the page step it sent the person to (whose
    outcome the page records: the answer only says whether the person would go)."""

    key: str
    fields: tuple[str, ...] = ()
    confirm: str | None = None
    page: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"k": self.key, "n": list(self.fields), "c": self.confirm, "p": self.page}

    @classmethod
    def from_json(cls, raw: Any) -> LastRound | None:
        if not isinstance(raw, dict):
            return None
        key, names, confirm, page = raw.get("k"), raw.get("n"), raw.get("c"), raw.get("p")
        if not (isinstance(key, str) and isinstance(names, list) and all(isinstance(n, str) for n in names)
                and (confirm is None or isinstance(confirm, str)) and (page is None or isinstance(page, str))):
            return None
        return cls(key, tuple(names), confirm, page)


@dataclass(frozen=True, slots=True)
class PageFlow:
    """What names this call's steps on askback's pages and its single-use run: a flow id (its marks' and its
    claim's key, never a secret: the ticket behind a link is what is unguessable), when its tickets expire, and
    the store identity it started under (a single-use run against another store is refused)."""

    flow: str
    deadline: float
    store: str | None = None

    def to_json(self) -> list[Any]:
        return [self.flow, self.deadline, self.store]

    @classmethod
    def from_json(cls, raw: Any) -> PageFlow | None:
        if not (isinstance(raw, list) and len(raw) == 3 and isinstance(raw[0], str)
                and isinstance(raw[1], int | float) and not isinstance(raw[1], bool)
                and (raw[2] is None or isinstance(raw[2], str))):
            return None
        return cls(raw[0], float(raw[1]), raw[2])


@dataclass(frozen=True, slots=True)
class Progress:
    """What this call has gathered so far."""

    tool: str
    digest: str  # of the tool's name and the arguments the client sent (and sends again on every retry)
    answers: dict[str, Any] = field(default_factory=dict)
    asked: LastRound | None = None
    confirmed: str | None = None  # digest of the values a person confirmed
    inner: str | None = None  # the SDK's own requestState (its resolvers'), carried unchanged
    pages: PageFlow | None = None  # once the call has a page step or runs once
    resumed: bool = False  # this progress came back with a retry (not written in the state)

    @classmethod
    def start(cls, tool: str, arguments: Mapping[str, Any], inner: str | None = None) -> Progress:
        return cls(tool, arguments_digest(tool, arguments), inner=inner)

    def encode(self) -> str:
        body: dict[str, Any] = {"v": VERSION, "t": self.tool, "a": self.digest, "answers": self.answers}
        if self.asked is not None:
            body["asked"] = self.asked.to_json()
        if self.confirmed is not None:
            body["confirmed"] = self.confirmed
        if self.inner is not None:
            body["inner"] = self.inner
        if self.pages is not None:
            body["pages"] = self.pages.to_json()
        return jsoncodec.compact({MARK: body})

    def asking(self, asked: LastRound) -> Progress:
        return replace(self, asked=asked)

    def answered(self, values: Mapping[str, Any]) -> Progress:
        return replace(self, answers={**self.answers, **values}, asked=None)

    def confirming(self, digest: str) -> Progress:
        return replace(self, confirmed=digest, asked=None)

    def with_pages(self, pages: PageFlow) -> Progress:
        return replace(self, pages=pages)

    def around(self, inner: str | None) -> Progress:
        """This progress carrying the SDK's own state of the next round (its resolvers asked something)."""
        return replace(self, inner=inner, asked=None)


def resume(state: str | None, tool: str, arguments: Mapping[str, Any]) -> Progress:
    """The progress a retry carries for THIS call, or a fresh one.

    A state that is not this module's is the SDK's own (a tool's resolvers, or a round from before the app
    adopted askback): it is kept as `inner`, for the SDK to read. A progress of this module made for another
    tool or other arguments is dropped whole: its answers supply nothing.
    """
    fresh = Progress.start(tool, arguments)
    if not state:
        return fresh
    try:
        raw = jsoncodec.decode(state)
    except ValueError:
        return replace(fresh, inner=state)
    body = raw.get(MARK) if isinstance(raw, dict) and raw.keys() == {MARK} else None
    if not isinstance(body, dict):
        return replace(fresh, inner=state)
    if body.get("v") != VERSION or body.get("t") != tool or body.get("a") != fresh.digest:
        return fresh
    answers, confirmed, inner = body.get("answers"), body.get("confirmed"), body.get("inner")
    if not isinstance(answers, dict) or not all(isinstance(k, str) for k in answers):
        return fresh
    return Progress(
        tool,
        fresh.digest,
        dict(answers),
        LastRound.from_json(body.get("asked")),
        confirmed if isinstance(confirmed, str) else None,
        inner if isinstance(inner, str) else None,
        PageFlow.from_json(body.get("pages")),
        resumed=True,
    )
