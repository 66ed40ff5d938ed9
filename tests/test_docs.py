"""Every ```python block in docs/*.md and README.md runs, and the shell commands a page opts in print what it shows.

Each page's Python blocks run in order in one namespace (a fresh module), in a fresh temporary directory that is
the working directory, with `ASKBACK_DATA_DIR` pointing into it and no `ASKBACK_KEYS` or `ASKBACK_STORE` from the
environment. A block that cannot run is skipped only when its first line is `# not run: <reason>`.

Shell blocks a page marks with `<!-- docs-test: compare -->` (a transcript) or `<!-- docs-test: run -->` (and
`<!-- docs-test: output -->` on the block showing what they print) run in a terminal against a real demo server
(`askback demo`, on a free port in place of the pages' 8000), and what they print is compared with the page,
normalised only where runs must differ (`tests.support.transcripts`). `.venv/bin/askback` and `askback` both
name this checkout's command there.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.serving import started
from tests.e2e.test_cli import serve_env
from tests.support.transcripts import on_port, run_in_terminal, same_output, shown_on

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


SHOWN = {page: shown for page in PAGES if (shown := shown_on(page))}


def test_pages_opt_shell_blocks_in() -> None:
    assert DOCS.parent / "README.md" in SHOWN, "README's commands are compared with a real demo"
    assert all(s.commands for shown in SHOWN.values() for s in shown), "a marked block without a command"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A real demo server, as `make demo` starts it but on a free port: the port."""
    env = serve_env(tmp_path_factory.mktemp("demo-data"))
    with started(["--port", "0"], env, command="demo") as server:
        port = int(server.url.rsplit(":", 1)[1].split("/", 1)[0])
        yield port


def terminal_env(home: Path) -> dict[str, str]:
    """A person's shell in `home`: this checkout's `askback` as `.venv/bin/askback` and on PATH; no colour."""
    bin_dir = home / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    script = bin_dir / "askback"
    script.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m askback.cli \"$@\"\n")
    script.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKBACK_")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", HOME=str(home), NO_COLOR="1", TERM="dumb",
               ASKBACK_DATA_DIR=str(home / "askback-data"), PYTHONUNBUFFERED="1")
    return env


@pytest.mark.parametrize("page", list(SHOWN), ids=[p.name for p in SHOWN])
def test_shell_blocks_print_what_the_page_shows(page: Path, demo: int, tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    for shown in SHOWN[page]:
        printed = []
        for command in shown.commands:
            status, output = run_in_terminal(on_port(command.text, demo), tmp_path, env)
            assert status == command.status, f"{page.name}:{command.line}: {command.text!r} exited {status}:\n{output}"
            printed.append(output)
        if shown.expected is None:
            continue
        same, want, got = same_output(shown.expected, "".join(printed), demo)
        assert same, f"{page.name}:{shown.line}: the output differs from the page\n--- page\n{want}\n--- printed\n{got}"
