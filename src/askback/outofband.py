"""Out-of-band steps: the tickets behind askback's pages, their completion marks and the secrets they collect.

A flow that needs a secret or an approval gets a page link from here: an unguessable ticket bound to the flow
id, the parameter, the principal and the flow's deadline. The link carries nothing else (no secret, no
personal data). Every record is sealed at rest with a key derived from the key ring, under its own store key as
associated data, so a row copied to another key opens nowhere. A secret entered on the page is stored sealed
until the function runs, then read and deleted in one step.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass
from typing import Any

from askback.core.errors import AskbackError, StoreUnavailable
from askback.core.marks import Approval, ApproveWith, Mark, MarkRequest, Purpose, Status
from askback.core.state import Keyring, b64url, b64url_decode_strict
from askback.core.text import one_line
from askback.receipts import Receipts, receipt_id
from askback.stores.base import Clock, Store
from askback.vault import Vault

PAGE_PATH = "/askback/p/"
logger = logging.getLogger("askback")


class NoPublicUrl(AskbackError):
    """A page link is needed but the server knows no URL a person's browser can reach it at."""

    @property
    def public_message(self) -> str:
        return (
            "This tool needs a step on a web page, but the server has no public URL for its pages "
            "(its operator sets ASKBACK_PUBLIC_URL). Nothing was done."
        )


@dataclass(frozen=True)
class Ticket:
    """What stands behind a page link."""

    ticket: str
    flow: str
    name: str
    purpose: Purpose
    principal: str | None
    audience: str
    tool: str
    title: str
    message: str
    summary: tuple[tuple[str, str], ...]
    expires_at: float
    approve_with: ApproveWith = "page"  # what the approval page takes as a yes
    second_person: bool = False  # the approval must come from someone other than `principal`


