"""Text a server sent, made visible and inert before it reaches a terminal.

A server chooses every string the terminal client shows: its name, questions, field titles, choices, URLs,
results and error messages. Written raw, an escape sequence can erase or rewrite a line (`\\x1b[2K\\r`), a
carriage return can overwrite the start of one, a bidi override can reverse what the person reads, and
zero-width characters can hide text. A person who confirms must read exactly what is there, so:

- ESC and the other C0 controls are shown as their Unicode control pictures (`␛`, `␍`, `␀` …), DEL as `␡`;
  a line feed stays a line break in text that may span lines and becomes `␤` in one-line fields; a tab stays
  in multi-line text and becomes `␉` in one-line fields;
- C1 controls, bidi embeddings, overrides and isolates, zero-width and other invisible format characters,
  line and paragraph separators, lone surrogates, private-use and unassigned code points, and the rest of
  Unicode's default-ignorable characters (the Hangul fillers such as U+3164, variation selectors, U+034F) are
  shown as `<U+XXXX>`: the same rule as the server's (`askback.invisible`), so `Alice` and `Alice<U+3164>` differ.

Nothing else changes, so ordinary text in any script reads as sent.
"""

from __future__ import annotations

import json
from typing import Any

from askback.invisible import has_hidden, is_hidden

_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)} | {0x7F: "\u2421"}
_ONE_LINE_EXTRA = {"\n": "\u2424", "\t": "\u2409"}


def shown(value: object, *, one_line: bool = False) -> str:
    """`value` (made a string) with every control and invisible character replaced by a visible stand-in."""
    text = value if isinstance(value, str) else str(value)
    if not has_hidden(text):  # the common case: nothing to replace
        return text
    out: list[str] = []
    if not one_line:
        text = text.replace("\r\n", "\n")
    for char in text:
        code = ord(char)
        if char in "\n\t":
            out.append(_ONE_LINE_EXTRA[char] if one_line else char)
        elif code in _PICTURES:
            out.append(_PICTURES[code])
        elif is_hidden(char):
            out.append(f"<U+{code:04X}>")
        else:
            out.append(char)
    return "".join(out)


def one_line(text: object) -> str:
    """`shown(text, one_line=True)`: for names, titles, choices, values and URLs."""
    return shown(text, one_line=True)


def shown_json(value: Any, *, indent: int | None = 2) -> str:
    """JSON for a terminal: readable Unicode, but every control and invisible character as a `\\uXXXX` escape.

    JSON already escapes C0 controls; this also escapes DEL, C1 controls and the invisible format characters,
    so the output stays valid JSON with the same meaning and cannot act on the terminal that shows it.
    """
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    if not has_hidden(text.replace("\n", "")):
        return text
    return "".join(char if char == "\n" or not is_hidden(char) else _escape(char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
