"""A FastMCP 4 app with typical tools, written as its docs show, without askback; or a FastMCP proxy in front of one.

    python fastmcp_corpus.py PORT               # the app, over streamable HTTP
    python fastmcp_corpus.py PORT --proxy URL   # `create_proxy(URL)`: FastMCP's own proxy, in front of URL

Runs from bench/.venv-fastmcp (FastMCP pins its own `mcp` range; see bench/run.py). Module level, without
`from __future__ import annotations`: FastMCP evaluates the annotations here.
"""

import sys
from typing import Annotated, Literal

from fastmcp import FastMCP
from pydantic import Field


def build() -> FastMCP:
    app = FastMCP("fastmcp-shop")

    @app.tool
    def search(query: Annotated[str, Field(description="What to look for")],
               limit: Annotated[int, Field(ge=1, le=50)] = 10) -> str:
        """Search the catalogue."""
        return f"{limit} results for {query}"

    @app.tool
    def book(city: str, nights: Annotated[int, Field(ge=1, le=30)],
             room: Literal["single", "double", "suite"]) -> str:
        """Book a hotel room."""
        return f"Booked a {room} room in {city} for {nights} nights."

    @app.tool
    def convert(amount: float, currency: Literal["EUR", "USD", "GBP"]) -> str:
        """Convert an amount to a currency."""
        return f"{amount} in {currency}"

    @app.tool
    def remind(text: str, urgent: bool) -> str:
        """Set a reminder."""
        return f"Reminder set: {text}{' (urgent)' if urgent else ''}"

    return app


def main() -> None:
    port = int(sys.argv[1])
    if "--proxy" in sys.argv:
        from fastmcp.server import create_proxy

        app = create_proxy(sys.argv[sys.argv.index("--proxy") + 1], name="fastmcp-proxy")
    else:
        app = build()
    app.run(transport="http", host="127.0.0.1", port=port, show_banner=False, log_level="warning")


if __name__ == "__main__":
    main()
