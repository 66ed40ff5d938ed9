"""Caller-chosen values rendered into question text: visible, inert and whole.

A value a caller chose can hold escape sequences, carriage returns, bidi overrides, zero-width characters or
fillers that render as nothing (U+3164) that would make a confirmation read as something it is not. Each such
character is shown as a visible token (`\\x1b`, `<U+202E>`, `<U+3164>`; which characters, `askback.invisible`
decides, for the client too) and lists read as `a, b`.

What a person approves or reads on a page shows every value whole (`whole=True`): a confirmation, an approval
page, a secret page's reason; a value too long to read whole is refused before it is asked
(`askback.core.confirming`). Inside an ordinary question's text, which a person answers rather than approves, a
value is cut at `QUESTION_VALUE_CHARS` with a visible "…", as it always was: the secret guard reads that text
as sent, and a whole document quoted into a question would read as asking for whatever words it holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from enum import Enum
from typing import Any

from askback.invisible import has_hidden, is_hidden

LOG_LINE_CHARS = 300  # a log line is bounded; nothing a person approves is ever cut
QUESTION_VALUE_CHARS = 200  # a value inside an ordinary question's text (never a confirmation's or a page's)
Titles = Mapping[str, Mapping[str, str]]  # parameter -> str(option value) -> the option's title


def _visible(ch: str) -> str:
    code = ord(ch)
    if code < 0x20 or code == 0x7F:
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch, f"\\x{code:02x}")
    return f"<U+{code:04X}>"


def inert(text: str, limit: int | None = None) -> str:
    """`text` with every control, format or invisible character made visible; cut at `limit` (logs only)."""
    out = "".join(_visible(ch) if is_hidden(ch) else ch for ch in text) if has_hidden(text) else text
    if limit is not None and len(out) > limit:
        out = out[: limit - 1] + "…"
    return out


def show(value: Any, limit: int | None = None) -> str:
    """A value as a person should read it inside a sentence: whole, or cut at `limit` with a visible "…"."""
    return _cut(_show(value), limit)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, Decimal):
        return inert(format(value, "f"))
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(_show(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{_show(k)}: {_show(v)}" for k, v in value.items())
    return inert(str(value))


def _cut(text: str, limit: int | None) -> str:
    return text[: limit - 1] + "…" if limit is not None and len(text) > limit else text


def show_chosen(value: Any, titles: Mapping[str, str] | None, limit: int | None = None) -> str:
    """A chosen value with the title the person chose it by, `Everyday account [DE89…3000]`: the value stays
    visible (it is what runs), the title only says which option it is. Several read `A [a], B [b]`."""
    if not titles:
        return show(value, limit)
    if isinstance(value, list | tuple | set | frozenset):
        return _cut(", ".join(show_chosen(v, titles) for v in value), limit)
    raw = show(value)
    title = titles.get(str(value))  # keyed like `ChoiceParam.check` matches an answer to its option
    return _cut(f"{inert(title)} [{raw}]" if title and inert(title) != raw else raw, limit)


def one_line(text: object) -> str:
    """Text for a log line: no character can start a new line or hide what follows, and it is bounded."""
    return inert(str(text), LOG_LINE_CHARS)


class _Shown:
    """A value inside `str.format_map`: format specs still apply, the result is always inert."""

    __slots__ = ("_limit", "_titles", "_value")

    def __init__(self, value: Any, titles: Mapping[str, str] | None, limit: int | None) -> None:
        self._value = value
        self._titles = titles
        self._limit = limit

    def __format__(self, spec: str) -> str:
        if not spec:
            return show_chosen(self._value, self._titles, self._limit)
        try:
            formatted = inert(format(self._value, spec))
        except (TypeError, ValueError):
            return show_chosen(self._value, self._titles, self._limit)
        title = self._titles.get(str(self._value)) if self._titles else None
        return _cut(f"{inert(title)} [{formatted}]" if title and inert(title) != formatted else formatted, self._limit)

    def __getattr__(self, name: str) -> _Shown:
        return _Shown(getattr(self._value, name), None, self._limit)

    def __getitem__(self, key: Any) -> _Shown:
        return _Shown(self._value[key], None, self._limit)


def render(template: str, values: Mapping[str, Any], titles: Titles | None = None, *, whole: bool = False) -> str:
    """Fill `{name}` parts of an author's template with caller values shown inert (a choice with its option's
    title, from `titles`); the template stays as written. Each value is whole for what a person approves or
    reads on a page (`whole=True`), else cut at `QUESTION_VALUE_CHARS`."""
    titles = titles or {}
    limit = None if whole else QUESTION_VALUE_CHARS
    try:
        return template.format_map({k: _Shown(v, titles.get(k), limit) for k, v in values.items()})
    except (KeyError, IndexError, AttributeError, ValueError, TypeError):
        return template
