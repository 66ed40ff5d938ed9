"""The app `bench/coldstart.py` serves: one tool that asks once, as small as a real first server."""

from __future__ import annotations

from typing import Annotated

import askback

app = askback.App("coldstart", store="memory://")


@app.tool()
def greet(name: Annotated[str, askback.Ask("What is your name?")]) -> str:
    """Asks a name, then greets."""
    return f"Hello, {name}!"
