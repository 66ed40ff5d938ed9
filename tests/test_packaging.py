"""The SDKs are required by compatible ranges, never one exact release, and what is installed lies in them.

An exact pin (`mcp==2.3.0`) made askback uninstallable beside anything needing another 2.x; nothing in askback
depends on one release any more (no snapshot of an SDK's internals). CI runs the SDK-facing tests a second time
on the newest releases these ranges allow (`.ci/run`).
"""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# distribution: (releases the range must allow, releases it must not)
RANGES = {
    "mcp": (["2.3.0", "2.3.1", "2.9.0"], ["2.2.9", "3.0.0"]),
    "a2a-sdk": (["1.3.0", "1.3.5", "1.9.0"], ["1.2.0", "2.0.0"]),
    "pydantic": (["2.10.0", "2.14.4", "2.99.0"], ["3.0.0"]),
    "fastmcp": (["4.0.0", "4.2.3", "4.99.0"], ["3.9.9", "5.0.0"]),
}


def _requirements() -> list[Requirement]:
    listed = [*PROJECT["project"]["dependencies"]]
    for extra in PROJECT["project"]["optional-dependencies"].values():
        listed += extra
    return [Requirement(line) for line in listed]


@pytest.mark.parametrize("name", list(RANGES))
def test_each_sdk_is_required_by_a_compatible_range(name: str) -> None:
    allowed, refused = RANGES[name]
    found = [r for r in _requirements() if r.name == name]
    assert found, f"{name} is not required"
    for requirement in found:
        assert not any(s.operator in ("==", "===") for s in requirement.specifier), str(requirement)
        assert all(requirement.specifier.contains(v) for v in allowed), str(requirement)
        assert not any(requirement.specifier.contains(v) for v in refused), str(requirement)


@pytest.mark.parametrize("name", list(RANGES))
def test_the_installed_release_is_in_the_range(name: str) -> None:
    installed = Version(version(name))
    for requirement in (r for r in _requirements() if r.name == name):
        assert requirement.specifier.contains(installed), f"{name} {installed} is outside {requirement}"


def test_every_package_data_file_exists() -> None:
    package = ROOT / "src" / "askback"
    for pattern in PROJECT["tool"]["setuptools"]["package-data"]["askback"]:
        assert list(package.glob(pattern)), f"package data {pattern} is missing"
