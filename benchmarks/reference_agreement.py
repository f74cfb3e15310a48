"""How closely Generalised Unmasking agrees with its authors' reference code on the same texts.

The reference is the Webis unmasking framework (github.com/webis-de/unmasking), checked out
somewhere outside this repository and run with an interpreter that has what it needs (nltk,
scikit-learn, numpy). It is a test oracle only: this script never ships it, copies it or needs
it for the tests. It runs in two roles:

* ``--role reference`` (run under the reference's interpreter, started by this script): the
  reference's own chunker (``RandomWordTokenChunker``, 30 chunks of 700 words per text), chunk
  sampler (``RandomOversampler``), feature set (``AvgWordFreqFeatureSet``, 250 words) and
  unmasking loop (``FeatureRemoval``: 10 removed per round, 24 rounds, 10 folds) on each case
  of a PAN-layout corpus (``unknown.txt`` against each ``known??.txt`` chunked one by one, as its
  ``PanParser`` reads them), 10 runs averaged; then its meta-learner
  (``LinearMetaClassificationModel``: grid search, then fit) trained on the train cases' curve
  features and applied to the test cases'. Writes JSON.
* default (the project's interpreter): the same cases through TAVeer's Generalised Unmasking
  (two seeds, to measure our own seed noise), then Spearman rank correlations of the test
  cases' scores (ours vs reference, ours vs ours) and the share of equal verdicts (the sign of
  the decision value).

Usage (from the worktree root)::

    python benchmarks/reference_agreement.py --reference /tmp/ref-unmasking/src \\
        --reference-python /tmp/ref-unmasking/venv/bin/python --cases 40

Slow: the reference takes seconds per case; ``--cases N`` takes the first N train and the
first N test cases.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "stackexchange"


def pan_cases(corpus: Path, split: str, limit: int) -> list[tuple[str, list[str], str, bool]]:
    """(id, known texts, questioned text, same author) of the first ``limit`` cases, half
    same-author and half different-author (in id order)."""
    truth = {}
    for line in (corpus / split / "truth.txt").read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 2:
            truth[parts[0]] = parts[1].upper() == "Y"
    cases = []
    chosen = [c for c in sorted(truth) if truth[c]][: limit // 2]
    chosen += [c for c in sorted(truth) if not truth[c]][: limit - len(chosen)]
    for case in sorted(chosen):
        folder = corpus / split / case
        known = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("known??.txt"))]
        questioned = (folder / "unknown.txt").read_text(encoding="utf-8")
        cases.append((case, known, questioned, truth[case]))
    return cases


# --- the reference's side (runs under the reference's interpreter) ------------------------


def reference_side(args: argparse.Namespace) -> None:
    import asyncio
    import random

    import numpy as np

    sys.path.insert(0, str(Path(args.reference).resolve()))
    import authorship_unmasking.unmasking.interfaces as um_interfaces
    from authorship_unmasking.features.feature_sets import AvgWordFreqFeatureSet
    from authorship_unmasking.features.sampling import RandomOversampler
    from authorship_unmasking.input.chunkers import RandomWordTokenChunker
    from authorship_unmasking.meta.model import LinearMetaClassificationModel
    from authorship_unmasking.unmasking.strategies import FeatureRemoval

    captured: list[list[float]] = []

    class Capture:  # stands in for the event system: keeps the finished curve
        def __init__(self, *a: object) -> None:
            pass

        async def publish(self, name: str, event: object, sender: object) -> None:
            if name == "onUnmaskingFinished":
                captured.append(list(event.values))  # type: ignore[attr-defined]

    class NoTermination:
        class terminate_event:
            @staticmethod
            def is_set() -> bool:
                return False

    um_interfaces.EventBroadcaster = Capture
    um_interfaces.MultiProcessEventContext = NoTermination

    class Pair:  # the parts of SamplePair the feature set reads
        def __init__(self, chunks_a: list[str], chunks_b: list[str], pair_id: str) -> None:
            self.chunks_a, self.chunks_b, self.pair_id = chunks_a, chunks_b, pair_id

    random.seed(args.seed)
    chunker = RandomWordTokenChunker(chunk_size=700, num_chunks=30)

    def curve(case_id: str, known: list[str], questioned: str) -> list[float]:
        runs = []
        for _ in range(args.runs):
            chunks_a = list(chunker.chunk(questioned))
            texts = ["\n\n".join(known)] if args.join_known else known
            chunks_b = [c for text in texts for c in chunker.chunk(text)]
            features = AvgWordFreqFeatureSet(Pair(chunks_a, chunks_b, case_id), RandomOversampler())
            strategy = FeatureRemoval(10)
            strategy.iterations, strategy.vector_size, strategy.folds = 24, 250, 10
            captured.clear()
            asyncio.run(strategy.run(features))
            runs.append(captured[-1])
        return [sum(v) / len(v) for v in zip(*runs, strict=True)]

    def meta_rows(curves: list[list[float]]) -> np.ndarray:  # as its UnmaskingResult.to_numpy
        rows = []
        for values in curves:
            data = np.array(values)
            g1, g2 = np.gradient(data, edge_order=1), np.gradient(data, edge_order=2)
            rows.append(np.concatenate((data, g1, g2, np.sort(g1), np.sort(g2))))
        return np.array(rows)

    out: dict[str, object] = {}
    started = time.perf_counter()
    for split in ("train", "test"):
        cases = pan_cases(Path(args.corpus), split, args.cases)
        out[split] = {
            "ids": [c[0] for c in cases],
            "same": [c[3] for c in cases],
            "curves": [curve(c[0], c[1], c[2]) for c in cases],
        }
    model = LinearMetaClassificationModel()
    train, test = out["train"], out["test"]
    x_train = meta_rows(train["curves"])  # type: ignore[index]
    y_train = np.array(train["same"], dtype=int)  # type: ignore[index]
    asyncio.run(model.optimize(x_train, y_train))
    asyncio.run(model.fit(x_train, y_train))
    test["scores"] = [  # type: ignore[index]
        float(v)
        for v in asyncio.run(model.decision_function(meta_rows(test["curves"])))  # type: ignore[index]
    ]
    out["params"] = model._clf_params  # what its grid search chose
    out["seconds"] = time.perf_counter() - started
    Path(args.out).write_text(json.dumps(out, default=str), encoding="utf-8")


# --- our side ------------------------------------------------------------------------------


def treebank_words(reference: str) -> None:
    """Make TAVeer's word reader the reference's tokeniser (NLTK Treebank tokens, punctuation
    tokens dropped, case kept), to measure what the tokenisation alone changes. Needs nltk:
    run this script with the reference's interpreter (``PYTHONPATH`` = the worktree)."""
    sys.path.insert(0, str(Path(reference).resolve()))
    from authorship_unmasking.input.tokenizers import WordTokenizer

    from taveer_desktop.core.methods.systems import chunks

    tokenizer = WordTokenizer()
    chunks.words = lambda text, keep_case=True: list(tokenizer.tokenize(text))  # type: ignore[assignment]


