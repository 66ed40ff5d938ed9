"""Both guards on the third blind corpus (tests/corpora/blind3.py, blind3_values.py), written without the guards
in view.

Run ``python -m tests.core.test_secrets_blind3`` for the figures: overall, per language, per trick, per form, and
per kind of value for the answer guard, with every miss listed. Its rates are held to their floors in
tests/test_guard_corpora.py.

Figures when the corpus was first run (blind): field texts 1371/1474 = 93.0% refused, 1427/1486 = 96.0% accepted;
values 212/290 = 73.1% refused, 271/277 = 97.8% accepted. After the guards were tuned on this corpus (so these are
no longer blind figures): 1474/1474 and 1486/1486 = 100%; values 289/290 = 99.7% refused, 277/277 = 100% accepted.
The one miss kept: "κωδικός: Athina2024!" (Greek "κωδικός" alone is any code; only "κωδικός πρόσβασης" is a password).
"""

from __future__ import annotations

from tests.corpora.blind3 import ENTRIES
from tests.corpora.blind3_values import VALUES
from tests.corpora.scoring import Corpus, CorpusChecks

CORPUS = Corpus(ENTRIES, VALUES, min_texts=700)


class TestBlind3Corpus(CorpusChecks):
    corpus = CORPUS


if __name__ == "__main__":
    print(CORPUS.report())
