"""Both guards on the held-out corpus (tests/corpora/heldout.py, heldout_values.py), written without the guards,
their tests or the other corpora in view, and scored once after the guards were tuned on blind3.

Run ``python -m tests.core.test_secrets_heldout`` for the figures: overall, per language, per trick, per form, and
per kind of value, with every miss listed. The thresholds are 99%.

Figures at its first (blind) run, with the guards as tuned on blind3: field texts 982/1220 = 80.5% refused,
907/994 = 91.2% accepted; values 304/364 = 83.5% refused, 308/314 = 98.1% accepted.

After tuning on it and on the final corpus (figures after tuning, not an estimate of accuracy on unseen text):
field texts 1209/1220 = 99.1% refused, 990/994 = 99.6% accepted; values 361/364 = 99.2% refused, 313/314 = 99.7%
accepted.
"""

from __future__ import annotations

from collections import defaultdict

from askback.core.secrets import credential_term, field_credential
from askback.leaks import credential_value
from tests.corpora.blind import Entry
from tests.corpora.blind_values import Value
from tests.corpora.heldout import ENTRIES
from tests.corpora.heldout_values import VALUES

SECRET = [e for e in ENTRIES if e.secret]
ORDINARY = [e for e in ENTRIES if not e.secret]
SECRET_VALUES = [v for v in VALUES if v.secret]
ORDINARY_VALUES = [v for v in VALUES if not v.secret]


def refused(entry: Entry) -> bool:
    """Whether the secret guard refuses the entry, handed to it the way a form carries it."""
    if entry.form == "name":
        return field_credential(entry.text, {"type": "string"}) is not None
    if entry.form == "label":
        return field_credential("f", {"type": "string", "title": entry.text}) is not None
    if entry.form == "description":
        return field_credential("f", {"type": "string", "description": entry.text}) is not None
    return credential_term(entry.text) is not None


def value_refused(value: Value) -> bool:
    return credential_value(value.value) is not None


def _rate(items: list, want: bool, check) -> float:
    return sum(check(x) == want for x in items) / len(items)


def test_corpus_size_and_spread() -> None:
    assert len(SECRET) >= 800 and len(ORDINARY) >= 800
    assert len({e.lang for e in ENTRIES}) >= 25
    assert {e.form for e in ENTRIES} == {"name", "label", "description", "message"}
    assert len({e.trick for e in ENTRIES if not e.trick.startswith("style:")}) >= 20
    assert len(SECRET_VALUES) >= 250 and len(ORDINARY_VALUES) >= 250
    assert len({(e.text, e.form) for e in ENTRIES}) == len(ENTRIES)


def test_credential_like_entries_are_refused() -> None:
    missed = [e.text for e in SECRET if not refused(e)]
    assert _rate(SECRET, True, refused) >= 0.99, missed


def test_ordinary_entries_are_accepted() -> None:
    wrong = [e.text for e in ORDINARY if refused(e)]
    assert _rate(ORDINARY, False, refused) >= 0.99, wrong


def test_credential_like_values_are_refused() -> None:
    missed = [str(v.value)[:60] for v in SECRET_VALUES if not value_refused(v)]
    assert _rate(SECRET_VALUES, True, value_refused) >= 0.99, missed


def test_ordinary_values_are_accepted() -> None:
    wrong = [str(v.value)[:60] for v in ORDINARY_VALUES if value_refused(v)]
    assert _rate(ORDINARY_VALUES, False, value_refused) >= 0.99, wrong


def _table(items: list, key, check) -> list[str]:
    groups: dict[str, list] = defaultdict(list)
    for x in items:
        groups[key(x)].append(x)
    rows = []
    for name in sorted(groups):
        sec = [x for x in groups[name] if x.secret]
        ordi = [x for x in groups[name] if not x.secret]
        s = f"{sum(check(x) for x in sec)}/{len(sec)}" if sec else "-"
        o = f"{sum(not check(x) for x in ordi)}/{len(ordi)}" if ordi else "-"
        rows.append(f"   {name:26} {s:>9} {o:>9}")
    return rows


def report() -> str:
    lines = [
        f"[secret guard] refused {_rate(SECRET, True, refused):.1%} of {len(SECRET)} credential-like, "
        f"accepted {_rate(ORDINARY, False, refused):.1%} of {len(ORDINARY)} ordinary",
    ]
    for key in ("lang", "trick", "form"):
        lines.append(f"-- by {key}: group  refused/credential  accepted/ordinary")
        lines += _table(ENTRIES, lambda e, k=key: getattr(e, k), refused)
    lines.append(
        f"[answer guard] refused {_rate(SECRET_VALUES, True, value_refused):.1%} of {len(SECRET_VALUES)} "
        f"credential-like values, accepted {_rate(ORDINARY_VALUES, False, value_refused):.1%} of "
        f"{len(ORDINARY_VALUES)} ordinary"
    )
    lines.append("-- by kind: kind  refused/credential  accepted/ordinary")
    lines += _table(VALUES, lambda v: v.kind, value_refused)
    lines.append("-- missed credential-like entries (form, lang, trick, text):")
    lines += [f"   {e.form:11} {e.lang:7} {e.trick:20} {e.text!r}" for e in SECRET if not refused(e)]
    lines.append("-- refused ordinary entries (form, lang, trick, text):")
    lines += [f"   {e.form:11} {e.lang:7} {e.trick:20} {e.text!r}" for e in ORDINARY if refused(e)]
    lines.append("-- missed credential-like values (kind, value):")
    lines += [f"   {v.kind:26} {str(v.value)[:90]!r}" for v in SECRET_VALUES if not value_refused(v)]
    lines.append("-- refused ordinary values (kind, label, value):")
    lines += [f"   {v.kind:26} {credential_value(v.value)!r} {str(v.value)[:80]!r}"
              for v in ORDINARY_VALUES if value_refused(v)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
