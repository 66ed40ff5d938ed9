"""The official SDK's `MCPServer` comparator: `Resolve`rs returning `Elicit`, sealed with `RequestStateSecurity`.

Kept at module level and without `from __future__ import annotations`: `MCPServer` evaluates the tools'
annotations (the `Resolve` markers and the models) in this module's globals.
"""

from typing import Annotated, Any

from mcp.server.mcpserver import Elicit, MCPServer, RequestStateSecurity, Resolve
from pydantic import BaseModel, Field


class City(BaseModel):
    city: str = Field(description="City to greet from")


class UserName(BaseModel):
    user_name: str


class Nickname(BaseModel):
    nickname: str


async def ask_city() -> City | Elicit[City]:
    return Elicit("Which city?", City)


async def ask_user_name() -> UserName | Elicit[UserName]:
    return Elicit("Your user name?", UserName)


async def ask_nickname(user: Annotated[UserName, Resolve(ask_user_name)]) -> Nickname | Elicit[Nickname]:
    return Elicit(f"A nickname for {user.user_name}?", Nickname)


async def greet(name: str, city: Annotated[City, Resolve(ask_city)]) -> str:
    """Greet someone from a city."""
    return f"Hello {name} from {city.city}"


async def signup(
    user: Annotated[UserName, Resolve(ask_user_name)], nick: Annotated[Nickname, Resolve(ask_nickname)]
) -> str:
    """Sign up: two questions, the second after the first."""
    return f"{user.user_name} ({nick.nickname})"


def build(name: str, key: bytes) -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer(
        name, log_level="WARNING", request_state_security=RequestStateSecurity(keys=[key])
    )
    server.tool()(greet)
    server.tool()(signup)
    return server


def http_app(name: str, key: bytes, *, sessions: bool = False) -> Any:
    """Stateless JSON for 2026-07-28; with `sessions`, what a 2025-11-25 client needs for `ctx`'s back-channel:
    a session per client and an SSE stream per request, on which the question is sent."""
    if sessions:
        return build(name, key).streamable_http_app(json_response=False, stateless_http=False)
    return build(name, key).streamable_http_app(json_response=True, stateless_http=True)
