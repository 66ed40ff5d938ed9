"""The store: what a backend keeps between requests, atomically, and how it is opened and closed.

It is a small key-value store with expiry and a few atomic operations, enough for everything askback keeps:
the runs of single-use flows (`claim_run`, then `start_run`), one-time marks (`claim`), out-of-band tickets
and completion marks (`put`/`get`), secrets entered on a page, encrypted, read once (`take`), and records that
only grow, a receipt's entries (`append`/`appended`). Keys are namespaced by the caller (`used:…`, `ticket:…`,
`mark:…`, `secret:…`, `receipt:…`). Each store also has an `identity`,
fixed when its contents were created: a single-use flow records the identity it started under, so a store that
was lost and recreated (a deleted file, a flushed server) is noticed instead of letting a replay run again.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Protocol

Clock = Callable[[], float]


class Claim(Enum):
    """What `Store.claim_run` found.

    A run is claimed in two steps so that a claim whose answer was lost (the store stalled, the request gave
    up and told its caller to retry) does not block the retry: `HELD` means this claimant holds the flow and
    its run has not started; the run starts only once `start_run` says so, and a run that started is never
    claimed again.
    """

    HELD = "held"  # this claimant holds the flow (it was free, or held by a claimant whose run never started)
    STARTED = "started"  # a run of this flow started: it must not run again
    STORE_CHANGED = "store_changed"  # the store is not the one the flow started under: whether it ran is lost


class StoreConfigError(ValueError):
    """`ASKBACK_STORE` names a store that cannot be opened; the message says what to change."""


class Store(Protocol):
    """One store; opened once at start-up and closed at shutdown."""

    @property
    def identity(self) -> str:
        """Stable for the life of the store's contents; only valid once `open` returned."""
        ...

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def claim(self, flow_id: str, expires_at: float) -> bool:
        """Record `flow_id` until `expires_at`; True if this call recorded it, False if it was already there.

        Must be atomic across every process sharing the store: exactly one caller wins.
        """
        ...

    async def claim_run(self, flow_id: str, claimant: str, expires_at: float, started_under: str) -> Claim:
        """Hold the run of `flow_id` for `claimant` until `expires_at`, unless a run of it already started.

        `started_under` is the identity the flow started under: a store with another identity answers
        `STORE_CHANGED`. A claim held by another claimant whose run has not started is taken over (its request
        failed, or never heard the answer); calling again with the same claimant is harmless (a resent command).
        Atomic across every process sharing the store.
        """
        ...

    async def start_run(self, flow_id: str, claimant: str, expires_at: float) -> bool:
        """Mark the run of `flow_id` started if `claimant` still holds it; True then (also when resent).

        Of all the claimants of one flow, at most one is ever answered True: the function runs only after it.
        """
        ...

    async def put(self, key: str, value: bytes, expires_at: float) -> None:
        """Set `key` to `value` until `expires_at` (replacing what was there)."""
        ...

    async def get(self, key: str) -> bytes | None:
        """The value of `key`, or None if there is none or it expired."""
        ...

    async def take(self, key: str) -> bytes | None:
        """Read and delete `key` in one atomic step: of two concurrent takers, one gets the value."""
        ...

    async def append(self, key: str, value: bytes, expires_at: float) -> None:
        """Add `value` at the end of the list `key`, kept until `expires_at` (the list's: a later append extends
        it). Atomic across every process sharing the store: two concurrent appends both land, none is lost."""
        ...

    async def appended(self, key: str) -> list[bytes]:
        """Every value appended to the list `key`, oldest first ([] if there is none or it expired)."""
        ...


UsedFlows = Store  # the name the first version of the protocol had
