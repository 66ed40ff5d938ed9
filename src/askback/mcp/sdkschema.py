"""The SDK's 2026-07-28 request models as data, so the lean path can validate before the SDK is imported.

Importing `mcp_types` builds every protocol era's pydantic models, which is most of what a server's first answer
would wait for. What the lean path needs of them is one validation per request, and pydantic-core describes
exactly what a model accepts as a core schema: plain data, apart from the model classes it names. `snapshot()`
takes the SDK's own core schemas of the request models of `tools/call`, `prompts/get` and `resources/read`,
with the SDK's list of 2026-era versions and its `serverInfo` key, and `sdkschema.json` keeps them with the
fingerprint of what produced them: the SDK's model source and the pydantic that builds it. `load()` turns the
snapshot into pydantic-core validators in milliseconds, and only when the installed SDK and pydantic match that
fingerprint byte for byte; otherwise it returns None and the lean path waits for the SDK's models themselves.

A model class only decides what object a valid input becomes; the lean path keeps nothing of the validated
object, so a neutral class of the same name (errors name it) stands in for each. The rest of each schema
(fields, aliases, defaults, extra-field rules, unions, literals, config) is the SDK's, unchanged. The SDK stays
the source of truth: the snapshot is regenerated from it (`python -m askback.mcp.sdkschema`), a test fails
while it is out of date, and the differential tests prove the lean path answers like the SDK path with it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

SNAPSHOT = Path(__file__).with_name("sdkschema.json")
METHODS = ("tools/call", "prompts/get", "resources/read")
_CLASS = "<model class>:"  # where a schema named one of the SDK's model classes, followed by its name
# The SDK sources whose text decides the snapshot: the 2026-07-28 models and the method map that picks them.
_SOURCES = ("_v2026_07_28/__init__.py", "methods.py")


@dataclass(frozen=True)
class RequestModels:
    """The snapshot, ready: a validator per (method, version), the SDK's versions and `serverInfo` key."""

    validators: Mapping[tuple[str, str], Any]  # pydantic_core.SchemaValidator
    modern_versions: frozenset[str]
    server_info_key: str

    def validate(self, method: str, version: str, params: Mapping[str, Any] | None) -> None:
        """What `mcp_types.methods.validate_client_request` does for these models: raises `ValidationError`."""
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": 0, "method": method}  # the SDK's request stub
        if params is not None:
            body["params"] = params
        self.validators[(method, version)].validate_python(body, by_name=False)


class _Validated:
    """Stands in for an SDK model class: what a valid request becomes here is never used."""


def fingerprint() -> str | None:
    """sha256 of the installed SDK's model sources and of pydantic's versions; None if `mcp_types` is missing."""
    spec = find_spec("mcp_types")  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    import pydantic.version
    import pydantic_core

    root = Path(next(iter(spec.submodule_search_locations)))
    digest = hashlib.sha256()
    for source in _SOURCES:
        try:
            digest.update((root / source).read_bytes())
        except OSError:
            return None
    digest.update(f"pydantic {pydantic.version.VERSION} core {pydantic_core.__version__}".encode())
    return digest.hexdigest()


