"""Receipts: what a person was shown, who approved it and how, that it ran, and what came back.

Every out-of-band approval and every single-use run leaves one receipt per flow in the store. Its entries are
appended as they happen, each with its time:

- `proposed`: what was shown (the action's text and each value as rendered on the approval page, `where="page"`),
  or for a single-use run no page showed, the values it was given (`where="run"`); with a digest of exactly that;
- `approved` / `rejected`: by whom and how (`askback.core.marks.Approval`: the principal signed in at the page,
  the method, whether a second person gave it);
- `executed`: the single-use run was claimed and started (once: a replay never adds another);
- `returned`: what the client was told (`complete`, or the refusal), with a digest of the returned value.

A receipt never holds a secret: a secret entered on a page is not a value of the flow (its place is empty
until the function runs), and a returned value is kept only as its digest. Each entry is sealed at rest under
the receipt's own store key, so an entry copied into another receipt opens nowhere. The receipt's id is a
digest of the flow's id: stable over the flow's rounds on every replica, and telling nothing about the flow.
A store list per UTC day holds the ids of the receipts started that day, for listing the recent ones.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from askback.core import jsoncodec
from askback.core.errors import StoreUnavailable
from askback.core.marks import Approval, shown_digest
from askback.core.questions import canonical_json
from askback.core.state import Keyring, b64url
from askback.core.text import one_line
from askback.stores.base import Clock, Store
from askback.vault import Vault  # the same AEAD as the pages' records, under its own key

logger = logging.getLogger("askback")

RECEIPT_META = "askback/receipt"  # the `_meta` key (and A2A metadata key) carrying a result's receipt id
DEFAULT_TTL = 90 * 86400.0  # how long a receipt is kept, from its latest entry
DAY = 86400.0

Where = Literal["page", "run"]
Kind = Literal["proposed", "approved", "rejected", "executed", "returned"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing that happened to the flow, at `at` (seconds since the epoch).

    `proposed`: `where`, `name` (the approval's parameter, on a page), `text`, `values` (name, as shown) and
    `digest`; `approved`/`rejected`: `name` and `by`; `returned`: `outcome` and `digest` (of the value, if one
    was returned); `executed` carries only its time.
    """

    kind: Kind
    at: float
    where: Where | None = None
    name: str | None = None
    text: str | None = None
    values: tuple[tuple[str, str], ...] = ()
    digest: str | None = None
    by: Approval | None = None
    outcome: str | None = None


@dataclass(frozen=True, slots=True)
class Receipt:
    """One flow's receipt: its id, the tool, the caller, and its entries, oldest first."""

    id: str
    tool: str
    principal: str | None
    entries: tuple[Entry, ...]

    def of(self, kind: Kind) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.kind == kind)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "tool": self.tool, "principal": self.principal,
                "entries": [_entry_json(e) for e in self.entries]}


def receipt_id(flow_id: bytes) -> str:
    """The receipt of a flow: a digest of its id (unkeyed, so a key rotation keeps it; 96 random bits behind it)."""
    return b64url(hashlib.sha256(b"askback receipt\x00" + flow_id).digest()[:18])


def digest_shown(text: str, values: Sequence[tuple[str, str]]) -> str:
    """`askback.core.marks.shown_digest` of exactly what was shown, as text: the digest a passkey approves."""
    return "sha256:" + shown_digest(text, values).hex()


def value_digest(value: Any) -> str:
    """The digest of a returned value, as JSON (a model by its fields, a Decimal as its text)."""
    from pydantic_core import to_jsonable_python

    try:
        body = canonical_json(to_jsonable_python(value, fallback=repr))
    except (TypeError, ValueError):
        body = repr(value).encode("utf-8", "replace")
    return "sha256:" + hashlib.sha256(body).hexdigest()


def run_values(values: Iterable[tuple[str, Any]]) -> tuple[tuple[str, str], ...]:
    """Each value a run is given (name, its JSON value) as a single-use run's proposal shows it."""
    return tuple((name, one_line(jsoncodec.compact(value))) for name, value in values)


Proposal = tuple[str, str | None, Sequence[tuple[str, str]]]  # a run's tool, its caller, the values it runs with


async def run_started(receipts: Receipts | None, flow_id: bytes, *, on_page: bool, once: bool,
                      proposal: Callable[[], Proposal]) -> str | None:
    """Record that a flow's run starts, on the receipt of an approval given on a page (`on_page`) or of a
    single-use run (`once`); the receipt's id, or None when the flow keeps none.

    Called once the single-use claim is held, so a replay (refused by the claim) records nothing. A single-use
    run that no page showed records what it runs with as its proposal first (`proposal()`: the values, never a
    secret: a secret's place is empty until the function reads it). An `askback.App` tool's flow and an
    adopted or gateway call both record it here.
    """
    if receipts is None or not (on_page or once):
        return None
    rid = receipt_id(flow_id)
    await receipts.started(rid, proposal=None if on_page else proposal())
    return rid


