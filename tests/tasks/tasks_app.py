"""The app the task tests serve, in process and with `askback serve tests/tasks/tasks_app.py`.

Each function appends what it did to the file named by `TASKS_RUNLOG` (O_APPEND, several processes share it),
so a test sees, across restarts and replicas, which parts of the work ran and how often. `TASKS_LEASE` sets
how long a process's claim on a running task lasts without renewal.
"""

import asyncio
import os
from typing import Annotated

from pydantic import Field

import askback

app = askback.App(
    "tasks-tests",
    principal=lambda request: request.headers.get("x-user"),
    task_lease=float(os.environ.get("TASKS_LEASE", "15")),
)


def ran(line: str) -> None:
    runlog = os.environ.get("TASKS_RUNLOG")
    if runlog:
        fd = os.open(runlog, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, f"{line}\n".encode())
        finally:
            os.close(fd)


@app.tool(task="optional")
async def cleanup(folder: Annotated[str, Field(description="Folder to clean")], work: askback.Work) -> str:
    """Finds stale files in a folder, then asks before deleting them."""
    ran(f"scan:{folder}")
    await work.status("Scanning {folder}", folder=folder)
    stale = [f"{folder}/old-{n}.log" for n in range(3)]
    if not await work.confirm("Delete these {n} files from {folder}?", n=len(stale), folder=folder):
        return f"Kept {len(stale)} files."
    ran(f"delete:{folder}")
    return f"Deleted {len(stale)} files from {folder}."


@app.tool(task="optional", resume="fail")
async def cleanup_once(folder: str, work: askback.Work) -> str:
    """Like cleanup, but never runs its scan twice: after a restart, an answer fails it instead."""
    ran(f"scan-once:{folder}")
    if not await work.confirm("Delete the stale files from {folder}?", folder=folder):
        return "Kept."
    return "Deleted."


@app.tool(task="optional")
async def charge(order: str, work: askback.Work) -> str:
    """Asks, then takes the irreversible step as the last thing it does (so "it ran" is "it finished")."""
    if not await work.confirm("Charge order {order}?", order=order):
        return f"Did not charge {order}."
    ran(f"charge:{order}")
    return f"Charged {order}."


@app.tool(task="optional")
async def overdrawn(amount: int) -> str:
    """A deliberate tool error: the task completes, its result an `isError` CallToolResult."""
    raise askback.ToolError(f"Cannot pay {amount}: the account is overdrawn.")


@app.tool(task="optional")
async def survey(work: askback.Work) -> str:
    """Asks a value, a choice and a confirmation in turn."""
    days = await work.ask("How many days back?", Annotated[int, Field(ge=1, le=90)], field="days")
    keep = await work.choose("Which copy do we keep?", [askback.Option("a", "Copy A"), askback.Option("b", "Copy B")])
    go = await work.confirm("Go ahead with {days} days, keeping {keep}?", days=days, keep=keep)
    return f"days={days} keep={keep} go={go}"


@app.tool(task="optional")
async def nosy(work: askback.Work) -> str:
    """A bug: asks for a password in a form."""
    return str(await work.ask("What is your password?", str))


@app.tool(task="optional")
async def long_job(seconds: float) -> str:
    """Works for `seconds`."""
    ran("long:start")
    await asyncio.sleep(seconds)
    ran("long:end")
    return "done"


@app.tool(task="optional")
async def broken(token_hint: str = "x") -> str:
    """Raises: the task fails with an internal error, and nothing of the exception reaches the caller."""
    raise RuntimeError("database password hunter2 in a stack trace")


@app.tool(task="required")
async def report(region: Annotated[str, askback.Ask("Which region?", field="region")]) -> str:
    """A task only; its region is asked by MRTR before the task starts."""
    return f"Report for {region}."


@app.tool(task="optional")
async def rotate(work: askback.Work) -> str:
    """Asks for a new key on askback's page during its work."""
    ran("rotate:start")
    key = await work.ask("your new API key", secret=True)
    ran(f"rotate:got:{len(key.reveal())}")
    return f"rotated ({len(key.reveal())} characters)"
