"""The sealed `requestState`: what a flow has gathered, encrypted and bound to one request of one principal.

The state passes through the client, so it is attacker-controlled input. It is sealed with AES-256-GCM under
a key ring (the first key seals, every key opens) and is bound, as authenticated data that is never sent, to
the server (audience), the method, the target, a digest of the call's arguments and the principal. It
carries its issue time, a per-round expiry, a flow deadline that never renews, the round count, a flow id,
the answers so far, for a single-use flow the identity of the store that records its completion and, while
the server traces, the span context of the round that sealed it (so the next round's span links to it: one
linked trace per flow, whichever replica serves each round). Any failure is one `InvalidRequestState`; its
reason code is for the server log only.

Token layout (base64url, no padding): version (1) | key id (4) | nonce (12) | ciphertext + tag (16).
Plaintext: the times (30 bytes) | the body, compact JSON, or, once it is large enough to gain, a NUL byte and
the raw DEFLATE of that JSON. The NUL sits inside the authenticated plaintext, so no one without the key can
flip it, and a JSON body never starts with one, so states sealed before compression existed open unchanged.
"""

from __future__ import annotations

import binascii
import hashlib
import os
import struct
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from askback.core import jsoncodec
from askback.core.errors import InvalidRequestState, Rejection
from askback.core.errors import KeyConfigError as KeyConfigError
from askback.core.errors import StateTooLarge as StateTooLarge
from askback.core.progress import Progress
from askback.core.questions import canonical_json

VERSION = 1
_HEADER = struct.Struct(">B4s12s")
_TIMES = struct.Struct(">IIIH12s")  # issued, expires, deadline, rounds, flow id
MIN_KEY_BYTES = 32
MIN_DISTINCT_KEY_BYTES = 16
# The state re-carries every answer each round, so the cap bounds what a whole flow may be answered with. 256 KiB
# leaves room for a 50 KB answer that does not compress (68 KB in base64) and many rounds after it, while opening
# a state of that size stays cheap (base64 and AES-GCM over 256 KiB: well under a millisecond) and far below the
# 4 MiB request body the transport accepts.
DEFAULT_MAX_STATE_BYTES = 256 * 1024
# What a state may carry before compression: an honest bound for a decompressor that trusts no length field.
DEFAULT_MAX_BODY_BYTES = 1024 * 1024
_DEFLATED = b"\x00"
# Below this a body is sent as it is: zlib's set-up costs more than the few bytes it would save.
COMPRESS_FROM_BYTES = 512


StateRejected = InvalidRequestState  # the name the codec's callers and tests know it by