class Receipts:
    """Receipts in the store: appended by the flow and the pages, read by the app and `askback receipts`."""

    def __init__(self, store: Store, keyring: Keyring, *, clock: Clock = time.time,
                 ttl: float = DEFAULT_TTL) -> None:
        self.store = store
        self.clock = clock
        self.ttl = ttl
        self._vault = Vault(keyring, "receipts v1")

    # -- writing -------------------------------------------------------------------------------------------
    async def propose(self, rid: str, *, tool: str, principal: str | None, where: Where, text: str,
                      values: Sequence[tuple[str, str]], name: str | None = None, executed: bool = False) -> None:
        """The proposal (and, for a run no page showed, that it starts: `executed`, in the same write)."""
        now = self.clock()
        entries = [Entry("proposed", now, where=where, name=name, text=text, values=tuple(values),
                         digest=digest_shown(text, values))]
        if executed:
            entries.append(Entry("executed", now))
        await self._append(rid, *entries, head={"tool": tool, "principal": principal})
        await self._append_raw(_day_key(now), rid.encode(), now)

    async def decided(self, rid: str, *, name: str, approved: bool, by: Approval | None) -> None:
        await self._append(rid, Entry("approved" if approved else "rejected", self.clock(), name=name, by=by))

    async def started(self, rid: str, *,
                      proposal: tuple[str, str | None, Sequence[tuple[str, str]]] | None = None) -> None:
        """That a claimed run starts; first its `proposal` (tool, principal, values) when no page showed one.

        Never raises: the run is claimed and started, so refusing it now would lose it (a retry is a replay of
        a started run); it runs, and the gap in its receipt is logged.
        """
        try:
            if proposal is None:
                await self._append(rid, Entry("executed", self.clock()))
            else:
                tool, principal, values = proposal
                await self.propose(rid, tool=tool, principal=principal, where="run",
                                   text=f"{tool} runs with these values", values=values, executed=True)
        except StoreUnavailable:
            logger.error("the receipt %s could not record the start of its run: the store is unavailable", rid)

    async def returned(self, rid: str, outcome: str, value: Any = None, *, has_value: bool = False) -> None:
        """What the client was told; never raises (the call's outcome stands whether or not it was recorded)."""
        entry = Entry("returned", self.clock(), outcome=outcome, digest=value_digest(value) if has_value else None)
        try:
            await self._append(rid, entry)
        except StoreUnavailable:
            logger.error("the receipt %s could not record what was returned (%s): the store is unavailable",
                         rid, outcome)

    async def _append(self, rid: str, *entries: Entry, head: dict[str, Any] | None = None) -> None:
        """One write of one or more entries (a sealed `{"head"?, "entries": [...]}`): each write is a store round
        trip on a single-use run's path, so what happens together is written together."""
        body: dict[str, Any] = {"entries": [_entry_json(e) for e in entries]}
        if head is not None:
            body["head"] = head
        await self._append_raw(_receipt_key(rid), json.dumps(body, ensure_ascii=False).encode(), self.clock())

    async def _append_raw(self, key: str, data: bytes, now: float) -> None:
        await self.store.append(key, self._vault.seal(key, data), now + self.ttl)

    # -- reading -------------------------------------------------------------------------------------------
    async def read(self, rid: str) -> Receipt | None:
        """The receipt with this id, or None (unknown, expired, or not one this key ring opens)."""
        if not _looks_like_id(rid):
            return None
        key = _receipt_key(rid)
        tool, principal, entries = "", None, list[Entry]()
        for blob in await self.store.appended(key):
            data = self._vault.open(key, blob)
            if data is None:
                continue  # sealed by a key no longer in the ring, or not ours
            body = json.loads(data)
            head = body.get("head")
            if isinstance(head, dict) and not tool:
                tool, principal = str(head.get("tool", "")), head.get("principal")
            entries.extend(_entry_from(e) for e in body.get("entries", ()))
        if not entries:
            return None
        return Receipt(rid, tool, principal, tuple(sorted(entries, key=lambda e: e.at)))

    async def recent(self, days: int = 7) -> list[Receipt]:
        """The receipts started in the last `days` UTC days, newest first."""
        now = self.clock()
        ids: list[str] = []
        for back in range(max(1, days)):
            key = _day_key(now - back * DAY)
            for blob in reversed(await self.store.appended(key)):
                data = self._vault.open(key, blob)
                if data is not None and data.decode() not in ids:
                    ids.append(data.decode())
        found = [r for r in [await self.read(rid) for rid in ids] if r is not None]
        return sorted(found, key=lambda r: r.entries[0].at, reverse=True)


def _receipt_key(rid: str) -> str:
    return f"receipt:{rid}"


def _day_key(at: float) -> str:
    return "receipts:" + time.strftime("%Y-%m-%d", time.gmtime(at))


def _entry_json(entry: Entry) -> dict[str, Any]:
    body = {k: v for k, v in asdict(entry).items() if v not in (None, ())}
    if entry.values:
        body["values"] = [list(pair) for pair in entry.values]
    if entry.by is not None:
        body["by"] = entry.by.to_json()
    return body


def _entry_from(body: dict[str, Any]) -> Entry:
    by = body.get("by")
    return Entry(
        kind=body["kind"],
        at=float(body["at"]),
        where=body.get("where"),
        name=body.get("name"),
        text=body.get("text"),
        values=tuple((str(n), str(v)) for n, v in body.get("values", ())),
        digest=body.get("digest"),
        by=Approval.from_json(by),
        outcome=body.get("outcome"),
    )


_ID_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _looks_like_id(text: str) -> bool:
    return len(text) == 24 and set(text) <= _ID_ALPHABET