class OutOfBand:
    """Tickets, marks and secrets in the store, for the flow (which mints and reads) and the pages (which
    complete)."""

    def __init__(self, store: Store, keyring: Keyring, clock: Clock, receipts: Receipts | None = None) -> None:
        self.store = store
        self.clock = clock
        self.vault = Vault(keyring, "out-of-band v1")
        # Where an approval page's proposal and its decision are recorded (`askback.receipts`).
        self.receipts = receipts

    # -- the flow's side ---------------------------------------------------------------------------------
    async def mark(
        self,
        *,
        flow_id: bytes,
        deadline: float,
        request: MarkRequest,
        principal: str | None,
        audience: str,
        tool: str,
        base_url: str | None,
    ) -> Mark:
        """Where this step stands; the first time, mint its ticket (the same link every round after)."""
        flow = b64url(flow_id)
        key = _mark_key(flow, request.name)
        record = await self._get_json(key)
        if record is None:
            if not base_url:
                raise NoPublicUrl("no public URL for askback's pages")
            ticket = Ticket(
                ticket=b64url(os.urandom(24)),
                flow=flow,
                name=request.name,
                purpose=request.purpose,
                principal=principal,
                audience=audience,
                tool=tool,
                title=request.title,
                message=request.message,
                summary=request.summary,
                expires_at=deadline,
                approve_with=request.approve_with or "page",
                second_person=request.second_person,
            )
            url = base_url.rstrip("/") + PAGE_PATH + ticket.ticket
            record = {"status": "pending", "ticket": ticket.ticket, "url": url}
            if request.purpose == "approval" and self.receipts is not None:
                # before the page exists: no approval can be given for what the receipt does not show
                await self.receipts.propose(receipt_id(flow_id), tool=tool, principal=principal, where="page",
                                            name=request.name, text=request.message, values=request.summary)
            await self._put_json(_ticket_key(ticket.ticket), asdict(ticket), deadline)
            await self._put_json(key, record, deadline)
        return Mark(status=record["status"], url=record["url"], approval=Approval.from_json(record.get("approval")))

    async def any_finished(self, flow_id: bytes, names: tuple[str, ...]) -> bool:
        """Whether a page finished one of these steps (or its record is gone): a held retry then decides again."""
        flow = b64url(flow_id)
        for name in names:
            record = await self._get_json(_mark_key(flow, name))
            if record is None or record.get("status") != "pending":
                return True
        return False

    async def step_status(self, flow_id: bytes, name: str) -> Status | None:
        """Where this flow's step stands, without minting anything (None: no such step, or it expired)."""
        record = await self._get_json(_mark_key(b64url(flow_id), name))
        if record is None:
            return None
        status: Status = record["status"]
        return status

    async def approval(self, flow_id: bytes, name: str) -> Approval | None:
        """Who approved this flow's step on the page, and how (None: not approved, or its record is gone)."""
        record = await self._get_json(_mark_key(b64url(flow_id), name))
        return Approval.from_json(record.get("approval")) if record and record.get("status") == "done" else None

    async def take_secret(self, flow_id: bytes, name: str) -> str | None:
        """The secret entered for this flow's parameter, read and deleted in one step (None if gone)."""
        key = _secret_key(b64url(flow_id), name)
        blob = await self.store.take(key)
        if blob is None:
            return None
        data = self.vault.open(key, blob)
        return data.decode("utf-8") if data is not None else None

    # -- the page's side ---------------------------------------------------------------------------------
    async def ticket(self, ticket: str) -> Ticket | None:
        """The ticket behind a link, if it exists and has not expired."""
        if not _looks_like_ticket(ticket):
            return None
        raw = await self._get_json(_ticket_key(ticket))
        if raw is None:
            return None
        raw["summary"] = tuple(tuple(pair) for pair in raw.get("summary", ()))
        return Ticket(**raw)

    async def status(self, ticket: Ticket) -> Status:
        record = await self._get_json(_mark_key(ticket.flow, ticket.name))
        status: Status = "pending" if record is None else record["status"]
        return status

    async def complete(self, ticket: Ticket, *, secret: str | None = None, approved: bool | None = None,
                       approval: Approval | None = None) -> bool:
        """Finish the step once: store the secret (sealed) or the decision, with who decided and how (`approval`,
        which the flow's receipt records; None: nobody known). False if it was finished before."""
        if not await self.store.claim(f"page:{ticket.ticket}", ticket.expires_at):
            return False  # a second submit of the same link, even a concurrent one, changes nothing
        if ticket.purpose == "approval" and approved is not None and self.receipts is not None:
            # recorded before the mark: a flow that goes on once the mark says done finds the decision recorded
            try:
                await self.receipts.decided(receipt_id(b64url_decode_strict(ticket.flow)), name=ticket.name,
                                            approved=approved, by=approval)
            except StoreUnavailable:  # the link is used (claimed above): the decision must still be kept
                logger.error("the receipt of %s could not record the decision on its page: the store is unavailable",
                             one_line(ticket.tool))
        if secret is not None:
            key = _secret_key(ticket.flow, ticket.name)
            await self.store.put(key, self.vault.seal(key, secret.encode("utf-8")), ticket.expires_at)
        status: Status = "rejected" if approved is False else "done"
        mark_key = _mark_key(ticket.flow, ticket.name)
        record = await self._get_json(mark_key) or {}
        done = {**record, "status": status}
        if approval is not None and status == "done":
            done["approval"] = approval.to_json()
        await self._put_json(mark_key, done, ticket.expires_at)
        return True

    # -- sealed JSON records -----------------------------------------------------------------------------
    async def _get_json(self, key: str) -> dict[str, Any] | None:
        blob = await self.store.get(key)
        if blob is None:
            return None
        data = self.vault.open(key, blob)
        if data is None:
            return None
        value = json.loads(data)
        return value if isinstance(value, dict) else None

    async def _put_json(self, key: str, value: dict[str, Any], expires_at: float) -> None:
        await self.store.put(key, self.vault.seal(key, json.dumps(value).encode()), expires_at)


def _mark_key(flow: str, name: str) -> str:
    return f"mark:{flow}:{name}"


def _ticket_key(ticket: str) -> str:
    return f"ticket:{ticket}"


def _secret_key(flow: str, name: str) -> str:
    return f"secret:{flow}:{name}"


_TICKET_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _looks_like_ticket(text: str) -> bool:
    return len(text) == 32 and set(text) <= _TICKET_ALPHABET
