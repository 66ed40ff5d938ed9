"""Proof that calls made in several processes were in flight at the same time.

A test of "exactly one of N concurrent claims wins" shows nothing if the claims ran one after another: a
sequential second claim is refused by any store. So such a test holds the shared resource (a write lock, a
paused Redis), lets every process start its call, releases the resource only once all of them have, and checks
the calls' windows: each process reports when its call started and ended on `time.monotonic()`, which on Linux
is CLOCK_MONOTONIC, one clock for every process of the machine. Windows that all contain one instant overlap.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Window:
    started: float
    ended: float


def now() -> float:
    return time.monotonic()


def all_overlap(windows: list[Window]) -> bool:
    """Whether one instant lies in every window: the latest start comes before the earliest end."""
    return bool(windows) and max(w.started for w in windows) < min(w.ended for w in windows)


def overlap_message(windows: list[Window]) -> str:
    first = min(w.started for w in windows)
    return "the calls did not all overlap (ran one after another?): " + ", ".join(
        f"[{w.started - first:.4f}, {w.ended - first:.4f}]" for w in sorted(windows, key=lambda w: w.started))
