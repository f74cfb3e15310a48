"""What Unmasking and Generalised Unmasking cost per case, and (``--auc``) how well they rank.

Cost: ``features()`` of one case (the whole unmasking: chunks, every round's k-fold SVMs,
GenUnmasking's 10 runs) at realistic lengths, with the methods' default hyperparameters: a
Stack Exchange case of the shared corpus (~800 known / ~400 questioned words), and demo case
DEMO-001 (four Federalist papers by Madison, ~10,000 words, against No. 51, ~2,500 words). Each
is run ``--runs`` times with different seeds; the median wall time and the median CPU time of
this process are printed (CPU time is what a validation worker on its own core pays; wall time
includes whatever else the machine is doing). Run it with one BLAS thread, as a validation
worker should (``OPENBLAS_NUM_THREADS=1``): OpenBLAS threads on these small systems make every
solve several times slower on a shared machine.

AUC (``--auc N``): the first N test cases of the shared Stack Exchange corpus, features of each
computed once (seed = case index); the curve classifier is learned on one half of the cases and
scores the other half, and the other way round (two-fold cross-fitting, so no case is scored by
a classifier that saw it; ``tests/core/methods/systems/unmasking_trials.py``, shared with the
tests); the AUC of all scores against the truth is printed (cases the method cannot compare are left
out).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/unmasking_cost.py [--runs 5] [--auc 204]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from taveer_desktop.core.methods.systems.chunks import words  # noqa: E402
from taveer_desktop.core.methods.systems.comparison import CaseTexts, ComparisonMethod  # noqa: E402
from taveer_desktop.core.methods.systems.genunmasking import GeneralisedUnmasking  # noqa: E402
from taveer_desktop.core.methods.systems.unmasking import Unmasking  # noqa: E402
from tests.core.methods.systems.unmasking_trials import (  # noqa: E402
    cross_fitted_auc,
    read,
    stackexchange_cases,
)

STACKEXCHANGE = REPO.parent / "shared" / "corpora" / "stackexchange"


def demo_case() -> CaseTexts:
    demo = REPO / "resources" / "demo"
    entry = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][0]
    return CaseTexts(
        tuple(read(demo / name) for name in entry["known"]), read(demo / entry["questioned"])
    )


def cost(method: ComparisonMethod, case: CaseTexts, runs: int) -> dict[str, float]:
    walls, cpus = [], []
    for seed in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        method.features(case, (), np.random.default_rng(seed))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {"wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--auc", type=int, default=0, help="cases of the Stack Exchange test set")
    parser.add_argument("--only", default="", help="one method id (unmasking, genunmasking)")
    args = parser.parse_args()
    cases = {"demo DEMO-001": demo_case()}
    if STACKEXCHANGE.exists():
        cases["stackexchange test EN137"] = stackexchange_cases(1)[0][0]
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "(unset)")
    for method in (Unmasking(), GeneralisedUnmasking()):
        if args.only and method.info.id.value != args.only:
            continue
        for name, case in cases.items():
            figures = cost(method, case, args.runs)
            lengths = [len(words(case.known_joined)), len(words(case.questioned))]
            print(
                json.dumps(
                    {
                        "method": method.info.id.value,
                        "case": name,
                        "words_known_questioned": lengths,
                        "runs": args.runs,
                        "openblas_threads": threads,
                        **{k: round(v, 3) for k, v in figures.items()},
                    }
                ),
                flush=True,
            )
        if args.auc and STACKEXCHANGE.exists():
            test_cases = stackexchange_cases(args.auc)
            auc = cross_fitted_auc(method, test_cases)
            row = {"method": method.info.id.value, "auc": auc, "cases": len(test_cases)}
            print(json.dumps(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
