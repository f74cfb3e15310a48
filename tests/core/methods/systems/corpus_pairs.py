"""A small real population for the comparison methods' sanity checks: the Stack Exchange
corpus's train split (136 cases, one Y and one N per author), each case with the documents of
the *other* authors of the split as its impostors (never the case's known or questioned
author), as a validation gives them. Skips the test where ../shared/corpora is absent."""

from __future__ import annotations

import csv
from functools import lru_cache

import numpy as np
from conftest import corpus_path

from taveer_desktop.core.features.feature_stream import prepare_text
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.systems.comparison import (
    CannotCompare,
    CaseTexts,
    ComparisonMethod,
)
from taveer_desktop.core.validation.evaluation import roc_auc

Trial = tuple[CaseTexts, tuple[str, ...], bool]


@lru_cache(maxsize=2)
def stackexchange_trials(split: str = "train") -> tuple[Trial, ...]:
    """(case texts, impostors, same author) for every case of the split."""
    root = corpus_path("stackexchange")
    with open(root / "cases.csv", encoding="utf-8") as handle:
        authors = {
            row["id"]: (row["known_author"], row["unknown_author"])
            for row in csv.DictReader(handle)
        }
    cases = list(open_corpus(corpus_path("stackexchange", split)).iter_cases())
    documents: list[tuple[str, str]] = []
    for case in cases:
        known_author, questioned_author = authors[case.case_id]
        documents += [(known_author, prepare_text(text)) for text in case.known_texts]
        documents.append((questioned_author, prepare_text(case.unknown_text)))
    trials = []
    for case in cases:
        own = authors[case.case_id]
        texts = CaseTexts(
            tuple(prepare_text(text) for text in case.known_texts), prepare_text(case.unknown_text)
        )
        impostors = tuple(text for author, text in documents if author not in own)
        trials.append((texts, impostors, bool(case.truth)))
    return tuple(trials)


def population_auc(method: ComparisonMethod, split: str = "train") -> tuple[float, int]:
    """AUC of the method's raw scores over the split's cases (learned on the same cases), and
    how many cases it could not compare."""
    rows, truth, refused = [], [], 0
    for texts, impostors, same in stackexchange_trials(split):
        try:
            rows.append(method.features(texts, impostors, np.random.default_rng(0)))
        except CannotCompare:
            refused += 1
            continue
        truth.append(same)
    features, labels = np.array(rows), np.array(truth)
    scores = method.score(features, method.learn(features, labels))
    return roc_auc(scores, labels), refused
