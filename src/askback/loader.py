"""Find the `App` a command names: `path/file.py[:attr]` or `module:attr` (attr defaults to `app`).

Whatever goes wrong while importing the target (a syntax error, a missing dependency, a tool askback refuses
to register) becomes one `TargetError` line that says where: the command prints it instead of a traceback
through askback's own frames, which tell a user nothing about their file.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback
from pathlib import Path
from types import ModuleType

from askback.app import App


class TargetError(ValueError):
    """The target does not name an askback App, or could not be imported."""


def load_app(target: str) -> App:
    spec, _, attr = target.partition(":")
    attr = attr or "app"
    is_file = spec.endswith(".py") or "/" in spec or Path(spec).is_file()
    module = _load_file(spec) if is_file else _load_module(spec)
    obj = getattr(module, attr, None)
    if isinstance(obj, App):
        return obj
    apps = sorted(name for name, value in vars(module).items() if isinstance(value, App))
    found = f"; its askback.App objects: {', '.join(apps)} (name one as {spec}:NAME)" if apps else ""
    if obj is None:
        raise TargetError(f"{spec} has no {attr!r}{found or '; it defines no askback.App'}")
    raise TargetError(f"{spec}: {attr!r} is not an askback.App (it is a {type(obj).__name__}){found}")


def _load_file(spec: str) -> ModuleType:
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
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(module_name, None)
        raise TargetError(f"cannot load {spec}: {_explain(exc)}") from exc
    return module


def _load_module(spec: str) -> ModuleType:
    try:
        return importlib.import_module(spec)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (spec == exc.name or spec.startswith(exc.name + ".")):
            raise TargetError(f"no module named {spec!r} (a file path needs .py or a /)") from exc
        raise TargetError(f"cannot load module {spec!r}: {_explain(exc)}") from exc
    except Exception as exc:
        raise TargetError(f"cannot load module {spec!r}: {_explain(exc)}") from exc


def _explain(exc: BaseException) -> str:
    """`file:line: Type: message`, at the user's line closest to the error (not askback's or the stdlib's)."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}:{exc.lineno}: {type(exc).__name__}: {exc.msg}"
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if not _is_library(frame.filename):
            where = f"{frame.filename}:{frame.lineno}: "
            break
    message = " ".join(str(exc).split())  # one line, whatever the exception's text
    return f"{where}{type(exc).__name__}: {message}" if message else f"{where}{type(exc).__name__}"


_LIBRARY_PARTS = (str(Path(__file__).resolve().parent), "<frozen ", "/importlib/", "site-packages")


def _is_library(filename: str) -> bool:
    return any(part in filename for part in _LIBRARY_PARTS)
