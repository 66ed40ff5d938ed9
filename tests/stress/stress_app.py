"""The app the multi-process stress tests serve with `askback serve tests/stress/stress_app.py`.

`plan` is a single-use flow of four requests: two questions in sequence, then a confirmation, then the run.
Each run appends its flow's `first` value to the file named by `STRESS_RUNLOG` (one short line, O_APPEND), so a
test can count, across every replica, how many times each flow's function ran. `STRESS_ROUND_TTL` shortens a
round's lifetime for the key-rotation test.
"""


import os
from typing import Annotated

import askback

app = askback.App("stress", round_ttl=int(os.environ.get("STRESS_ROUND_TTL", "600")))


@app.tool(once=True)
def plan(
    first: Annotated[str, askback.Ask("First step?")],
    second: Annotated[str, askback.Ask("Second step, after {first}?")],
    ok: Annotated[bool, askback.Confirm("Run {first}, then {second}?")],
) -> str:
    """Plan two steps and run them, once."""
    runlog = os.environ.get("STRESS_RUNLOG")
    if runlog:
        fd = os.open(runlog, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, f"{first}\n".encode())
        finally:
            os.close(fd)
    return f"planned {first} then {second}"