def load(path: Path = SNAPSHOT, *, exact: bool = False) -> RequestModels | None:
    """Validators from the snapshot, or None when it was not taken from the SDK and pydantic installed here.

    The lean path needs only the verdict, so by default each model is validated as its fields alone, without
    building the object (a third cheaper per request: 9 against 15 µs for a retry). `exact=True` keeps the
    model schemas as the SDK has them, stand-in classes and all, for tests comparing errors with the SDK's.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("fingerprint") != fingerprint():
        return None
    from pydantic_core import CoreConfig, SchemaValidator

    validators = {}
    for entry in data["models"]:
        fields = None if exact else _fields_only(entry["schema"])
        if fields is None:
            validator = SchemaValidator(_with_classes(entry["schema"]))
        else:
            validator = SchemaValidator(fields, CoreConfig(validate_by_alias=True, validate_by_name=True))
        validators[(entry["method"], entry["version"])] = validator
    return RequestModels(validators, frozenset(data["modern_versions"]), data["server_info_key"])


# Every model of the SDK's request surface is configured so (with its own title and extra-field rule); a model
# configured otherwise keeps its model schema. `load` gives the fields' validator the same config.
_MODEL_CONFIG = {"validate_by_alias": True, "validate_by_name": True}


def _fields_only(schema: Any) -> Any:
    """`schema` with each model replaced by its fields (same fields, aliases, extra-field rule and config):
    the same inputs are valid, and none becomes an object. None when a model has anything more (a root
    model, a custom `__init__`, a post-init hook or another config), which only the model schema keeps."""
    if isinstance(schema, list):
        items = [_fields_only(item) for item in schema]
        return None if any(item is None and original is not None for item, original in zip(items, schema,
                                                                                             strict=True)) else items
    if not isinstance(schema, dict):
        return schema
    if schema.get("type") == "model":
        config = dict(schema.get("config", {}))
        extra = config.pop("extra_fields_behavior", None)
        config.pop("title", None)
        inner = schema.get("schema", {})
        if (config != _MODEL_CONFIG or schema.get("root_model") or schema.get("custom_init")
                or schema.get("post_init") or inner.get("type") != "model-fields"):
            return None
        fields = {**inner}
        if extra is not None and "extra_behavior" not in fields:
            fields["extra_behavior"] = extra
        if "ref" in schema:
            fields["ref"] = schema["ref"]
        schema = fields
    out: dict[str, Any] = {}
    for key, value in schema.items():
        converted = _fields_only(value)
        if converted is None and value is not None:
            return None
        out[key] = converted
    return out


def snapshot() -> dict[str, Any]:
    """The snapshot of the installed SDK (imports it): what `sdkschema.json` must hold."""
    from mcp_types import SERVER_INFO_META_KEY, methods
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    models = [
        {"method": method, "version": version,
         "schema": _as_data(methods.CLIENT_REQUESTS[(method, version)].__pydantic_core_schema__, {})}
        for method in METHODS
        for version in sorted(MODERN_PROTOCOL_VERSIONS)
    ]
    return {"fingerprint": fingerprint(), "modern_versions": sorted(MODERN_PROTOCOL_VERSIONS),
            "server_info_key": SERVER_INFO_META_KEY, "models": models}


_REFS = ("ref", "schema_ref")  # where a schema names a definition; pydantic's names end in the type's id()


def _as_data(schema: Any, refs: dict[str, str]) -> Any:
    """A core schema as JSON data: model classes named by a placeholder, pydantic's JSON-schema hooks dropped,
    definitions renamed in order of appearance (pydantic names them after object ids, which differ per run)."""
    if isinstance(schema, Mapping):
        data: dict[str, Any] = {}
        for key, value in schema.items():
            if key == "metadata":
                continue
            if key == "cls":
                data[key] = _CLASS + value.__name__
            elif key in _REFS and isinstance(value, str):
                data[key] = refs.setdefault(value, f"{value.rpartition(':')[0] or value}#{len(refs)}")
            else:
                data[key] = _as_data(value, refs)
        return data
    if isinstance(schema, list | tuple):
        return [_as_data(item, refs) for item in schema]
    if schema is None or isinstance(schema, str | int | float | bool):
        return schema
    raise TypeError(f"the SDK's schema holds a {type(schema).__name__}, which a snapshot cannot keep")


def _with_classes(schema: Any, classes: dict[str, type] | None = None) -> Any:
    classes = {} if classes is None else classes
    if isinstance(schema, dict):
        return {key: _stand_in(value, classes) if key == "cls" else _with_classes(value, classes)
                for key, value in schema.items()}
    if isinstance(schema, list):
        return [_with_classes(item, classes) for item in schema]
    return schema


def _stand_in(marker: str, classes: dict[str, type]) -> type:
    name = marker.removeprefix(_CLASS)
    cls = classes.get(name)
    if cls is None:
        cls = classes[name] = type(name, (_Validated,), {"__module__": __name__})
    return cls


def rendered() -> str:
    """The text of `sdkschema.json` for the installed SDK. Keys are not sorted: a schema's key order is its
    fields' order, which decides the order of validation errors."""
    return json.dumps(snapshot(), separators=(",", ":")) + "\n"


def _write(path: Path = SNAPSHOT, out: Callable[[str], object] = sys.stdout.write) -> None:
    path.write_text(rendered(), encoding="utf-8")
    out(f"wrote {path}\n")


if __name__ == "__main__":
    _write()
