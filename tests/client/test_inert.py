"""Server text made visible and inert for a terminal: a corpus of tricks, and ordinary text left alone.

Also the terminal answerer and the result renderer fed such text: what they write has no control or invisible
character left (colour is off here, so not one ESC may appear).
"""

from __future__ import annotations

import io
import json
import unicodedata
from typing import Any

import pytest

from askback.client import Asked, TerminalAnswerer, render
from askback.client.answerers.terminal import Style
from askback.client.inert import one_line, shown, shown_json
from askback.client.questions import parse_question

pytestmark = pytest.mark.anyio

SPOOF = "x\x1b[2K\rSend 1.00 EUR to own savings"
TRICKS = [
    SPOOF,
    "\x1b[2J\x1b[H",  # clear the screen, cursor home
    "\x1b[1A\x1b[2K",  # up one line and erase it
    "\x1b]0;new title\x07",  # OSC: set the window title, BEL-terminated
    "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",  # OSC 8 hyperlink hiding its target
    "\x1bP+q544e\x1b\\",  # DCS: a terminal query
    "\x1b[6n",  # ask the terminal for the cursor position (typed back as input)
    "\x1b[31mred\x1b[0m",
    "\x9b2K",  # 8-bit CSI
    "\x9d0;title\x9c",  # 8-bit OSC and ST
    "\x85next line (NEL)",
    "abc\rXYZ",
    "one\ntwo",
    "one\r\ntwo",
    "bell\x07",
    "back\x08\x08\x08\x08space",
    "nul\x00byte",
    "del\x7f",
    "tab\tbed",
    "vertical\x0btab and \x0cform feed",
    "IBAN DE44 \u202eto own savings\u202c",  # RIGHT-TO-LEFT OVERRIDE
    "\u202a\u202b\u202d embed and override",
    "\u2066isolate\u2069 \u2067rtl\u2069 \u2068first strong\u2069",
    "\u200elrm \u200frlm \u061calm",
    "zero\u200bwidth\u200cnon\u200djoiner",
    "word\u2060joiner",
    "\ufeffbyte order mark",
    "soft\u00adhyphen",
    "line\u2028separator\u2029paragraph",
    "tag\U000e0041\U000e0042 characters",
    "invisible\u2062times\u2064plus",
    "mongolian\u180evowel separator",
    "\ud800 lone surrogate",
]
ORDINARY = [
    "Send 50 EUR from DE02120300000000202051 to DE44500105175407324931?",
    "Grüße aus Köln — 10 € bitte",
    "日本語のテキスト、パスワードではない",
    "مرحبا بالعالم",  # right-to-left script: shown as is, it moves nothing by itself
    "שלום עולם",
    "Привет, мир",
    "नमस्ते दुनिया",
    "emoji 👍 and ✓",
    "quotes “like” ‘these’ and «these»",
    "a\u00a0non-breaking space and an\u3000ideographic one",
    "math ≤ ≥ ≠ ∑",
]
HIDDEN = ("Cc", "Cf", "Cs", "Zl", "Zp")


def hidden(text: str, *, allow: str = "") -> list[str]:
    return [f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in HIDDEN and c not in allow]


@pytest.mark.parametrize("trick", TRICKS)
def test_every_trick_is_shown_visibly_and_does_nothing(trick: str) -> None:
    assert hidden(one_line(trick)) == []
    assert hidden(shown(trick), allow="\n\t") == []
    assert "\r" not in shown(trick) and "\x1b" not in shown(trick)
    assert one_line(one_line(trick)) == one_line(trick)  # already inert: unchanged the second time
    # Everything visible in the original is still there, in order: nothing is dropped, only made visible.
    visible = [c for c in trick if unicodedata.category(c) not in HIDDEN]
    remaining = iter(one_line(trick))
    assert all(c in remaining for c in visible)


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_in_any_script_is_left_as_it_is(text: str) -> None:
    assert one_line(text) == text and shown(text) == text


