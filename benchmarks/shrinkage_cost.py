"""The cost of choosing a comparison system's shrinkage κ with folds cut by length band.

``core/calibration/calibration_shrinkage.choose_shrinkage`` cuts every author fold by the
declared range's bands of questioned length where the calibration has length terms (issue 34):
three times as many fits per κ. This times one choice on trials of the size of a one-repeat
Stack Exchange validation (2,568 trials, five author folds, questioned lengths over 1,317–3,081
characters, a score that mostly measures the length, as ProfAV's), against the choice on the
author folds alone (the same grid and one-standard-error rule, computed here with
``held_out_cllr``, as the module did before), the two alternating in one process, ``--runs``
times each; the medians, their ratio and the κ each chose. A validation makes one choice per
fold of every repeat and one for its final part (five and one here). One JSON line:

    .venv/bin/python benchmarks/shrinkage_cost.py [--runs 3] [--trials 2568]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

from taveer_desktop.core.calibration.calibration_shrinkage import (
    SHRINKAGE_GRID,
    choose_shrinkage,
    held_out_cllr,
    inner_folds,
)

DECLARED = (1317, 3081)


def _authors_only(scores, truth, masks, quality, lengths) -> float:
    found = [(k, *held_out_cllr(scores, truth, masks, k, quality, lengths)) for k in SHRINKAGE_GRID]
    _, best, error = min(found, key=lambda row: row[1])
    return max(k for k, c, _ in found if c <= best + error)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--trials", type=int, default=2568)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    n = args.trials
    chars = np.exp(rng.uniform(np.log(DECLARED[0]), np.log(DECLARED[1]), n)).round()
    truth = np.tile([True, False], n // 2 + 1)[:n]
    scores = np.where(truth, 0.3, -0.3) + rng.normal(0, 1, n) - 4.0 * np.log(chars / 2000)

    def quality(rows):
        return {"questioned_chars": chars[rows]}, {"questioned_chars": DECLARED}

    def lengths(rows):
        return chars[rows], None

    masks = inner_folds(np.arange(n) % 5)
    ways = {"authors": _authors_only, "authors_by_length_band": choose_shrinkage}
    seconds: dict[str, list[float]] = {name: [] for name in ways}
    chosen: dict[str, float] = {}
    for _ in range(args.runs):
        for name, choose in ways.items():
            started = time.perf_counter()
            chosen[name] = choose(scores, truth, masks, quality, lengths)
            seconds[name].append(time.perf_counter() - started)
    medians = {name: statistics.median(s) for name, s in seconds.items()}
    print(
        json.dumps(
            {
                "trials": n,
                "runs": args.runs,
                "median_seconds": {k: round(v, 3) for k, v in medians.items()},
                "seconds": {k: [round(x, 3) for x in v] for k, v in seconds.items()},
                "ratio": round(medians["authors_by_length_band"] / medians["authors"], 2),
                "kappa": chosen,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
