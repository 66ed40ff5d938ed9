"""Every ```python block in docs/*.md runs.

Each page's blocks run in order in one namespace (a fresh module), in a fresh temporary directory that is the
working directory, with `ASKBACK_DATA_DIR` pointing into it and no `ASKBACK_KEYS` or `ASKBACK_STORE` from the
environment. A block that cannot run is skipped only when its first line is `# not run: <reason>`.
"""

from __future__ import annotations

import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.MULTILINE | re.DOTALL)
SKIP = re.compile(r"\A#\s*not run\b:?(?P<reason>.*)")
LINK = re.compile(r"\]\((?P<target>[^)#\s]+)(?:#[^)]*)?\)")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    code: str

    @property
    def skip_reason(self) -> str | None:
        match = SKIP.match(self.code.lstrip())
        return None if match is None else match.group("reason").strip()


def python_blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    blocks = []
    for match in FENCE.finditer(text):
        if match.group("info").strip().split(" ")[0] not in ("python", "py"):
            continue
        indent = len(match.group("indent"))
        body = "".join(line[indent:] if line[:indent].strip() == "" else line
                       for line in match.group("body").splitlines(keepends=True))
        line = text.count("\n", 0, match.start("body")) + 1
        blocks.append(Block(page, line, body))
    return blocks


PAGES = [*sorted(DOCS.glob("*.md")), DOCS.parent / "README.md"]


def test_there_are_pages_with_code() -> None:
    assert PAGES, f"no pages in {DOCS}"
    assert any(python_blocks(page) for page in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_page_runs(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ASKBACK_DATA_DIR", str(tmp_path / "askback-data"))
    monkeypatch.delenv("ASKBACK_KEYS", raising=False)
    monkeypatch.delenv("ASKBACK_STORE", raising=False)
    name = "docs_" + re.sub(r"\W", "_", page.stem)
    module = types.ModuleType(name)
    module.__file__ = str(page)
    monkeypatch.setitem(sys.modules, name, module)
    ran = 0
    for block in python_blocks(page):
        reason = block.skip_reason
        if reason is not None:
            assert reason, f"{page.name}:{block.line}: a block marked '# not run' must say why"
            continue
        # Padded so that line numbers in a traceback are the page's own.
        code = compile("\n" * (block.line - 1) + block.code, str(page), "exec")
        exec(code, module.__dict__)
        ran += 1
    if python_blocks(page):
        assert ran, f"{page.name}: every block is skipped"


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_links_between_pages_resolve(page: Path) -> None:
    for match in LINK.finditer(page.read_text(encoding="utf-8")):
        target = match.group("target")
        if "://" in target or target.startswith("mailto:"):
            continue
        assert (page.parent / target).exists(), f"{page.name}: broken link to {target}"
