"""The hand-written linear SVM (``core/methods/systems/linear_svm.py``) against scikit-learn's
LinearSVC (liblinear), in the same run on the same batches: time and exactness.

The batches are the ones Generalised Unmasking fits: for one Stack Exchange case of the shared
corpus, the chunk counts of its 10 runs (30 + 30 chunks of 700 words, 250 feature words each),
and on them every run's 10 cross-validation folds — 100 problems of 54 training samples × 250
features — in round 1 (all features) and in round 12 (half removed, as the curve goes on). Each
side fits the whole batch ``--runs`` times (median seconds):

- ``ours``: ``linear_svm.fit_many``, one call for the 100 problems (exact optimum);
- ``liblinear``: ``LinearSVC(C=1, loss="squared_hinge", dual=True)`` (scikit-learn's default
  model, the one the reference code uses), one fit per problem, at scikit-learn's default
  tolerance 1e-4 and (``converged``) at 1e-10 with a large iteration cap.

Exactness: the largest absolute difference of the weights and bias from ours, and the share of
held-out predictions (the accuracies Unmasking records) that differ. scikit-learn is needed only
here (install it into the environment you run this with); the project does not depend on it.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/svm_against_liblinear.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from taveer_desktop.core.methods.systems import linear_svm  # noqa: E402
from taveer_desktop.core.methods.systems.chunks import (  # noqa: E402
    chunk_counts,
    encode_pair,
    most_frequent_in_chunks,
    oversampled_chunks,
)
from tests.core.methods.systems.unmasking_trials import stackexchange_cases  # noqa: E402


def batch(removed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x (10, 60, 250) with the first ``removed`` feature columns zeroed, y (60,) and folds
    (10, 60)."""
    case = stackexchange_cases(1)[0][0]
    pair = encode_pair(case.known_joined, case.questioned)
    rng = np.random.default_rng(0)
    known = oversampled_chunks(pair.first, 30, 700, rng, 10)
    questioned = oversampled_chunks(pair.second, 30, 700, rng, 10)
    chosen = most_frequent_in_chunks(known, questioned, len(pair.vocabulary), 250)
    size = len(pair.vocabulary)
    x = np.stack(
        [
            chunk_counts(np.concatenate([known[r], questioned[r]]), chosen[r], size)
            for r in range(10)
        ]
    )
    x[:, :, :removed] = 0.0
    y = np.concatenate([np.ones(30), -np.ones(30)])
    folds = np.stack([linear_svm.stratified_folds(y, 10, rng) for _ in range(10)])
    return x, y, folds


def ours(x: np.ndarray, y: np.ndarray, folds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    held_out = folds[:, None, :] == np.arange(10)[None, :, None]
    train = ~held_out.reshape(100, -1)
    fit = linear_svm.fit_many(
        x, np.broadcast_to(y, (100, len(y))), train, 1.0, group=np.repeat(np.arange(10), 10)
    )
    return np.concatenate([fit.weights, fit.bias[:, None]], axis=1), fit.outputs


def liblinear(x: np.ndarray, y: np.ndarray, folds: np.ndarray, tol: float, max_iter: int):
    from sklearn.svm import LinearSVC

    params, outputs = [], []
    for r in range(10):
        for k in range(10):
            train = folds[r] != k
            model = LinearSVC(C=1.0, loss="squared_hinge", dual=True, tol=tol, max_iter=max_iter)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(x[r][train], y[train])
            params.append(np.append(model.coef_[0], model.intercept_[0]))
            outputs.append(model.decision_function(x[r]))
    return np.array(params), np.array(outputs)


def timed(fn, runs: int):
    times, result = [], None
    for _ in range(runs):
        start = time.process_time()
        result = fn()
        times.append(time.process_time() - start)
    return statistics.median(times), times, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for label, removed in (("round 1", 0), ("round 12", 110)):
        x, y, folds = batch(removed)
        held_out = folds[:, None, :] == np.arange(10)[None, :, None]
        held = held_out.reshape(100, -1)
        ours_s, ours_all, (p_ours, o_ours) = timed(
            lambda x=x, y=y, f=folds: ours(x, y, f), args.runs
        )
        row = {"batch": label, "problems": 100, "ours_cpu_s": round(ours_s, 4)}
        for name, tol, cap in (("liblinear", 1e-4, 1000), ("liblinear_converged", 1e-10, 100000)):
            secs, _, (p_lib, o_lib) = timed(
                lambda x=x, y=y, f=folds, t=tol, m=cap: liblinear(x, y, f, t, m), args.runs
            )
            flips = np.sign(o_ours[held]) != np.sign(o_lib[held])
            row[f"{name}_cpu_s"] = round(secs, 4)
            row[f"{name}_max_param_diff"] = float(np.abs(p_ours - p_lib).max())
            row[f"{name}_heldout_predictions_differing"] = float(flips.mean())
        row["ours_cpu_runs"] = [round(t, 4) for t in ours_all]
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
