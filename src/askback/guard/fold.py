"""Reading a text the way a person sees it: every reading the name guard matches its phrases against.

Invisible characters (zero-width, bidi controls) are dropped, NFKC folds fullwidth and styled letters, digits
standing for letters are read as letters (`passw0rd`), look-alike letters from other scripts are folded to the Latin
letters they imitate (Unicode TS #39 confusables, via `disarm`), identifiers are split into words (camelCase,
snake_case, kebab-case, SCREAMING_SNAKE, letters and digits), case and accents are folded. Arabic tatweel and
harakat, Hebrew niqqud and Persian/Urdu letter forms are folded; a zero-width character inside a word of those
scripts is read both as nothing and as a space. HTML references and percent-escapes are decoded first.

Neutral: the standard library and `disarm` only, so the client can read a foreign server's forms with it.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Iterable
from typing import Any, cast

# Persian and Urdu letters read as their Arabic counterparts, so one spelling of a word matches all three.
ARABIC_FOLD = str.maketrans({"ک": "ك", "ی": "ي", "ى": "ي", "ہ": "ه", "ۃ": "ة", "ۀ": "ه", "ٹ": "ت", "ڈ": "د", "ڑ": "ر",
                             "أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ؤ": "و", "ئ": "ي"})


def table_form(rx: str) -> str:
    """A table's line as texts are read: NFKC, Persian and Urdu letters as the Arabic ones. The tables are written
    so (a test holds every line to it), and read as written: folding them at every import would cost more."""
    if rx.isascii():
        return rx
    if re.search("[\u0600-\u06ff]", rx):
        rx = rx.translate(ARABIC_FOLD)
    return rx if unicodedata.is_normalized("NFKC", rx) else unicodedata.normalize("NFKC", rx)


class _LazyPattern:
    """A pattern compiled the first time it is used (then its methods are looked up once): for the patterns most
    checks never reach, those for texts beyond ASCII and those that weigh a found phrase's neighbours."""

    def __init__(self, source: str) -> None:
        self._source = source

    def __getattr__(self, name: str) -> Any:  # only for what is not an attribute yet
        compiled = re.compile(self._source)
        for method in ("search", "sub", "finditer", "fullmatch", "match", "findall"):
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def lazy(source: str) -> re.Pattern[str]:
    return cast("re.Pattern[str]", _LazyPattern(source))


# --------------------------------------------------------------------------------------------------------------
# Reading a text: invisible characters, look-alikes, digits for letters, words.

# Default-ignorable characters a person cannot see but that split a word for a matcher: zero-width space and
# joiners, bidi embeddings, overrides and isolates, soft hyphen, word joiner, invisible operators, BOM, the
# Mongolian vowel separator, combining grapheme joiner, Hangul fillers and variation selectors.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e0fff]"
)
# Characters that stand for letters inside a word: p4ssw0rd, pa$$word, s3cr3t, t0k3n.
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s",
                       "!": "i", "|": "l"})
_LEET_WORD = lazy(r"(?<![A-Za-z0-9@$!|])(?=[A-Za-z0-9@$!|]{3})(?=[A-Za-z0-9@$!|]*[A-Za-z])"
                        r"(?=[A-Za-z]*[0134578@$!|])"
                        r"[A-Za-z0-9@$!|]*[A-Za-z0-9@$|]")  # a final "!" is punctuation: "recipe!"
# Letters with no decomposition that a person reads as their base letter.
_BASE_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ŀ": "l", "æ": "ae", "œ": "oe",
                               "þ": "th", "ð": "d", "ς": "σ", "ё": "е"})


def _strip_marks(text: str) -> str:
    """Drop accents on Latin and Greek letters (Cyrillic keeps й and ї, kana and Devanagari keep theirs)."""
    out: list[str] = []
    for char in unicodedata.normalize("NFD", text):
        if out and unicodedata.category(char) == "Mn" and out[-1] < "\u0400":
            continue
        out.append(char)
    return unicodedata.normalize("NFC", "".join(out))


def _is_latinish(char: str) -> bool:
    """Latin, Greek and Cyrillic letters: scripts whose words are separated by spaces and can be cased."""
    return char < "\u0530" or "\u1d00" <= char < "\u2000"


_ASCII_BOUNDARY = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")
_ASCII_SEPARATORS = re.compile(r"[^A-Za-z0-9]+")


