"""An `MCPServer` app written without askback, served plain or adopted with `askback.adopt`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.resolve import Elicit, Resolve
from pydantic import BaseModel, Field

import askback
from askback import ToolOptions


class Palette(BaseModel):
    colour: str = Field(default="blue", description="The base colour")
    shades: int = Field(ge=1, le=5, description="How many shades")


def ask_palette() -> Elicit[Palette]:
    return Elicit("Which palette should the banner use?", Palette)


def build(runs: list[tuple[str, dict[str, Any]]] | None = None) -> MCPServer:
    """The app as its author wrote it; `runs` records every time a tool's body runs, with its values."""
    ran = runs if runs is not None else []
    mcp = MCPServer("adopted-shop")

    @mcp.tool()
    def deploy(
        service: Annotated[str, Field(description="Service to deploy")],
        env: Literal["staging", "production"],
        replicas: Annotated[int, Field(ge=1, le=5)] = 1,
    ) -> str:
        """Deploy a service."""
        ran.append(("deploy", {"service": service, "env": env, "replicas": replicas}))
        return f"Deployed {service} to {env} with {replicas} replicas."

    @mcp.tool()
    def order(item: str, quantity: int) -> str:
        """Order something."""
        ran.append(("order", {"item": item, "quantity": quantity}))
        return f"Ordered {quantity} x {item}."

    @mcp.tool()
    def rotate(service: str, api_key: str) -> str:
        """Rotate a service's key."""
        ran.append(("rotate", {"service": service}))
        return f"Rotated {service}."

    @mcp.tool()
    def login(user: str, password: str) -> str:
        """Sign in (its password is not declared a secret: the guard reads the name)."""
        ran.append(("login", {"user": user}))
        return f"Signed in {user}."

    @mcp.tool()
    def banner(text: str, palette: Annotated[Palette, Resolve(ask_palette)]) -> str:
        """Render a banner in a palette its own resolver asks for."""
        ran.append(("banner", {"text": text, "shades": palette.shades}))
        return f"{text}: {palette.shades} shades of {palette.colour}"

    @mcp.tool()
    def pay(amount: int, from_account: str) -> str:
        """Pay from one of the caller's accounts."""
        ran.append(("pay", {"amount": amount, "from_account": from_account}))
        return f"Paid {amount} from {from_account}."

    @mcp.tool()
    def ship(country: str, city: str) -> str:
        """Ship to a city of a country."""
        ran.append(("ship", {"country": country, "city": city}))
        return f"Shipping to {city}, {country}."

    return mcp


SAVINGS, EVERYDAY = "DE02120300000000202051", "DE89370400440532013000"
CITIES = {"fr": ["Paris", "Lyon"], "lu": ["Luxembourg"]}


def accounts(caller: askback.Caller) -> list[askback.Option]:
    return [askback.Option(EVERYDAY, "Everyday account"), askback.Option(SAVINGS, "Savings account")]


def cities(country: str) -> list[str]:
    return CITIES.get(country, [])


OPTIONS = {
    "order": ToolOptions(confirm="Order {quantity} x {item}?"),
    "rotate": ToolOptions(secret=("api_key",)),
    "pay": ToolOptions(confirm="Pay {amount} from {from_account}?", choices={"from_account": askback.OneOf(accounts)}),
    "ship": ToolOptions(choices={"city": askback.OneOf(cities)}),
}


def adopted(runs: list[tuple[str, dict[str, Any]]] | None = None) -> MCPServer:
    """The same app with the two lines: build it, then adopt it."""
    server = build(runs)
    askback.adopt(server, tools=OPTIONS)
    return server
