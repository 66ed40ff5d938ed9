# ruff: noqa: E501
# (the word tables below keep one family of phrases per entry; wide CJK characters count double)
"""The secret guard: credentials never travel through a form.

Passwords, PINs, API keys, access tokens, private keys, recovery phrases, session cookies, connection strings and
payment card data must be entered out of band (an MCP URL-mode page, an A2A auth-required step). A form field
whose name, title, description or format marks a credential, or that is `writeOnly`, is refused when the tool is
registered, and again on every form before it is sent; so is a form whose message asks for one.

How a text is read: invisible characters (zero-width, bidi controls) are dropped, NFKC folds fullwidth and styled
letters, digits standing for letters are read as letters (`passw0rd`), look-alike letters from other scripts are
folded to the Latin letters they imitate (Unicode TS #39 confusables, via `disarm`), identifiers are split into
words (camelCase, snake_case, kebab-case, SCREAMING_SNAKE, letters and digits), case and accents are folded, and
the words are matched against credential phrases in more than 30 languages (the newer ones in `secret_words`). Arabic
tatweel and harakat, Hebrew niqqud and Persian/Urdu letter forms are folded; a zero-width character inside a word of
those scripts is read both as nothing and as a space. A phrase only counts where its neighbours do not
make it an ordinary value: `max_tokens`, `password_min_length`, `gpio_pin`, `token_count` and "Maximum tokens to
generate" name a number or a setting, not a credential.

Choices made (documented, tested): a passport, ID card, tax or social security number is personal data but not a
credential (it grants no access), so it passes; so do an IBAN, a username, an email, a session or client id, the id
or name of a key, and the path of a key file. A boolean field cannot carry a credential, so it is never refused; nor
is a boolean's name (`is_password_set`). An Indian postal "PIN code" (with a postal word near it) and India's "PAN card"
(a tax id) pass; a bare `pan`, `card_pan` or `APP_PAN` is a payment card's number and is refused.
"""

from __future__ import annotations

import contextlib
import html
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import unquote

from askback.core.secret_words import (
    ARABIC_FOLD,
    PARTS,
    REQUEST,
    REQUEST_PARTS,
    SETTING_PARTS,
    SETTINGS,
    STATE,
    STATE_PARTS,
    WORDS,
)

if TYPE_CHECKING:
    from askback.core.secret_index import PhraseIndex

