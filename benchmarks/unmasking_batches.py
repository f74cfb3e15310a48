"""Generalised Unmasking's features() per case, case by case and in batches of K cases at once,
against a baseline tree in the same run, and whether the features are the same.

Each measurement is a fresh process (``--child``) running one tree's code (``--tree``) on the
first ``--cases`` Stack Exchange test cases of the shared corpus (case i seeded i, the paper's
settings): ``one`` computes each case's ``features()`` in turn (what the baseline does),
``K`` (this tree only) gives the cases to ``features_many`` K at a time. It prints the CPU
seconds per case (``time.process_time``, one BLAS thread) and a digest of every feature
vector. The trees and the batch sizes alternate, ``--runs`` times, so all see the same machine
load; one JSON line per (tree, mode) with the median and every run, and whether every feature
equals, digit for digit, the baseline's.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/unmasking_batches.py \
        --baseline /tmp/base [--baseline-batch 10] [--runs 3] [--cases 20] [--batches 1 5 10 20]

``--baseline-batch K`` measures the baseline in batches of K too (a baseline that has
``features_many``, e.g. the numpy tree before the compiled curve, measured as it runs in a
validation: batches of 10).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def child(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(Path(args.tree)))
    import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread)

    # isort: split
    import numpy as np

    from taveer_desktop.core.methods.systems.comparison import CannotCompare
    from taveer_desktop.core.methods.systems.genunmasking import GeneralisedUnmasking
    from tests.core.methods.systems.unmasking_trials import stackexchange_cases

    cases = [case for case, _ in stackexchange_cases(args.cases)]
    method = GeneralisedUnmasking()
    draws = [(case, (), np.random.default_rng(i)) for i, case in enumerate(cases)]
    started = time.process_time()
    found: list = []
    if args.mode == "one":
        for case, impostors, rng in draws:
            try:
                found.append(method.features(case, impostors, rng))
            except CannotCompare as reason:
                found.append(reason)
    else:
        size = int(args.mode)
        for first in range(0, len(draws), size):
            found.extend(method.features_many(draws[first : first + size]))
    cpu = time.process_time() - started
    vectors = [
        None if isinstance(f, CannotCompare) else np.asarray(f).tobytes().hex() for f in found
    ]
    print(json.dumps({"cpu_s_per_case": cpu / len(cases), "vectors": vectors}))
    return 0


def measure(tree: Path, mode: str, cases: int) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", "--tree", str(tree),
               "--mode", mode, "--cases", str(cases)]  # fmt: skip
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run(command, capture_output=True, text=True, check=True, env=env, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="another checkout, measured case by case")
    parser.add_argument("--baseline-batch", type=int, help="the baseline in batches of K")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 5, 10, 20])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", default=str(REPO), help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    baseline_mode = "one" if args.baseline_batch is None else str(args.baseline_batch)
    plan = [(Path(args.baseline), baseline_mode)] if args.baseline else []
    plan += [(REPO, "one")] + [(REPO, str(k)) for k in args.batches]
    runs: dict[tuple[Path, str], list[dict]] = {key: [] for key in plan}
    load_before = [round(x, 2) for x in os.getloadavg()]
    for _ in range(args.runs):
        for tree, mode in plan:
            runs[(tree, mode)].append(measure(tree, mode, args.cases))
    load_after = [round(x, 2) for x in os.getloadavg()]
    reference = runs[plan[0]][0]["vectors"]
    for (tree, mode), found in runs.items():
        cpus = [r["cpu_s_per_case"] for r in found]
        same = sum(r["vectors"][i] == reference[i] for r in found for i in range(len(reference)))
        line = {
            "tree": str(tree),
            "mode": "case by case" if mode == "one" else f"batches of {mode}",
            "cases": args.cases,
            "median_cpu_s_per_case": round(statistics.median(cpus), 4),
            "runs_cpu_s_per_case": [round(c, 4) for c in cpus],
            "features_as_first_tree": f"{same} of {len(reference) * len(found)}",
            "load_average": {"before": load_before, "after": load_after},
        }
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
