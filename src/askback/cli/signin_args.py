"""The sign-in flags shared by the client commands and `askback gateway` (toward its upstream), and what they make.

Read without loading the client: the parsers of every command are built on each start.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from askback.client.signin import SignIn

SECRET_ENV = "ASKBACK_OAUTH_CLIENT_SECRET"  # noqa: S105 - the name of a variable, not its value
MODES = ("browser", "print", "http", "never")


def add_sign_in_flags(parser: argparse.ArgumentParser, *, who: str = "the server") -> None:
    parser.add_argument(
        "--sign-in", choices=MODES, metavar="MODE",
        help=f"when {who} answers HTTP 401, sign in with OAuth: browser (print the URL and open a browser; the "
        "default on a terminal), print (print it only), http (follow its redirects over HTTP, for an "
        "authorization server that grants without a person), never (use the tokens kept, refreshing them; the "
        "default without a terminal). Tokens are kept per server in askback's data directory, mode 0600",
    )
    parser.add_argument("--oauth-client-id", metavar="ID",
                        help=f"a client registered beforehand with the authorization server (its secret, if it "
                        f"has one, in ${SECRET_ENV}); else the client registers itself")
    parser.add_argument("--oauth-client-metadata-url", metavar="URL",
                        help="an https URL of this client's metadata document, used as its client ID where the "
                        "authorization server takes one")


def sign_in_from(args: argparse.Namespace) -> SignIn:
    """The `SignIn` the flags describe (the mode from the terminal when none is given)."""
    from askback.client.signin import Authorize, SignIn

    terminal = sys.stdin.isatty() and sys.stderr.isatty()
    mode: Authorize = cast("Authorize", args.sign_in) or ("browser" if terminal else "never")
    secret = os.environ.get(SECRET_ENV) or None if args.oauth_client_id else None
    return SignIn(authorize=mode, client_id=args.oauth_client_id, client_secret=secret,
                  client_metadata_url=args.oauth_client_metadata_url)
