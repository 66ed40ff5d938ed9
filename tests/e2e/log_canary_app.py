"""An app for the log tests: a value asked in band, a secret and an approval on pages (`test_log_secrets`)."""

from typing import Annotated

import askback

app = askback.App("canary-bank")


@app.tool()
def greet(name: str) -> str:
    return f"hello {len(name)}"


@app.tool()
def connect(bank: str, api_key: Annotated[askback.Secret, askback.Ask("the API key of {bank}")]) -> str:
    return f"connected {bank} with a key of {len(api_key.reveal())} characters"


@app.tool(once=True)
def pay(amount: int, ok: Annotated[bool, askback.Confirm("Pay {amount} EUR?", out_of_band=lambda amount: amount > 1000)]
        ) -> str:
    return f"paid {amount}"