def words_of(text: str) -> str:
    """`text` as space-separated, case- and accent-folded words: `XApiKey` -> "x api key", `db_pass2` -> "db pass 2"."""
    if text.isascii():  # the common case, without a loop in Python
        spaced = _ASCII_SEPARATORS.sub(" ", _ASCII_BOUNDARY.sub(" ", text))
        return " ".join(spaced.lower().split())
    out: list[str] = []
    prev = ""
    for i, char in enumerate(text):
        if not (char.isalnum() or unicodedata.category(char) in ("Mn", "Mc")):
            out.append(" ")
            prev = ""
            continue
        if prev:
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if (
                (prev.islower() and char.isupper())
                or (prev.isupper() and char.isupper() and nxt.islower())
                or (prev.isdigit() != char.isdigit())
                or (char.isalpha() and prev.isalpha() and _is_latinish(prev) != _is_latinish(char))
            ):
                out.append(" ")
        out.append(char)
        prev = char
    folded = _strip_marks("".join(out).casefold()).translate(_BASE_LETTERS)
    return " ".join(folded.split())


def unleet(text: str) -> str:
    def fix(match: re.Match[str]) -> str:
        word = match.group(0)
        chars = list(word.translate(_LEET))
        # Keep the case of the neighbours so camelCase and SCREAMING_SNAKE still split where they should.
        for i, char in enumerate(word):
            if char in "0134578@$!|":
                prev = next((c for c in reversed(word[:i]) if c.isalpha()), "")
                nxt = next((c for c in word[i + 1:] if c.isalpha()), "")
                # Upper only when every letter beside it is: P455w0rd is "Password", P4SSW0RD "PASSWORD".
                chars[i] = chars[i].upper() if all(c.isupper() for c in (prev, nxt) if c) else chars[i]
        return "".join(chars)

    return _LEET_WORD.sub(fix, text)


def fold_confusables(text: str) -> str:
    """Letters from other scripts that imitate Latin ones, folded to those (Cyrillic `а`, Greek `Ι`, Cherokee...)."""
    # Imported on first use: only a text with a character outside ASCII needs it.
    from disarm import normalize_confusables

    return normalize_confusables(text)


# Case flipping letter by letter, which no identifier style does (camelCase changes case once per word).
_ALTERNATING_CASE = re.compile(r"[a-z][A-Z][a-z][A-Z]|[A-Z][a-z][A-Z][a-z][A-Z]|(?<![A-Za-z])[a-z][A-Z][a-z](?![a-z])")
_LEET_CHARS = re.compile(r"[0134578@$!|]")
_SPACED_LETTERS = re.compile(r"(?<!\w)(?:(?:\w ){3,}\w|[^\W\d_] [^\W\d_] [^\W\d_])(?!\w)")  # "p a s s w o r d", "P.I.N"
# Syllables of an Indic word spaced out ("पा स व र्ड"): the vowel signs are marks, so `\w` cannot see the letters.
_SPACED_SYLLABLES = lazy(r"(?<![\u0900-\u0dff])(?:[\u0900-\u0dff]{1,3} ){2,}[\u0900-\u0dff]{1,3}(?![\u0900-\u0dff])")
# Marks a reader skips: Arabic tatweel (a stretch of the line), harakat and Quranic marks, Hebrew niqqud and
# cantillation.
_SCRIPT_MARKS = lazy("[\u0640\u064b-\u065f\u0670\u06d6-\u06ed\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]")
# A zero-width character between two letters: a word joiner in one reading, a space in another ("كلمة\u200cالسر").
_ZERO_WIDTH_INSIDE = lazy("(?<=[^\\s\u0000-\u052f])[\u200b-\u200d\u2060](?=[^\\s\u0000-\u052f])")
_ARABIC_SCRIPT = lazy("[\u0600-\u06ff]")
# Latin letters typed inside a Cyrillic word ("пaрoль" with Latin a and o): read as the Cyrillic letters they imitate.
# ("ключ_api" is two words)
_MIXED_CYRILLIC = lazy(r"(?<![^\W_])(?=[^\W_]*[a-zA-Z])(?=[^\W_]*[\u0400-\u04ff])[^\W_]+(?![^\W_])")
_LATIN_TO_CYRILLIC = str.maketrans("aceopxykmthbiACEHKMOPTXYB", "асеорхукмтнвіАСЕНКМОРТХУВ")