def our_side(corpus: Path, limit: int, runs: int, seed: int) -> dict[str, object]:
    import numpy as np

    from taveer_desktop.core.methods.systems.comparison import CaseTexts
    from taveer_desktop.core.methods.systems.genunmasking import GeneralisedUnmasking

    method = GeneralisedUnmasking({"runs": runs})
    rng = np.random.default_rng(seed)
    out: dict[str, object] = {}
    started = time.perf_counter()
    for split in ("train", "test"):
        cases = pan_cases(corpus, split, limit)
        rows = [method.features(CaseTexts(tuple(k), q), (), rng) for _, k, q, _ in cases]
        n = int(method.params["iterations"])
        out[split] = {
            "same": [c[3] for c in cases],
            "rows": np.array(rows),
            "curves": [r[:n].tolist() for r in rows],
        }
    train, test = out["train"], out["test"]
    learned = method.learn(train["rows"], np.array(train["same"]))  # type: ignore[index]
    test["scores"] = method.score(test["rows"], learned).tolist()  # type: ignore[index]
    out["seconds"] = time.perf_counter() - started
    return out


def spearman(a: list[float], b: list[float]) -> float:
    import numpy as np
    from scipy.stats import spearmanr

    return float(spearmanr(np.asarray(a), np.asarray(b)).statistic)


