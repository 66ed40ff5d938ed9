"""An app whose transfer is approved with a passkey, for `askback passkeys` run as a command beside its server.

Its store and keys come from the environment (ASKBACK_STORE, ASKBACK_KEYS), as a deployed app's would; the
caller names itself in the `x-user` header, and the pages run in development mode (a loopback server), so the
passkey alone says who approves.
"""

from typing import Annotated

import askback

app = askback.App("Passkey Bank", principal=lambda request: request.headers.get("x-user"), page_wait=0,
                  approve_with="passkey")
sent: list[int] = []


@app.tool()
def transfer(amount: int, confirm: Annotated[bool, askback.Confirm("Send {amount} EUR?", out_of_band=True)]) -> str:
    sent.append(amount)
    return f"sent {amount} EUR"