def key_weakness(raw: bytes) -> str | None:
    """Why `raw` cannot be a randomly generated key, or None.

    Random bytes (`os.urandom(32)`) show about 30 distinct values in 32 bytes and never repeat a pattern;
    fewer than 16 distinct values happens to a random 32-byte key with probability about 3e-17, and a repeated
    pattern (all zero, one byte, "abcd" again and again, a half written twice) with about 2e-39. So either
    means the key was typed or built, not drawn, and an attacker can guess it.
    """
    distinct = len(set(raw))
    if distinct < MIN_DISTINCT_KEY_BYTES:
        return f"{distinct} distinct byte value{'' if distinct == 1 else 's'}, where a random key has about 30"
    for period in range(1, len(raw) // 2 + 1):
        if raw[period:] == raw[:-period]:
            return f"a {period}-byte pattern repeated"
    return None


_TO_URLSAFE = bytes.maketrans(b"+/", b"-_")


def b64url(data: bytes) -> str:
    return binascii.b2a_base64(data, newline=False).translate(_TO_URLSAFE).rstrip(b"=").decode("ascii")


_FROM_URLSAFE = bytes.maketrans(b"-_", b"+/")


# For an unpadded length of 2 or 3 (mod 4), the last character carries 4 or 2 unused low bits: a canonical
# spelling has them all zero.
_B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_UNUSED_BITS = {2: 0b1111, 3: 0b11}


def b64url_decode_strict(text: str) -> bytes:
    """Decode unpadded base64url, refusing anything but the one canonical spelling of the bytes."""
    try:
        encoded = text.encode("ascii")
    except UnicodeEncodeError:
        raise ValueError("not base64url") from None
    tail = len(encoded) % 4
    if b"+" in encoded or b"/" in encoded or b"=" in encoded or tail == 1:
        raise ValueError("not base64url")
    try:
        data = binascii.a2b_base64(encoded.translate(_FROM_URLSAFE) + b"=" * (-tail % 4), strict_mode=True)
    except binascii.Error:
        raise ValueError("not base64url") from None
    if tail and _B64_ALPHABET.index(text[-1]) & _UNUSED_BITS[tail]:
        raise ValueError("non-canonical base64url")  # unused low bits set: the same bytes spelled another way
    return data


def binding_prefix(audience: str, method: str, target: str) -> bytes:
    """The part of a binding that repeats on every round of every flow of one target."""
    return _length_prefixed(audience, method, target)


def _length_prefixed(*parts: str) -> bytes:
    return b"".join(len(b).to_bytes(4, "big") + b for b in (x.encode("utf-8", "surrogatepass") for x in parts))


class Binding:
    """What a state is valid for. Never sent: it is the AEAD's associated data (length-prefixed fields)."""

    __slots__ = ("_encoded", "arguments_digest", "audience", "method", "principal", "target")

    def __init__(
        self,
        audience: str,
        method: str,
        target: str,
        arguments_digest: str,
        principal: str | None,
        prefix: bytes | None = None,
    ) -> None:
        """`prefix`, when the caller has it, is `binding_prefix(audience, method, target)` computed before."""
        self.audience = audience
        self.method = method
        self.target = target
        self.arguments_digest = arguments_digest
        self.principal = principal
        if prefix is None:
            prefix = binding_prefix(audience, method, target)
        digest = arguments_digest.encode()
        who = b"\x00" if principal is None else b"p" + principal.encode("utf-8", "surrogatepass")
        self._encoded = prefix + len(digest).to_bytes(4, "big") + digest + len(who).to_bytes(4, "big") + who

    def associated_data(self, header: bytes) -> bytes:
        return header + self._encoded

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Binding) and self._encoded == other._encoded

    def __hash__(self) -> int:
        return hash(self._encoded)

    def __repr__(self) -> str:
        return (
            f"Binding({self.audience!r}, {self.method!r}, {self.target!r}, {self.arguments_digest!r}, "
            f"{self.principal!r})"
        )


def arguments_digest(arguments: Mapping[str, Any] | None) -> str:
    if not arguments:
        return _EMPTY_ARGUMENTS_DIGEST
    plain = arguments if type(arguments) is dict else dict(arguments)
    return b64url(hashlib.sha256(jsoncodec.canonical(plain).encode()).digest()[:16])


_EMPTY_ARGUMENTS_DIGEST = b64url(hashlib.sha256(canonical_json({})).digest()[:16])


@dataclass(frozen=True, slots=True)
class Envelope:
    """An opened (or to-be-sealed) state."""

    flow_id: bytes
    issued_at: int
    expires_at: int
    deadline: int
    progress: Progress
    store_id: str | None = None  # single-use flows: the store that records whether the function ran
    # The span context of the round that sealed it (`askback.telemetry.flows`: trace id, span id, flags), opaque
    # here; None when the server was not tracing. Never a secret: it names a span, as `traceparent` does.
    link: bytes | None = None

    @property
    def flow_id_text(self) -> str:
        return b64url(self.flow_id)


