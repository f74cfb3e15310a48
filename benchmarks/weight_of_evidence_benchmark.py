"""Speed of the decision-stability resampling and of calibration (a script, not a timed test).

    .venv/bin/python benchmarks/weight_of_evidence_benchmark.py [--runs 5]

Two 10,000-character documents (Federalist papers of the demo case), the demo model; prints the
median time of one verification and of stability with 200 resamples, and their ratio (both run
in this process, so machine load affects them alike).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from timing import median_seconds  # noqa: E402

from taveer_desktop import paths  # noqa: E402
from taveer_desktop.core.calibration.calibration import cllr_min, fit_logistic_calibration  # noqa: E402
from taveer_desktop.core.methods.taveer.model import load_model  # noqa: E402
from taveer_desktop.core.methods.taveer.stability import decision_stability  # noqa: E402
from taveer_desktop.core.methods.taveer.verify import verify  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    folder = paths.resource("demo", "federalist")
    known = (folder / "federalist_10.txt").read_text(encoding="utf-8")[:10_000]
    unknown = (folder / "federalist_51_questioned.txt").read_text(encoding="utf-8")[:10_000]
    model = load_model(paths.resource("models", "demo-formal-prose.json"))
    answer = verify(model, [known], unknown).prediction
    one, runs_one = median_seconds(lambda: verify(model, [known], unknown), args.runs)
    stab, runs_stab = median_seconds(
        lambda: decision_stability(model, [known], unknown, answer, resamples=200), args.runs
    )
    print(
        f"one verification, two 10,000-character documents: median {one:.3f} s "
        f"{[round(t, 3) for t in runs_one]}"
    )
    print(
        f"stability, 200 resamples: median {stab:.3f} s {[round(t, 3) for t in runs_stab]}; "
        f"ratio to one verification {stab / one:.1f}"
    )
    rng = np.random.default_rng(0)
    truth = rng.random(10_000) < 0.5
    scores = np.clip(
        np.where(truth, rng.normal(0.6, 0.1, truth.size), rng.normal(0.4, 0.1, truth.size)), 0, 1
    )
    fit, _ = median_seconds(lambda: fit_logistic_calibration(scores, truth), args.runs)
    pav, _ = median_seconds(lambda: cllr_min(scores, truth), args.runs)
    print(
        f"calibration fit on 10,000 training scores: median {fit:.3f} s; "
        f"Cllr_min (PAV) on 10,000 scores: median {pav:.3f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