class _LazyPattern:
    """A pattern compiled the first time it is used, then used as compiled (its methods are looked up once).

    For the patterns most checks never reach: those that read only texts beyond ASCII, and those that weigh a
    phrase's neighbours once a phrase was found. Compiling them all at import would cost a server's start-up
    what a form in English never uses.
    """

    def __init__(self, source: str | Callable[[], str], flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:  # only for what is not an attribute yet
        compiled = self._compiled
        if compiled is None:
            source = self._source if isinstance(self._source, str) else self._source()
            compiled = self._compiled = re.compile(source, self._flags)
            for method in ("search", "sub", "finditer", "fullmatch", "match", "findall"):
                setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def _lazy(source: str | Callable[[], str], flags: int = 0) -> re.Pattern[str]:
    return cast("re.Pattern[str]", _LazyPattern(source, flags))


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
_LEET_WORD = re.compile(r"(?<![A-Za-z0-9@$!|])(?=[A-Za-z0-9@$!|]{3})(?=[A-Za-z0-9@$!|]*[A-Za-z])(?=[A-Za-z]*[0134578@$!|])"
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


def _words(text: str) -> str:
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


def _unleet(text: str) -> str:
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


def _fold_confusables(text: str) -> str:
    """Letters from other scripts that imitate Latin ones, folded to those (Cyrillic `а`, Greek `Ι`, Cherokee...)."""
    # Imported on first use: only a text with a character outside ASCII needs it.
    from disarm import normalize_confusables

    return normalize_confusables(text)


# Case flipping letter by letter, which no identifier style does (camelCase changes case once per word).
_ALTERNATING_CASE = re.compile(r"[a-z][A-Z][a-z][A-Z]|[A-Z][a-z][A-Z][a-z][A-Z]|(?<![A-Za-z])[a-z][A-Z][a-z](?![a-z])")
_LEET_CHARS = re.compile(r"[0134578@$!|]")
_SPACED_LETTERS = re.compile(r"(?<!\w)(?:(?:\w ){3,}\w|[^\W\d_] [^\W\d_] [^\W\d_])(?!\w)")  # "p a s s w o r d", "P.I.N"
# Syllables of an Indic word spaced out ("पा स व र्ड"): the vowel signs are marks, so `\w` cannot see the letters.
_SPACED_SYLLABLES = _lazy(r"(?<![\u0900-\u0dff])(?:[\u0900-\u0dff]{1,3} ){2,}[\u0900-\u0dff]{1,3}(?![\u0900-\u0dff])")
# Marks a reader skips: Arabic tatweel (a stretch of the line), harakat and Quranic marks, Hebrew niqqud and cantillation.
_SCRIPT_MARKS = _lazy("[\u0640\u064b-\u065f\u0670\u06d6-\u06ed\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]")
# A zero-width character between two letters: a word joiner in one reading, a space in another ("كلمة\u200cالسر").
_ZERO_WIDTH_INSIDE = _lazy("(?<=[^\\s\u0000-\u052f])[\u200b-\u200d\u2060](?=[^\\s\u0000-\u052f])")
_ARABIC_SCRIPT = _lazy("[\u0600-\u06ff]")
# Latin letters typed inside a Cyrillic word ("пaрoль" with Latin a and o): read as the Cyrillic letters they imitate.
_MIXED_CYRILLIC = _lazy(r"(?<![^\W_])(?=[^\W_]*[a-zA-Z])(?=[^\W_]*[\u0400-\u04ff])[^\W_]+(?![^\W_])")  # "ключ_api": two words
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
_HTML_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
# Text under a right-to-left override is shown reversed: "\u202edrowssap\u202c" reads "password" on screen.
_RTL_OVERRIDE = _lazy("\u202e([^\u202a-\u202e\u2066-\u2069]*)(?:\u202c|\u2069|$)")
# Symbols that show a letter: regional indicators (🇵🇮🇳), squared and negative-squared or circled capitals (🅰),
# parenthesized letters (⒫⒜⒭⒪⒧⒜, 🄿); NFKC leaves the first ones alone and turns the last ones into "(p)".
_LETTER_SYMBOLS = str.maketrans(
    {**{0x1F1E6 + i: chr(97 + i) for i in range(26)}, **{0x1F130 + i: chr(97 + i) for i in range(26)},
     **{0x1F150 + i: chr(97 + i) for i in range(26)}, **{0x1F170 + i: chr(97 + i) for i in range(26)},
     **{0x1F110 + i: chr(97 + i) for i in range(26)}, **{0x249C + i: chr(97 + i) for i in range(26)},
     0x2800: None})  # the braille blank looks like a space but is no separator: "to⠀ken"
_LETTER_SYMBOL_RANGE = _lazy("[\u249c-\u24b5\u2800\U0001f110-\U0001f189\U0001f1e6-\U0001f1ff]")
# Pictographs typed inside a word ("p🔑wd", "secre🔒t", "パス🔑ワード"): dropped, the word is read whole.
_PICTOGRAPH_INSIDE = _lazy("(?<=\\w)[\u2190-\u21ff\u2300-\u23ff\u2500-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]+(?=\\w)")
# Odd spaces (no-break, thin, ideographic...) inside a word: a second reading without them ("pri\xa0vkey").
_ODD_SPACE_INSIDE = _lazy("(?<=\\w)[\u00a0\u2000-\u200a\u202f\u205f\u3000](?=\\w)")
# A line break or tab between two letters of one word ("Número de tar\njeta", "c\tvv"): pasted or wrapped text.
_BREAK_INSIDE = _lazy(r"(?<=[^\W\d_])[\n\t]+(?=[^\W\d_])")
# Single characters spaced out as written ("b 3 4 r 3 r   7 0 k 3 n"), joined before digits are read as letters.
_SPACED_CHARS = _lazy(r"(?<!\S)(?:[A-Za-z0-9@$!|] ){2,}[A-Za-z0-9@$!|](?!\S)")
# Digits and symbols standing for Cyrillic letters beside Cyrillic letters ("п@р0ль", "3вонок").
_CYRILLIC_LEET = _lazy("(?<=[\u0400-\u04ff])[@04$36](?=[\u0400-\u04ff@04$36]*[\u0400-\u04ff])|[@04$36](?=[\u0400-\u04ff])")
_CYRILLIC_LEET_MAP = {"@": "а", "0": "о", "4": "ч", "$": "с", "3": "з", "6": "б"}
# A letter typed twice in a row ("ccardd", "ppaassword"): when such pairs are two fifths of the letters or more
# (words spelled with doubles have far fewer), a reading types each once.
_DOUBLED = re.compile(r"([a-zA-Z])\1")
# Chinese and Japanese characters spaced out ("密 码"): a second reading joins them.
_CJK_SPACED = _lazy("(?<=[\u3040-\u30ff\u3400-\u9fff]) (?=[\u3040-\u30ff\u3400-\u9fff])")
# A text in hiragana alone ("ぱすわーど") is also read in katakana, the way such loanwords are written.
_HIRAGANA_ONLY = _lazy("[\u3041-\u3096\u30fc]+")
_HIRAGANA_TO_KATAKANA = str.maketrans({c: c + 0x60 for c in range(0x3041, 0x3097)})
_MAX_DECODED = 4096  # a longer text is read as written: decoding is for names and labels, kept linear and bounded


def _decoded(text: str) -> str:
    """`text` with HTML references and percent-escapes decoded, overridden runs turned back, letter symbols read."""
    if len(text) > _MAX_DECODED:
        return text
    for _ in range(2):  # "&amp;#112;" is encoded twice; more layers are not a spelling anyone reads
        if "&" in text and _HTML_REFERENCE.search(text):
            text = html.unescape(text)
        if "%" in text and _PERCENT.search(text):
            with contextlib.suppress(UnicodeDecodeError):  # "20%de descuento": no escape, the text stays as written
                text = unquote(text, errors="strict")
    if not text.isascii():
        if _LETTER_SYMBOL_RANGE.search(text):
            text = text.translate(_LETTER_SYMBOLS)
        text = _PICTOGRAPH_INSIDE.sub("", _INVISIBLE.sub("", text)) if _PICTOGRAPH_INSIDE.search(_INVISIBLE.sub("", text)) else text
    return text


_CHOSEONG = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_JUNGSEONG = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_JONGSEONG = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"
_JAMO_RUN = _lazy("[\u3131-\u318e]{4,}")


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


# Typos of the long credential words ("pasword", "passwrod", "secert", "mnemnonic", "seed pharse"): a word one
# edit away (Damerau-Levenshtein: one letter added, dropped, changed, or two swapped) from one of these, with the
# same first letter, is read as it. Only these words, only words of five letters or more, and never a real word
# that happens to be that close (`_NOT_TYPOS`).
_TYPO_TARGETS = ("password", "passwort", "passphrase", "passcode", "mnemonic", "private", "secret", "phrase",
                 "credentials", "credential", "recovery", "passwd", "contrasena", "verification", "access")
_NOT_TYPOS = frozenset(["passed", "passes", "passer", "pasted", "posted", "accessed", "accesso", "acceso", "axcess", "passport", "passports", "passwords", "phase", "phases", "phrased", "secrete", "secreted", "secrets", "privates", "privat", "mnemonics", "phrases", "recover", "recovers", "credentia", "sacred", "secrecy", "privateer"])
_TYPO_BY_HEAD: dict[tuple[str, int], tuple[str, ...]] = {}
for _target in _TYPO_TARGETS:
    for _length in (len(_target) - 1, len(_target), len(_target) + 1):
        _TYPO_BY_HEAD[(_target[0], _length)] = (*_TYPO_BY_HEAD.get((_target[0], _length), ()), _target)


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


def _typo_read(words: str) -> str | None:
    """`words` with each typo of a credential word read as the word, or None when there is none."""
    out, changed = [], False
    split = words.split(" ")
    for i, word in enumerate(split):
        # A word cut short by a digit ("passw 0 rd") is a spelling the digit reading handles, not a typo.
        cut = i + 1 < len(split) and split[i + 1][:1].isdigit()
        targets = _TYPO_BY_HEAD.get((word[:1], len(word)), ()) if len(word) >= 5 and word not in _NOT_TYPOS and not cut else ()
        fixed = next((t for t in targets if _one_edit(word, t)), None)
        changed = changed or fixed is not None
        out.append(fixed or word)
    return " ".join(out) if changed else None


def _readings(text: str) -> list[str]:
    """Every way `text` can be read: as written, with digits read as letters, with look-alikes folded."""
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
        forms.append(_fold_confusables(text))
        # Accented look-alikes (Greek ά, Cyrillic ё) fold only once their marks are off: "pάsswοrd". Only marks
        # on Latin, Greek and Cyrillic letters: in other scripts (Devanagari) a mark is part of the word.
        bare = _strip_alphabet_marks(text)
        if bare != text:
            forms.append(_fold_confusables(bare))
    doubled = len(_DOUBLED.findall(text)) if text.isascii() else 0
    if not text.isascii() and _CYRILLIC_LEET.search(text):
        forms.append(_CYRILLIC_LEET.sub(lambda m: _CYRILLIC_LEET_MAP[m.group(0)], text))  # "п@р0ль" is "пароль"
    if doubled >= 2 and doubled * 5 >= sum(c.isalpha() for c in text):  # "token_address" doubles by spelling
        forms.append(_DOUBLED.sub(r"\1", text))  # "ccardd_nuumbeer": letters typed twice are read once
    if " " in text and _LEET_CHARS.search(text) and _SPACED_CHARS.search(text):
        forms.append(_SPACED_CHARS.sub(_unspaced, text))  # "w 4 c h 7 w 0 0 r d": joined, then read as letters
    for form in list(forms):
        unleet = _unleet(form) if _LEET_CHARS.search(form) else form
        if unleet != form:
            forms.append(unleet)
    readings: list[str] = []
    for form in forms:
        folded = _words(form)
        words = _SPACED_LETTERS.sub(_unspaced, folded)
        if words and words not in readings:
            readings.append(words)
            typo = _typo_read(words)
            if typo is not None and typo not in readings:
                readings.append(typo)
        if not form.isascii() and _SPACED_SYLLABLES.search(folded):
            joined = _SPACED_LETTERS.sub(_unspaced, _SPACED_SYLLABLES.sub(_unspaced, folded))
            if joined not in readings:
                readings.append(joined)
    return readings


# --------------------------------------------------------------------------------------------------------------
# Credential phrases. Each entry is (label, kind, regex over the folded words). Word entries match whole words;
# entries of kind "part" (compounds, scripts written without spaces) match anywhere. The kind says which
# neighbours turn an occurrence into an ordinary value; see `_ordinary_here`.

def _trie(words: str) -> str:
    """A regex for `|`-separated literal words, factored by prefix ("pin|ping|pan" -> "p(?:an|in(?:g)?)").

    The regex engine tries an alternation's branches one by one; with a hundred qualifiers before "token" that
    costs at every word. Factored, each position costs the length of the longest common prefix instead.
    """
    root: dict[str, Any] = {}
    for word in words.split("|"):
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def render(node: dict[str, Any]) -> str:
        ends = "" in node
        branches = [re.escape(char) + render(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if ends else body

    return render(root)


_W = r"(?<!\w)(?:{})(?!\w)"  # whole words
_S = "(?:{})"  # anywhere
_SYSTEMS = (
    r"db|database|user|usr|admin|root|smtp|ftp|sftp|mysql|pg|postgres|redis|mail|email|wifi|wlan|login|sudo|ssh"
    r"|vnc|rdp|app|account|acct|master|proxy|ldap|imap|pop|pop3|router|server|vpn|bind|keystore|truststore|basic|http"
    r"|sql|oracle|mongo|rabbitmq|amqp|kafka|jenkins|docker|registry"
    r"|web|site|portal|bank|banking|vault|zip|rar|pdf|archive|ssl|tls|cert|wallet|device|phone|client|secret"
)
_SYSTEMS = _trie(_SYSTEMS)
_TOKEN_QUALIFIERS = (  # words, not a password
    r"access|refresh|bearer|auth|authentication|authorization|authorisation|api|session|id|oauth|oauth2|csrf|xsrf"  # noqa: S105
    r"|security|personal access|personal|github|gh|gitlab|gl|slack|discord|telegram|bot|jwt|device|reset|verification"
    r"|app|client|user|service|webhook|sso|saml|sas|hf|huggingface|hugging face|npm|pypi|registry|deploy|deployment"
    r"|ci|runner|pat|magic|login|signin|sign in|secret|private|master|admin|twitter|openai|stripe|aws|azure|gcp"
    r"|google|facebook|fb|dropbox|notion|linear|jira|figma|shopify|vercel|netlify|cloudflare|heroku|sentry|ngrok"
    r"|mapbox|replicate|cohere|mistral|groq|anthropic|digitalocean|vault|consul|nomad|k8s|kube|kubernetes"
    r"|docker|dockerhub|artifactory|sonar|circleci|travis|bitbucket|atlassian|okta|auth0|firebase|supabase|twilio"
    r"|sendgrid|mailgun|postmark|pagerduty|datadog|newrelic|splunk|grafana|elastic|algolia|airtable|asana|hubspot"
    r"|salesforce|zoom|box|paypal|square|plaid|coinbase|binance|bearer auth|impersonation|exchange|offline|temporary"
    r"|temp|one time|long lived|short lived|prod|production|staging|sandbox|invite|invitation|upload"
    r"|download|sharing|share|unsubscribe|cancel|confirm|confirmation|activation|recovery|bootstrap|join|enrollment"
)
_TOKEN_QUALIFIERS = _trie(_TOKEN_QUALIFIERS)
_KEY = (r"keys?|key|schlue?ssel|sleutel|nyckel(?:n)?|nogle(?:n)?|nokkel(?:en)?|avain|klucz|klic|anahtar(?:i|ı)?|ключ|κλειδι"
        r"|chiave|chave|clave|cle|kunci|khoa")

_ENTRIES: tuple[tuple[str, str, str], ...] = (
    # Passwords, passphrases, passcodes.
    ("password", "strong", _W.format(r"pass ?words?|passwds?|pswds?|pwds?|pws|pword|passwort(?:e|s)?|kennwort(?:e|s)?"
                                     r"|contrasenas?|contrasenya|mots? de passe|motdepasse\w*|mdp|storepass|keypass|srcstorepass|deststorepass|κωδικ\w* (?:σασ|σου)|senhas?|wachtwoord(?:en)?|losenord(?:et)?"
                                     r"|salasana\w*|adgangskode|passord(?:et)?|jelszo\w*|geslo"
                                     r"|lozink\w*|parolei|parolele|parolan\w*|parolay\w*|parolas\w*|sifre(?!le|li)\w*"
                                     r"|кодов(?:ое|ого) слов\w*|секретн\w* слов\w*|парол\w*|kodeord(?:et)?|parol|kodikos prosvasis|katasandi|matkhau|mima|pasuwado|pasuwaado|bimilbeonho|κωδικ\w* προσβασ\w*|συνθηματικ\w*|kata sandi|mat khau"
                                     r"|pass ?phrases?|pass ?codes?|parola d ordine|parola segreta|palabra secreta"
                                     r"|palavra passe|mot secret|geheimwort|clave de acceso|clave secreta personal"
                                     r"|(?:" + _SYSTEMS + r"|your|my|new|old|current|confirm|repeat|verify) ?(?:pw|pwd)|(?:" + _SYSTEMS + r") ?pass|pw")),
    ("password", "bare_pass", _W.format(r"pass")),
    ("password", "slogan", _W.format(r"hesl(?:o|a|em|u|e)|hesel|hasl\w*")),
    ("password", "compound", _W.format(r"\w*(?:password|passwort|passwd|kennwort|wachtwoord|contrasena|losenord|salasana"
                                   r"|passphrase|passcode|парол)(?!less|los|loos|richtlinie|lange|hinweis|regel|starke|vergessen|manager|policy|hint|length|ablauf)\w*")),
    ("password", "bare_clave", _W.format(r"clave|claves|parola")),
    # PINs.
    ("PIN", "pin", _W.format(r"pin ?(?:codes?|numbers?|nos?|nums?|kod(?:u|en)?|kode(?:n)?|koodi|код|번호|코드|コード|कोड|码|碼|番号)|pincode|pinkod(?:en)?|pinkode(?:n)?|pinkoodi|tunnusluku\w*"
                                r"|(?:kod|code|codigo|codice|numero) (?:de |di |do |du )?pin|κωδικ\w* pin|pin κωδικ\w*"
                                r"|geheimzahl|geheimnummer|personal identification numbers?|puks?(?: codes?)?"
                                r"|(?:sim|card|bank|atm|debit|credit|phone|device|wallet|banking|account|unlock|security"
                                r"|secret|personal|user|login|app|new|old|current|confirm|your|my|enter) pins?"
                                r"|code confidentiel|code secret|codigo secreto|codice segreto|пин(?: код)?|пін(?: код)?|\d digit pins?|(?:4|6|four|six|vier|sechs) ?stellige?n? pin")),
    ("PIN", "bare_pin", _W.format(r"pins?|pinnummer|pinnumber")),
    # One-time codes.
    ("one-time code", "strong", _W.format(
        r"otps?|totps?|hotps?|one ?time (?:pass ?words?|pass ?codes?|codes?|pins?|tokens?|keys?|pw)"
        r"|(?:2 ?fa|mfa|two ?factor|2 factor|second factor|multi ?factor|verification|verify|auth|authentication"
        r"|authenticator|sms|text message|email|e mail|login|log in|sign ?in|signin|access|unlock|activation|pairing"
        r"|approval|otp|authorization|authorisation|magic) ?codes?"
        r"|(?:codigos?|codes?|codice|codici|codigo) (?:de |di |du )?(?:verificacion|verificacao|verification|verifica"
        r"|confirmacion|confirmacao|confirmation|conferma|acceso|acesso|acces|accesso|autenticacion|autenticacao"
        r"|authentification|autenticazione|un solo uso|uso unico|a usage unique|usage unique|sms|otp)"
        r"|\w*(?:bestatigungscode|verifizierungscode|authentifizierungscode|zugangscode|einmalcode|einmalpasswort"
        r"|verificatiecode|toegangscode|eenmalige code|verifieringskod|engangskod|bekraftelsekod|atkomstkod|bekraeftelseskode|bekreftelseskode|verifiseringskode|verifikationskode|engangskode|vahvistuskoodi|varmennuskoodi|kertakayttokoodi|tunnistuskoodi)\w*"
        r"|kode (?:verifikasi|otp|konfirmasi|akses|autentikasi|keamanan)|ma (?:xac minh|xac thuc|xac nhan|otp)"
        r"|(?:koden?|koodi|kode(?:n)?|codes?|codigo|codice|kod|kodu|код) (?:fran|fra|aus|uit|from|de|da|z|ze|iz|из|з) (?:der |de |den |het |the |la |el |il |o |)"
        r"(?:bank ?id|authenticator\w*|autenticador\w*|autenticator\w*|sms\w*|app(?:en|s)?|applikation\w*|aplikac\w*|приложени\w*|додатк\w*)"
        r"|kod (?:weryfikacyjny|jednorazowy|sms|dostepu|potwierdzajacy|uwierzytelniajacy)|overovaci kod\w*|jednorazovy kod"
        r"|dogrulama kod\w*|tek kullanimlik (?:kod|sifre)\w*|onay kod\w*"
        r"|код\w* (?:подтверждени\w*|из смс|доступа|верификации|підтвердженн\w*|доступу)|одноразов\w* (?:код|парол)\w*"
        r"|смс код|sms код|код\w* (?:из|з) (?:sms|смс)|κωδικ\w* (?:επαληθευσ\w*|επιβεβαιωσ\w*|μιασ χρησ\w*)"
        r"|(?:steam )?guard ?codes?|steam guard|(?:homekit|setup|set up) ?codes?|(?:\w+ )?(?:authenticator|auth) app codes?"
        r"|(?:sms|chip|push|photo) ?tans?|(?:m|i|e)tan|tan (?:codes?|nummer|numbers?)|transaktionsnummer"
        r"|(?:\d|four|six|eight) digit (?:codes?|numbers?)|codes? (?:from|in) (?:your |the )?(?:authenticator|sms|text|email|app)\w*|(?:sms|otp|2fa|mfa) verification"
        r"|codes? (?:that )?(?:we |i )?(?:just )?(?:texted|sent|emailed|messaged)")),
    ("one-time code", "confirmation", _W.format(r"confirmation ?codes?|codigo de confirmacion")),
    # API keys and other access keys.
    ("API key", "strong", _W.format(
        r"access ?key ?ids?|x ?api ?keys?|api ?keys?|apikeys?|access ?keys?|serial ?keys?|registration ?keys?|secret ?access ?keys?|secret ?keys?|licen[cs]e ?keys?"
        r"|product ?keys?|activation ?keys?|admin ?keys?|write ?keys?|miyao|app ?keys?|application ?keys?|auth ?keys?|master ?keys?|consumer ?keys?"
        r"|developer ?keys?|dev ?keys?|service account ?keys?|service account json ?keys?|json ?keys?|account ?keys?|storage ?keys?|subscription ?keys?"
        r"|integration ?keys?|hmac ?(?:keys?|secrets?)|webhook ?keys?|wi ?fi ?keys?|wpa ?2? ?keys?|network ?keys?"
        r"|wep ?keys?|psks?|pre ?shared ?keys?|shared ?keys?|session ?keys?|client ?keys?|cloud ?keys?|aws ?keys?"
        r"|(?:clave|chave|cle|chiave|klucz|klic|ключ|κλειδι|anahtar\w*|kunci|khoa) (?:de |da |d |di |do )?(?:la |l )?(?:api|rahasia|bi mat|acceso|acesso|acces"
        r"|accesso|dostepu|pristupovy|доступа|доступу|προσβασησ|licencia|licenca|licence|licenza|licencyjny|secreta"
        r"|secreto|secrete|segreta|tajny|tajna|секретный|секретний|μυστικο)"
        r"|api (?:schlue?ssel|sleutel|nyckel\w*|nogle\w*|nokkel\w*|avain\w*|anahtar\w*|ключ\w*|κλειδι|klic|klucz|키|キー|कुंजी|की|密钥|金鑰)"
        r"|(?:tajny|soukromy|secret|secretny|geheimer?|hemlig|hemmelig|salainen|gizli|erisim|секретный|секретний|μυστικο) (?:" + _KEY + r")"
        r"|\w*(?:apischlue?ssel|zugangsschlue?ssel|zugriffsschlue?ssel|lizenzschlue?ssel|geheimschlue?ssel|apisleutel|toegangssleutel"
        r"|licentiesleutel|apinyckel|atkomstnyckel|licensnyckel|apikey|accesskey|secretkey|licensekey|apikulcs)\w*"
        r"|lisans anahtar\w*|лицензионн\w* ключ\w*|erisim anahtar\w*|api anahtar\w*"
        r"|(?:openai|anthropic|claude|stripe|github|gitlab|gcp|google|gemini|mistral|cohere|groq|replicate|huggingface|hf"
        r"|twilio|sendgrid|mailgun|slack|discord|telegram|notion|airtable|algolia|mapbox|sentry|datadog|pagerduty"
        r"|firebase|supabase|shopify|paypal|square|plaid|brevo|resend|postmark|pinecone|weaviate|elevenlabs|deepl"
        r"|perplexity|together|fireworks|openrouter|azure|aws|cloudflare|vercel|netlify) ?keys?"
        r"|(?:stripe|live|test|secret|api|openai|restricted) sk|sk (?:live|test|keys?)|(?:github|gh|gitlab|gl|azure|ado"
        r"|devops|bitbucket) pats?")),
    # Secrets.
    ("secret", "strong", _W.format(
        r"(?:client|shared|app|application|api|consumer|webhook|signing|jwt|oauth|oauth2|totp|otp|mfa|2fa|hmac"
        r"|encryption|cookie|session|master|root|vault|bot|integration|account) ?secrets?"
        r"|secrets? (?:keys?|tokens?|values?|phrases?|words?|strings?|answers?)"
        r"|(?:secreto|secret|segreto|geheimnis|hemlighet|sekret|секрет) (?:del |de |du |do |dell |des )?(?:cliente|client|app"
        r"|aplicacion|aplicacao|application|applicazione|klienta|клиента|webhook)"
        r"|\w*(?:clientsecret|clientgeheim|appsecret|apisecret|consumersecret|signingsecret)\w*")),
    ("secret", "bare_secret", _W.format(r"secrets?|secreto|segreto|geheimnis|hemlighet|sekret|секрет|μυστικο|tajemstvi")),
    # Tokens.
    ("token", "strong", _W.format(
        r"(?:" + _TOKEN_QUALIFIERS + r") ?tokens?|jwts?|bearer|bearer tokens?|github pats?|gitlab pats?"
        r"|(?:token|jeton|jetons|токен\w*|διακριτικ\w*|belirtec\w*|tokenu?) (?:de |d |di |do |dostepu |)?(?:acceso|acesso"
        r"|acces|accesso|dostepu|доступа|доступу|προσβασησ|erisim\w*|autenticacion|autenticacao|authentification"
        r"|autenticazione|sesion|sessao|session|sessione|refresco|actualizacion|atualizacao|rafraichissement|aggiornamento"
        r"|api|bearer|personnel|personal|pessoal|personale|usuario|utilisateur|utente)"
        r"|(?:erisim|yenileme|oturum|api|kimlik|pristupovy|obnovovaci|obnovovací) (?:belirtec\w*|token\w*)"
        r"|\w*(?:accesstoken|authtoken|refreshtoken|bearertoken|apitoken|sessiontoken|idtoken|csrftoken|oauthtoken"
        r"|zugriffstoken|zugangstoken|toegangstoken|atkomsttoken|sitzungstoken|aktualisierungstoken|ghtoken|bottoken)\w*")),
    ("token", "bare_token", _W.format(r"tokens?|jeton|jetons|токен\w*|διακριτικ\w*|belirtec\w*|tokenu|tokenow|gettoni?")),
    # Private keys.
    ("private key", "strong", _W.format(
        r"(?:private|priv|signing|encryption|decryption|master|ssh|pgp|gpg|rsa|ecdsa|ed ?25519|dsa|wallet|tls|ssl|root"
        r"|x ?509|pem|jwk|server|client|identity|deploy) ?keys?|privkeys?|private ?keys?|keystores?|xprvs?|wif"
        r"|extended private keys?|signing ?secrets?|private (?:parts?|halves|half|portions?|components?) of"
        r"|(?:clave|chave|cle|chiave|klucz|klic|ключ\w*|κλειδι|anahtar\w*|kunci|khoa) (?:privada|privado|privee|privata|prywatny|privat|pribadi|rieng tu|rieng"
        r"|soukromy|закрыт\w*|приватн\w*|ιδιωτικο|ozel|de firma|de assinatura|de signature|di firma|ssh|pgp|gpg)"
        r"|(?:privater?|private|prive|privat|prywatny|soukromy|ozel|yksityinen|закрыт\w*|приватн\w*|ιδιωτικο) (?:ssh |pgp |gpg |rsa |)(?:" + _KEY + r")"
        r"|\w*(?:privatkey|privatekey|privkey|privatschlue?ssel|privesleutel|signaturschlue?ssel)\w*"
        r"|(?:jwk|rsa|ecdsa|ec|ed ?25519|x ?25519|dsa|ssh|pgp|gpg|pem|tls|ssl|key|wallet) ?priv(?:ate)?|(?:ssh )?id (?:rsa|dsa|ecdsa|ed ?25519)(?! pub)"
        r"|(?:aes|des|3des|symmetric|kek|dek|data encryption|hmac|chacha20?|enc|crypt|crypto|cipher|security|network) ?keys?|(?:clave|chave|cle|chiave|klucz|klic|ключ\w*|κλειδι|anahtar\w*|kunci|khoa) (?:de |di |d |)(?:chiffrement|criptografia|crittografia|cifrado|cifratura|encriptacion|enkripsi|szyfrowania|sifrovaci|sifreleme|шифрования|шифрування|κρυπτογραφησ\w*|ma hoa)|\w*(?:verschlue?sselungsschlue?ssel|sicherheitsschlue?ssel|encryptiesleutel|krypteringsnyckel|krypteringsnokkel|krypteringsnogle|salausavain|sifreleme anahtar)\w*|keys? material")),
    # Recovery phrases and mnemonics.
    ("recovery phrase", "strong", _W.format(
        r"seed ?(?:phrases?|words?|sentences?)|wallet ?seeds?|(?:recovery|backup|secret|restore|mnemonic) ?(?:phrases?|words?|seeds?|sentences?)"
        r"|(?<!instruction )(?<!opcode )(?<!assembly )mnemonics?(?! (?:devices?|techniques?|aids?|rhymes?|tricks?|methods?|for|to (?:remember|memori[sz]e|recall|help|learn)))"
        r"|mnemonic ?(?:phrases?|codes?|keys?)|bip ?39(?: (?:phrases?|words?|seeds?|mnemonics?))?"
        r"|(?:12|24|18|twelve|twenty four) ?words? ?(?:phrases?|seeds?|recovery|backup|mnemonics?)"
        r"|(?:12|24|18|twelve|twenty four) words (?:of|from|in) (?:your |the )?(?:seed|wallet|recovery|backup)"
        r"|fras[ea] (?:semilla|semente|de recuperacion|de recuperacao|di recupero|de recuperacao|mnemonica|seed|semilla"
        r"|secreta|segreta|odzyskiwania)|phrases? (?:de recuperation|secrete|mnemonique|de recuperation|semence)"
        r"|\w*(?:wiederherstellungsphrase|seedphrase|herstelzin|herstelfrase|aterstallningsfras|seedfras|gjenopprettingsfrase|gendannelsesfrase|palautuslause|palautusfraasi|siemenlause)\w*"
        r"|frasa (?:pemulihan|benih|rahasia|seed)|cum tu (?:khoi phuc|hat giong|bi mat)"
        r"|fraza (?:odzyskiwania|seed|mnemoniczna)|obnovovaci fraz\w*|kurtarma (?:ifade\w*|cumle\w*)|gizli kurtarma\w*"
        r"|сид ?фраз\w*|seed фраз\w*|мнемоническ\w* фраз\w*|фраз\w* (?:восстановлени\w*|відновленн\w*)"
        r"|(?:секретн\w*|мнемонічн\w*) фраз\w*|φρασ\w* ανακτησ\w*|μνημονικ\w*|mnemoniczn\w*|mnemotechnick\w*")),
    # Connection strings.
    ("connection string", "strong", _W.format(
        r"connection ?strings?|connection ?(?:uris?|urls?)|conn ?str(?:ings?)?|dsns?|(?:database|db|jdbc|odbc|mongo|mongodb|postgres|postgresql|pg"
        r"|mysql|mariadb|mssql|sql ?server|redis|amqp|rabbitmq|sqlalchemy|broker|celery) ?(?:urls?|uris?|dsns?"
        r"|connection ?strings?)|(?:cadena|string|chaine|stringa|ciag|retezec|dize\w*|строк\w*|рядок) (?:de |di |)(?:conexion"
        r"|conexao|connexion|connessione|polaczenia|pripojeni|подключени\w*|соединени\w*|підключенн\w*)"
        r"|baglanti dize\w*|pripojovaci retezec|\w*(?:verbindungszeichenfolge|verbindungsstring|connectiestring"
        r"|verbindingsreeks|anslutningsstrang|connectionstring|connstring)\w*")),
    # Session cookies and authorization headers.
    ("session cookie", "strong", _W.format(
        r"(?:session|sessions|auth|authentication|login|sid|sso|remember me) ?cookies?|phpsessid|jsessionid"
        r"|asp ?net ?session ?id|connect ?sid|cookie (?:de |di |)(?:sesion|sessao|session|sessione|relace)"
        r"|cookies? (?:value|values|header|headers|string|jar|strings)|(?:сессионн\w*|сесійн\w*) (?:cookie|куки)"
        r"|(?:cookie|куки) (?:сессии|сеансу|сесії)|oturum cerez\w*|ciasteczk\w* sesji|\w*(?:sitzungscookie|sessiecookie"
        r"|sessionscookie|sessioncookie)\w*")),
    ("session cookie", "bare_cookie", _W.format(r"cookies?|куки|cerez|ciasteczko")),
    ("authorization header", "strong", _W.format(
        r"(?:authorization|authorisation|auth|authz|proxy authorization|bearer) ?headers?|basic ?auth(?:entication)?"
        r"|http ?auth|(?:cabecera|encabezado|cabecalho|en tete|intestazione|заголов\w*) (?:de |d |di |)(?:autorizacion"
        r"|autorizacao|autorisation|autorizzazione|authorization|авторизаци\w*)|\w*(?:autorisierungsheader"
        r"|authorizationheader|authheader)\w*")),
    ("authorization header", "bare_auth", _W.format(r"authorization|authorisation|auth")),
    # Recovery and backup codes.
    ("recovery code", "strong", _W.format(
        r"(?:recovery|backup|rescue|emergency|reset|scratch|fallback) ?(?:codes?|keys?)"
        r"|(?:codigos?|codes?|codices?|codici|codice) (?:de |di |)(?:recuperacion|respaldo|recuperacao|backup|recuperation"
        r"|secours|recupero|emergencia|emergence|emergenza)|\w*(?:wiederherstellungscode|wiederherstellungsschlue?ssel"
        r"|sicherungscode|notfallcode|herstelcode|herstelsleutel|aterstallningskod|reservkod)\w*"
        r"|kody? (?:zapasow\w*|odzyskiwania|awaryjn\w*)|ma (?:khoi phuc|du phong)|kode (?:pemulihan|cadangan)|zalohovaci kod\w*|kod\w* pro obnoveni|(?:kurtarma|yedek) kod\w*"
        r"|код\w* восстановлени\w*|резервн\w* код\w*|код\w* відновленн\w*|κωδικ\w* ανακτησ\w*")),
    # Security-question answers.
    ("security answer", "strong", _W.format(
        r"(?:security|secret|challenge|memorable) ?(?:questions? )?answers?|answers? (?:to|for) (?:your |the |a |my )?"
        r"(?:security|secret) questions?|mothers?(?: s)? maiden names?|memorable (?:words?|information|info|phrase)"
        r"|(?:respuesta|resposta|reponse|risposta) (?:de |di |a |a la |)(?:seguridad|seguranca|securite|sicurezza|secreta"
        r"|segreta|secrete|la pregunta de seguridad|pregunta secreta)|\w*(?:sicherheitsantwort|beveiligingsantwoord"
        r"|sakerhetssvar)\w*|geheime antwort|odpowiedz\w* (?:na pytanie )?(?:bezpieczenstwa|zabezpieczajac\w*)"
        r"|\w*sicherheitsfrage\w* antwort\w*|antwort\w* (?:auf |zur |)(?:die |der |)(?:geheim|sicherheits)frage\w*|bezpecnostni odpoved\w*|(?:guvenlik|gizli) (?:sorusu )?(?:cevab\w*|yanit\w*)|ответ\w* на (?:секретн|контрольн)\w* вопрос\w*"
        r"|(?:секретн|контрольн)\w* ответ\w*|відповід\w* на (?:секретн|контрольн)\w* питанн\w*|απαντησ\w* ασφαλειασ")),
    # Payment cards.
    ("card number", "card", _W.format(
        r"(?:credit|debit|payment|bank|visa|mastercard|amex|atm|prepaid|gift|charge|virtual|company|corporate)? ?card ?"
        r"(?:numbers?|nos?|nums?|nr|details?|data|info|information|digits)|cardnumbers?|cardnum|cardno"
        r"|(?:bank |credit |debit |payment |)cards? s (?:numbers?|nos?|details?)|credit ?cards?|debit ?cards?|cc ?(?:numbers?|nums?|nos?|nr|details?|info)|ccn(?:um)?|ccnum|primary account numbers?"
        r"|numero (?:de |do |della |du |di |da |del |)(?:la |votre |ta |su |tu |sua |seu |vostra |tua |sul |)(?:tarjeta|cartao|carte|carta)(?: de credito| de debito| bancaire| de credit)?"
        r"|tarjetas? de (?:credito|debito)|cartao de (?:credito|debito)|cartes? (?:bancaire|de credit|de paiement|bleue)"
        r"|carta di (?:credito|debito)|\w*(?:kartennummer|kreditkarte|debitkarte|kaartnummer|creditcard|kortnummer|kreditkort"
        r"|bankkort|betaalpas)\w*|numer\w* (?:twojej |swojej |)karty|kart\w* (?:kredytow\w*|platnicz\w*|debetow\w*)|cisl\w* (?:vasi |sve |tve |)(?:platebni |kreditni |)karty"
        r"|(?:kreditni|platebni|debetni) kart\w*|kart numara\w*|kredi kart\w*|banka kart\w*"
        r"|kortin ?numero|\w*luottokort\w*|nomor kartu|kartu kredit|kartu debit|the tin dung|the ngan hang"
        r"|номер\w* (?:вашей |твоей |своей |вашої |твоєї |своєї |)(?:банковск\w* |кредитн\w* |банківськ\w* |)(?:карты|карти|картки)|(?:кредитн|банківськ|банковск)\w* карт\w*"
        r"|αριθμ\w* (?:τησ |)(?:πιστωτικησ |)καρτασ|πιστωτικ\w* καρτ\w*|χρεωστικ\w* καρτ\w*")),
    ("card number", "bare_pan", _W.format(r"pan")),
    ("card number", "short_label", _W.format(r"so the")),  # Vietnamese "số thẻ", read without its accents
    # A reset or sign-in link pasted from an email carries a single-use token.
    # A value described by what it does: "used to decrypt the backup; keep it safe".
    ("secret", "purpose", _W.format(r"used to (?:decrypt|unlock|sign in|log in|authenticate)|keep (?:it|this) (?:safe|secret|private)"
                                    r"|(?:never|do not|don t) share (?:it|this)")),
    ("password reset link", "strong", _W.format(r"(?:password |pw |)reset (?:links?|urls?) (?:from|in|we|you|that|sent|received)"
                                                r"|magic (?:links?|urls?) (?:from|in|we|you|that|sent)")),
    # "The 24 words you wrote down": a recovery phrase when the text is about a wallet.
    ("recovery phrase", "words_count", _W.format(r"(?:12|18|24|twelve|eighteen|twenty four) (?:secret |recovery |seed |backup |)words")),
    # A bare "code" is a one-time code when the text says where it came from (an SMS, an authenticator).
    # TAN (a bank's transaction number) in capitals; "tan" in lower case is a colour or a tangent.
    ("one-time code", "bare_tan", _W.format(r"tans?")),
    ("one-time code", "bare_code", _W.format(r"codes?|codigos?|codice|codici|kode|koden|koder|koodi\w*|kod|kodu|код\w*|κωδικ\w*"
                                                 r"|codul|codi|kodas|koda|kods|kodi|kodot|kodni|koodu|kood|ikhodi|msimbo|lambar\w*")),
    # A code and an SMS in one sentence, in scripts matched anywhere: "SMS-ით მიღებული კოდი", "এসএমএসে পাঠানো কোডটি".
    ("one-time code", "part", _S.format(r"(?:sms|смс|ایس ایم ایس|এসএমএস|ኤስኤምኤስ|කෙටි පණිවිඩ|សារ)[^|]{0,40}(?:კოდ|կոդ|ኮድ|কোড|קוד|کوڈ|کد|ကုဒ်|កូដ|කේත|код)"
                                        r"|(?:კოდ|կոդ|ኮድ|কোড|קוד|کوڈ|کد|ကုဒ်|កូដ|කේත|код)[^|]{0,40}(?:sms|смс|ایس ایم ایس|এসএমএস)")),
    ("card number", "strong", _W.format(
        r"(?:full |long |)numbers? of (?:your |the |a )?(?:credit |debit |payment |bank |)cards?|(?:\d+ digit |long )?(?:numbers?|digits) on (?:the (?:front|back) of )?(?:your |the )?(?:card|cards)"
        r"|1[3-9] digit (?:card )?numbers?|pan ?numbers?")),
    ("card expiry", "strong", _W.format(r"(?:expiry|expiration|exp|valid thru|valid until)(?: dates?| months?| years?)? (?:on |of |)(?:your |the |)card")),
    ("access code", "strong", _W.format(r"(?:safe|lock|locker|padlock|vault|door|gate|alarm|garage|keypad|entry|building) ?(?:combinations?|codes?)"
                                         r"|(?:alarm )?(?:disarm|disarming|arming) ?codes?")),
    # Short names that are a credential only as the whole name of a field.
    ("token", "whole_name", _W.format(r"toks?|tkns?")),
    ("API key", "whole_name", _W.format(r"sk")),
    ("private key", "strong", _W.format(r"keys? pem|pem keys?|kube ?configs?(?: (?:contents?|files?|yaml))?")),
    ("card security code", "strong", _W.format(r"(?:amex|card) cids?")),
    ("card expiry", "strong", _W.format(r"exp (?:months?|years?|mm|yy|yyyy)|expir\w* (?:months?|years?)")),
    ("session cookie", "strong", _W.format(r"roblosecurity|gh sess|laravel session|wordpress logged in\w*|connect sid")),
    ("API key", "strong", _W.format(r"(?:m ?pesa|daraja|lipa na m ?pesa) ?pass ?keys?")),
    ("PIN", "strong", _W.format(r"nip (?:de |)(?:la |tu |su |)tarjeta|(?:namba|nambari) (?:yako |yangu |)ya siri|clave de (?:\d|cuatro|seis) digitos")),
    ("card security code", "strong", _W.format(r"(?:tres|3|cuatro|4) digitos (?:del|en el) reverso|(?:3|trois|4|quatre) chiffres au dos"
                                               r"|(?:tre|3|quattro|4) cifre sul retro|(?:три|3|четыре|4) цифры на обратной стороне|(?:tres|3) digitos no verso")),
    ("recovery phrase", "strong", _W.format(r"palabras (?:de recuperacion|secretas)|palavras (?:de recuperacao|secretas)|mots de (?:recuperation|recuperation)"
                                            r"|(?:12|24) (?:palabras|palavras|parole|mots|worter|woorden|слов)")),
    ("card expiry", "strong", _W.format(r"(?:valid|validity|expiry|expiration|expires|vencimiento|validade|validez|gultig|scadenza|срок действия)\w* mm ?yy(?:yy)?")),
    ("security answer", "strong", _W.format(r"maiden names?|(?:name of )?your first (?:pet|car|school|teacher|boss)|childhood nickname")),
    ("card number", "strong", _W.format(r"(?:long )?numbers? on (?:the )?(?:front|back) of (?:your |the )?card")),
    ("card security code", "strong", _W.format(
        r"cvv ?2?|cvc ?2?|ccv|cvn|sec ?codes?|ma bao mat|kode keamanan|(?:three|3|four|4) digits? (?:on|at) (?:the )?back|csc|cav ?2?|cid code|card (?:verification|security|validation) (?:codes?|values?|numbers?)"
        r"|security codes?|cryptogrammes?(?: visuel)?|code (?:de |)(?:la |votre |ta |)carte|codigo de seguridad|codigo de seguranca|codice di sicurezza"
        r"|codes? de securite|\w*(?:kartenprue?fnummer|prue?fnummer|prue?fziffer|sicherheitscode|beveiligingscode|sakerhetskod"
        r"|kontrollsiffr|sikkerhedskode|sikkerhetskode|turvakoodi|turvanumero)\w*|kod (?:cvv|cvc|zabezpieczajac\w*|bezpieczenstwa)|bezpecnostni kod\w*|guvenlik kod\w*"
        r"|код\w* (?:безопасности|безпеки)|(?:cvv|cvc) код\w*|κωδικ\w* ασφαλειασ")),
    ("card expiry", "strong", _W.format(
        r"(?:card|cc|credit card|debit card) ?(?:exp|expiry|expiration|expires|expire|expiry dates?|expiration dates?"
        r"|exp dates?|exp months?|exp years?|valid thru|valid through|valid until|validity|mm yy)"
        r"|(?:fecha de |)(?:vencimiento|caducidad|expiracion) de (?:la |)tarjeta|validade do cartao"
        r"|date d expiration de (?:la |)carte|scadenza (?:della |)carta|ablaufdatum der karte|karte gultig bis"
        r"|vervaldatum (?:van de |)kaart|kortets giltighet\w*|data waznosci karty|platnost karty|son kullanma tarihi"
        r"|срок\w* действия карты|термін дії картки")),
    # Credentials in general.
    ("credential", "strong", _W.format(
        r"credentials?|creds|(?:login|log in|sign in|signin|logon|access) (?:details|data|info|information|credentials?)"
        r"|identifiants? (?:de connexion|bancaires?|de (?:la )?banque)|credenciais|credenciales|credencial de acceso|credenziali|\w*(?:zugangsdaten|anmeldedaten"
        r"|anmeldeinformationen|logindaten|inloggegevens|aanmeldgegevens|inloggningsuppgifter)\w*|dane (?:logowania"
        r"|uwierzytelniajace|dostepowe)|prihlasovaci udaje|(?:oturum acma|giris|kimlik) bilgi\w*|учетн\w* данн\w*"
        r"|облікові дан\w*|данн\w* для входа|дані для входу|διαπιστευτηρι\w*|στοιχει\w* συνδεσ\w*")),
    # Scripts written without spaces between words (and Arabic, Devanagari, Hangul, Hebrew, Thai phrases).
    ("password", "part", _S.format(r"密码(?!学|學|长度|強度|强度|策略|规则|提示|复杂度|要求|过期|有效期|箱)|密碼(?!學|長度|強度|策略|規則|提示)"
                                   r"|口令|パスワード(?!の長さ|の強度|ポリシー|の条件|の要件|を忘れ)|合言葉|비밀번호(?! ?길이| ?정책| ?강도| ?규칙)"
                                   r"|암호(?!화|학)|패스워드|كلم(?:ة|ات) (?:ال)?(?:مرور|سر)|رمز المرور|पासवर्ड|गुप्त शब्द|סיסמ[הא]"
                                   r"|รหัสผ่าน|رمز عبور|گذرواژه|कूटशब्द")),
    ("PIN", "part", _S.format(r"暗証番号|(?<!\w)핀 ?번호|पिन(?! ?कोड)|pin ?(?:码|碼|コード|番号|번호|코드)|الرقم السري|الرمز السري|رقم التعريف الشخصي|קוד סודי|รหัส ?pin")),
    ("one-time code", "part", _S.format(r"验证码|驗證碼|动态码|動態碼|动态密码|认证码|確認コード|認証コード|認証番号|ワンタイム|인증 ?코드|인증 ?번호"
                                        r"|일회용 ?(?:비밀번호|코드)|رمز التحقق|رمز التأكيد|كود التحقق|رمز لمرة واحدة|सत्यापन कोड|ओटीपी"
                                        r"|एकबारगी|קוד ה?אימות|รหัสยืนยัน|รหัส otp")),
    ("API key", "part", _S.format(r"api ?(?:キー|密钥|密鑰|金鑰|키)|密钥|密鑰|秘钥|秘鑰|(?<!公開|公开)金鑰|アクセスキー|シークレットキー|apiキー|액세스 ?키|시크릿 ?키|api ?키"
                                  r"|مفتاح (?:ال)?(?:api|واجهة)|المفتاح السري|مفتاح سري|एपीआई (?:कुंजी|की)|गुप्त कुंजी|מפתח api|מפתח (?:סודי|הצפנה|גישה)|비밀 ?키|คีย์ ?(?:api|ลับ)")),
    ("secret", "part", _S.format(r"シークレット|시크릿|クライアントシークレット")),
    ("token", "part", _S.format(r"(?<!最大|最多|输入|输出|最小|入力|出力|生成)(?<!最大の)"
                                r"(?:令牌|權杖|トークン|토큰|टोकन)(?!数|數|数量|數量|上限|限制|个数|預算|预算|用量|桶|の数|の上限| ?수| ?한도"
                                r"| ?제한| ?사용량| की संख्या| सीमा| गणना)|رمز (?:ال)?وصول|الرمز المميز|رمز مميز|אסימון (?:גישה|אימות|רענון|api)")),
    ("private key", "part", _S.format(r"私钥|私鑰|秘密鍵|秘密キー|개인 ?키|المفتاح الخاص|निजी कुंजी|מפתח פרטי|คีย์ ?ส่วนตัว")),
    ("recovery phrase", "part", _S.format(r"助记词|助記詞|恢复短语|恢復短語|种子短语|種子短語|シードフレーズ|リカバリーフレーズ|復元フレーズ"
                                          r"|ニーモニック|시드 ?문구|복구 ?문구|니모닉|عبارة (?:ال)?استرداد|العبارة السرية|बीज वाक्यांश"
                                          r"|रिकवरी वाक्यांश")),
    ("connection string", "part", _S.format(r"连接字符串|連接字串|連線字串|接続文字列|연결 ?문자열|سلسلة الاتصال")),
    ("session cookie", "part", _S.format(r"会话 ?cookie|會話 ?cookie|セッション ?(?:クッキー|cookie)|세션 ?쿠키")),
    ("authorization header", "part", _S.format(r"授权头|認証ヘッダー|인증 ?헤더")),
    ("recovery code", "part", _S.format(r"恢复码|备用码|恢復碼|備用碼|リカバリーコード|バックアップコード|복구 ?코드|백업 ?코드"
                                        r"|رموز الاسترداد|रिकवरी कोड|बैकअप कोड")),
    ("security answer", "part", _S.format(r"密保答案|安全问题答案|安全問題答案|秘密の質問の答え|秘密の答え|보안 ?질문(?:의)? ?(?:답|답변)"
                                          r"|إجابة سؤال الأمان|सुरक्षा प्रश्न का उत्तर")),
    ("card number", "part", _S.format(r"(?:卡号|卡號)(?!后四|後四|末四|尾号|尾號)|信用卡(?!公司|类型|類型|品牌|末|后四|後四|尾号|尾號)|カード番号|クレジットカード(?!会社|の種類|ブランド)"
                                      r"|카드 ?번호|신용 ?카드|رقم (?:ال)?بطاق|بطاقة (?:ال)?ائتمان|कार्ड (?:नंबर|संख्या|नम्बर)"
                                      r"|क्रेडिट कार्ड|डेबिट कार्ड|מספר כרטיס|כרטיס אשראי|หมายเลขบัตร")),
    ("card security code", "part", _S.format(r"安全码|安全碼|セキュリティコード|보안 ?코드|رمز الأمان|सुरक्षा कोड")),
    ("card expiry", "part", _S.format(r"卡有效期|カードの有効期限|카드 ?유효 ?기간|تاريخ انتهاء البطاقة|कार्ड की समाप्ति")),
    ("credential", "part", _S.format(r"凭证|凭据|憑證|憑據|資格情報|認証情報|자격 ?증명|인증 ?정보|بيانات (?:ال)?اعتماد|بيانات الدخول"
                                     r"|क्रेडेंशियल|लॉगिन विवरण")),
)


def _table_entries() -> tuple[tuple[str, str, str], ...]:
    """The per-language tables of `askback.core.secret_words`, one whole-word and one anywhere entry per label."""
    entries: list[tuple[str, str, str]] = []
    labels = dict.fromkeys(label for table in (*WORDS.values(), *PARTS.values()) for label in table)
    for label in labels:
        words = [rx for table in WORDS.values() for rx in table.get(label, ())]
        parts = [rx for table in PARTS.values() for rx in table.get(label, ())]
        if words:
            entries.append((label, "strong", _W.format("|".join(words))))
        if parts:
            entries.append((label, "part", _S.format("|".join(parts))))
    return tuple(entries)


# Abbreviations of payment forms: "exp date", "expDate" is a card's expiry unless the text says what else expires.
_EXP_DATE = ("card expiry", "exp_date", _W.format(r"exp ?dates?"))
# Phrases first, bare words last: at one position the first entry that matches wins, and "clave de la API" must be
# read as an API key before "clave" alone is weighed. Arabic-script phrases are folded as texts are (ARABIC_FOLD).
def _arabic_folded(rx: str) -> str:
    """`rx.translate(ARABIC_FOLD)`, as one replacement per letter: `translate` looks each character of the table
    up in turn, most of what building it cost (no letter is folded into another that is folded again)."""
    for letter, folded in ARABIC_FOLD.items():
        rx = rx.replace(chr(letter), folded)
    return rx


_ENTRIES = tuple(
    (label, kind, unicodedata.normalize("NFKC", _arabic_folded(rx)))
    for label, kind, rx in sorted((*_ENTRIES, *_table_entries(), _EXP_DATE), key=lambda entry: entry[1].startswith("bare_"))
)
_WORD_START = "(?<!\\w)"


@cache
def _index() -> PhraseIndex | None:
    """The table's pieces and their two-character beginnings, read ahead of time, if the snapshot is this table's."""
    from askback.core.secret_index import load

    return load([rx for _, _, rx in _ENTRIES])


@cache
def _pieces() -> tuple[tuple[str, str], ...]:
    index = _index()
    if index is not None:
        return index.pieces
    from askback.core.secret_table import _derived_pieces  # a stale snapshot: the table is read here

    return _derived_pieces()


def _infix_stem(piece: str) -> str | None:
    """The stem of a compound piece (`\\w*(?:kreditkarte|...)\\w*`), or None for any other piece."""
    head, tail = "(?:\\w*", "\\w*)(?!\\w)"
    stem = piece[len(head):-len(tail)] if piece.startswith(head) and piece.endswith(tail) else None
    return stem if stem and " " not in stem else None  # a stem of one word only: it is searched inside words


@cache
def _infix_matcher() -> re.Pattern[str]:
    """Compounds: their stems, searched anywhere in the text, each match then widened to its whole word."""
    stems = [(name, _infix_stem(piece)) for name, piece in _pieces()]
    return re.compile("|".join(f"(?P<{n}>{stem})" for n, stem in stems if stem) or "(?!)")


class _Dispatch:
    """One matcher per beginning of a word, holding only the phrases that can start with it.

    A text is matched word by word; at each word only the phrases that can begin with its first `width`
    characters are tried, instead of every phrase. Each entry's alternatives become their own groups
    (`g<entry>x<n>`), in order: at one position the first that matches wins, as in a single alternation, and a
    phrase that cannot begin there could not have matched. A matcher is compiled the first time a word needs it:
    compiling all of them is most of what importing this module would cost, and a server's questions start in
    few distinct ways. `starts` gives, per piece, the beginnings it can match (`width` characters, or a whole
    shorter match), or None for a piece tried at every word: those are one matcher of their own (`everywhere`),
    compiled once instead of inside every other, and at a word the piece that comes first in the table wins.
    """

    def __init__(self, pieces: Sequence[tuple[str, str]], starts: Mapping[str, frozenset[str] | None],
                 width: int) -> None:
        self._pieces = tuple(pieces)
        self._always: list[int] = []
        self._by_start: dict[str, list[int]] = {}  # a beginning of `width` characters -> pieces
        self._by_short: dict[str, list[int]] = {}  # a shorter whole match -> pieces (a word ending early)
        for i, (name, _) in enumerate(self._pieces):
            begins = starts[name]
            if begins is None:
                self._always.append(i)
                continue
            for begin in begins:
                (self._by_start if len(begin) == width else self._by_short).setdefault(begin, []).append(i)
        self.word_starts = re.compile(r"(?<!\w)\w" + r".?" * (width - 1), re.DOTALL)  # a word's first characters
        self._compiled: dict[str, re.Pattern[str]] = {}
        self._by_choice: dict[tuple[int, ...], re.Pattern[str]] = {}
        self.everywhere = self._compile(tuple(self._always))
        self.order = {name: i for i, (name, _) in enumerate(self._pieces)}  # a piece's place in the table

    def matcher(self, begin: str) -> re.Pattern[str]:
        """The matcher for a word beginning with `begin` (its first `width` characters, fewer at the end)."""
        # Bounded by the table, whatever the texts: a beginning no piece names shares the matcher of what it
        # can still match (the pieces of its shorter beginnings, those tried everywhere).
        key = begin if begin in self._by_start else self._short_key(begin)
        compiled = self._compiled.get(key)
        if compiled is None:
            chosen = set(self._by_start.get(key, ()))
            for end in range(len(key) + 1):
                chosen.update(self._by_short.get(key[:end], ()))
            compiled = self._compiled[key] = self._compile(tuple(sorted(chosen)))
        return compiled

    def _compile(self, choice: tuple[int, ...]) -> re.Pattern[str]:
        compiled = self._by_choice.get(choice)
        if compiled is None:
            pattern = "|".join(f"(?P<{self._pieces[i][0]}>{self._pieces[i][1]})" for i in choice)
            compiled = self._by_choice[choice] = re.compile(pattern or "(?!)")
        return compiled

    def _short_key(self, begin: str) -> str:
        for end in range(len(begin), 0, -1):
            if begin[:end] in self._by_short:
                return begin[:end]
        return ""


@cache
def _dispatch() -> _Dispatch:
    """Built on the first check, not at import: a program that never checks a form never pays for it.

    From the snapshot of the table (`askback.core.secret_index`) when it is this table's: two characters choose
    a word's matcher. Otherwise the first characters are read here (slower to start, same matches).
    """
    index = _index()
    pieces = [(n, p) for n, p in _pieces() if _infix_stem(p) is None]
    if index is not None:
        return _Dispatch(pieces, index.starts, index.width)
    from askback.core.secret_table import _piece_first_chars

    return _Dispatch(pieces, {name: _piece_first_chars(piece) for name, piece in pieces}, 1)


_LONG_WORDS = re.compile(r"\w{7,}")


@cache
def _part_matcher() -> re.Pattern[str]:
    """Phrases in scripts written without spaces (and Arabic, Devanagari, Hangul...): tried anywhere, and only
    when the text has a character of those scripts."""
    return re.compile(
        "|".join(f"(?P<g{i}>{rx})" for i, (_, _, rx) in enumerate(_ENTRIES) if not rx.startswith(_WORD_START))
    )

_PARTS_FROM = "\u0590"  # Hebrew onwards: scripts whose phrases `_part_matcher` tries


def _needs_parts(words: str) -> bool:
    """Whether `words` has a character from U+0590 on (a regex class up to U+10FFFF costs ms to compile)."""
    return bool(words) and max(words) >= _PARTS_FROM


def _matches(words: str) -> Iterator[tuple[str, int, int]]:
    """(group, start, end) of every phrase in `words`, a phrase's words first, then compounds, then other scripts."""
    dispatch = _dispatch()
    everywhere, order = dispatch.everywhere, dispatch.order
    for start in dispatch.word_starts.finditer(words):
        match = dispatch.matcher(start.group(0)).match(words, start.start())
        other = everywhere.match(words, start.start())
        if other and (not match or order[other.lastgroup or ""] < order[match.lastgroup or ""]):
            match = other  # the phrase that comes first in the table, as in one alternation
        if match and match.lastgroup:
            yield match.lastgroup, match.start(), match.end()
    for word in _LONG_WORDS.finditer(words):  # a compound is a long word: search only those
        for match in _infix_matcher().finditer(words, word.start(), word.end()):
            if match.lastgroup:
                yield match.lastgroup, word.start(), word.end()
    if _needs_parts(words):
        for match in _part_matcher().finditer(words):
            if match.lastgroup:
                yield match.lastgroup, match.start(), match.end()


# --------------------------------------------------------------------------------------------------------------
# Neighbours that make an occurrence ordinary.

def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# A word after the phrase that makes it about the credential, not the credential itself (its policy, its length,
# its name or id, where it is kept, how many there are).
_SETTING_AFTER = _set(
    "resets olvidada olvidado oublie oubliee vergessen dimenticata esquecida forgotten vergeten glomt zapomniane "
    "hint hints policy policies length len lengths strength rule rules requirement requirements complexity "
    "expiry expiration expires expire expired age ttl lifetime history count counts limit limits quota quotas "
    "min max minimum maximum protected enabled disabled required optional enforced changed change reset name "
    "names label labels id ids identifier type types kind format formats pattern regex placeholder manager "
    "managers validator validation rotation rotated created updated version versions scope scopes permission "
    "permissions usage used budget budgets price prices cost costs path paths file files filename location "
    "url urls uri endpoint issuer provider providers algorithm alg size bits fingerprint status mode method "
    "methods field fields display visibility visible show mask masking prefix generator attempts tries "
    "retries expiry_date level levels strategy strategies settings setting config configuration option "
    "options alias aliases arn ref reference references store storage vault engine backend rate window "
    "sequence sequences ids_list stream position positions index offset offsets logprobs logprob probability "
    "probabilities embedding embeddings distribution frequency speed throughput latency symbol symbols "
    "standard standards address addresses amount amounts balance balances contract supply decimals ticker "
    "economy bucket buckets timeout interval duration lifespan validity owner owners description descriptions "
    "title titles estimate estimated estimation estimates counting counter metadata hash_algorithm "
    "salt_rounds rounds iterations longitud politica pista requisitos longueur politique indice lunghezza "
    "suggerimento lange richtlinie hinweis lengte beleid tip langd dlugosc polityka podpowiedz delka zasady "
    "napoveda uzunluk politika ipucu длина политика подсказка довжина підказка μηκοσ πολιτικη υποδειξη anzahl "
    "aantal antal liczba pocet sayisi sayısı количество кількість αριθμοσ nombre numero quantidade cantidad "
    "quantita limite лимит ліміт οριο grenze ring last reminder reminders notification notifications alert "
    "alerts warning warnings color colour colors colours docs doc documentation guide help tutorial mindestlange hochstlange maximallange "
    "minimallange"
)
# A word before the phrase that counts it or says it is a model's unit: max_tokens, number of tokens, input tokens.
# In a name, a setting word a little further on still names a setting: totp_digits, otp_channel, mnemonic_language.
_SETTING_AFTER_NAME = _set("channel channels digits period remaining language languages diameter retry retries tier "
                           "tiers algorithm mm")
_COUNT_BEFORE = _set(
    "max maximum min minimum num number numbers total count counts limit limits many much amount quantity "
    "average avg mean luong jumlah so kac berapa nhieu viele combien cuantos cuantas quantos quantas quanti quante "
    "hoeveel manga ile kolik сколько скільки ποσα ποσοι 多少 いくつ 몇 maximo minimo minima maxima massima minime massime minimos minimas maximos maximas numero cantidad limite nombre quantite maximal maximale maximalen "
    "maximaler minimal minimale anzahl hochstzahl massimo quantita maximaal minimaal aantal maximalt antal "
    "maksymalna maksymalny maksymalnie minimalna liczba maximalni minimalni pocet maksimum azami максимальное "
    "максимальная максимальный максимального максимальну максимум минимальное количество число максимальна "
    "максимальний максимальне максимальної кількість μεγιστοσ μεγιστο μεγιστη αριθμοσ ελαχιστοσ 最大 最多 最小 数 數 "
    "数量 數量 上限 個数 个数 수 개수 최대 최소 한도 अधिकतम संख्या"
)
_MODEL_UNIT_BEFORE = _set(
    "input output completion completions prompt prompts context reasoning thinking cached cache generated "
    "remaining used stop special eos bos pad unk cls sep vocab vocabulary llm model gpt bpe subword word "
    "start end tokenizer per entrada salida saida sortie entree uscita ingresso eingabe ausgabe invoer "
    "uitvoer utdata indata wejsciowych wyjsciowych vstupnich vystupnich giris cikis входных выходных вхідних "
    "вихідних εισοδου εξοδου"
)
# Words anywhere in a text that make a bare "pin" a connector, a map marker or pinning something to the top.
_PIN_ORDINARY_CONTEXT = _set(
    "gpio led leds sensor sensors servo servos motor motors pwm i2c spi uart arduino raspberry breadboard "
    "relay relays voltage pcb microcontroller esp32 esp8266 pico bcm wiring gnd vcc pinout analog analogue "
    "adc dac sda scl jumper pullup pulldown interrupt mosi miso sck connector socket plug chip chips board "
    "boards header headers button buttons map maps marker markers location locations drop dropped hair "
    "bowling grenade lapel badge cushion message messages post posts comment comments tweet tweets chat chats "
    "diameter tab tabs dashboard sidebar thread threads channel channels repo repository issue issues dependency "
    "dependencies package packages version versions pinned pinning pins pinboard"
)
_PIN_HARDWARE = _set(
    "gpio led leds sensor sensors servo servos motor motors pwm i2c spi uart arduino raspberry breadboard "
    "relay voltage pcb microcontroller esp32 esp8266 pico bcm wiring gnd vcc pinout analog analogue adc dac "
    "sda scl jumper pullup pulldown interrupt mosi miso sck connector socket header headers chip board"
)
_PIN_ORDINARY_AFTER = _set(
    "diameter length width height thread pitch spacing mm to it this that the a an top mode state count out layout header headers position location icon color "
    "colour board on onto up down direction value values function assignment mapping voltage pull latitude "
    "longitude lat lng lon coordinates coordinate"
)
_PIN_CREDENTIAL_CUES = _set(
    "card bank atm debit credit sim phone device account wallet security personal secret your my new old "
    "current confirm enter type unlock lock digit digits code codes number no num user login banking purchase "
    "payment transaction"
)
_PASS_ORDINARY = _set(
    "battle boarding season bus day hall free ski backstage press visitor first second single multi two render "
    "mountain by park gym museum metro transit train rail travel vip festival event weekly monthly annual "
    "yearly week month year rate fail failed count through threshold mark percentage score grade type holder "
    "holders number id check criteria a the"
)
_COOKIE_ORDINARY_AFTER = _set(
    "consent consents policy policies banner banners preference preferences settings setting name names "
    "domain domains path expiry expiration recipe recipes law laws notice notices count counts flavor flavour "
    "flavors type types category categories duration lifetime size sizes limit tin cutter dough clicker "
    "accepted allowed blocked rejected samesite secure httponly flags flag attribute attributes"
)
_COOKIE_ORDINARY_BEFORE = _set(
    "fortune chocolate chip oatmeal sugar ginger butter accept reject tracking analytics marketing third "
    "party essential necessary functional performance advertising baked bake cookie allow block enable "
    "disable clear delete use recette receta ricetta rezept recept przepis recipe batch dozen box jar tin plate "
    "baking"
)
_AUTH_ORDINARY_AFTER = _set(
    "method methods scheme schemes flow flows provider providers mode modes type types url urls endpoint "
    "endpoints server servers domain domains realm service services level levels status required enabled "
    "disabled config configuration settings setting strategy strategies options option plugin plugins library "
    "libraries request requests form forms date dates number numbers letter letters process workflow prior "
    "user username users email login name id account accounts group groups role roles 0 server_url"
)
_AUTH_ORDINARY_BEFORE = _set("prior pre travel parental work medical payment insurance o two multi no without")
_QUEUE_TICKET = _set("atendimento guiche fila chamada")
_PRODUCT = _set("producto productos catalogo articulo sku")
_IDIOM_NOUN_START = _set("a an the good great perfect success happiness long making life")
_RULE_BEFORE = _set("require requires required symbol symbols uppercase lowercase")
_ACCOUNT_PART = _set("username usernames user_name login_name")
_SECRET_ORDINARY_BEFORE = _set("top open trade dirty best kept little guilty santa family military state amigo")
_SECRET_ORDINARY_AFTER = _set(
    "santa menu menus garden recipe recipes service services agent agents society level room ingredient sauce "
    "mission missions passage passages door"
)
_CLAVE_ORDINARY_BEFORE = _set(
    "palabra palabras punto puntos idea ideas factor factores dato datos elemento elementos pregunta "
    "preguntas tema temas momento cifra cifras pieza papel figura aspecto aspectos concepto conceptos termino "
    "terminos en mensaje mensajes jugador jugadores persona personas fecha fechas"
)
_CLAVE_ORDINARY_AFTER = _set(
    "primaria primarias foranea foraneas externa externas publica publicas valor principal compuesta unica de "
    "chiave chiavi d"
)
_CARD_ORDINARY_AFTER = _set(
    "type types brand brands issuer issuers network networks holder holders holder_name name names statement "
    "statements bill bills balance balances limit limits company companies provider providers fee fees points "
    "rewards reward offer offers interest apr due debt last ending surcharge processing processor payments "
    "transactions charges charge game games color colour colors title titles image images design designs "
    "template templates style styles layout theme deck decks reader readers terminal terminals count counts"
)
_BOOKINGS = _set(
    "booking reservation order flight ticket hotel shipping delivery purchase trip rental airline travel "
    "appointment reserva pedido"
)
_OF = _set("of de du des del della dello di der des van av for för для від του τησ")
_ABOUT_IT = _set("reset forgot forgotten forget recover has requires needs reestablecer olvido oublie vergessen")
# "users must change their password": a rule about someone's password, not a request for one.
_CHANGE_VERBS = _set("change changes changed rotate rotates update updates renew renews reset resets")
_THIRD_PERSON = _set("their his her its")
# "Which authentication method to offer: password, passkey or SSO": the credential is an option's name.
_CHOICE_WORDS = _set("method methods mode modes mechanism mechanisms methode methoden metodo metodos metoda")
# Hasło and heslo also mean a slogan or a dictionary headword.
_SLOGAN_CONTEXT = _set(
    "reklamowe reklamowy reklamowego reklamni reklamniho kampanii kampane kampan wyborcze wyborczy przewodnie "
    "przewodni slownik slowniku slownikowe slownikowy krzyzowki krzyzowka dnia volebni hlavni encyklopedii "
    "encyklopedie haslem reklama marketingowe firmy slovnik slovniku slovniky heslar krizovka krizovky tajenka"
)
# Where a bare "code" came from when it is a one-time code.
_CODE_CUES = _set(
    "sms smsem smsa tekstiviestilla tekstiviestina foonu texted authenticator autenticador autenticatore authentificateur authenticatorapp otp totp "
    "2fa mfa смс bankid"
)
_CODE_ORDINARY_BEFORE = _set(
    "postal zip country area post discount promo coupon source language iso currency product airport colour "
    "color error status http"
)
# Whatever the wallet is called, the numbered words are its recovery phrase.
_WALLET_CONTEXT = _set(
    "wallet wallets seed recovery restore mnemonic crypto bitcoin ethereum metamask ledger trezor bip39 bip 39"
)
_NEGATIONS = _set("not never no without dont nunca jamais nie nikdy asla никогда ніколи ποτε")


_TOKEN_GAMES = _set("jeu jeux game games casino arcade poker juego gioco spiel laundry subway bus ring")
# Words near a credential word, in any language of `secret_words`, that make it a setting about the credential.
_SETTING_NEAR = _lazy(r"(?<!\w)(?:" + "|".join(SETTINGS) + r")(?!\w)")
_SETTING_PART = _lazy(
    lambda: "|".join(re.escape(unicodedata.normalize("NFKC", part.translate(ARABIC_FOLD))) for part in SETTING_PARTS))
# Inside one compound word ("passwordminlength", "lösenordslängd", "passwordstrengthscore").
_SETTING_INSIDE = _lazy(r"length|minlen|maxlen|lange|langd|lengde|laengde|lengte|pituu|strength|starke|styrk"
                        r"|score|policy|richtlinie|complexity|requirement|hint|hazirend")
# A yes/no named after the credential: is_password_set, hasPin, ispasswordset.
_BOOLEAN_HEAD = _set("is has have should must can needs need requires require was were did uses use allow allows")
_BOOLEAN_TAIL = ("set", "enabled", "required", "changed", "expired", "valid", "present", "configured", "missing",
                 "needed", "exists", "known", "saved", "stored", "verified")
# An Indian postal code is a "PIN code" (Postal Index Number): six digits for an address, not a secret.
_POSTAL = _set("postal post postcode zip delivery area address shipping courier india indian district locality city "
               "pincode_lookup office village town gpo ટપાલ સરનામું ਡਾਕ ಅಂಚೆ തപാൽ ডাক")
# PAN is also India's tax id: a "PAN card" is a tax card; the tax words say so too.
_INDIAN_TAX = _set("india indian tax income aadhaar aadhar gst itr kyc")
_PAN_CARD = re.compile(r"(?i)(?<![a-z])pan[ _.-]?card|PanCard|पैन|पॅन")
_PAN_ORDINARY = _set("angle tilt zoom speed camera ptz degrees degree position axis frying cake baking kitchen audio "
                     "stereo left right balance motion scroll zooming gesture")
_PAN_MASKED = _set("masked truncated last4 last obfuscated redacted hidden")
_ID_CARD_BEFORE = _set("id identity national student library membership loyalty insurance health voter شناختي قومي")
_TOKEN_CONTEXT = _set("ring arcade casino laundry subway")
# "Public key", "公開鍵": the other half of a key pair, published on purpose.
_PUBLIC = _set("public pub publique publica publico pubblica offentlich offentlicher öffentlich publiczny verejny "
               "публичный открытый публічний відкритий δημοσιο")
# What else has an "exp date": documents, offers, food.
_EXP_ELSEWHERE = _set("coupon voucher passport visa license licence id document certificate cert warranty "
                      "subscription product food milk membership trial offer domain token cookie session contract")
_NUMBER_WORDS = _set("numero number no nr nummer numer cislo szam номер αριθμοσ")
# Italian "parola" is a word; Romanian "parola" and Turkish "parola" are a password.
_ITALIAN_PAROLA_BEFORE = _set("una la ogni questa quella della alla sulla nella di prima ultima sola stessa")
_ITALIAN_WORDS = _set("il della delle che per gli nel questa una sono scrivi indovina frase")
_TOKEN_PLURALS = _set("jetons tokenow gettoni διακριτικα токены токенов токенам токенами токенах")


def _ordinary_here(
    kind: str, matched: str, before: list[str], after: list[str], count: int, text: _Text, label: str = "",
    window: str = "",
) -> bool:
    """Whether this occurrence of a credential phrase, with these neighbours, names an ordinary value."""
    nxt = after[0] if after else ""
    purpose = (nxt == "used" and after[1:2] in (["to"], ["for"], ["by"], ["when"])) or (
        nxt in ("file", "files") and after[1:2] in (["contents"], ["content"], ["text"], ["body"], ["data"])
    )  # "the token used to authenticate", "the private key file contents": the credential itself
    if text.states and kind != "purpose":
        return True  # "Your password was changed", "must be at least 8 characters": a report or a rule, no request
    if text.yes_no:
        return True  # "Whether new accounts must set a password": a yes or no about a credential, never one
    if text.identifier and (set(before[:2]) & _BOOLEAN_HEAD or (
            " " not in matched and matched[:2] in ("is", "ha") and matched.endswith(_BOOLEAN_TAIL))):
        return True  # is_password_set, hasPin, ispasswordset: a boolean's name
    if kind != "purpose" and not purpose:
        if _SETTING_NEAR.search(" ".join(before[-4:])) or _SETTING_NEAR.search(" ".join(after[:2])):
            return True  # "Minimalna długość hasła", "A jelszó minimális hossza", "password policy"
        if text.non_latin and _SETTING_PART.search(window):
            return True  # "密码最小长度", "ความยาวขั้นต่ำของรหัสผ่าน", "الحد الأدنى لطول كلمة المرور"
        if " " not in matched and len(matched) > 9 and _SETTING_INSIDE.search(matched):
            return True  # passwordminlength, lösenordslängd
        if text.identifier and set(after[:3]) & (_SETTING_AFTER | _SETTING_AFTER_NAME):
            return True  # password_hash_algorithm, pin_retry_limit, seed_phrase_word_count: a setting's name
    if before[-1:] and before[-1] in _PUBLIC and kind in ("strong", "part") and label in ("private key", "API key"):
        return True  # "your public PGP key block": the public half
    if label == "private key" and set(before[-4:]) & _PUBLIC and "part" in before[-4:]:
        return True  # "the public part of your SSH key"
    if label == "password" and text.context & _QUEUE_TICKET:
        return True  # "senha de atendimento": Portuguese for a queue ticket's number
    if kind == "bare_clave" and after[1:2] and after[1] in _PRODUCT:
        return True  # "Clave del producto": a product's key in a catalogue
    if label == "private key" and "jwks" in text.context:
        return True  # a JWKS endpoint publishes the public halves of signing keys
    if label == "card number" and (text.pan_card or (before[-1:] and before[-1] in _ID_CARD_BEFORE)):
        return True  # "PAN card number" (India's tax id card), "ID card number", "شناختی کارڈ نمبر"
    if label == "secret" and nxt in _SECRET_ORDINARY_AFTER:
        return True  # "app secret santa group"
    if label == "secret" and nxt == "to" and after[1:2] and after[1] in _IDIOM_NOUN_START:
        return True  # "the secret to a good sourdough": an idiom; "the secret to call the API" names a credential
    if set(before[-4:]) & _RULE_BEFORE and not purpose:
        return True  # "Require a symbol in passwords", "characters required in user passwords": a rule
    if text.identifier and set(after[:3]) & _ACCOUNT_PART:
        return True  # creds/db/username: the credential's user name
    if label == "password" and matched.endswith("pass") and nxt in _PASS_ORDINARY:
        return True  # "app pass fail threshold": a pass or a fail
    if label == "PIN" and text.context & _POSTAL and kind in ("pin", "bare_pin", "strong", "part"):
        return True  # "postal PIN code", "delivery_pincode": an Indian postal code
    if nxt in ("file", "files") and set(before[-4:]) & {"contents", "content", "paste", "body", "text"}:
        return False  # "contents of your ~/.ssh/id_ed25519 file": the key itself
    if nxt in ("file", "files") and matched.endswith(("key", "keys")) and after[1:2] in (["for"], ["of"], ["from"]):
        return False  # "the JSON key file for the service account": the file is the credential
    if kind in ("card", "strong") and label == "card number" and nxt in _NUMBER_WORDS:
        return False  # "luottokortin numero": the card's number
    if nxt in _SETTING_AFTER and not purpose:  # "the token used to authenticate" says what it is for
        return True  # password_min_length, token_count, api_key_id, secret_name
    if before and before[-1] in _COUNT_BEFORE:
        return True  # max_tokens, min_password...
    if len(before) >= 2 and before[-1] == "of" and before[-2] in _COUNT_BEFORE:
        return True  # number of tokens
    for i in range(len(before) - 1, max(len(before) - 4, 0) - 1, -1):
        if before[i] in _OF and i > 0 and (before[i - 1] in _SETTING_AFTER or before[i - 1] in _COUNT_BEFORE):
            return True  # "the name of the API key", "longueur minimale du mot de passe"
    if set(before[-2:]) & _ABOUT_IT:
        return True  # "reset your password?", "forgot your PIN?": about the credential, not asking for it
    if before[-1:] and before[-1] in _THIRD_PERSON and before[-2:-1] and before[-2] in _CHANGE_VERBS:
        return True  # "users must change their password"
    if set(before[-4:]) & _CHOICE_WORDS:
        return True  # "authentication method: password, passkey or SSO"
    if set(before[-5:]) & _NEGATIONS and count > 3:
        return True  # "do not paste your password here": a warning, not a request
    if kind == "bare_token":
        if set(before[-2:] + after[:2]) & _TOKEN_GAMES or text.context & _TOKEN_CONTEXT:
            return True  # a game's or an arcade's token
        if matched.endswith("s") or matched in _TOKEN_PLURALS or matched.startswith("belirtecler"):
            return True  # "tokens", "input tokens": the model's unit, counted
        if count <= 4 and text.context & _COUNT_BEFORE:
            return True  # a short label counting tokens, in whichever reading ("Αριθμός token" folded to Latin)
        # Only the next word counts it ("tokens count"): "paste your token here so..." is no count.
        return bool(set(before[-3:]) & (_COUNT_BEFORE | _MODEL_UNIT_BEFORE) or set(after[:1]) & _COUNT_BEFORE)
    if kind == "pin":
        return bool(text.context & _PIN_HARDWARE)
    if kind == "bare_pin":
        if matched != "pin" and matched not in ("pinnummer", "pinnumber"):
            return True  # "pins": connectors, pinned posts
        if count == 1:
            return False
        if text.context & _PIN_ORDINARY_CONTEXT or nxt in _PIN_ORDINARY_AFTER:
            return True
        if set(before[-2:]) & _PIN_CREDENTIAL_CUES or nxt in _PIN_CREDENTIAL_CUES or text.shouts_pin:
            return False
        return count > 3  # a short name ("pin_hash") means the PIN; a sentence without cues does not
    if kind == "bare_pass":
        return count > 3 or bool(set(before[-1:]) & _PASS_ORDINARY or nxt in _PASS_ORDINARY)
    if kind == "bare_pan":
        if set(before[-1:]) & _PAN_MASKED or nxt in ("x", "y", "z", "axis"):
            return True  # masked_pan shows four digits at most; pan_x is a camera's axis
        if text.pan_card or text.context & (_INDIAN_TAX | _PAN_ORDINARY):
            return True  # India's Permanent Account Number (a tax id), a camera's pan, a frying pan
        # A short name (pan, card_pan, APP_PAN, pan_2) is the card's Primary Account Number; in prose, a pan.
        return not (count <= 3 or (before and before[-1] in ("card", "payment", "cc")))
    if kind == "exp_date":
        return bool(text.context & _EXP_ELSEWHERE)
    if kind == "bare_secret":
        return bool(set(before[-1:]) & _SECRET_ORDINARY_BEFORE or nxt in _SECRET_ORDINARY_AFTER)
    if kind == "bare_cookie":
        if nxt in _COOKIE_ORDINARY_AFTER or set(before[-2:]) & _COOKIE_ORDINARY_BEFORE:
            return True
        return matched.endswith("s") and count > 3
    if kind == "bare_auth":
        return count > 3 or nxt in _AUTH_ORDINARY_AFTER or bool(set(before[-1:]) & _AUTH_ORDINARY_BEFORE)
    if kind == "bare_clave":
        if matched == "parola":
            if nxt in ("chiave", "chiavi") or set(before[-1:]) & _ITALIAN_PAROLA_BEFORE:
                return True  # "parola chiave", "una parola": Italian, a word
            return bool(text.context & _ITALIAN_WORDS) or count > 6
        return bool(set(before[-1:]) & _CLAVE_ORDINARY_BEFORE or nxt in _CLAVE_ORDINARY_AFTER)
    if kind == "purpose":
        return bool(set(before[-3:]) & (_SETTING_AFTER | _CHOICE_WORDS))  # "the algorithm used to decrypt"
    if kind == "slogan":
        return bool(set(before[-2:] + after[:2]) & _SLOGAN_CONTEXT)
    if kind == "bare_tan":
        return not (text.shouts_tan or count == 1)  # "TAN", a field named `tan`: a bank's transaction number
    if kind == "whole_name":
        return count != 1  # `tok`, `tkn`, `sk`: a credential only as the whole name
    if kind == "bare_code":
        return not (text.context & _CODE_CUES) or bool(set(before[-2:]) & _CODE_ORDINARY_BEFORE)
    if kind == "words_count":
        return not (text.context & _WALLET_CONTEXT)
    if kind == "short_label":
        return count > 3 and nxt not in ("tin", "ngan", "ghi", "atm")
    if kind == "confirmation":
        return bool(set(before[-2:]) & _BOOKINGS)
    if kind == "card":
        return bool(nxt in _CARD_ORDINARY_AFTER or "last" in before[-5:] or "ultimos" in before[-5:])
    return False


@dataclass(frozen=True)
class _Text:
    """What holds for a whole text, whichever reading of it is matched."""

    context: frozenset[str]  # every word of every reading
    shouts_pin: bool  # "PIN" in capitals inside a text that is not all capitals: the credential, not a connector
    shouts_tan: bool  # "TAN" in capitals likewise: a bank's one-time transaction number
    yes_no: bool  # the text asks or describes a yes/no ("Whether ..."), so it never asks for the credential itself
    identifier: bool = False  # one identifier (no spaces): is_password_set names a boolean
    non_latin: bool = False  # a character beyond Latin, Greek and Cyrillic: the setting substrings are searched
    pan_card: bool = False  # "PAN card" as written: India's tax id card, whatever follows
    readings: tuple[str, ...] = ()  # the text's readings, the first as written

    @cached_property
    def states(self) -> bool:
        """A report of a credential's state or a rule about it, with no request verb: read when a phrase found in
        the text is weighed, not for every text (most hold none)."""
        return _states(self.readings)


_NEAR = 240  # characters either side of a phrase that its neighbours are read from


# Stems of credential words as they read backwards ("drowssap" holds "ssap"): a cheap test before a reversed reading.
_REVERSED_STEM = re.compile("|".join(w[::-1] for w in (
    "pass", "pwd", "word", "key", "secret", "cret", "token", "tok", "pin", "cvv", "cvc", "card", "seed", "phrase",
    "otp", "code", "auth", "cred", "priv", "sess", "cookie", "mnemonic", "iban", "ssn", "api")))
# Kinds a reversed reading may match: whole phrases, never the short words a reversal makes by chance ("nap": "pan").
_REVERSIBLE = frozenset(("strong", "part", "compound"))


def _term_in(words: str, text: _Text, reversed_text: bool = False) -> str | None:
    count = words.count(" ") + 1
    for group, start, end in _matches(words):
        label, kind, _ = _ENTRIES[int(group.partition("x")[0][1:])]
        if reversed_text and kind not in _REVERSIBLE:
            continue
        # Only the nearest words matter, and reading a bounded window keeps a long text linear, not quadratic.
        before = words[max(0, start - _NEAR) : start].split()[-6:]
        after = words[end : end + _NEAR].split()[:3]
        window = words[max(0, start - 16) : start] + " | " + words[end : end + 16]
        if not _ordinary_here(kind, words[start:end].strip(), before, after, count, text, label, window):
            return label
    return None


def _fragments(words: tuple[str, ...], parts: tuple[str, ...]) -> re.Pattern[str]:
    def source() -> str:
        whole = r"(?<!\w)(?:" + "|".join(words) + r")(?!\w)"
        anywhere = "|".join(re.escape(unicodedata.normalize("NFKC", p.translate(ARABIC_FOLD))) for p in parts)
        return whole + "|" + anywhere

    return _lazy(source)  # read only once a phrase was found in a long text


_STATE = _fragments(STATE, STATE_PARTS)
_REQUEST = _fragments(REQUEST, REQUEST_PARTS)


def _states(readings: Sequence[str]) -> bool:
    """Whether the text reports a credential's state or states a rule about it, and asks for nothing."""
    if not readings or (len(readings[0]) < 12 and readings[0].isascii()):
        return False  # a name or a short label ("Password updated" aside) names the field itself
    # The text as written (decoded): a look-alike folding of Arabic or Thai letters is no reading of its verbs.
    return bool(_STATE.search(readings[0])) and not _REQUEST.search(readings[0])


_SHOUTED_PIN = re.compile(r"(?<![A-Za-z])PINs?(?![A-Za-z])")
_SHOUTED_TAN = re.compile(r"(?<![A-Za-z])TANs?(?![A-Za-z])")


def _term(text: str) -> str | None:
    text = _decoded(text)
    readings = _readings(text)
    if "\u202e" in text:  # an override used only to embed keeps its order; one used to hide a word is turned back
        readings += [r for r in _readings(_RTL_OVERRIDE.sub(lambda m: m.group(1)[::-1], text)) if r not in readings]
    shouted = text if text.isascii() else text + " " + _fold_confusables(text)  # "РIN" with a Cyrillic Р
    whole = _Text(
        context=frozenset(w for words in readings for w in words.split()),
        shouts_pin=bool(_SHOUTED_PIN.search(shouted)) and text != text.upper(),
        shouts_tan=bool(_SHOUTED_TAN.search(shouted)) and text != text.upper(),
        yes_no=bool(readings) and readings[0].split(" ", 1)[0] in ("whether", "ob"),
        identifier=not any(c.isspace() for c in text.strip()),
        non_latin=_needs_parts(text),
        pan_card=bool(_PAN_CARD.search(text)),
        readings=tuple(readings),
    )
    for words in readings:
        term = _term_in(words, whole)
        if term:
            return term
    # A name typed backwards ("drowssap", "yek_ipa"): read reversed, for whole phrases only. A text with spaces is
    # not reversed whole: its other words would lose the sense they give ("Mindestlänge des strowssaP").
    if len(text) <= 40 and text.isascii() and not any(c.isspace() for c in text) and _REVERSED_STEM.search(text.lower()):
        backwards = text[::-1]  # one plain reading (and its digits as letters): the tricks are not stacked
        for words in dict.fromkeys((_words(backwards), _words(_unleet(backwards)))):
            term = _term_in(words, whole, reversed_text=True)
            if term:
                return term
    return None


def credential_term(text: str | None) -> str | None:
    """The kind of credential `text` names ("password", "API key"...), or `None` when it reads as ordinary."""
    if not text or not text.strip():
        return None
    # Not memoised here: the core keeps no process-wide state. A server checks each distinct form once
    # (`askback.flow.Flow` remembers the forms it checked, by fingerprint), and registration runs once.
    return _term(text)


def credential_request(text: str | None) -> str | None:
    """The credential `text` asks a person to give ("and type your PIN", "geben Sie Ihr Passwort ein"), or `None`.

    Stricter than `credential_term`, which reads a field's label, where a bare "PIN" asks for one: a caller's
    value shown inside a sentence a person confirms names a thing ("Delete secrets.txt?", memo "PIN") and asks
    for the credential only with a request verb, in any language the guard reads.
    """
    term = credential_term(text)
    if term is None or text is None:
        return None
    return term if any(_REQUEST.search(words) for words in _readings(_decoded(text))) else None


def field_credential(name: str, schema: Mapping[str, Any]) -> str | None:
    """Why the form field `name` with `schema` would ask for a credential, or `None` when it is safe."""
    if schema.get("type") == "boolean":
        return None  # yes or no cannot carry a credential, whatever the question says
    if schema.get("format") == "password" or schema.get("writeOnly") is True:
        return "password"
    numeric = schema.get("type") in ("integer", "number")
    for text in (name, schema.get("title"), schema.get("description")):
        term = credential_term(text if isinstance(text, str) else None)
        if term and not (numeric and term == "token"):  # a number of tokens is a count, never a token
            return term
    return None


class SecretInForm(ValueError):
    """A form would ask for a credential; it must be entered out of band instead."""

    def __init__(self, where: str, field: str, term: str) -> None:
        article = "an" if term[:1].lower() in "aeiou" else "a"
        super().__init__(
            f"{where}: form field {field!r} would ask for {article} {term}. Credentials (passwords, PINs, API keys, "
            "tokens, private keys, recovery phrases, payment card data) are never asked for in a form, where they "
            "would pass through the client and the model's context. Type the parameter as askback.Secret: askback "
            "then asks for it out of band, on a page it serves (MCP URL-mode elicitation)."
        )
        self.field = field
        self.term = term


def guard_form(where: str, requested_schema: Mapping[str, Any], *, message: str | None = None) -> None:
    """Raise `SecretInForm` if any property of a form's `requestedSchema`, or its message, asks for a credential.

    The message counts only when the form has a field that could carry one: "Send with memo 'pin it'?" above a
    yes/no field asks for nothing secret.
    """
    properties = requested_schema.get("properties", {})
    if not isinstance(properties, Mapping):
        return
    carriers: list[str] = []
    for name, schema in properties.items():
        field_schema = schema if isinstance(schema, Mapping) else {}
        term = field_credential(str(name), field_schema)
        if term:
            raise SecretInForm(where, str(name), term)
        if field_schema.get("type") != "boolean":
            carriers.append(str(name))
    if message and carriers:
        term = credential_term(message)
        if term:
            raise SecretInForm(where, carriers[0], term)
