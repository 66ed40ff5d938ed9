"""The params of the requests askback's SDK servers handle (its own `askback.mcp.server`, the gateway), as the
SDK's request handlers validate them: only what the handler reads; anything else is the SDK's to check."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class ToolCall(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str
    arguments: dict[str, Any] | None = None


class PromptGet(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str
    arguments: dict[str, str] | None = None


class ResourceRead(BaseModel):
    model_config = ConfigDict(extra="ignore")
    uri: str
