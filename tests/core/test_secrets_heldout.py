"""Both guards on the held-out corpus (tests/corpora/heldout.py, heldout_values.py), written without the guards,
their tests or the other corpora in view, and scored once after the guards were tuned on blind3.

Run ``python -m tests.core.test_secrets_heldout`` for the figures: overall, per language, per trick, per form, and
per kind of value, with every miss listed. Its rates are held to their floors in tests/test_guard_corpora.py.

Figures at its first (blind) run, with the guards as tuned on blind3: field texts 982/1220 = 80.5% refused,
907/994 = 91.2% accepted; values 304/364 = 83.5% refused, 308/314 = 98.1% accepted.

After tuning on it and on the final corpus (figures after tuning, not an estimate of accuracy on unseen text):
field texts 1209/1220 = 99.1% refused, 990/994 = 99.6% accepted; values 361/364 = 99.2% refused, 313/314 = 99.7%
accepted.
"""

from __future__ import annotations

from tests.corpora.heldout import ENTRIES
from tests.corpora.heldout_values import VALUES
from tests.corpora.scoring import Corpus, CorpusChecks

CORPUS = Corpus(ENTRIES, VALUES, min_texts=800)


class TestHeldOutCorpus(CorpusChecks):
    corpus = CORPUS


if __name__ == "__main__":
    print(CORPUS.report())
