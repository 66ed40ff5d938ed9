"""The app every replica serves in tests/replicas: `askback serve tests/replicas/replica_app.py --port P`.

`plan` is single-use, four requests (two questions, a confirmation, the run); `connect` takes an API key out of
band on a page; `pay` is approved on a page, once. Each run appends one line to the file named by
`REPLICA_RUNLOG` (O_APPEND, so several replicas can share it): a test counts, across every replica, how many
times each flow's function ran.
"""

import os
from typing import Annotated

import askback

app = askback.App("replicas", round_ttl=int(os.environ.get("REPLICA_ROUND_TTL", "600")))


def _ran(line: str) -> None:
    runlog = os.environ.get("REPLICA_RUNLOG")
    if runlog:
        fd = os.open(runlog, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, f"{line}\n".encode())
        finally:
            os.close(fd)


@app.tool(once=True)
def plan(
    first: Annotated[str, askback.Ask("First step?")],
    second: Annotated[str, askback.Ask("Second step, after {first}?")],
    ok: Annotated[bool, askback.Confirm("Run {first}, then {second}?")],
) -> str:
    """Plan two steps and run them, once."""
    _ran(first)
    return f"planned {first} then {second}"


@app.tool()
def connect(bank: str, api_key: Annotated[askback.Secret, askback.Ask("the API key of {bank}")]) -> str:
    """Connect to a bank with an API key entered on a page."""
    _ran(f"connect:{bank}:{len(api_key.reveal())}")
    return f"connected {bank}"


@app.tool(once=True)
def pay(amount: int, ok: Annotated[bool, askback.Confirm("Pay {amount} EUR?", out_of_band=True)]) -> str:
    """Pay, once, after an approval on a page."""
    _ran(f"pay:{amount}")
    return f"paid {amount}"
