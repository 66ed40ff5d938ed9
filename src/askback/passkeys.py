"""Passkeys enrolled for a person, kept in the store sealed at rest, so every replica sharing it knows them.

A passkey here is what a WebAuthn registration left: the credential's id, its public key (the authenticator's
attested credential data, as bytes) and its signature counter, under the principal it was enrolled for. Nothing
in it is a secret (the private key never leaves the authenticator), but who holds which passkey is personal, so
each principal's list is one record sealed under its own store key, named by a keyed digest of the principal.

An enrollment link (`askback passkeys enroll PRINCIPAL`) is an unguessable token standing for one principal
until it is used once or expires. An approval's WebAuthn challenge is derived from the page's ticket, its flow
and the digest of exactly what the page shows (`approval_challenge`), so an assertion approves that page, that
text and those values, and nothing else.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from dataclasses import asdict, dataclass, replace
from typing import Any

from askback.core.marks import shown_digest
from askback.core.state import Keyring, b64url
from askback.outofband import Ticket
from askback.stores.base import Clock, Store
from askback.vault import Vault

KEPT_SECONDS = 10 * 365 * 24 * 3600.0  # a passkey is kept until it is revoked; the store wants an expiry
ENROLL_SECONDS = 15 * 60.0  # an enrollment link's life
ENROLL_PATH = "/askback/passkeys/enroll/"
PASSKEYS_PATH = "/askback/passkeys"
_INDEX = "passkeys:index"  # the principals that have a passkey, for `askback passkeys list`


@dataclass(frozen=True, slots=True)
class Passkey:
    """One enrolled passkey: whose, its credential id (base64url), its public part, and when it was added."""

    principal: str
    credential_id: str
    credential: str  # the attested credential data (AAGUID, id, COSE public key), base64url
    sign_count: int
    created_at: float
    label: str = ""


@dataclass(frozen=True, slots=True)
class Enrollment:
    """What stands behind an enrollment link: the principal it enrolls for, until when."""

    token: str
    principal: str
    expires_at: float


def approval_challenge(ticket: Ticket) -> bytes:
    """The WebAuthn challenge of an approval page: its ticket, its flow, and the digest of what it shows."""
    shown = shown_digest(ticket.message, ticket.summary)
    return hashlib.sha256(
        b"askback passkey approval v1\x00" + ticket.ticket.encode() + b"\x00" + ticket.flow.encode() + b"\x00" + shown
    ).digest()


class Passkeys:
    """The passkeys of every principal, and the enrollment links that add one."""

    def __init__(self, store: Store, keyring: Keyring, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self.vault = Vault(keyring, "passkeys v1")
        self._names = keyring.derive_bytes("passkey names v1")

    def user_id(self, principal: str) -> bytes:
        """The WebAuthn user handle of a principal: stable, and naming nobody to whoever reads it."""
        return hmac.new(self._names, b"user\x00" + principal.encode(), hashlib.sha256).digest()[:16]

    # -- passkeys ----------------------------------------------------------------------------------------
    async def of(self, principal: str) -> tuple[Passkey, ...]:
        raw = await self._get(self._key(principal))
        if not isinstance(raw, list):
            return ()
        return tuple(Passkey(**entry) for entry in raw if isinstance(entry, dict))

    async def add(self, passkey: Passkey) -> bool:
        """Keep `passkey` for its principal; False if that credential was enrolled already."""
        kept = await self.of(passkey.principal)
        if any(k.credential_id == passkey.credential_id for k in kept):
            return False
        await self._save(passkey.principal, (*kept, passkey))
        principals = set(await self.principals())
        if passkey.principal not in principals:
            await self._put(_INDEX, sorted(principals | {passkey.principal}))
        return True

    async def revoke(self, principal: str, credential_id: str) -> bool:
        """Forget one passkey (by its credential id, or a unique start of it); True if one was removed."""
        kept = await self.of(principal)
        matching = [k for k in kept if k.credential_id == credential_id] or [
            k for k in kept if k.credential_id.startswith(credential_id)
        ]
        if len(matching) != 1 or not credential_id:
            return False
        await self._save(principal, tuple(k for k in kept if k is not matching[0]))
        return True

    async def used(self, passkey: Passkey, sign_count: int) -> None:
        """Record the signature counter an assertion carried (a counter that goes back is refused later)."""
        kept = await self.of(passkey.principal)
        await self._save(passkey.principal, tuple(
            replace(k, sign_count=sign_count) if k.credential_id == passkey.credential_id else k for k in kept
        ))

    async def principals(self) -> tuple[str, ...]:
        raw = await self._get(_INDEX)
        return tuple(p for p in raw if isinstance(p, str)) if isinstance(raw, list) else ()

    # -- enrollment links --------------------------------------------------------------------------------
    async def enrollment_link(self, principal: str, *, seconds: float = ENROLL_SECONDS) -> Enrollment:
        """A new single-use enrollment token for `principal`."""
        if not principal:
            raise ValueError("a passkey is enrolled for a principal: name one")
        enrollment = Enrollment(b64url(os.urandom(24)), principal, self.clock() + seconds)
        await self._put(_enroll_key(enrollment.token), asdict(enrollment), enrollment.expires_at)
        return enrollment

    async def enrollment(self, token: str) -> Enrollment | None:
        """The live enrollment behind a token (not used, not expired), or None."""
        if len(token) != 32 or not token.replace("-", "").replace("_", "").isalnum():
            return None
        raw = await self._get(_enroll_key(token))
        if not isinstance(raw, dict) or raw.get("expires_at", 0) <= self.clock():
            return None
        return Enrollment(**raw)

    async def use(self, enrollment: Enrollment) -> bool:
        """Use the link once: True for exactly one caller, even when two submit at once."""
        if not await self.store.claim(f"enrolled:{enrollment.token}", enrollment.expires_at):
            return False
        await self.store.take(_enroll_key(enrollment.token))
        return True

    # -- sealed JSON records -----------------------------------------------------------------------------
    def _key(self, principal: str) -> str:
        return "passkeys:" + b64url(hmac.new(self._names, b"key\x00" + principal.encode(), hashlib.sha256).digest())

    async def _save(self, principal: str, passkeys: tuple[Passkey, ...]) -> None:
        await self._put(self._key(principal), [asdict(k) for k in passkeys])

    async def _get(self, key: str) -> Any:
        blob = await self.store.get(key)
        data = self.vault.open(key, blob) if blob is not None else None
        return json.loads(data) if data is not None else None

    async def _put(self, key: str, value: Any, expires_at: float | None = None) -> None:
        until = expires_at if expires_at is not None else self.clock() + KEPT_SECONDS
        await self.store.put(key, self.vault.seal(key, json.dumps(value).encode()), until)


def _enroll_key(token: str) -> str:
    return f"passkey-enroll:{token}"
