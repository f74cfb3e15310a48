"""Small real populations for the sanity checks of the n-gram comparison methods (ProfAV, IM,
SPATIUM-L1, BAFF): verification cases of a shared corpus (test split) with impostors from its
train split, or cases built from the public-domain demo texts. Impostors are never documents of
a case's own authors (the validation's rule). Texts are prepared as every method receives them
(``feature_stream.prepare_text``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from taveer_desktop.core.evaluation import roc_auc
from taveer_desktop.core.feature_stream import prepare_text
from taveer_desktop.core.methods.comparison import CaseTexts, ComparisonMethod
from tests.conftest import DEMO_TEXTS, corpus_path


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


def _demo_documents() -> dict[str, list[str]]:
    """Public-domain demo texts by author (single-author Federalist papers; Brontë chapters),
    the Federalist header lines that name the author removed."""
    root = DEMO_TEXTS
    if not root.exists():
        pytest.skip(f"demo texts {root} are not available on this machine")
    by_author: dict[str, list[str]] = {}
    for path in sorted((root / "federalist").glob("*.txt")):
        lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
        author = next((ln for ln in [ln for ln in lines if ln][:8] if ln.isupper()), "")
        if author in ("HAMILTON", "MADISON", "JAY"):
            body = "\n".join(ln for ln in lines if ln != author)
            by_author.setdefault(f"federalist:{author}", []).append(prepare_text(body))
    for path in sorted((root / "brontes").glob("*.txt")):
        author = "_".join(path.stem.split("_")[:2])
        text = path.read_text(encoding="utf-8")
        by_author.setdefault(f"brontes:{author}", []).append(prepare_text(text))
    return by_author


def demo_cases(per_author: int = 4) -> list[PopulationCase]:
    """Same- and different-author cases from the demo texts: two known documents of an author,
    the questioned one by the same author or by another author of the same collection
    (Federalist or Brontë, so genre gives nothing away); impostors are every document of the
    other authors."""
    by_author = _demo_documents()
    authors = sorted(by_author)
    cases = []
    for author in authors:
        docs = by_author[author]
        rivals = [a for a in authors if a != author and a.split(":")[0] == author.split(":")[0]]
        for i in range(min(per_author, len(docs) // 3)):
            known = (docs[3 * i], docs[3 * i + 1])
            rival = rivals[i % len(rivals)]
            for questioned, same, excluded in (
                (docs[3 * i + 2], True, {author}),
                (by_author[rival][i], False, {author, rival}),
            ):
                impostors = tuple(t for a in authors if a not in excluded for t in by_author[a])
                cases.append(PopulationCase(CaseTexts(known, questioned), same, impostors))
    return cases
