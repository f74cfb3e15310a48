"""A small real population for the sanity checks of the n-gram comparison methods (ProfAV, IM,
SPATIUM-L1, BAFF): verification cases of a shared corpus (test split) with impostors from its
train split, never documents of a case's own authors (the validation's rule); skipped with a
reason where the shared corpora are absent. Texts are prepared as every method receives them
(``feature_stream.prepare_text``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from taveer_desktop.core.features.feature_stream import prepare_text
from taveer_desktop.core.methods.systems.comparison import CaseTexts, ComparisonMethod
from taveer_desktop.core.validation.evaluation import roc_auc
from tests.conftest import corpus_path


@dataclass(frozen=True)
class PopulationCase:
    texts: CaseTexts
    same_author: bool
    impostors: tuple[str, ...]


def corpus_cases(corpus: str, limit: int) -> list[PopulationCase]:
    """The first ``limit`` test cases of a shared corpus (each author has one Y and one N case,
    so they come near balanced). Their impostors are every document of the corpus's train
    split, whose authors are disjoint from the test split's (the corpus README): one fixed
    pool, as a validation fold or a model's population gives every case."""
    root = corpus_path(corpus)

    def read(path: Path) -> str:
        return prepare_text(path.read_text(encoding="utf-8"))

    impostors = tuple(read(p) for p in sorted((root / "train").glob("*/*.txt")))
    truth = dict(
        line.split() for line in (root / "test" / "truth.txt").read_text().splitlines() if line
    )
    cases = []
    for case_id in sorted(truth)[:limit]:
        folder = root / "test" / case_id
        known = tuple(read(p) for p in sorted(folder.glob("known*.txt")))
        questioned = read(folder / "unknown.txt")
        cases.append(PopulationCase(CaseTexts(known, questioned), truth[case_id] == "Y", impostors))
    return cases


def population_auc(method: ComparisonMethod, cases: list[PopulationCase], seed: int = 7) -> float:
    """AUC of the method's raw scores (column 0 of its features) over the cases."""
    rng = np.random.default_rng(seed)
    rows = np.array([method.features(c.texts, c.impostors, rng) for c in cases])
    truth = np.array([c.same_author for c in cases])
    return roc_auc(rows[:, 0], truth)
