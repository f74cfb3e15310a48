"""Small real populations for the unmasking methods' sanity checks, and a cross-fitted AUC.

The curve classifier is learned on one half of the cases and scores the other half, and the
other way round, so that no case is scored by a classifier that saw it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from taveer_desktop.core.features.feature_stream import prepare_text
from taveer_desktop.core.methods.systems.comparison import (
    CannotCompare,
    CaseTexts,
    ComparisonMethod,
)
from taveer_desktop.core.validation.evaluation import roc_auc
from tests.conftest import corpus_path

DEMO_POPULATION = Path(__file__).resolve().parents[4] / "resources" / "demo" / "population"
GENRES = (("Hamilton", "Madison", "Jay"), ("Anne_Bronte", "Charlotte_Bronte", "Emily_Bronte"))

# A quick Generalised Unmasking configuration, for the tests that do not check the paper's
# settings: small chunks and few words, but several rounds, runs and folds.
GENUNMASKING_SMALL = {
    "chunks": 10,
    "chunk_words": 40,
    "initial_features": 12,
    "eliminated_per_side": 1,
    "iterations": 4,
    "folds": 5,
    "runs": 3,
}


def read(path: Path, n_words: int | None = None) -> str:
    text = path.read_text(encoding="utf-8")
    return prepare_text(text if n_words is None else " ".join(text.split()[:n_words]))


def stackexchange_cases(n_cases: int) -> list[tuple[CaseTexts, bool]]:
    """The first test cases of the shared Stack Exchange corpus (skips where it is absent)."""
    root = corpus_path("stackexchange", "test")
    truth = dict(line.split() for line in (root / "truth.txt").read_text().splitlines())
    cases = []
    for case_id in sorted(truth)[:n_cases]:
        folder = root / case_id
        known = tuple(read(p) for p in sorted(folder.glob("known*.txt")))
        cases.append((CaseTexts(known, read(folder / "unknown.txt")), truth[case_id] == "Y"))
    return cases


def demo_population_cases(n_words: int) -> list[tuple[CaseTexts, bool]]:
    """Cases from the shipped demo population, texts cut to their first ``n_words`` words:
    per author, its documents paired in order (same author), and each pair's first document
    against a document of the next author of the same genre (Federalist essays, Brontë
    chapters), so that genre does not give the answer away."""
    cases = []
    for authors in GENRES:
        docs = {a: sorted((DEMO_POPULATION / a).glob("*.txt")) for a in authors}
        for index, author in enumerate(authors):
            other = authors[(index + 1) % len(authors)]
            for i in range(min(len(docs[author]), len(docs[other])) // 2):
                known = (read(docs[author][2 * i], n_words),)
                cases.append((CaseTexts(known, read(docs[author][2 * i + 1], n_words)), True))
                cases.append((CaseTexts(known, read(docs[other][2 * i + 1], n_words)), False))
    return cases


def cross_fitted_auc(method: ComparisonMethod, cases: list[tuple[CaseTexts, bool]]) -> float:
    rows, same = [], []
    for index, (case, truth) in enumerate(cases):
        try:
            rows.append(method.features(case, (), np.random.default_rng(index)))
        except CannotCompare:
            continue
        same.append(truth)
    x, y = np.array(rows), np.array(same)
    scores = np.empty(len(y))
    half = np.empty(len(y), dtype=bool)  # every other case of each kind
    for kind in (y, ~y):
        half[kind] = np.arange(kind.sum()) % 2 == 0
    for train in (half, ~half):
        scores[~train] = method.score(x[~train], method.learn(x[train], y[train]))
    return roc_auc(scores, y)
