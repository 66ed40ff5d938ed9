"""The store protocol: what a backend must do, atomically."""

from __future__ import annotations

from typing import Protocol


class StoreConfigError(ValueError):
    """`ASKBACK_STORE` names a store that cannot be opened."""


class UsedFlows(Protocol):
    """Flow ids whose function already ran, kept until their flow deadline passes."""

    async def claim(self, flow_id: str, expires_at: float) -> bool:
        """Record `flow_id`; return True if this call recorded it, False if it was already there.

        Must be atomic across every process sharing the store: exactly one caller wins.
        """
        ...

    async def close(self) -> None: ...