class Keyring:
    """AEAD keys with ids. The first key seals; every key opens (for rotation)."""

    def __init__(self, keys: Sequence[bytes]) -> None:
        if not keys:
            raise KeyConfigError("a key ring needs at least one key")
        self._keys: list[tuple[bytes, AESGCM]] = []
        self._raw = tuple(keys)
        for number, raw in enumerate(keys, start=1):
            if len(raw) < MIN_KEY_BYTES:
                raise KeyConfigError(f"each key must be at least {MIN_KEY_BYTES} bytes (got {len(raw)})")
            weakness = key_weakness(raw)
            if weakness:
                raise KeyConfigError(
                    f"key {number} is too weak ({weakness}): generate one with "
                    "python -c \"import base64, os; print(base64.urlsafe_b64encode(os.urandom(32)).decode())\""
                )
            kid = hashlib.sha256(b"askback key id\x00" + raw).digest()[:4]
            derived = HKDF(algorithm=SHA256(), length=32, salt=None, info=b"askback requestState v1").derive(raw)
            self._keys.append((kid, AESGCM(derived)))
        self._by_id = {kid: aead for kid, aead in self._keys}

    @classmethod
    def from_text(cls, text: str, *, source: str = "ASKBACK_KEYS") -> Keyring:
        """Parse comma-separated base64url keys (padding optional; nothing else accepted).

        `source` names where the text came from (`ASKBACK_KEYS`, a key file) in every error.
        """
        keys = []
        for number, part in enumerate((p.strip() for p in text.split(",")), start=1):
            if not part:
                continue
            try:
                keys.append(b64url_decode_strict(part.rstrip("=")))
            except ValueError as exc:
                why = (
                    "is not the canonical base64url of any bytes (its last character carries bits that must be "
                    "zero); generate keys rather than typing them"
                    if "non-canonical" in str(exc)
                    else "is not base64url (letters, digits, '-' and '_' only)"
                )
                raise KeyConfigError(f"{source}: key {number} {why}") from None
        try:
            return cls(keys)
        except KeyConfigError as exc:
            raise KeyConfigError(f"{source}: {exc}") from None

    def derive_bytes(self, purpose: str) -> bytes:
        """A 32-byte key for another purpose (an HMAC), from the sealing key, under its own HKDF label."""
        return HKDF(algorithm=SHA256(), length=32, salt=None, info=b"askback " + purpose.encode()).derive(self._raw[0])

    def derive(self, purpose: str) -> list[tuple[bytes, AESGCM]]:
        """AEAD keys for another purpose (secrets at rest, page tokens), one per ring key, the sealing key first.

        Each is HKDF-derived under its own label, so no key ever serves two purposes.
        """
        out = []
        for (kid, _), raw in zip(self._keys, self._raw, strict=True):
            derived = HKDF(algorithm=SHA256(), length=32, salt=None, info=b"askback " + purpose.encode()).derive(raw)
            out.append((kid, AESGCM(derived)))
        return out

    @property
    def sealing_key_id(self) -> bytes:
        return self._keys[0][0]

    def seal(self, plaintext: bytes, binding: Binding) -> str:
        kid, aead = self._keys[0]
        nonce = os.urandom(12)
        header = _HEADER.pack(VERSION, kid, nonce)
        return b64url(header + aead.encrypt(nonce, plaintext, binding.associated_data(header)))

    def open(self, token: str, binding: Binding) -> bytes:
        try:
            raw = b64url_decode_strict(token)
        except ValueError as exc:
            reason = Rejection.NOT_CANONICAL if "non-canonical" in str(exc) else Rejection.NOT_BASE64URL
            raise InvalidRequestState(reason) from None
        if len(raw) < _HEADER.size + 16:
            raise InvalidRequestState(Rejection.TRUNCATED)
        header = raw[: _HEADER.size]
        version, kid, nonce = _HEADER.unpack(header)
        if version != VERSION:
            raise InvalidRequestState(Rejection.UNKNOWN_VERSION)
        aead = self._by_id.get(kid)
        if aead is None:
            raise InvalidRequestState(Rejection.UNKNOWN_KEY)
        try:
            return aead.decrypt(nonce, raw[_HEADER.size :], binding.associated_data(header))
        except InvalidTag:
            raise InvalidRequestState(Rejection.NOT_AUTHENTIC) from None


@dataclass(frozen=True, slots=True)
class StatePolicy:
    """Lifetimes and limits of a state."""

    round_ttl: int = 600
    flow_ttl: int = 1800
    max_bytes: int = DEFAULT_MAX_STATE_BYTES
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    clock_skew: int = 5
    now: Callable[[], float] = field(default=time.time)


