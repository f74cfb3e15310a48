"""TAVeer alone, LambdaG alone and their fusion, side by side, on the shared corpora.

For each corpus: the population is the train split's authors (``cases.csv`` names them), the
cases are the test split (authors disjoint from the train split's), the case's conditions are
the test cases' median questioned and known lengths — as ``validation_benchmark.py``. Then

- ``validate(..., method="fusion")`` on the population: the cross-validated figures of all three
  methods on the same held-out trials (the record's ``methods``), LambdaG's time per trial and
  the whole validation's time;
- every test case verified with the fused model (``core/method_verify.verify_with_method``):
  test AUC and Cllr of each method's own log10 LR over all test cases (gate or not), and the time of
  LambdaG's part of one verification (reading the model's reference population included).

One JSON line per corpus and seed, for docs/accuracy.md and docs/performance.md:

    .venv/bin/python benchmarks/lambdag_benchmark.py [--shared ../shared] [--seeds 0 1 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from validation_benchmark import _test_lengths

from taveer_desktop.core.calibration.calibration import cllr
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart
from taveer_desktop.core.trials.population import population_from_corpus
from taveer_desktop.core.validation.evaluation import roc_auc
from taveer_desktop.core.validation.validation import ValidationSettings, validate
from taveer_desktop.core.verification.method_verify import lambdag_for_case, verify_with_method

REPO = Path(__file__).resolve().parent.parent
CORPORA = ("stackexchange", "reuters-c50")
METHODS = ("taveer", "lambdag", "fusion")


def _round(value: float) -> float:
    return round(float(value), 3)


def _within_class_correlation(record: dict) -> dict[str, float]:
    """Pearson correlation of TAVeer's and LambdaG's cross-validated log10 LRs among the
    same-author and among the different-author trials: how much the two opinions overlap."""
    out = {}
    for label, same in (("same", True), ("different", False)):
        rows = [t["log10_lr_by_method"] for t in record["trials"] if t["same"] is same]
        a = np.array([r["taveer"] for r in rows])
        b = np.array([r["lambdag"] for r in rows])
        out[label] = _round(np.corrcoef(a, b)[0, 1])
    return out


def run_corpus(root: Path, seed: int) -> dict:
    questioned, known = _test_lengths(root)
    population = population_from_corpus(open_corpus(root / "train"))
    settings = ValidationSettings(
        questioned_chars=questioned, known_chars=known, seed=seed, method="fusion"
    )
    started = time.perf_counter()
    result = validate(population, settings)
    validation_seconds = time.perf_counter() - started
    record = result.record
    lexicon = default_lexicon()
    part = LambdaGPart.of(result.model, "benchmark")
    test = open_corpus(root / "test")
    truth, lrs, lambdag_seconds = [], {m: [] for m in METHODS}, []
    for case in test.iter_cases():
        done = verify_with_method(result.model, case.known_texts, case.unknown_text, lexicon)
        assert done.methods is not None
        by_method = done.methods.by_method
        if any(by_method[m] is None for m in METHODS):
            continue  # TAVeer abstained in every category: no ratio to compare
        truth.append(test.truth[case.case_id])
        for m in METHODS:
            lrs[m].append(by_method[m])
        t0 = time.perf_counter()
        lambdag_for_case(part, case.known_texts, case.unknown_text, lexicon, "benchmark")
        lambdag_seconds.append(time.perf_counter() - t0)
    truth_array = np.array(truth)
    test_figures = {
        m: {
            "cllr": _round(cllr(np.array(v), truth_array)),
            "auc": _round(roc_auc(np.array(v), truth_array)),
        }
        for m, v in lrs.items()
    }
    return {
        "corpus": root.name,
        "seed": seed,
        "authors": record["population"]["authors"],
        "trials": len(record["trials"]),
        "questioned_chars": questioned,
        "known_chars": known,
        "cv": {
            m: {k: _round(f[k]) for k in ("cllr", "cllr_min", "auc", "eer")}
            for m, f in record["methods"].items()
        },
        "order": record["lambdag"]["order"],
        "fold_orders": record["lambdag"]["fold_orders"],
        "fusion_weights": [round(w, 3) for w in result.model.extra["fusion"]["weights"]],
        "cv_correlation_within_class": _within_class_correlation(record),
        "test_cases": len(truth),
        "test": test_figures,
        "lambdag_seconds_per_trial": record["lambdag"]["seconds_per_trial"],
        "lambdag_seconds": record["lambdag"]["seconds"],
        "validation_seconds": round(validation_seconds, 1),
        "lambdag_verify_seconds_median": round(statistics.median(lambdag_seconds), 3),
        "model_bytes": len(result.model.to_json().encode("utf-8")),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--corpora", nargs="+", default=list(CORPORA))
    args = parser.parse_args()
    for name in args.corpora:
        root = Path(args.shared) / "corpora" / name
        if not root.is_dir():
            print(f"skip {name}: not found", file=sys.stderr)
            continue
        for seed in args.seeds:
            print(json.dumps(run_corpus(root, seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
