"""Near-duplicate detection on the shared corpora (figures in docs/validation.md, "Near-duplicate
texts and the case's own documents").

For every document of each split of the shared corpora: the time to find all near-duplicate
pairs (``core/near_duplicates.near_duplicate_pairs`` at threshold 0, so every pair sharing a
rarer shingle is listed), the largest and the 99th-percentile containment between texts of two
*different* authors (from ``cases.csv``), the pairs of one author at or above the threshold, and
how much containment survives when a share of a text's words is replaced (the first 100 texts,
each word replaced with probability 5, 10, 20, 30 %, seeded). Last, the case check: 150 test
texts of each corpus against all its train texts, all shingles kept (``containment_with``).

    .venv/bin/python benchmarks/near_duplicates_benchmark.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from taveer_desktop.core.intake import near_duplicates as nd  # noqa: E402
from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.trials.population import corpus_provenance  # noqa: E402

SPLITS = ("stackexchange/train", "stackexchange/test", "reuters-c50/train", "reuters-c50/test")
SHARES = (0.05, 0.1, 0.2, 0.3)


def _texts(path: Path) -> tuple[list[str], list[str]]:
    corpus = open_corpus(path)
    provenance = corpus_provenance(corpus)
    texts, authors = [], []
    for case in corpus.iter_cases():
        known, unknown = provenance[case.case_id]
        texts += [*case.known_texts, case.unknown_text]
        authors += [known[0]] * len(case.known_texts) + [unknown]
    return texts, authors


def _edited(text: str, share: float, rng: random.Random) -> str:
    return " ".join(w if rng.random() >= share else "zebra" for w in text.split())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    args = parser.parse_args()
    corpora = args.shared / "corpora"
    print(
        "| documents | time to find all pairs | largest (99th pct.) containment, two authors | "
        f"pairs of one author >= {nd.NEAR_DUPLICATE} | copies with "
        + " / ".join(f"{100 * s:.0f} %" for s in SHARES)
        + " of words replaced: lowest (median) containment |"
    )
    print("|---|---|---|---|---|")
    for split in SPLITS:
        texts, authors = _texts(corpora / split)
        started = time.perf_counter()
        prints = [nd.shingles(t) for t in texts]
        pairs = nd.near_duplicate_pairs(prints, threshold=0.0)
        seconds = time.perf_counter() - started
        across = [p.containment for p in pairs if authors[p.first] != authors[p.second]]
        within = sum(
            p.containment >= nd.NEAR_DUPLICATE
            for p in pairs
            if authors[p.first] == authors[p.second]
        )
        rng = random.Random(1)
        cells = []
        for share in SHARES:
            kept = [
                nd.containment_with(nd.shingles(_edited(t, share, rng)), [prints[i]])[0]
                for i, t in enumerate(texts[:100])
            ]
            cells.append(f"{min(kept):.2f} ({float(np.median(kept)):.2f})")
        print(
            f"| {split} ({len(texts)}) | {seconds:.1f} s | {max(across):.3f} "
            f"({float(np.percentile(across, 99)):.3f}) | {within} | {' / '.join(cells)} |"
        )
    for corpus in ("stackexchange", "reuters-c50"):
        train = [nd.shingles(t) for t in _texts(corpora / corpus / "train")[0]]
        test = _texts(corpora / corpus / "test")[0][:150]
        best = [nd.containment_with(nd.shingles(t), train).max() for t in test]
        print(
            f"case check, 150 {corpus}/test texts against {len(train)} train texts: largest "
            f"containment {max(best):.3f}, median {float(np.median(best)):.3f}"
        )


if __name__ == "__main__":
    main()
