"""A character 4-gram profile baseline, run exactly like TAVeer (a script, not a product feature).

For every shared corpus: each case's known documents are concatenated into a profile; documents
become L1-normalised character 4-gram frequency vectors; the distance is Manhattan; the threshold
is the median training distance (as TAVeer's); similarity and metrics use the engine's own
functions. Prints one JSON line per corpus, for docs/accuracy.md. Unlike TAVeer this baseline
sees topic (every letter sequence), so it shows what topic-sensitive features gain or lose here.

    .venv/bin/python benchmarks/char_ngram_baseline.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from taveer_desktop.core.features.text import normalise  # noqa: E402
from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.methods.taveer.scoring import manhattan_distance, similarity  # noqa: E402
from taveer_desktop.core.validation.evaluation import compute_metrics  # noqa: E402

N = 4
CORPORA = ("stackexchange", "stackexchange-jsonl", "reuters-c50")


def char_ngrams(text: str) -> Counter:
    text = " ".join(normalise(text).split())
    return Counter(text[i : i + N] for i in range(len(text) - N + 1))


def corpus_distances(path: Path) -> tuple[np.ndarray, np.ndarray]:
    corpus = open_corpus(path)
    distances, truth = [], []
    for case in corpus.iter_cases():
        profile = char_ngrams("\n\n".join(case.known_texts))
        distances.append(manhattan_distance(char_ngrams(case.unknown_text), profile))
        truth.append(case.truth)
    return np.array(distances, dtype=float), np.array(truth, dtype=bool)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    args = parser.parse_args()
    for name in CORPORA:
        root = Path(args.shared) / "corpora" / name
        train_d, train_truth = corpus_distances(root / "train")
        theta = float(np.median(train_d))
        train_scores = np.array([similarity(d, theta) for d in train_d])
        test_d, test_truth = corpus_distances(root / "test")
        scores = np.array([similarity(d, theta) for d in test_d])
        metrics = compute_metrics(scores, test_truth).to_dict()
        metrics["threshold"] = theta
        metrics["training_accuracy"] = compute_metrics(train_scores, train_truth).accuracy
        rounded = {k: round(v, 4) if isinstance(v, float) else v for k, v in metrics.items()}
        print(json.dumps({"corpus": name, "baseline": f"char {N}-gram profile", **rounded}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
