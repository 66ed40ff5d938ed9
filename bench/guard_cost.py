"""What the guard costs, counted by valgrind: instructions per KB of answer text, and a form's first check.

    python -m bench.guard_cost [--sizes 1,10,50] [--compare REV]

The answer guard (`askback.guard.answer_problem`) runs on every new answer, whatever its length, so its cost must
be linear in the text and small per KB for every kind of text a person may paste: prose, log lines, random
base64, JSON, code, CJK text. The name guard runs on every form; what counts is its first sight of a four-field
form in a fresh process (the first request of a fresh server pays it), with the guard and the core's form rule
(`askback.core.guarding`) imported, as a server has them at start-up.

The counting is `bench/instructions.py`'s (callgrind, collecting only inside one function), here around each
measured call: every call runs inside `itertools.starmap`, which nothing else in the process uses, and callgrind
collects only inside `starmap_next` and writes one count per call (`--dump-after`). One valgrind process measures
everything, after a warm-up call on each text (the BIP-39 word index and the compiled patterns are one-time
work). `--compare REV` runs the same measurements on the guard of a git revision (its `src` exported to a
temporary directory) in the same run. Needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import base64
import collections
import itertools
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.instructions import callgrind  # noqa: E402

KINDS = ("prose", "log lines", "random base64", "JSON", "code", "CJK text")
_SENTENCE = ("the meeting moved to thursday because half of the team is travelling and we still need a room with a "
             "projector so please check the calendar before you book anything for the launch review next week")
WORDS = tuple(_SENTENCE.split(" "))
FORM = {"type": "object", "properties": {
    "name": {"type": "string", "title": "Your full name"},
    "city": {"type": "string", "description": "The city you are travelling to"},
    "nights": {"type": "integer", "title": "Number of nights", "minimum": 1},
    "notes": {"type": "string", "title": "Anything the hotel should know?"},
}}
# Another four-field form, seen after the first: what a form costs once the guard's one-time work is done.
OTHER = {"type": "object", "properties": {
    "company": {"type": "string", "title": "Company name"},
    "seats": {"type": "integer", "description": "How many seats do you need?"},
    "plan": {"type": "string", "enum": ["team", "business"]},
    "start": {"type": "string", "format": "date", "title": "Start date"},
}}


def text(kind: str, size: int, seed: int = 7) -> str:
    """`size` characters of one kind of ordinary text, the same on every run."""
    rng = random.Random(f"{kind}:{seed}")
    parts: list[str] = []
    while sum(map(len, parts)) < size:
        parts.append(_piece(kind, rng))
    return "".join(parts)[:size]


def _piece(kind: str, rng: random.Random) -> str:
    if kind == "prose":
        return " ".join(rng.choice(WORDS) for _ in range(12)).capitalize() + ". "
    if kind == "log lines":
        return (f"2026-12-01T19:{rng.randrange(60):02d}:{rng.randrange(60):02d}.{rng.randrange(1000):03d}Z "
                f"{rng.choice(('INFO', 'WARN', 'DEBUG'))} worker-{rng.randrange(16)} "
                f"request_id={rng.randbytes(8).hex()} "
                f"GET /api/v2/orders/{rng.randrange(10**6)} status={rng.choice((200, 201, 404))} "
                f"took={rng.randrange(900)}ms\n")
    if kind == "random base64":
        return base64.b64encode(rng.randbytes(96)).decode()
    if kind == "JSON":
        return json.dumps({"id": rng.randrange(10**6), "name": rng.choice(WORDS).title(), "tags": rng.sample(WORDS, 3),
                           "price": round(rng.random() * 100, 2), "created": "2026-11-30T10:00:00Z"}) + ",\n"
    if kind == "code":
        name = rng.choice(WORDS)
        return (f"def {name}_{rng.randrange(100)}(items, limit={rng.randrange(50)}):\n"
                f"    total = sum(item.{name} for item in items if item.count < limit)\n"
                f"    return {{'{name}': total, 'n': len(items)}}\n\n")
    return "".join(chr(rng.randrange(0x4E00, 0x9FA5)) for _ in range(rng.randrange(8, 20))) + "。"


def child(sizes: list[int]) -> None:
    """Inside valgrind: importing the guard, the form's first check, then each text once (after its warm-up)."""
    import importlib

    import askback
    import askback.core.guarding  # a server has imported the core's form rule at start-up

    def guard_form(where: str, schema: dict[str, Any]) -> None:
        sys.modules["askback.guard"].guard_form(where, schema)

    measured: list[tuple[Callable[..., Any], tuple[Any, ...]]] = [(importlib.import_module, ("askback.guard",)),
                                                                  (guard_form, ("bench", FORM)),
                                                                  (guard_form, ("bench", OTHER))]
    assert askback.__name__ == "askback"  # imported first: the package's own start-up is not the guard's
    _measure(measured)
    from askback.guard import answer_problem

    texts = [text(kind, kb * 1000) for kind in KINDS for kb in sizes]
    labels = [answer_problem(t) for t in texts]  # warm-up, and what the guard says of each (it must be None)
    _measure([(answer_problem, (t,)) for t in texts])
    print(json.dumps(labels))


