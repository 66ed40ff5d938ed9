"""The secret guard's phrase table, analysed ahead of time: its pieces and the two characters each can start with.

The guard matches a text word by word, and at each word tries only the phrases ("pieces") that can begin there
(`askback.core.secrets._Dispatch`). Splitting the table into pieces and reading what each can start with takes
tens of milliseconds of pure Python, and the fewer pieces a matcher holds the less `re` has to compile on the
first check: most of what a server's first registration would wait for. So `secret_index.json` keeps, for the
table as it is, every piece and the set of two-character beginnings each can match (read with `re`'s own parser,
its language over-approximated: lookarounds are skipped, anything not read exactly means "could start anywhere"),
with the fingerprint of the table's regexes. `load()` returns it only when that fingerprint is the running
table's; otherwise the guard reads the first characters itself, as before, and matches exactly the same way (a
test proves the two agree on every corpus text). The table is read in `askback.core.secret_table`, which a server
with a current snapshot never imports; `python -m askback.core.secret_index` rewrites the snapshot, and a test
fails while it is out of date.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

SNAPSHOT = Path(__file__).with_name("secret_index.json")
WIDTH = 2  # characters of a word that choose its matcher
_FORMAT = 1


@dataclass(frozen=True)
class PhraseIndex:
    """Every piece of the table in order, and for each the `WIDTH`-character beginnings it can match (None: any)."""

    pieces: tuple[tuple[str, str], ...]
    starts: Mapping[str, frozenset[str] | None]
    width: int = WIDTH


def fingerprint(regexes: Iterable[str]) -> str:
    """sha256 of the table's regexes (in order) and of this snapshot's format."""
    digest = hashlib.sha256(f"secret index {_FORMAT} width {WIDTH}".encode())
    for rx in regexes:
        digest.update(b"\0" + rx.encode())
    return digest.hexdigest()


def load(regexes: Sequence[str], path: Path = SNAPSHOT) -> PhraseIndex | None:
    """The snapshot, or None when it was not taken from this table (or cannot be read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("fingerprint") != fingerprint(regexes) or data.get("width") != WIDTH:
        return None
    pieces = tuple((name, piece) for name, piece, _ in data["pieces"])
    starts = {name: None if begins is None else frozenset(begins) for name, _, begins in data["pieces"]}
    return PhraseIndex(pieces, starts)


if __name__ == "__main__":
    from askback.core.secret_table import main

    main()
