"""The `MCPServer` app of `tests.support.adopted`, as its author wrote it, served over stdio (an upstream command)."""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    # Run as a script by a server's stdio client, whose child gets no PYTHONPATH: find this checkout itself.
    root = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(root / "src"), str(root)]
    from tests.support import adopted

    adopted.build().run("stdio")
