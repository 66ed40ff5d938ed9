"""Records at rest, sealed: what the store keeps for pages, passkeys and receipts is opened only with the key
ring (AEAD, each kind of record under its own derived key, its store key as associated data)."""

from __future__ import annotations

import os

from cryptography.exceptions import InvalidTag

from askback.core.state import Keyring


class Vault:
    """AEAD for records at rest: sealed with the ring's first key, opened by any (rotation keeps working)."""

    def __init__(self, keyring: Keyring, purpose: str) -> None:
        self._keys = keyring.derive(purpose)
        self._by_id = dict(self._keys)

    def seal(self, key: str, data: bytes) -> bytes:
        kid, aead = self._keys[0]
        nonce = os.urandom(12)
        return kid + nonce + aead.encrypt(nonce, data, key.encode())

    def open(self, key: str, blob: bytes) -> bytes | None:
        aead = self._by_id.get(blob[:4])
        if aead is None or len(blob) < 4 + 12 + 16:
            return None
        try:
            return aead.decrypt(blob[4:16], blob[16:], key.encode())
        except InvalidTag:
            return None
