"""Settings from the environment: keys, store and data directory (DESIGN section 4)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from askback.core.state import Keyring


def default_data_dir() -> Path:
    configured = os.environ.get("ASKBACK_DATA_DIR")
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "askback"


@dataclass(frozen=True)
class Environment:
    keys: str | None
    store: str
    data_dir: Path

    @classmethod
    def read(cls) -> Environment:
        return cls(
            keys=os.environ.get("ASKBACK_KEYS") or None,
            store=os.environ.get("ASKBACK_STORE", ""),
            data_dir=default_data_dir(),
        )

    def keyring(self) -> Keyring:
        if self.keys:
            return Keyring.from_text(self.keys)
        return Keyring.load_or_create(self.data_dir)
