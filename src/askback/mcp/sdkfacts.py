"""What the lean 2026-07-28 path takes from the SDK: its request models, result sieve, versions and error table.

The request models come from the snapshot of the SDK's own (`askback.mcp.sdkschema`) when it matches the SDK
installed here, so the first request is validated without importing the SDK; otherwise they are the SDK's
models, loaded once, off the event loop (`load_now` runs in a worker thread), and a request that needs them waits
for them instead of blocking every other request. The result sieve and the error table are the SDK's, loaded
off the event loop on first need (a rare author-shaped result, the first error).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio.to_thread

from askback.web.ondemand import SDK_IMPORTS

logger = logging.getLogger("askback.mcp.fast")


@dataclass(frozen=True)
class SdkFacts:
    """The SDK's own rules, as the lean path applies them."""

    validate_request: Callable[[str, str, Mapping[str, Any] | None], None]  # raises `invalid` on a bad request
    invalid: type[Exception]  # pydantic's ValidationError
    modern_versions: frozenset[str]
    server_info: dict[str, Any]  # the `serverInfo` stamp's value, as the SDK dumps it
    server_info_key: str


def _server_info(name: str, version: str) -> dict[str, Any]:
    """The SDK's dump of `Implementation(name=..., version=...)` (a test pins the two equal)."""
    return {"name": name, "version": version}


def _from_snapshot(name: str, version: str) -> SdkFacts | None:
    from pydantic_core import ValidationError

    from askback.mcp import sdkschema

    models = sdkschema.load()
    if models is None:
        return None
    return SdkFacts(
        validate_request=models.validate,
        invalid=ValidationError,
        modern_versions=models.modern_versions,
        server_info=_server_info(name, version),
        server_info_key=models.server_info_key,
    )


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
        invalid=ValidationError,
        modern_versions=frozenset(MODERN_PROTOCOL_VERSIONS),
        server_info=info,
        server_info_key=SERVER_INFO_META_KEY,
    )


class Facts:
    """The SDK facts for one server identity, loaded on first need and kept.

    `snapshot=False` always uses the SDK's own models (to compare the two, or when debugging).
    """

    def __init__(self, name: str, version: str, *, snapshot: bool = True) -> None:
        self._name = name
        self._version = version
        self._snapshot = snapshot
        self._facts: SdkFacts | None = None
        self._failure: Exception | None = None
        self._statuses: Mapping[int, int] | None = None
        self._sieve: Callable[[str, str, Mapping[str, Any]], dict[str, Any]] | None = None

    def loaded(self) -> SdkFacts | None:
        return self._facts

    def load_now(self) -> SdkFacts:
        """Blocking: import and build the facts (in whichever thread calls it), once; a failure is logged once."""
        with SDK_IMPORTS:
            if self._facts is None and self._failure is None:
                try:
                    early = _from_snapshot(self._name, self._version) if self._snapshot else None
                    self._facts = early or _load(self._name, self._version)
                except Exception as exc:
                    logger.error("the SDK's 2026-07-28 models could not be loaded: %s", exc, exc_info=True)
                    self._failure = exc
            if self._failure is not None:
                raise self._failure
            assert self._facts is not None
            return self._facts

    async def get(self) -> SdkFacts:
        facts = self._facts
        if facts is None:
            facts = await anyio.to_thread.run_sync(self.load_now)
        return facts

    def preload(self) -> None:
        """Blocking but quick when the snapshot matches (milliseconds): for the lifespan, before the port answers."""
        if self._snapshot and self._facts is None:
            self._facts = _from_snapshot(self._name, self._version)

    async def serialize_result(self, method: str, version: str, result: Mapping[str, Any]) -> dict[str, Any]:
        """The SDK's result sieve (`mcp_types.methods.serialize_server_result`), loaded off the event loop once."""
        sieve = self._sieve
        if sieve is None:
            sieve = self._sieve = await anyio.to_thread.run_sync(_result_sieve)
        return sieve(method, version, result)

    async def error_status(self, code: int) -> int:
        """The HTTP status the SDK sends with a JSON-RPC error of this code (its own table; 200 when unmapped).

        The table lives in the SDK's server stack: the first error loads it off the event loop.
        """
        statuses = self._statuses
        if statuses is None:
            statuses = self._statuses = await anyio.to_thread.run_sync(_error_statuses)
        return statuses.get(code, 200)


def _result_sieve() -> Callable[[str, str, Mapping[str, Any]], dict[str, Any]]:
    with SDK_IMPORTS:
        from mcp_types import methods

    return methods.serialize_server_result


def _error_statuses() -> Mapping[int, int]:
    with SDK_IMPORTS:
        from mcp.shared.inbound import ERROR_CODE_HTTP_STATUS

    return dict(ERROR_CODE_HTTP_STATUS)
