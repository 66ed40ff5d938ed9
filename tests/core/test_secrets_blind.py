"""The secret guard on a blind corpus (tests/corpora/blind.py), written without looking at the guard.

Run ``python -m tests.core.test_secrets_blind`` for the figures per language, per trick and per form. Its rates,
and the second blind corpus's, are held to their floors in tests/test_guard_corpora.py.
"""

from __future__ import annotations

from collections import defaultdict

from askback.guard import credential_term, field_credential
from tests.corpora import blind2
from tests.corpora.blind import ENTRIES, ORDINARY, SECRET, Entry
from tests.corpora.scoring import FLOOR


def refused(entry: Entry) -> bool:
    """Whether the guard refuses the entry, handed to it the way a form carries it."""
    if entry.form == "name":
        return field_credential(entry.text, {"type": "string"}) is not None
    if entry.form == "label":
        return field_credential("f", {"type": "string", "title": entry.text}) is not None
    if entry.form == "description":
        return field_credential("f", {"type": "string", "description": entry.text}) is not None
    return credential_term(entry.text) is not None


def refused_as_text(entry: Entry) -> bool:
    """Whether ``credential_term`` alone refuses it (a parameter name or message checked as text)."""
    return credential_term(entry.text) is not None


def _rate(entries: list[Entry], want_refused: bool, check=refused) -> float:
    return sum(check(e) == want_refused for e in entries) / len(entries)


def test_corpus_size_and_spread() -> None:
    assert len(SECRET) >= 500 and len(ORDINARY) >= 500
    assert len({e.lang for e in ENTRIES}) >= 15
    assert len({e.trick for e in ENTRIES if not e.trick.startswith("style:")}) >= 10


def test_credential_term_alone_agrees() -> None:
    # spec.py also checks a parameter's own name and the message with credential_term: that channel keeps the
    # corpus's floor too (the form-wise figures are held to it, with every corpus, in tests/test_guard_corpora.py).
    assert _rate(SECRET, True, refused_as_text) >= FLOOR
    assert _rate(ORDINARY, False, refused_as_text) >= FLOOR


def test_probe_lists() -> None:
    def hit(text: str) -> bool:
        return field_credential(text, {"type": "string"}) is not None or credential_term(text) is not None

    assert [t for t in blind2.PROBE_SECRET if not hit(t)] == []
    assert [t for t in blind2.PROBE_ORDINARY if hit(t)] == []
    assert [t for t in blind2.PROBE_MESSAGES_SECRET if credential_term(t) is None] == []
    assert [t for t in blind2.PROBE_MESSAGES_ORDINARY if credential_term(t) is not None] == []


def report() -> str:
    lines = []
    for label, check in (("form-wise", refused), ("credential_term", refused_as_text)):
        lines.append(f"[{label}] refused {_rate(SECRET, True, check):.1%} of {len(SECRET)} credential-like, "
                     f"accepted {_rate(ORDINARY, False, check):.1%} of {len(ORDINARY)} ordinary")
    for key in ("lang", "trick", "form"):
        groups: dict[str, list[Entry]] = defaultdict(list)
        for e in ENTRIES:
            groups[getattr(e, key)].append(e)
        lines.append(f"-- by {key}: group  refused/credential  accepted/ordinary")
        for name in sorted(groups):
            sec = [e for e in groups[name] if e.secret]
            ordi = [e for e in groups[name] if not e.secret]
            s = f"{sum(refused(e) for e in sec)}/{len(sec)}" if sec else "-"
            o = f"{sum(not refused(e) for e in ordi)}/{len(ordi)}" if ordi else "-"
            lines.append(f"   {name:16} {s:>9} {o:>9}")
    lines.append(f"[second corpus] refused {_rate(blind2.SECRET, True):.1%} of {len(blind2.SECRET)}, "
                 f"accepted {_rate(blind2.ORDINARY, False):.1%} of {len(blind2.ORDINARY)}")
    lines.append("-- missed credential-like: " + repr([e.text for e in SECRET if not refused(e)]))
    lines.append("-- refused ordinary: " + repr([e.text for e in ORDINARY if refused(e)]))
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
