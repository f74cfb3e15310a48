"""LambdaG's dependence on text length, and what the fitness-for-purpose gate does about it.

λG is a sum over the questioned text's tokens, so its size grows with the text, while a model
is calibrated for the case's lengths. For each corpus (population: the train split's authors,
lengths: the test cases' medians, as ``validation_benchmark.py``) a fused model is validated
and every test case evaluated in this process (``core/evaluation.evaluate``); then, for each
method (TAVeer alone, LambdaG alone, the fusion):

- Cllr and AUC over all test cases, over those whose questioned *and* known lengths lie inside
  the model's validated length ranges (``model.conditions``: the central 95 % of the trials'
  lengths), over those outside, over the cases the gate leaves an evaluative conclusion, and
  over the cases whose two lengths are both within ±35 % of the validated targets and the rest;
- Pearson's correlation of |log10 LR| (and of |raw λG|) with the questioned text's length.

One JSON line per corpus and seed, for docs/lambdag.md:

    .venv/bin/python benchmarks/lambdag_length_benchmark.py [--shared ../shared] [--seeds 0]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from validation_benchmark import CORPORA, _test_lengths

from taveer_desktop.core.calibration.calibration import cllr
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.trials.population import population_from_corpus
from taveer_desktop.core.validation.evaluation import evaluate, roc_auc
from taveer_desktop.core.validation.validation import ValidationSettings, validate

REPO = Path(__file__).resolve().parent.parent
NEAR = 0.35  # "near the targets": both lengths within ±35 % of the validated ones


def _figures(log10_lr: np.ndarray, truth: np.ndarray, rows: np.ndarray) -> dict:
    kept = truth[rows]
    if not (kept.any() and (~kept).any()):
        return {"cases": int(rows.sum()), "cllr": None, "auc": None}
    return {
        "cases": int(rows.sum()),
        "cllr": round(cllr(log10_lr[rows], kept), 3),
        "auc": round(roc_auc(log10_lr[rows], kept), 3),
    }


def run_corpus(root: Path, seed: int) -> dict:
    questioned, known = _test_lengths(root)
    population = population_from_corpus(open_corpus(root / "train"))
    settings = ValidationSettings(
        questioned_chars=questioned, known_chars=known, seed=seed, method="fusion"
    )
    model = validate(population, settings).model
    test = open_corpus(root / "test")
    lengths = np.array(
        [(len(c.unknown_text), sum(len(t) for t in c.known_texts)) for c in test.iter_cases()]
    )
    evaluated = evaluate(model, test, workers=2)
    truth = evaluated.truth
    conditions = model.conditions
    assert conditions is not None and evaluated.lambdag_raw is not None
    q, k = conditions.questioned_chars, conditions.known_chars
    inside = (
        (lengths[:, 0] >= q.low)
        & (lengths[:, 0] <= q.high)
        & (lengths[:, 1] >= k.low)
        & (lengths[:, 1] <= k.high)
    )
    evaluative = np.array([kind is ConclusionKind.EVALUATIVE for kind in evaluated.kinds])
    near = (np.abs(lengths[:, 0] / questioned - 1) <= NEAR) & (
        np.abs(lengths[:, 1] / known - 1) <= NEAR
    )
    methods = {}
    for name, figures in evaluated.methods.items():
        lr = figures.log10_lr
        methods[name] = {
            "all": _figures(lr, truth, np.ones(len(truth), dtype=bool)),
            "inside_lengths": _figures(lr, truth, inside),
            "outside_lengths": _figures(lr, truth, ~inside),
            "evaluative": _figures(lr, truth, evaluative),
            "within_35_percent": _figures(lr, truth, near),
            "beyond_35_percent": _figures(lr, truth, ~near),
            "corr_abs_lr_questioned_chars": round(
                float(np.corrcoef(np.abs(lr), lengths[:, 0])[0, 1]), 3
            ),
        }
    return {
        "corpus": root.name,
        "seed": seed,
        "targets": [questioned, known],
        "validated_questioned_chars": [q.low, q.high],
        "validated_known_chars": [k.low, k.high],
        "test_questioned_chars": [int(lengths[:, 0].min()), int(lengths[:, 0].max())],
        "test_known_chars": [int(lengths[:, 1].min()), int(lengths[:, 1].max())],
        "cases": len(truth),
        "inside_lengths": int(inside.sum()),
        "within_35_percent": int(near.sum()),
        "evaluative": int(evaluative.sum()),
        "corr_abs_raw_lambdag_questioned_chars": round(
            float(np.corrcoef(np.abs(evaluated.lambdag_raw), lengths[:, 0])[0, 1]), 3
        ),
        "methods": methods,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    args = parser.parse_args()
    for seed in args.seeds:
        for name in CORPORA:
            root = Path(args.shared) / "corpora" / name
            if not root.is_dir():
                print(f"skip {name}: not found", file=sys.stderr)
                continue
            print(json.dumps(run_corpus(root, seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