def _script_folded(text: str) -> str:
    """`text` with the marks a reader skips dropped, Arabic-script letters unified, Cyrillic words made whole."""
    text = _SCRIPT_MARKS.sub("", text)
    if _ARABIC_SCRIPT.search(text):
        text = text.translate(ARABIC_FOLD)
    if _MIXED_CYRILLIC.search(text):
        def cyrillic(match: re.Match[str]) -> str:
            word = match.group(0)
            cyr = sum("\u0400" <= c <= "\u04ff" for c in word)
            return word.translate(_LATIN_TO_CYRILLIC) if cyr * 2 >= len(word) else word  # "пapoль": half is enough

        text = _MIXED_CYRILLIC.sub(cyrillic, text)
    return text


def _strip_alphabet_marks(text: str) -> str:
    out: list[str] = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(ch) and out and ord(out[-1]) < 0x0530:
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def _unspaced(match: re.Match[str]) -> str:
    return match.group(0).replace(" ", "")


# Encodings a text can hide a word in, decoded before it is read: HTML character references and entities
# ("&#112;assword", "to&shy;ken", "Mot&nbsp;de&nbsp;passe") and percent-encoding ("par%6fla", "%D0%BF%D0%B0...").
_HTML_REFERENCE = lazy(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?")
_PERCENT = lazy(r"%[0-9A-Fa-f]{2}")
# Text under a right-to-left override is shown reversed: "\u202edrowssap\u202c" reads "password" on screen.
RTL_OVERRIDE = lazy("\u202e([^\u202a-\u202e\u2066-\u2069]*)(?:\u202c|\u2069|$)")
# Symbols that show a letter: regional indicators (🇵🇮🇳), squared and negative-squared or circled capitals (🅰),
# parenthesized letters (⒫⒜⒭⒪⒧⒜, 🄿); NFKC leaves the first ones alone and turns the last ones into "(p)".
_LETTER_SYMBOLS = str.maketrans(
    {**{0x1F1E6 + i: chr(97 + i) for i in range(26)}, **{0x1F130 + i: chr(97 + i) for i in range(26)},
     **{0x1F150 + i: chr(97 + i) for i in range(26)}, **{0x1F170 + i: chr(97 + i) for i in range(26)},
     **{0x1F110 + i: chr(97 + i) for i in range(26)}, **{0x249C + i: chr(97 + i) for i in range(26)},
     0x2800: None})  # the braille blank looks like a space but is no separator: "to⠀ken"
_LETTER_SYMBOL_RANGE = lazy("[\u249c-\u24b5\u2800\U0001f110-\U0001f189\U0001f1e6-\U0001f1ff]")
# Pictographs typed inside a word ("p🔑wd", "secre🔒t", "パス🔑ワード"): dropped, the word is read whole.
_PICTOGRAPH_INSIDE = lazy("(?<=\\w)[\u2190-\u21ff\u2300-\u23ff\u2500-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]+(?=\\w)")
# Odd spaces (no-break, thin, ideographic...) inside a word: a second reading without them ("pri\xa0vkey").
_ODD_SPACE_INSIDE = lazy("(?<=\\w)[\u00a0\u2000-\u200a\u202f\u205f\u3000](?=\\w)")
# A line break or tab between two letters of one word ("Número de tar\njeta", "c\tvv"): pasted or wrapped text.
_BREAK_INSIDE = lazy(r"(?<=[^\W\d_])[\n\t]+(?=[^\W\d_])")
# Single characters spaced out as written ("b 3 4 r 3 r   7 0 k 3 n"), joined before digits are read as letters.
_SPACED_CHARS = lazy(r"(?<!\S)(?:[A-Za-z0-9@$!|] ){2,}[A-Za-z0-9@$!|](?!\S)")
# Digits and symbols standing for Cyrillic letters beside Cyrillic letters ("п@р0ль", "3вонок").
_CYRILLIC_LEET = lazy("(?<=[\u0400-\u04ff])[@04$36](?=[\u0400-\u04ff@04$36]*[\u0400-\u04ff])"
                      "|[@04$36](?=[\u0400-\u04ff])")
_CYRILLIC_LEET_MAP = {"@": "а", "0": "о", "4": "ч", "$": "с", "3": "з", "6": "б"}
# A letter typed twice in a row ("ccardd", "ppaassword"): when such pairs are two fifths of the letters or more
# (words spelled with doubles have far fewer), a reading types each once.
_DOUBLED = re.compile(r"([a-zA-Z])\1")
# Chinese and Japanese characters spaced out ("密 码"): a second reading joins them.
_CJK_SPACED = lazy("(?<=[\u3040-\u30ff\u3400-\u9fff]) (?=[\u3040-\u30ff\u3400-\u9fff])")
# A text in hiragana alone ("ぱすわーど") is also read in katakana, the way such loanwords are written.
_HIRAGANA_ONLY = lazy("[\u3041-\u3096\u30fc]+")
_HIRAGANA_TO_KATAKANA = str.maketrans({c: c + 0x60 for c in range(0x3041, 0x3097)})
_MAX_DECODED = 4096  # a longer text is read as written: decoding is for names and labels, kept linear and bounded


def decoded(text: str) -> str:
    """`text` with HTML references and percent-escapes decoded, overridden runs turned back, letter symbols read."""
    if len(text) > _MAX_DECODED:
        return text
    for _ in range(2):  # "&amp;#112;" is encoded twice; more layers are not a spelling anyone reads
        if "&" in text and _HTML_REFERENCE.search(text):
            import html  # only a text with a character reference needs it (and its table of entities)

            text = html.unescape(text)
        if "%" in text and _PERCENT.search(text):
            with contextlib.suppress(UnicodeDecodeError):  # "20%de descuento": no escape, the text stays as written
                from urllib.parse import unquote  # only a text with a percent-escape needs it

                text = unquote(text, errors="strict")
    if not text.isascii():
        if _LETTER_SYMBOL_RANGE.search(text):
            text = text.translate(_LETTER_SYMBOLS)
        visible = _INVISIBLE.sub("", text)
        text = _PICTOGRAPH_INSIDE.sub("", visible) if _PICTOGRAPH_INSIDE.search(visible) else text
    return text


_CHOSEONG = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_JUNGSEONG = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_JONGSEONG = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"
_JAMO_RUN = lazy("[\u3131-\u318e]{4,}")


def _composed_jamo(match: re.Match[str]) -> str:
    """Korean letters typed one by one ("ㅂㅣㅁㅣㄹ...") composed into the syllables they spell ("비밀...")."""
    jamo, out, i = match.group(0), [], 0
    while i < len(jamo):
        cho, jung = jamo[i], jamo[i + 1 : i + 2]
        if cho not in _CHOSEONG or not jung or jung not in _JUNGSEONG:
            out.append(cho)
            i += 1
            continue
        jong, step = 0, 2
        nxt, after = jamo[i + 2 : i + 3], jamo[i + 3 : i + 4]
        if nxt and nxt in _JONGSEONG and not (after and after in _JUNGSEONG):
            jong, step = _JONGSEONG.index(nxt), 3
        out.append(chr(0xAC00 + (_CHOSEONG.index(cho) * 21 + _JUNGSEONG.index(jung)) * 28 + jong))
        i += step
    return "".join(out)


class Typos:
    """Typos of the long credential words ("pasword", "secert", "mnemnonic"): a word of five letters or more one
    edit away (Damerau-Levenshtein) from a target, with the same first letter, and not a real word that happens to
    be that close, is read as the target. The words come from the tables (TYPO_TARGETS, NOT_TYPOS)."""

    def __init__(self, targets: Iterable[str], not_typos: frozenset[str]) -> None:
        self._not = not_typos
        self._by_head: dict[tuple[str, int], tuple[str, ...]] = {}
        for target in targets:
            for length in (len(target) - 1, len(target), len(target) + 1):
                self._by_head[(target[0], length)] = (*self._by_head.get((target[0], length), ()), target)

    def read(self, words: str) -> str | None:
        """`words` with each typo of a credential word read as the word, or None when there is none."""
        out, changed = [], False
        split = words.split(" ")
        for i, word in enumerate(split):
            # A word cut short by a digit ("passw 0 rd") is a spelling the digit reading handles, not a typo.
            cut = i + 1 < len(split) and split[i + 1][:1].isdigit()
            typo = len(word) >= 5 and word not in self._not and not cut
            targets = self._by_head.get((word[:1], len(word)), ()) if typo else ()
            fixed = next((t for t in targets if _one_edit(word, t)), None)
            changed = changed or fixed is not None
            out.append(fixed or word)
        return " ".join(out) if changed else None


def _one_edit(word: str, target: str) -> bool:
    """Whether `word` is one insertion, deletion, substitution or adjacent swap away from `target`."""
    if word == target:
        return False
    if len(word) == len(target):
        diff = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and word[diff[0]] == target[diff[1]] and word[diff[1]] == target[diff[0]])
    short, long = (word, target) if len(word) < len(target) else (target, word)
    i = next((i for i, (a, b) in enumerate(zip(short, long, strict=False)) if a != b), len(short))
    return short[i:] == long[i + 1:]


