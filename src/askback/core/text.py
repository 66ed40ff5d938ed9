"""Caller-chosen values rendered into question text: visible, inert and bounded.

A value a caller chose can hold escape sequences, carriage returns, bidi overrides or zero-width characters
that would make a confirmation read as something it is not. Each such character is shown as a visible token
(`\\x1b`, `<U+202E>`), lists read as `a, b`, and a long value is cut with a marker, so what a person reads
is exactly what the values are.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from decimal import Decimal
from enum import Enum
from typing import Any

MAX_VALUE_CHARS = 200


def _visible(ch: str) -> str:
    code = ord(ch)
    if code < 0x20 or code == 0x7F:
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch, f"\\x{code:02x}")
    return f"<U+{code:04X}>"


def _needs_escape(ch: str) -> bool:
    # Cc: C0/C1 controls; Cf: format characters (bidi controls, zero-width joiners, BOM, tags);
    # Zl/Zp: line and paragraph separators; Co/Cn: private use and unassigned code points.
    return unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs")


def inert(text: str, limit: int | None = MAX_VALUE_CHARS) -> str:
    """`text` with every control, format or invisible character made visible, cut at `limit` characters."""
    out = "".join(_visible(ch) if _needs_escape(ch) else ch for ch in text)
    if limit is not None and len(out) > limit:
        out = out[: limit - 1] + "…"
    return out


def show(value: Any, limit: int | None = MAX_VALUE_CHARS) -> str:
    """A value as a person should read it inside a sentence."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, Decimal):
        return inert(format(value, "f"), limit)
    if isinstance(value, list | tuple | set | frozenset):
        return inert(", ".join(show(v, None) for v in value), limit)
    if isinstance(value, Mapping):
        return inert(", ".join(f"{show(k, None)}: {show(v, None)}" for k, v in value.items()), limit)
    return inert(str(value), limit)


def one_line(text: object) -> str:
    """Text for a log line: no character can start a new line or hide what follows."""
    return inert(str(text), 300)


class _Shown:
    """A value inside `str.format_map`: format specs still apply, the result is always inert."""

    __slots__ = ("_value",)

    def __init__(self, value: Any) -> None:
        self._value = value

    def __format__(self, spec: str) -> str:
        if not spec:
            return show(self._value)
        try:
            return inert(format(self._value, spec))
        except (TypeError, ValueError):
            return show(self._value)

    def __getattr__(self, name: str) -> _Shown:
        return _Shown(getattr(self._value, name))

    def __getitem__(self, key: Any) -> _Shown:
        return _Shown(self._value[key])


def render(template: str, values: Mapping[str, Any]) -> str:
    """Fill `{name}` parts of an author's template with caller values shown inert; the template stays as written."""
    try:
        return template.format_map({k: _Shown(v) for k, v in values.items()})
    except (KeyError, IndexError, AttributeError, ValueError, TypeError):
        return template
