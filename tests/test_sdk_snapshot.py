"""The snapshot of the SDK's 2026-07-28 request models is the installed SDK's, and validates exactly as it does.

And the few SDK facts the lean path spells itself, so that it can answer before the SDK is imported, are the
SDK's own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from mcp_types import PARSE_ERROR, Implementation, methods
from pydantic import ValidationError

from askback.a2a.paths import AGENT_CARD_PATH
from askback.core.errors import PARSE_ERROR as ASKBACK_PARSE_ERROR
from askback.mcp import sdkschema
from askback.mcp.http import MAX_BODY
from askback.mcp.sdkfacts import Facts, _server_info
from tests.e2e.test_fast_path_differential import CORPUS, Req, requests

V = "2026-07-28"


def test_the_snapshot_is_the_installed_sdks() -> None:
    """Fails after an SDK or pydantic update until `python -m askback.mcp.sdkschema` is run again."""
    assert sdkschema.SNAPSHOT.read_text(encoding="utf-8") == sdkschema.rendered()
    assert sdkschema.load() is not None


def test_a_snapshot_of_another_sdk_is_not_used(tmp_path: Path) -> None:
    stale = json.loads(sdkschema.SNAPSHOT.read_text())
    stale["fingerprint"] = "0" * 64
    path = tmp_path / "sdkschema.json"
    path.write_text(json.dumps(stale))
    assert sdkschema.load(path) is None
    assert sdkschema.load(tmp_path / "missing.json") is None


def _verdict(validate: Any, method: str, version: str, params: Any) -> Any:
    try:
        validate(method, version, params)
    except ValidationError as exc:
        return exc.errors(include_url=False)
    return "valid"


MODELS = sdkschema.load(exact=True)  # the model schemas as the SDK has them: the same errors, word for word
VERDICTS = sdkschema.load()  # what the lean path runs: each model as its fields alone, the verdict only


def _same(params: Any, method: str = "tools/call") -> None:
    assert MODELS is not None and VERDICTS is not None
    sdk = _verdict(methods.validate_client_request, method, V, params)
    assert _verdict(MODELS.validate, method, V, params) == sdk
    lean = _verdict(VERDICTS.validate, method, V, params)
    assert (lean == "valid") == (sdk == "valid"), (params, sdk, lean)


def test_the_lean_paths_validators_build_no_objects() -> None:
    """Each model became its fields: a valid request is validated to plain data, no stand-in class is built."""
    assert VERDICTS is not None and MODELS is not None
    body = {"jsonrpc": "2.0", "id": 0, "method": "tools/call", "params": {
        "name": "t", "_meta": {"io.modelcontextprotocol/protocolVersion": V,
                               "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
                               "io.modelcontextprotocol/clientCapabilities": {}}}}
    key = ("tools/call", V)
    assert isinstance(MODELS.validators[key].validate_python(body), sdkschema._Validated)
    assert not isinstance(VERDICTS.validators[key].validate_python(body), sdkschema._Validated)


def _params_of(req: Req) -> tuple[str, Any] | None:
    body = req.body
    if not isinstance(body, dict) or body.get("method") not in sdkschema.METHODS:
        return None
    return body["method"], body.get("params")


def test_the_differential_corpus_is_judged_the_same() -> None:
    judged = 0
    for case in CORPUS:  # each case's first request (later ones are built from the answers before them)
        found = _params_of(case.steps[0]([]))
        if found is not None:
            _same(found[1], found[0])
            judged += 1
    assert judged >= 30


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(req=requests())
def test_generated_requests_are_judged_the_same(req: Req) -> None:
    found = _params_of(req)
    if found is not None:
        _same(found[1], found[0])


@pytest.mark.parametrize("name, version", [("diff", "0.1.0"), ("ünïcode ✓", ""), ("a" * 300, "2026.12.01+x")])
def test_the_server_info_stamp_is_the_sdks(name: str, version: str) -> None:
    assert _server_info(name, version) == Implementation(name=name, version=version).model_dump(
        by_alias=True, mode="json", exclude_none=True)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_facts_come_from_the_snapshot_unless_told_otherwise() -> None:
    from_snapshot = await Facts("x", "1").get()
    from_sdk = await Facts("x", "1", snapshot=False).get()
    assert isinstance(getattr(from_snapshot.validate_request, "__self__", None), sdkschema.RequestModels)
    assert from_sdk.validate_request is methods.validate_client_request
    for field in ("modern_versions", "server_info", "server_info_key"):
        assert getattr(from_snapshot, field) == getattr(from_sdk, field)


def test_constants_spelled_without_the_sdks_are_theirs() -> None:
    from a2a.utils.constants import AGENT_CARD_WELL_KNOWN_PATH

    assert MAX_BODY == DEFAULT_MAX_REQUEST_BODY_SIZE
    assert AGENT_CARD_PATH == AGENT_CARD_WELL_KNOWN_PATH
    assert ASKBACK_PARSE_ERROR == PARSE_ERROR
