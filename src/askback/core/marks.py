"""Steps a person completes elsewhere (an out-of-band page): what the engine asks the flow to look up.

A kind that needs one returns a `MarkRequest`; the flow answers with the step's `Mark` (minting the page's
ticket the first time), and the engine decides again with it. The value a page collects never comes back
here: the mark only says whether the step is done.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from hashlib import sha256
from typing import Literal

Purpose = Literal["secret", "approval"]
Status = Literal["pending", "done", "rejected"]
ApproveWith = Literal["page", "passkey"]  # what the approval page takes as a yes: its button, or a passkey
APPROVE_WITH: tuple[ApproveWith, ...] = ("page", "passkey")


@dataclass(frozen=True, slots=True)
class MarkRequest:
    """What the page for one parameter must show: the purpose, the field's title, why, and for an approval
    the action as the person will read it, with its values (already rendered inert)."""

    name: str
    purpose: Purpose
    title: str
    message: str
    summary: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Approval:
    """Who gave an approval on the page and how: what a record of the action (a receipt) keeps of it.

    `by` is the person signed in at the page (None in development mode, where nobody is), `method` what proved
    the yes ("page": the Approve button; "passkey": a WebAuthn assertion with user verification, by the
    credential `credential`), `second_person` whether it was a person other than the caller.
    """

    by: str | None
    method: ApproveWith
    second_person: bool = False
    credential: str | None = None  # the passkey's credential id (base64url), when one proved it

    def to_json(self) -> dict[str, object]:
        return {"by": self.by, "method": self.method, "second_person": self.second_person,
                "credential": self.credential}

    @classmethod
    def from_json(cls, raw: object) -> Approval | None:
        if not isinstance(raw, dict) or raw.get("method") not in APPROVE_WITH:
            return None
        by, credential = raw.get("by"), raw.get("credential")
        return cls(by=by if isinstance(by, str) else None, method=raw["method"],
                   second_person=raw.get("second_person") is True,
                   credential=credential if isinstance(credential, str) else None)


@dataclass(frozen=True, slots=True)
class Mark:
    """Where an out-of-band step stands, and the page that completes it (the same URL every round)."""

    status: Status
    url: str


def shown_digest(message: str, summary: Sequence[tuple[str, str]]) -> bytes:
    """The SHA-256 of exactly what an approval page shows: the action's text and every value as rendered, in
    order. A passkey's assertion is bound to it (`askback.passkeys`), so it approves that text and those values
    only; a record of the action can keep it to say what was approved."""
    shown = json.dumps([message, [[name, text] for name, text in summary]], ensure_ascii=False, separators=(",", ":"))
    return sha256(b"askback shown v1\x00" + shown.encode("utf-8")).digest()
