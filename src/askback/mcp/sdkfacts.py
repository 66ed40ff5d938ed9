"""What the lean 2026-07-28 path takes from the SDK: its request models, result sieve, versions and error table.

Loaded once, off the event loop (`load_facts` runs in a worker thread), so a server can listen before the SDK's
models are imported and a request that needs them waits for them instead of blocking every other request.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio.to_thread


@dataclass(frozen=True)
class SdkFacts:
    """The SDK's own rules, as the lean path applies them."""

    validate_request: Callable[[str, str, Mapping[str, Any] | None], None]  # raises `invalid` on a bad request
    serialize_result: Callable[[str, str, Mapping[str, Any]], dict[str, Any]]  # the SDK's result sieve
    invalid: type[Exception]  # pydantic's ValidationError
    modern_versions: frozenset[str]
    server_info: dict[str, Any]  # the `serverInfo` stamp's value, as the SDK dumps it
    server_info_key: str


def _load(name: str, version: str) -> SdkFacts:
    from mcp_types import SERVER_INFO_META_KEY, Implementation, methods
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS
    from pydantic import ValidationError

    # Build the validators of the three methods now, not on the first request that needs them.
    for method in ("tools/call", "prompts/get", "resources/read"):
        for modern in MODERN_PROTOCOL_VERSIONS:
            methods.CLIENT_REQUESTS[(method, modern)].__pydantic_validator__  # noqa: B018
    info = Implementation(name=name, version=version).model_dump(by_alias=True, mode="json", exclude_none=True)
    return SdkFacts(
        validate_request=methods.validate_client_request,
        serialize_result=methods.serialize_server_result,
        invalid=ValidationError,
        modern_versions=frozenset(MODERN_PROTOCOL_VERSIONS),
        server_info=info,
        server_info_key=SERVER_INFO_META_KEY,
    )


class Facts:
    """The SDK facts for one server identity, loaded on first need (or `preload`) and kept."""

    def __init__(self, name: str, version: str) -> None:
        self._name = name
        self._version = version
        self._facts: SdkFacts | None = None
        self._lock = threading.Lock()

    def loaded(self) -> SdkFacts | None:
        return self._facts

    def load_now(self) -> SdkFacts:
        """Blocking: import and build the facts (in whichever thread calls it), once."""
        with self._lock:
            if self._facts is None:
                self._facts = _load(self._name, self._version)
            return self._facts

    async def get(self) -> SdkFacts:
        facts = self._facts
        if facts is None:
            facts = await anyio.to_thread.run_sync(self.load_now)
        return facts


_STATUS: dict[int, int] | None = None


def error_status(code: int) -> int:
    """The HTTP status the SDK sends with a JSON-RPC error of this code (its own table; 200 when unmapped)."""
    global _STATUS
    if _STATUS is None:
        from mcp.shared.inbound import ERROR_CODE_HTTP_STATUS

        _STATUS = dict(ERROR_CODE_HTTP_STATUS)
    return _STATUS.get(code, 200)