def agreement(a: list[float], b: list[float]) -> float:
    return sum((x > 0) == (y > 0) for x, y in zip(a, b, strict=True)) / len(a)


def auc(scores: list[float], same: list[bool]) -> float:
    pos = [s for s, t in zip(scores, same, strict=True) if t]
    neg = [s for s, t in zip(scores, same, strict=True) if not t]
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", required=True, help="a checkout of webis-de/unmasking")
    parser.add_argument("--reference-python", default=sys.executable)
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--cases", type=int, default=40, help="first N train and N test cases")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--role", choices=("compare", "reference"), default="compare")
    parser.add_argument(
        "--join-known",
        action="store_true",
        help="the reference chunks the known documents joined (as TAVeer), not one by one",
    )
    parser.add_argument("--out", default="/tmp/reference_agreement.json")
    parser.add_argument(
        "--treebank",
        action="store_true",
        help="our side reads words with the reference's tokeniser (run under its interpreter)",
    )
    args = parser.parse_args()
    if args.treebank:
        treebank_words(args.reference)
    if args.role == "reference":
        reference_side(args)
        return
    ref_json = Path(args.out).with_suffix(".reference.json")
    if not ref_json.exists():
        subprocess.run(
            [
                *(args.reference_python, __file__, "--role", "reference", "--out", str(ref_json)),
                *("--reference", args.reference, "--corpus", args.corpus),
                *("--cases", str(args.cases), "--runs", str(args.runs), "--seed", str(args.seed)),
                *(("--join-known",) if args.join_known else ()),
            ],
            check=True,
        )
    ref = json.loads(ref_json.read_text(encoding="utf-8"))
    seeds = (args.seed, args.seed + 1)
    ours = [our_side(Path(args.corpus), args.cases, args.runs, seed) for seed in seeds]
    same = ref["test"]["same"]
    r_scores = ref["test"]["scores"]
    o_scores = [o["test"]["scores"] for o in ours]  # type: ignore[index]

    def areas(side: dict, split: str) -> list[float]:  # mean of each averaged curve
        return [sum(c) / len(c) for c in side[split]["curves"]]

    r_areas = areas(ref, "train") + areas(ref, "test")
    o_areas = [areas(o, "train") + areas(o, "test") for o in ours]
    report = {
        "spearman_curve_means_ours_vs_reference": [spearman(a, r_areas) for a in o_areas],
        "spearman_curve_means_ours_seed_vs_seed": spearman(o_areas[0], o_areas[1]),
        "cases": {"train": len(ref["train"]["same"]), "test": len(same)},
        "spearman_ours_vs_reference": [spearman(s, r_scores) for s in o_scores],
        "spearman_ours_seed_vs_seed": spearman(o_scores[0], o_scores[1]),
        "verdicts_equal_ours_vs_reference": [agreement(s, r_scores) for s in o_scores],
        "auc_reference": auc(r_scores, same),
        "auc_ours": [auc(s, same) for s in o_scores],
        "reference_meta_params": ref["params"],
        "seconds_reference": ref["seconds"],
        "seconds_ours": [o["seconds"] for o in ours],
    }
    print(json.dumps(report, indent=2))
    Path(args.out).write_text(json.dumps(report, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
