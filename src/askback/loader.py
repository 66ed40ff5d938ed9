"""Find the `App` a command names: `path/file.py[:attr]` or `module:attr` (attr defaults to `app`)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

from askback.app import App


class TargetError(ValueError):
    """The target does not name an askback App."""


def load_app(target: str) -> App:
    spec, _, attr = target.partition(":")
    attr = attr or "app"
    if spec.endswith(".py") or "/" in spec or Path(spec).is_file():
        path = Path(spec).resolve()
        if not path.is_file():
            raise TargetError(f"no such file: {spec}")
        module_name = f"_askback_target_{path.stem}"
        module_spec = importlib.util.spec_from_file_location(module_name, path)
        if module_spec is None or module_spec.loader is None:
            raise TargetError(f"cannot import {spec}")
        module = importlib.util.module_from_spec(module_spec)
        sys.path.insert(0, str(path.parent))
        sys.modules[module_name] = module
        module_spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(spec)
        except ImportError as exc:
            raise TargetError(f"cannot import module {spec!r}: {exc}") from exc
    obj = getattr(module, attr, None)
    if not isinstance(obj, App):
        raise TargetError(f"{target}: {attr!r} is not an askback.App (found {type(obj).__name__})")
    return obj
