"""askback's data directory and the private files in it: neutral, so both the server and the client use it.

The server keeps its key file there (`askback.config`); the client keeps the OAuth tokens it signed in with
(`askback.client.signin`). Both are credentials, so both are files only their owner may read, in a directory
only its owner may enter.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def default_data_dir() -> Path:
    """`ASKBACK_DATA_DIR`, else `$XDG_DATA_HOME/askback`, else `~/.local/share/askback`."""
    configured = os.environ.get("ASKBACK_DATA_DIR")
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "askback"


def shared_mode(info: os.stat_result) -> int | None:
    """The file's mode if group or others may read or change it (a credential someone else holds), else None."""
    mode = stat.S_IMODE(info.st_mode)
    return mode if mode & 0o077 else None


def write_private(path: Path, text: str) -> None:
    """Replace `path` with `text`, atomically, mode 0600 (its directory made 0700 if it is new).

    The text is written to a new file of the owner's alone, synced, then renamed over `path`: a reader never
    sees half a file, and the file never exists with a wider mode, not even for an instant.
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    candidate = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}")
    fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(candidate, path)
    finally:
        candidate.unlink(missing_ok=True)
