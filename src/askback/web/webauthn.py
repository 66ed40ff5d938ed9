"""The WebAuthn ceremonies of askback's pages, on python-fido2's `Fido2Server` (its public API only).

fido2 checks each response: the client data's type, origin and challenge, the relying party's id hash, the
user-present and (required here) user-verified flags, and the signature with the enrolled public key. askback
adds what fido2 leaves to its caller: the origin must be exactly the page's own, the signature counter must move
forward, and the challenge is askback's (derived from the page, `askback.passkeys.approval_challenge`), not a
random one kept between requests. Every failure is one `NotApproved`, whose reason goes to the log only.

This is the one module that imports fido2: the pages call these functions, nothing else names the library.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fido2.server import Fido2Server
from fido2.utils import websafe_encode
from fido2.webauthn import (
    AttestedCredentialData,
    AuthenticationResponse,
    PublicKeyCredentialRpEntity,
    PublicKeyCredentialUserEntity,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from askback.passkeys import Passkey

MAX_RESPONSE_CHARS = 16_384  # a WebAuthn response is a few hundred bytes of JSON; a page takes no more than this
TIMEOUT_MS = 120_000


class NotApproved(ValueError):
    """The response proves nothing: malformed, for another page or origin, not this person's passkey, not verified."""


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who asks for the passkey: its id (the page's host name), the name a person sees, and the page's origin."""

    id: str
    name: str
    origin: str


@dataclass(frozen=True, slots=True)
class Registered:
    credential_id: str
    credential: str
    sign_count: int


def _server(rp: RelyingParty) -> Fido2Server:
    return Fido2Server(
        PublicKeyCredentialRpEntity(name=rp.name, id=rp.id),
        attestation=None,
        verify_origin=lambda origin: hmac.compare_digest(origin.encode(), rp.origin.encode()),
    )


def creation_options(rp: RelyingParty, principal: str, user_id: bytes, challenge: bytes,
                     enrolled: Sequence[Passkey]) -> dict[str, Any]:
    """`publicKey` options for `navigator.credentials.create`, in WebAuthn's JSON form."""
    options, _ = _begin_registration(rp, principal, user_id, challenge, enrolled)
    public_key: dict[str, Any] = json.loads(json.dumps(dict(options.public_key)))
    public_key["timeout"] = TIMEOUT_MS
    return public_key


def verify_registration(rp: RelyingParty, principal: str, user_id: bytes, challenge: bytes,
                        response: str, enrolled: Sequence[Passkey]) -> Registered:
    """The passkey a registration response adds, once fido2 has checked it against this challenge and origin."""
    _, state = _begin_registration(rp, principal, user_id, challenge, enrolled)
    try:
        auth_data = _server(rp).register_complete(state, _json(response))
    except NotApproved:
        raise
    except Exception as exc:  # fido2 raises ValueError, and KeyError or TypeError on a malformed response
        raise NotApproved(f"registration refused: {type(exc).__name__}: {exc}") from None
    data = auth_data.credential_data
    if data is None:
        raise NotApproved("registration refused: no credential data")
    return Registered(websafe_encode(data.credential_id), websafe_encode(bytes(data)), auth_data.counter)


def request_options(rp: RelyingParty, challenge: bytes, enrolled: Sequence[Passkey]) -> dict[str, Any]:
    """`publicKey` options for `navigator.credentials.get`: these passkeys only, user verification required."""
    options, _ = _server(rp).authenticate_begin(
        [_credential(k) for k in enrolled], user_verification=UserVerificationRequirement.REQUIRED,
        challenge=challenge,
    )
    public_key: dict[str, Any] = json.loads(json.dumps(dict(options.public_key)))
    public_key["timeout"] = TIMEOUT_MS
    return public_key


def verify_assertion(rp: RelyingParty, challenge: bytes, response: str,
                     enrolled: Sequence[Passkey]) -> tuple[Passkey, int]:
    """Which of `enrolled` signed this challenge with user verification, and its new signature counter."""
    if not enrolled:
        raise NotApproved("no passkey enrolled")
    credentials = [_credential(k) for k in enrolled]
    server = _server(rp)
    _, state = server.authenticate_begin(
        credentials, user_verification=UserVerificationRequirement.REQUIRED, challenge=challenge
    )
    try:
        raw = _json(response)
        used = server.authenticate_complete(state, credentials, raw)
        counter = AuthenticationResponse.from_dict(raw).response.authenticator_data.counter
    except NotApproved:
        raise
    except Exception as exc:
        raise NotApproved(f"assertion refused: {type(exc).__name__}: {exc}") from None
    passkey = next(k for k, c in zip(enrolled, credentials, strict=True) if c.credential_id == used.credential_id)
    if (counter or passkey.sign_count) and counter <= passkey.sign_count:
        raise NotApproved("assertion refused: the signature counter did not move forward (a cloned passkey?)")
    return passkey, counter


def _begin_registration(rp: RelyingParty, principal: str, user_id: bytes, challenge: bytes,
                        enrolled: Sequence[Passkey]) -> tuple[Any, Any]:
    return _server(rp).register_begin(
        PublicKeyCredentialUserEntity(name=principal, id=user_id, display_name=principal),
        [_credential(k) for k in enrolled],
        resident_key_requirement=ResidentKeyRequirement.PREFERRED,
        user_verification=UserVerificationRequirement.REQUIRED,
        challenge=challenge,
    )


def _credential(passkey: Passkey) -> AttestedCredentialData:
    from fido2.utils import websafe_decode

    return AttestedCredentialData(websafe_decode(passkey.credential))


def _json(response: str) -> dict[str, Any]:
    if len(response) > MAX_RESPONSE_CHARS:
        raise NotApproved("response too long")
    try:
        value = json.loads(response)
    except ValueError:
        raise NotApproved("response is not JSON") from None
    if not isinstance(value, dict):
        raise NotApproved("response is not a JSON object")
    return value
