"""Names a package exports but imports on first use (a module `__getattr__`, PEP 562).

A server answers its first request before it has imported what it does not need (the client, the SDK, the
pages, a store backend); each package lists which module holds each such name.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """The `__getattr__` of `package`: a name in `where` is imported from its module once, then kept."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        setattr(sys.modules[package], name, value)  # found directly from now on
        return value

    return __getattr__
