"""The store: what a backend keeps between requests, atomically, and how it is opened and closed.

It is a small key-value store with expiry and three atomic operations, enough for everything askback keeps:
the ids of single-use flows whose function already ran (`claim`), out-of-band tickets and completion marks
(`put`/`get`), and secrets entered on a page, encrypted, read once (`take`). Keys are namespaced by the caller
(`used:…`, `ticket:…`, `mark:…`, `secret:…`). Each store also has an `identity`,
fixed when its contents were created: a single-use flow records the identity it started under, so a store that
was lost and recreated (a deleted file, a flushed server) is noticed instead of letting a replay run again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

Clock = Callable[[], float]


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

    async def put(self, key: str, value: bytes, expires_at: float) -> None:
        """Set `key` to `value` until `expires_at` (replacing what was there)."""
        ...

    async def get(self, key: str) -> bytes | None:
        """The value of `key`, or None if there is none or it expired."""
        ...

    async def take(self, key: str) -> bytes | None:
        """Read and delete `key` in one atomic step: of two concurrent takers, one gets the value."""
        ...


UsedFlows = Store  # the name the first version of the protocol had