def _measure(calls: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> None:
    collections.deque(itertools.starmap(lambda f, args: f(*args), calls), maxlen=0)


def counts(src: Path | None, sizes: list[int]) -> tuple[list[int], list[Any]]:
    """The counts of one child under valgrind, in call order, and the guard's labels of the texts."""
    # With bytecode written and read, as an installed package has it: an import counted compiling is not one.
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONHASHSEED": "0"}
    if src is not None:
        env["PYTHONPATH"] = f"{src}{os.pathsep}{ROOT}"
    subprocess.run([sys.executable, "-c", "import askback.guard, askback.guard.values"], cwd=ROOT, env=env, check=True)
    with tempfile.TemporaryDirectory() as out:
        command = [*callgrind("--toggle-collect=starmap_next", "--dump-after=starmap_next",
                              f"--callgrind-out-file={out}/cg"), sys.executable, "-m", "bench.guard_cost",
                   "--child", "--sizes", ",".join(map(str, sizes))]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800, check=False)
        if done.returncode:
            raise RuntimeError(f"the measured process failed:\n{done.stderr[-2000:]}")
        dumps = sorted(Path(out).glob("cg.*"), key=lambda p: int(p.suffix[1:]))
        found = [int(line.split()[1]) for p in dumps for line in p.read_text().splitlines()
                 if line.startswith("totals:")]
    # One dump per call, and one more each time a starmap runs out (two starmaps).
    return [n for i, n in enumerate(found) if i not in (3, len(found) - 1)], json.loads(done.stdout)


def first_sight_us(src: Path | None, runs: int = 7) -> float:
    """The median wall time of a fresh process's first `guard_form` on the four-field form, in µs."""
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{ROOT}" if src else str(ROOT)}
    code = ("import time, askback.core.guarding; from askback.guard import guard_form; "
            "from bench.guard_cost import FORM; t = time.perf_counter(); guard_form('bench', FORM); "
            "print(time.perf_counter() - t)")
    times = [float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                                  check=True).stdout) for _ in range(runs)]
    return statistics.median(times) * 1e6


def report(name: str, src: Path | None, sizes: list[int]) -> None:
    found, labels = counts(src, sizes)
    print(f"{name}: import askback.guard (after askback): {found[0] / 1e6:.3f} M instructions; the name guard's "
          f"first four-field form: {found[1] / 1e6:.3f} M instructions, {first_sight_us(src):.0f} µs (median of 7 "
          f"fresh processes); a second, new form: {found[2] / 1e6:.3f} M instructions")
    print(f"{name}: the answer guard, M instructions per KB ({', '.join(f'{kb} KB' for kb in sizes)}):")
    rows = iter(zip(found[3:], labels, strict=True))
    for kind in KINDS:
        cells = [next(rows) for _ in sizes]
        figures = "  ".join(f"{n / kb / 1e6:8.3f}" for (n, _), kb in zip(cells, sizes, strict=True))
        flagged = [label for _, label in cells if label]
        print(f"   {kind:14} {figures}" + (f"   (refused: {flagged[0][:60]!r})" if flagged else ""))
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,50", help="text sizes in KB")
    parser.add_argument("--compare", help="also measure the guard of this git revision")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    if args.child:
        return child(sizes)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    start = time.monotonic()
    if args.compare:
        with tempfile.TemporaryDirectory() as old:
            archive = subprocess.run(["git", "archive", args.compare, "src"], cwd=ROOT, capture_output=True,
                                     check=True).stdout
            subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
            report(args.compare, Path(old) / "src", sizes)
    report("this tree", ROOT / "src", sizes)
    print(f"({time.monotonic() - start:.0f} s)")
    return None


if __name__ == "__main__":
    main()