def test_the_spoofed_confirmation_reads_as_what_it_is() -> None:
    assert one_line(SPOOF) == "x␛[2K␍Send 1.00 EUR to own savings"
    assert one_line("a\u202eb\u200bc") == "a<U+202E>b<U+200B>c"
    assert one_line("one\ntwo") == "one␤two" and shown("one\ntwo") == "one\ntwo"
    assert shown("one\r\ntwo") == "one\ntwo" and shown("x\ry") == "x␍y"
    assert one_line("\x9b2K") == "<U+009B>2K"


@pytest.mark.parametrize("trick", TRICKS)
def test_json_for_a_terminal_escapes_them_and_means_the_same(trick: str) -> None:
    value = {"text": trick, trick: [trick, 1]}
    text = shown_json(value)
    assert hidden(text, allow="\n") == []
    if "\ud800" not in trick:
        assert json.loads(text) == value


def tricky_form(text: str) -> dict[str, Any]:
    return {"method": "elicitation/create", "params": {"mode": "form", "message": f"Send? {text}",
            "requestedSchema": {"type": "object", "required": ["pick", "note"], "properties": {
                "pick": {"type": "string", "title": f"Pick {text}", "description": f"About {text}",
                         "oneOf": [{"const": f"v{text}", "title": f"Option {text}"}, {"const": "b", "title": "B"}]},
                "note": {"type": "string", "title": f"Note {text}", "default": f"d{text}"}}}}}


@pytest.mark.parametrize("trick", TRICKS)
async def test_the_terminal_answerer_writes_no_control_or_invisible_character(trick: str) -> None:
    questions = (parse_question("form", tricky_form(trick)),
                 parse_question("go", {"method": "elicitation/create", "params": {
                     "mode": "url", "message": f"Sign in {trick}", "url": f"https://bank.example/{trick}"}}),
                 parse_question("model", {"method": "sampling/createMessage", "params": {
                     "messages": [{"role": "user", "content": {"type": "text", "text": f"Say {trick}"}}],
                     "systemPrompt": f"sys {trick}", "maxTokens": 5}}))
    asked = Asked(server=f"bank{trick}", method="tools/call", target=f"transfer{trick}", questions=questions,
                  server_url="http://127.0.0.1:1/mcp")
    typed = io.StringIO("zzz\n1\n\nn\n\nHello\n\n")  # a bad choice (its options are quoted back), then answers
    out = io.StringIO()
    person = TerminalAnswerer(input=typed, output=out, open_browser=lambda url: False, style=Style(False),
                              sampling=True)
    answers = await person.answer(asked)
    assert answers["form"]["content"] == {"pick": f"v{trick}", "note": f"d{trick}"}  # the values stay exact
    written = out.getvalue()
    assert "Not accepted" in written
    assert hidden(written, allow="\n\t") == []  # a tab stays a tab in multi-line text


@pytest.mark.parametrize("trick", TRICKS)
def test_results_and_tool_listings_are_rendered_inert(trick: str) -> None:
    style = Style(False)
    outputs = [
        render.result("tools/call", {"content": [{"type": "text", "text": f"done {trick}"},
                                                 {"type": "image", "mimeType": f"image/{trick}", "data": ""}],
                                     "structuredContent": {f"k{trick}": f"v{trick}", "list": [trick, "b"]}}, style),
        render.result("prompts/get", {"description": trick, "messages": [
            {"role": "user", "content": {"type": "text", "text": trick}}]}, style),
        render.result("resources/read", {"contents": [{"uri": f"demo://{trick}", "text": trick}]}, style),
        render.tools([{"name": f"t{trick}", "title": trick, "description": trick, "inputSchema": {
            "type": "object", "properties": {f"p{trick}": {"type": "string", "description": trick,
                                                           "enum": [trick, "b"], "default": trick}}}}], style),
    ]
    for output in outputs:
        assert hidden(output, allow="\n\t") == []
