"""Which characters a person cannot see as themselves: one rule for the server's inert text and the client's.

Both sides show such a character as a visible stand-in instead of writing it raw (the server in confirmations
and on pages, `askback.core.text`; the terminal client in what a server sent, `askback.client.inert`). Hidden
are:

- the general categories Cc (controls), Cf (format characters: bidi controls, zero-width characters, tags),
  Cs (lone surrogates), Co (private use), Cn (unassigned), Zl and Zp (line and paragraph separators);
- the rest of Unicode's Default_Ignorable_Code_Point property, which renders as nothing: fillers that are letters
  (U+3164 HANGUL FILLER, U+115F, U+1160, U+FFA0), the combining grapheme joiner U+034F, Khmer inherent vowels
  U+17B4..U+17B5, the Mongolian free variation selectors, the variation selectors U+FE00..U+FE0F and
  U+E0100..U+E01EF, and the code points reserved as default-ignorable (U+2065, U+FFF0..U+FFF8, U+E0000..U+E0FFF).

Importing this module loads nothing but the standard library, so the client may use it.
"""

from __future__ import annotations

import re
import unicodedata

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

# Default_Ignorable_Code_Point minus the Cf characters (which the categories above already hide), as listed in
# Unicode's DerivedCoreProperties.txt (Unicode 14.0, the version of Python 3.11's `unicodedata`): the property is
# Other_Default_Ignorable_Code_Point + Cf + Variation_Selector, less White_Space and a few visible format
# characters. `unicodedata` exposes neither Other_Default_Ignorable_Code_Point nor Variation_Selector, so they are
# written out here; tests/core/test_text_inert.py compares this table with the property as Perl's Unicode tables
# derive it, for every code point.
IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER (Mn)
    (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER (Lo)
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ, AA (Mn)
    (0x180B, 0x180D),  # MONGOLIAN FREE VARIATION SELECTOR ONE..THREE (Mn)
    (0x180F, 0x180F),  # MONGOLIAN FREE VARIATION SELECTOR FOUR (Mn)
    (0x2065, 0x2065),  # reserved, default ignorable (Cn)
    (0x3164, 0x3164),  # HANGUL FILLER (Lo)
    (0xFE00, 0xFE0F),  # VARIATION SELECTOR-1..16 (Mn)
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER (Lo)
    (0xFFF0, 0xFFF8),  # reserved, default ignorable (Cn)
    (0xE0000, 0xE0FFF),  # tags block and beyond: reserved (Cn), tags (Cf), VARIATION SELECTOR-17..256 (Mn)
)

_IGNORABLE = re.compile("[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in IGNORABLE_RANGES) + "]")


def is_hidden(char: str) -> bool:
    """Whether `char` (one character) is not seen as itself: it must be shown as a stand-in."""
    return unicodedata.category(char) in HIDDEN_CATEGORIES or _IGNORABLE.match(char) is not None


def has_hidden(text: str) -> bool:
    """Whether any character of `text` is hidden (controls, a tab and a line feed included)."""
    if text.isprintable():  # the common case: only the ignorable letters and marks can hide in printable text
        return _IGNORABLE.search(text) is not None
    return any(is_hidden(char) for char in text)