def readings(text: str, typos: Typos) -> list[str]:
    """Every way `text` can be read: as written, with digits read as letters, with look-alikes folded."""
    readings: list[str] = []
    for form in forms(text):
        folded = words_of(form)
        words = joined_words(folded)
        if words and words not in readings:
            readings.append(words)
            typo = typos.read(words)
            if typo is not None and typo not in readings:
                readings.append(typo)
        if not form.isascii() and _SPACED_SYLLABLES.search(folded):
            joined = _SPACED_LETTERS.sub(_unspaced, _SPACED_SYLLABLES.sub(_unspaced, folded))
            if joined not in readings:
                readings.append(joined)
    return readings


def joined_words(folded: str) -> str:
    """Folded words with letters spaced out joined: "p a s s w o r d" is "password"."""
    return _SPACED_LETTERS.sub(_unspaced, folded)


def forms(text: str) -> list[str]:
    """The texts `readings` reads as words: as written, joined, with look-alikes folded, with digits as letters."""
    spaced = _ZERO_WIDTH_INSIDE.sub(" ", text) if not text.isascii() and _ZERO_WIDTH_INSIDE.search(text) else None
    # Before NFKC, which turns compatibility jamo into conjoining ones that no longer compose.
    jamo = _JAMO_RUN.sub(_composed_jamo, text) if not text.isascii() and _JAMO_RUN.search(text) else None
    unspaced = _ODD_SPACE_INSIDE.sub("", text) if not text.isascii() and _ODD_SPACE_INSIDE.search(text) else None
    if ("\n" in text or "\t" in text) and _BREAK_INSIDE.search(text):  # "tar\njeta", "c\tvv": a second reading joined
        unspaced = _BREAK_INSIDE.sub("", unspaced if unspaced is not None else text)
    text = unicodedata.normalize("NFKC", _INVISIBLE.sub("", text))
    if not text.isascii():
        text = _script_folded(text)
    forms = [text]
    if unspaced is not None:
        forms.append(unicodedata.normalize("NFKC", _script_folded(_INVISIBLE.sub("", unspaced))))
    if not text.isascii():
        for extra in (
            _CJK_SPACED.sub("", text) if _CJK_SPACED.search(text) else None,
            text.translate(_HIRAGANA_TO_KATAKANA) if _HIRAGANA_ONLY.fullmatch(text.strip()) else None,
            jamo,
        ):
            if extra is not None:
                forms.append(unicodedata.normalize("NFKC", extra))
    if spaced is not None:  # "پاس\u200cورڈ" is "پاسورڈ" and "پاس ورڈ"
        forms.append(_script_folded(unicodedata.normalize("NFKC", _INVISIBLE.sub("", spaced))))
    if _ALTERNATING_CASE.search(text):
        forms.append(text.lower())  # pAsSwOrD: the case changes split nothing
    if not text.isascii():
        forms.append(fold_confusables(text))
        # Accented look-alikes (Greek ά, Cyrillic ё) fold only once their marks are off: "pάsswοrd". Only marks
        # on Latin, Greek and Cyrillic letters: in other scripts (Devanagari) a mark is part of the word.
        bare = _strip_alphabet_marks(text)
        if bare != text:
            forms.append(fold_confusables(bare))
    doubled = len(_DOUBLED.findall(text)) if text.isascii() else 0
    if not text.isascii() and _CYRILLIC_LEET.search(text):
        forms.append(_CYRILLIC_LEET.sub(lambda m: _CYRILLIC_LEET_MAP[m.group(0)], text))  # "п@р0ль" is "пароль"
    if doubled >= 2 and doubled * 5 >= sum(c.isalpha() for c in text):  # "token_address" doubles by spelling
        forms.append(_DOUBLED.sub(r"\1", text))  # "ccardd_nuumbeer": letters typed twice are read once
    if " " in text and _LEET_CHARS.search(text) and _SPACED_CHARS.search(text):
        forms.append(_SPACED_CHARS.sub(_unspaced, text))  # "w 4 c h 7 w 0 0 r d": joined, then read as letters
    for form in list(forms):
        read = unleet(form) if _LEET_CHARS.search(form) else form
        if read != form:
            forms.append(read)
    return forms


