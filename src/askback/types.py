"""The few plain types the server side and the client side share; importing this loads nothing else."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Capabilities:
    """What a request's client declared it can answer."""

    form: bool = False
    url: bool = False
    sampling: bool = False
    roots: bool = False

    @classmethod
    def everything(cls) -> Capabilities:
        return cls(form=True, url=True, sampling=True, roots=True)
