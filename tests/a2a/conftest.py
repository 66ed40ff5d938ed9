"""Fixtures for the A2A tests: an askback app served on loopback, reached by its base URL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import askback


@pytest.fixture
def serve_agent(serve: Callable[[Any], str]) -> Callable[[askback.App], str]:
    """Serve an app (MCP and A2A on one port); its base URL, where the agent card is."""

    def start(app: askback.App) -> str:
        return serve(app).removesuffix("/mcp")

    return start
