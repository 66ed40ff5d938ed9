"""`askback passkeys enroll|list|revoke`: the operator's side of the passkeys an app's approvals ask for.

Each command opens the app's store with the app's keys (as `askback serve` would, from the same target and
environment), so a passkey enrolled through the printed link is the one every replica sharing that store asks.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime

from askback.loopback import by_name

APP_ENV = "ASKBACK_APP"


def add_passkeys(sub: argparse._SubParsersAction[argparse.ArgumentParser],
                 formatter: type[argparse.HelpFormatter]) -> None:
    parser = sub.add_parser(
        "passkeys",
        help="enroll, list and revoke the passkeys an app's approvals ask for",
        description="Manage the passkeys that approvals with approve_with='passkey' ask for (docs/passkeys.md).",
        formatter_class=formatter,
    )
    actions = parser.add_subparsers(dest="passkeys_command", required=True)
    enroll = actions.add_parser("enroll", help="print a single-use link that enrolls a passkey for PRINCIPAL",
                                formatter_class=formatter)
    enroll.add_argument("principal", help="who the passkey is for: the name the app's principal hook gives")
    enroll.add_argument("--public-url", default=None,
                        help="where browsers reach the server (default: ASKBACK_PUBLIC_URL, else "
                        "http://localhost:8000)")
    enroll.add_argument("--minutes", type=float, default=15.0, help="how long the link stays valid")
    listing = actions.add_parser("list", help="list the passkeys enrolled (for PRINCIPAL, or everyone)",
                                 formatter_class=formatter)
    listing.add_argument("principal", nargs="?", default=None)
    revoke = actions.add_parser("revoke", help="forget one of PRINCIPAL's passkeys", formatter_class=formatter)
    revoke.add_argument("principal")
    revoke.add_argument("credential", help="the credential id `list` shows (or a unique start of it)")
    for each in (enroll, listing, revoke):
        each.add_argument("--app", default=os.environ.get(APP_ENV),
                          help=f"the app whose store holds the passkeys: path/file.py[:attr] or module:attr "
                          f"(env {APP_ENV})")


def run_passkeys(args: argparse.Namespace) -> int:
    import anyio

    if not args.app:
        print(f"askback passkeys: name the app with --app TARGET (or {APP_ENV})", file=sys.stderr)
        return 2
    try:
        return anyio.run(_run, args)
    except (ValueError, OSError) as exc:
        print(f"askback passkeys: {exc}", file=sys.stderr)
        return 2


async def _run(args: argparse.Namespace) -> int:
    from askback.loader import load_app

    app = load_app(args.app)
    await app.start()
    try:
        passkeys = app.passkeys
        if args.passkeys_command == "enroll":
            base = args.public_url or app.runtime.public_url or "http://localhost:8000"
            enrollment = await passkeys.enrollment_link(args.principal, seconds=args.minutes * 60)
            from askback.passkeys import ENROLL_PATH

            print(by_name(base.rstrip("/")) + ENROLL_PATH + enrollment.token)
            print(f"Open this link once, within {args.minutes:g} minutes, to add a passkey for {args.principal}.",
                  file=sys.stderr)
            return 0
        if args.passkeys_command == "list":
            principals = [args.principal] if args.principal else list(await passkeys.principals())
            for principal in principals:
                for key in await passkeys.of(principal):
                    added = datetime.fromtimestamp(key.created_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
                    print(f"{principal}\t{key.credential_id}\t{added}")
            return 0
        if await passkeys.revoke(args.principal, args.credential):
            print(f"revoked: {args.principal}'s passkey {args.credential}", file=sys.stderr)
            return 0
        print(f"askback passkeys: {args.principal} has no single passkey matching {args.credential!r}",
              file=sys.stderr)
        return 1
    finally:
        await app.stop()


def demo_enrollment(port: int) -> None:
    """Before `askback demo --passkeys` serves: mint an enrollment link for the demo's person and say what to do."""
    import anyio

    async def mint() -> str:
        from askback.demo import PASSKEY_PERSON, app

        await app.start()
        try:
            return (await app.passkeys.enrollment_link(PASSKEY_PERSON, seconds=3600)).token
        finally:
            await app.stop()

    from askback.passkeys import ENROLL_PATH

    token = anyio.run(mint)
    print(
        "Passkeys: a transfer above 1,000 EUR is approved with a passkey.\n"
        f"  1. Enroll one (this link works once, for an hour): http://localhost:{port}{ENROLL_PATH}{token}\n"
        f"     Later links: askback passkeys enroll you --app askback.demo:app --public-url "
        f"http://localhost:{port}\n"
        "  2. Ask for a transfer above 1,000 EUR: its approval page asks the passkey (open it at localhost).",
        file=sys.stderr, flush=True,
    )
