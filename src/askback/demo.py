"""The bundled demo app: a bank transfer that asks, a bank connection that takes an API key out of band, an issue
tracker, a clean-up that runs as a task and asks mid-way, a prompt and a resource template."""

from __future__ import annotations

import asyncio
import secrets
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, Field

import askback

PASSKEY_PERSON = "you"  # under `askback demo --passkeys`, every caller: whose passkey approves
app = askback.App("askback-demo", instructions="A demo bank and issue tracker whose tools ask for what is missing.")
if app.approve_with == "passkey":
    # `askback demo --passkeys`: a passkey is some person's, so every caller of the demo is the one person
    # "you", whose passkey the approval page asks (`askback.cli.passkeys.demo_enrollment` enrolls it).
    app.principal_hook = lambda request: PASSKEY_PERSON

_ACCOUNTS: dict[str | None, list[askback.Option]] = {
    None: [
        askback.Option("DE89370400440532013000", "Everyday account (DE89 …3000)"),
        askback.Option("DE02120300000000202051", "Savings account (DE02 …2051)"),
    ],
}


def accounts_of_caller(caller: askback.Caller) -> list[askback.Option]:
    """The caller's own accounts. Every caller of the demo shares the same two."""
    return _ACCOUNTS.get(caller.principal, _ACCOUNTS[None])


class Receipt(BaseModel):
    reference: str
    amount: Decimal
    from_account: str
    to: str
    status: Literal["sent"] = "sent"


@app.tool(once=True)
def transfer(
    amount: Annotated[Decimal, Field(ge=Decimal("0.01"), le=10_000, description="Amount to send, in EUR")],
    to: Annotated[str, Field(min_length=15, max_length=34, description="Recipient IBAN")],
    from_account: Annotated[str, askback.OneOf(accounts_of_caller), Field(description="Account to send from")],
    confirm: Annotated[
        bool,
        # Above 1,000 EUR the person approves on askback's own page, where no agent answering forms can reach
        # (with a passkey under `askback demo --passkeys`).
        askback.Confirm("Send {amount} EUR from {from_account} to {to}?", out_of_band=lambda amount: amount > 1000),
    ],
) -> Receipt:
    """Send money from one of your accounts. Asks for anything missing, then for confirmation (above 1,000 EUR
    on a page of its own); runs once."""
    return Receipt(reference="TX-" + secrets.token_hex(4).upper(), amount=amount, from_account=from_account, to=to)


@app.tool()
def connect_bank(
    bank: Annotated[Literal["acme", "globex"], Field(description="Bank to connect")],
    api_key: Annotated[askback.Secret, askback.Ask("the API key from {bank}'s developer settings")],
) -> dict[str, str]:
    """Connect a bank with its API key. The key is entered on a page of this server, never in the chat."""
    _CONNECTED[bank] = api_key  # a real app would store it encrypted; it is never echoed back
    return {"bank": bank, "status": "connected"}


_CONNECTED: dict[str, askback.Secret] = {}


@app.tool()
def open_issue(
    repo: Annotated[str, Field(pattern=r"^[\w.-]+/[\w.-]+$", description="Repository as owner/name")],
    title: Annotated[str, Field(min_length=5, max_length=120, description="One-line summary of the issue")],
    github_login: Annotated[str, Field(description="Your GitHub login, to credit you as reporter")],
    priority: Literal["low", "normal", "high"] = "normal",
) -> dict[str, object]:
    """Open an issue in a (demo) tracker."""
    return {
        "repo": repo,
        "title": title,
        "reporter": github_login,
        "priority": priority,
        "number": 100 + secrets.randbelow(900),
    }


@app.tool(task="optional")
async def clean_logs(
    folder: Annotated[str, Field(min_length=1, description="Folder whose old log files to delete")],
    older_than_days: Annotated[int, Field(ge=1, le=365, description="Delete logs older than this many days")] = 30,
    *,
    work: askback.Work,
) -> str:
    """Find old log files in a (demo) folder, then ask before deleting them. Runs as a task: a few seconds."""
    await work.status("Scanning {folder} for logs older than {days} days", folder=folder, days=older_than_days)
    await asyncio.sleep(2)  # the demo's stand-in for a slow scan
    found = [f"{folder.rstrip('/')}/app-{n}.log" for n in range(1, 4)]
    if not await work.confirm("Delete these {n} files? {files}", n=len(found), files=found):
        return f"Kept all {len(found)} files."
    await work.status("Deleting {n} files", n=len(found))
    await asyncio.sleep(1)
    return f"Deleted {len(found)} files from {folder}."


@app.prompt()
def release_notes(
    version: Annotated[str, Field(description="Version being released, e.g. 1.4.0")],
    audience: Annotated[Literal["users", "developers"], askback.Ask("Who are the release notes for?")],
) -> str:
    """Draft release notes for a version, for users or developers."""
    return f"Write release notes for version {version}, addressed to {audience}. Keep it short."


@app.resource("demo://greeting/{name}", description="A greeting in the language you choose")
def greeting(name: str, language: Annotated[Literal["en", "de", "fr"], askback.Ask("Which language?")]) -> str:
    words = {"en": "Hello", "de": "Hallo", "fr": "Bonjour"}
    return f"{words[language]}, {name}!"
