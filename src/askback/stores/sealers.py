"""Replicas whose key rings cannot open each other's states: noticed at start-up and reported in the log.

Each server records, under one store key, which key id it seals with and which ids its ring opens (key ids
only: they are in every token anyway, never a key). At start it reads the others' records: a replica sealing
with a key this one cannot open (or the reverse) breaks every flow whose rounds cross between them, so it is
logged as an error naming what to set. During a three-phase rotation sealing keys differ for a while, which is
fine as long as every ring holds every key in use; that is exactly what is checked.

Best effort on purpose: a record is a read-modify-write of one JSON value (two replicas starting at the same
instant may overwrite each other's entry), and a replica that was killed stays listed until its entry ages out.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass

from askback.core.state import Keyring
from askback.stores.base import Clock, Store

logger = logging.getLogger("askback")

RECORD_KEY = "replicas:sealing"
TTL = 86400.0  # how long an entry counts: a killed replica (which could not withdraw) is forgotten after this


@dataclass(frozen=True)
class Conflict:
    """Another replica's ring and this one's do not open each other's states (in one direction or both)."""

    other_seals: str
    this_seals: str
    this_cannot_open: bool
    other_cannot_open: bool


def key_ids(keyring: Keyring) -> list[str]:
    """The ring's key ids, the sealing key first, as hex."""
    return [kid.hex() for kid, _ in keyring.derive("replica check")]


async def announce(store: Store, keyring: Keyring, clock: Clock, ttl: float) -> tuple[str, list[Conflict]]:
    """Record this server's ring; return its entry's name and every conflict with a live replica's ring."""
    now = clock()
    ids = key_ids(keyring)
    entries = await _read(store, now, ttl)
    conflicts = []
    for entry in entries.values():
        opens = entry["opens"]
        other_seals, other_opens = str(entry["seals"]), [str(k) for k in opens] if isinstance(opens, list) else []
        this_cannot, other_cannot = other_seals not in ids, ids[0] not in other_opens
        if this_cannot or other_cannot:
            conflicts.append(Conflict(other_seals, ids[0], this_cannot, other_cannot))
    for c in {(c.other_seals, c.this_cannot_open, c.other_cannot_open): c for c in conflicts}.values():
        logger.error(
            "another replica sharing this store seals with key id %s, this one with %s; %s: flows whose rounds "
            "cross between them fail. Give every replica the same ASKBACK_KEYS (during a rotation, every ring "
            "must hold every key still sealing)",
            c.other_seals,
            c.this_seals,
            "neither ring opens the other's states"
            if c.this_cannot_open and c.other_cannot_open
            else ("this ring cannot open theirs" if c.this_cannot_open else "their ring cannot open this one's"),
        )
    name = os.urandom(6).hex()
    entries[name] = {"seals": ids[0], "opens": ids, "at": now}
    await _write(store, entries, now, ttl)
    return name, conflicts


async def withdraw(store: Store, name: str, clock: Clock, ttl: float) -> None:
    """Remove this server's entry at a clean shutdown (a rolling restart), so it no longer counts."""
    now = clock()
    entries = await _read(store, now, ttl)
    if entries.pop(name, None) is not None:
        await _write(store, entries, now, ttl)


async def _read(store: Store, now: float, ttl: float) -> dict[str, dict[str, object]]:
    raw = await store.get(RECORD_KEY)
    try:
        loaded = json.loads(raw) if raw else {}
    except ValueError:
        loaded = {}
    if not isinstance(loaded, dict):
        return {}
    return {
        name: entry
        for name, entry in loaded.items()
        if isinstance(entry, dict) and isinstance(entry.get("at"), int | float) and entry["at"] > now - ttl
        and isinstance(entry.get("seals"), str) and isinstance(entry.get("opens"), list)
    }


async def _write(store: Store, entries: dict[str, dict[str, object]], now: float, ttl: float) -> None:
    await store.put(RECORD_KEY, json.dumps(entries).encode(), now + ttl)
