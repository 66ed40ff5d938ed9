"""`askback receipts TARGET [ID]`: the receipts an app's servers left in its store, read with its settings.

The target is loaded as `askback serve` loads it (the same `ASKBACK_KEYS`, `ASKBACK_STORE` and data directory,
or the App's own), so the command reads exactly the store its servers write. Without an id it lists the
receipts of the last `--days` days, newest first; with one it shows that receipt. Exit status: 0 shown, 1 no
such receipt, 2 a bad target or configuration (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import anyio

from askback.receipts import Entry, Receipt

EXIT_NOT_FOUND = 1
EXIT_USAGE = 2


def add_receipts(sub: argparse._SubParsersAction[argparse.ArgumentParser],
                 formatter: type[argparse.HelpFormatter]) -> None:
    parser = sub.add_parser(
        "receipts",
        help="show the receipts of an app's approvals and single-use runs",
        description="Show the receipts an app's servers left in its store: what was shown, who approved it and "
        "how, that it ran, and what came back. Reads the store from the same settings `askback serve` uses.",
        formatter_class=formatter,
    )
    parser.add_argument("target", help="the app: path/to/file.py[:attr] or package.module[:attr] (attr: app)")
    parser.add_argument("id", nargs="?", help="one receipt's id (a result's _meta[\"askback/receipt\"])")
    parser.add_argument("--days", type=int, default=7, help="list the receipts started in this many days")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run_receipts(args: argparse.Namespace) -> int:
    from askback.core.errors import StoreUnavailable
    from askback.core.state import KeyConfigError
    from askback.loader import TargetError, load_app
    from askback.stores import StoreConfigError

    try:
        app = load_app(args.target)
        found = anyio.run(_read, app, args.id, args.days)
    except (TargetError, KeyConfigError, StoreConfigError, StoreUnavailable) as exc:
        print(f"askback receipts: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.id is not None and not found:
        print(f"askback receipts: no receipt {args.id!r} in {app.name}'s store (unknown, expired, or sealed "
              "with a key this ring does not hold)", file=sys.stderr)
        return EXIT_NOT_FOUND
    if args.json:
        body = found[0].to_json() if args.id is not None else [r.to_json() for r in found]
        print(json.dumps(body, ensure_ascii=False, indent=2))
    elif args.id is not None:
        print(_long(found[0]))
    else:
        for receipt in found:
            print(_line(receipt))
    return 0


async def _read(app: object, rid: str | None, days: int) -> list[Receipt]:
    from askback.app import App

    assert isinstance(app, App)
    await app.start()
    try:
        if rid is not None:
            one = await app.receipt(rid)
            return [one] if one is not None else []
        return await app.receipts(days=days)
    finally:
        await app.stop()


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))


def _line(receipt: Receipt) -> str:
    kinds = ",".join(e.kind for e in receipt.entries)
    returned = receipt.of("returned")
    outcome = returned[-1].outcome if returned else "-"
    return f"{receipt.id}  {_when(receipt.entries[0].at)}  {receipt.tool}  {kinds}  {outcome}"


def _long(receipt: Receipt) -> str:
    lines = [f"receipt    {receipt.id}", f"tool       {receipt.tool}", f"caller     {receipt.principal or '-'}"]
    lines += [_entry(e) for e in receipt.entries]
    return "\n".join(lines)


def _entry(e: Entry) -> str:
    head = f"{_when(e.at)}  {e.kind}"
    if e.kind == "proposed":
        shown = "".join(f"\n    {n}: {v}" for n, v in e.values)
        return f"{head} ({'on the page' if e.where == 'page' else 'to run'}) {e.text}{shown}\n    digest {e.digest}"
    if e.by is not None:
        how = e.by.method + (", a second person" if e.by.second_person else "")
        return f"{head} by {e.by.by or '(nobody signed in: development mode)'} ({how})"
    if e.kind == "returned":
        return f"{head} {e.outcome}" + (f"  {e.digest}" if e.digest else "")
    return head