class StateCodec:
    """Seal and open `Envelope`s with a key ring under a policy."""

    def __init__(self, keyring: Keyring, policy: StatePolicy | None = None) -> None:
        self.keyring = keyring
        self.policy = policy or StatePolicy()

    def new_envelope(
        self,
        progress: Progress,
        previous: Envelope | None,
        *,
        flow_id: bytes | None = None,
        store_id: str | None = None,
        link: bytes | None = None,
    ) -> Envelope:
        now = int(self.policy.now())
        if previous is not None:
            flow_id, deadline = previous.flow_id, previous.deadline
        else:
            flow_id, deadline = flow_id or os.urandom(12), now + self.policy.flow_ttl
        return Envelope(flow_id, now, min(now + self.policy.round_ttl, deadline), deadline, progress, store_id, link)

    def seal(self, envelope: Envelope, binding: Binding) -> str:
        p = envelope.progress
        parts: list[Any] = [p.values, p.answered, p.asked]
        if envelope.store_id is not None or envelope.link is not None:
            parts.append(envelope.store_id)
        if envelope.link is not None:
            parts.append(b64url(envelope.link))
        body = jsoncodec.compact(parts).encode()
        if len(body) > self.policy.max_body_bytes:
            raise StateTooLarge(
                f"the requestState would carry {len(body)} bytes of answers and questions, over the cap of "
                f"{self.policy.max_body_bytes}; ask for less per flow or raise the cap"
            )
        plaintext = (
            _TIMES.pack(envelope.issued_at, envelope.expires_at, envelope.deadline, p.rounds, envelope.flow_id)
            + _compressed(body)
        )
        token = self.keyring.seal(plaintext, binding)
        if len(token) > self.policy.max_bytes:
            raise StateTooLarge(
                f"the requestState would be {len(token)} bytes, over the cap of "
                f"{self.policy.max_bytes}; ask for less per flow or raise the cap"
            )
        return token

    def open(self, token: str, binding: Binding) -> Envelope:
        if not isinstance(token, str):
            raise InvalidRequestState(Rejection.NOT_A_STRING)
        if len(token) > self.policy.max_bytes:
            raise InvalidRequestState(Rejection.OVER_SIZE_CAP)
        plaintext = self.keyring.open(token, binding)
        try:
            issued, expires, deadline, rounds, flow_id = _TIMES.unpack_from(plaintext)
            body = _decompressed(plaintext[_TIMES.size :], self.policy.max_body_bytes)
            values, answered, asked, *rest = jsoncodec.decode(body.decode())
        except (struct.error, ValueError, TypeError, zlib.error):
            raise InvalidRequestState(Rejection.MALFORMED_BODY) from None
        store_id = rest[0] if rest else None
        link_text = rest[1] if len(rest) > 1 else None
        if not (isinstance(values, dict) and isinstance(answered, dict) and isinstance(asked, dict)) or not (
            store_id is None or isinstance(store_id, str)
        ) or not (link_text is None or isinstance(link_text, str)):
            raise InvalidRequestState(Rejection.MALFORMED_BODY)
        try:
            link = None if link_text is None else b64url_decode_strict(link_text)
        except ValueError:
            raise InvalidRequestState(Rejection.MALFORMED_BODY) from None
        now = self.policy.now()
        if issued > now + self.policy.clock_skew:
            raise InvalidRequestState(Rejection.ISSUED_IN_FUTURE)
        if now > deadline:
            raise InvalidRequestState(Rejection.FLOW_EXPIRED)
        if now > expires:
            raise InvalidRequestState(Rejection.ROUND_EXPIRED)
        return Envelope(flow_id, issued, expires, deadline, Progress(values, answered, asked, rounds), store_id,
                        link)


def _compressed(body: bytes) -> bytes:
    """`body` as it is, or marked and deflated when that is shorter.

    The state grows with every answer carried and crosses the client twice a round; answers are mostly text, so
    DEFLATE often shrinks them several times. A window just large enough for the body keeps zlib's set-up (most
    of the cost for a few-KB body) small. Only answers and server-chosen data are ever in a state, never a
    secret, so the compressed length says nothing the client does not already know.
    """
    if len(body) < COMPRESS_FROM_BYTES:
        return body
    window = min(15, max(9, len(body).bit_length()))
    deflate = zlib.compressobj(6, zlib.DEFLATED, -window, min(8, window - 7))
    packed = deflate.compress(body) + deflate.flush()
    return _DEFLATED + packed if len(packed) + 1 < len(body) else body


def _decompressed(body: bytes, limit: int) -> bytes:
    """The JSON body of a state, inflated if it was deflated; `ValueError` beyond `limit` bytes or if damaged."""
    if not body.startswith(_DEFLATED):
        return body
    inflate = zlib.decompressobj(-15)
    plain = inflate.decompress(body[1:], limit + 1)
    if len(plain) > limit or not inflate.eof or inflate.unused_data:
        raise ValueError("compressed body over its cap, truncated or followed by other bytes")
    return plain
