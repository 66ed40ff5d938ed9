"""The guards' figures on every corpus of tests/corpora: the blind figure first, then the guard as it is now.

    python bench/guard_report.py [--write-doc]      (`make guard-report` writes the doc; `make bench` runs it too)

Each corpus (a module of tests/corpora defining ENTRIES or VALUES, see tests/corpora/scoring.py) is scored with
the current `askback.guard`: the share of its credential-like items refused and of its ordinary items accepted,
with counts. Its blind figure, the one it got when it was first scored before anyone tuned the guard on it, comes
from the `BLIND` record in the corpus module ("not recorded" where there is none); that is the figure that
estimates accuracy on text the guard has not seen. `--write-doc` replaces the table in docs/security.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: python bench/guard_report.py
    sys.path.insert(0, str(ROOT))

from tests.corpora.scoring import Score, Scored, corpora  # noqa: E402

from bench.run import write_doc  # noqa: E402

DOC = ROOT / "docs" / "security.md"
BEGIN, END = "<!-- guard:report:begin -->", "<!-- guard:report:end -->"
GUARD = {"texts": "names (field texts)", "values": "answers (values)"}


def commit() -> str:
    """The commit the guard is scored at, marked when the guard or the corpora have changes not committed."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=7", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src", "tests/corpora"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "an unknown commit (no git checkout)"
    return f"{head} with uncommitted changes" if dirty else head


def _cell(score: Score) -> str:
    return f"{score.hits}/{score.total} ({score.rate:.1%})"


def table(found: list[Scored], at: str) -> str:
    """The Markdown table (and its notes) of every corpus: blind figure, figure now, floor."""
    lines = [
        f"Written by `make guard-report` (`bench/guard_report.py`), the guard at `{at}`.",
        "",
        "| Corpus | Guard | Refused, blind | Accepted, blind | Blind at | Refused now | Accepted now | Floor |",
        "|---|---|---|---|---|---|---|---|",
    ]
    notes = []
    for corpus in found:
        now = corpus.figures()
        if corpus.blind is None:
            blind = ["not recorded", "not recorded", "-"]
        else:
            figures = corpus.blind.figures
            blind = [_cell(figures.refused), _cell(figures.accepted), f"`{corpus.blind.scored_at}`"]
            if corpus.blind.note:
                notes.append(f"- `{corpus.name}`, blind at `{corpus.blind.scored_at}`: {corpus.blind.note}.")
        row = [f"`{corpus.name}`", GUARD[corpus.kind], *blind, _cell(now.refused), _cell(now.accepted),
               f"{corpus.floor:.0%}"]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join([*lines, "", *notes]) if notes else "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write-doc", action="store_true", help="replace the table in docs/security.md")
    args = parser.parse_args()
    text = table(corpora(), commit())
    print(text)
    if args.write_doc:
        write_doc(text, DOC, BEGIN, END)
        print(f"guard report: wrote {DOC.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
