"""docs/client.md's terminal samples are what the bundled demo prints today, typed as the page shows.

Each sample is run in a real pseudo-terminal against the demo (served on loopback here, written as
`http://127.0.0.1:8000` on the page) with the answers the page shows typed in, and the transcript must be
the page's, line for line. Only what differs on every run is replaced: the port and a transfer's reference.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect
import pytest

from askback.demo import app as demo_app
from tests.e2e.test_cli import askback_command
from tests.support import terminal

PAGE = Path(__file__).resolve().parents[2] / "docs" / "client.md"
DOC_URL = "http://127.0.0.1:8000/mcp"
FENCE = re.compile(r"^(?P<indent>[ \t]*)```text\n(?P<body>.*?)^(?P=indent)```", re.MULTILINE | re.DOTALL)
Serve = Callable[[Any], str]


def samples() -> list[list[str]]:
    """The page's ```text blocks, each as its lines without the block's indent."""
    out = []
    for match in FENCE.finditer(PAGE.read_text(encoding="utf-8")):
        indent = len(match.group("indent"))
        out.append([line[indent:].rstrip() for line in match.group("body").splitlines()])
    return out


def sample(first: str) -> list[str]:
    found = [lines for lines in samples() if lines and lines[0].startswith(first)]
    assert len(found) == 1, f"client.md has {len(found)} samples starting with {first!r}"
    return found[0]


def transcript(url: str, args: list[str], typed: list[tuple[str, str]], tmp_path: Path) -> list[str]:
    """What a person sees running `askback ARGS`, typing each answer at its prompt (echoed, as a terminal does)."""
    child = terminal.spawn([*askback_command(), *args], cwd=tmp_path,
                           env={**os.environ, "NO_COLOR": "1", "BROWSER": "true"}, dimensions=(50, 300))
    child.logfile_read = screen = io.StringIO()
    for prompt, answer in typed:
        child.expect_exact(prompt)
        child.sendline(answer)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, screen.getvalue()
    text = screen.getvalue().replace("\r\n", "\n").replace(url, DOC_URL)
    text = re.sub(r"TX-[0-9A-F]{8}", "TX-…", text)
    return [line.rstrip() for line in text.splitlines()]


def as_page(lines: list[str]) -> list[str]:
    return [re.sub(r"TX-[0-9A-F]{8}", "TX-…", line) for line in lines]


@pytest.fixture
def url(serve: Serve) -> str:
    return serve(demo_app)


def test_the_tools_listing_is_the_demos(url: str, tmp_path: Path) -> None:
    page = sample(f"$ askback tools {DOC_URL}")
    assert transcript(url, ["tools", url], [], tmp_path) == page[1:]


def test_the_transfer_transcript_is_the_demos(url: str, tmp_path: Path) -> None:
    page = sample(f"$ askback call {DOC_URL} transfer amount=50")
    typed = [("To: ", "DE44"), ("To: ", "DE44500105175407324931"), ("From account: ", "2"),
             ("/cancel all: ", ""), ("[y/n]: ", "y")]
    assert transcript(url, ["call", url, "transfer", "amount=50"], typed, tmp_path) == as_page(page[1:])


def test_the_decline_sample_is_the_demos(url: str, tmp_path: Path) -> None:
    page = sample("Send 50 EUR from Everyday account (DE89 …3000) [DE89370400440532013000] to DE44500105175407324931?")
    args = ["call", url, "transfer", "amount=50", "to=DE44500105175407324931",
            "from_account=DE89370400440532013000"]
    shown = transcript(url, args, [("[y/n]: ", "/decline")], tmp_path)
    assert shown[-len(page):] == page


@pytest.mark.parametrize(("command", "answer"), [("prompt", ("Audience: ", "2")), ("read", ("Language: ", "de"))])
def test_the_prompt_and_read_samples_are_the_demos(url: str, tmp_path: Path, command: str,
                                                  answer: tuple[str, str]) -> None:
    lines = sample(f"$ askback prompt {DOC_URL} release_notes version=1.2")
    cut = next(i for i, line in enumerate(lines) if line.startswith("$ askback read"))
    page = lines[1:cut] if command == "prompt" else lines[cut + 1:]
    args = ["prompt", url, "release_notes", "version=1.2"] if command == "prompt" else ["read", url,
                                                                                        "demo://greeting/Ada"]
    assert transcript(url, args, [answer], tmp_path) == page
