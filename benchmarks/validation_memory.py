"""Peak memory and wall time of LambdaG/fusion validations, against a baseline tree, in one run.

Each measurement is a fresh process running ``benchmarks/validation_speed.py`` (the synthetic
200-author population; ``--trials`` trials, ``--method``, ``--workers`` processes), so its
peak resident memory is that validation's alone (its main process: not its workers').
The baseline is another checkout of the project (for example the commit before a change,
exported with ``git archive <commit> | tar -x -C /tmp/base``); its runs and this tree's
alternate, so both see the same machine load. Prints one JSON line per tree and method with
the medians (and every run), and the ratios against the baseline:

    .venv/bin/python benchmarks/validation_memory.py --baseline /tmp/base [--runs 5]
        [--methods fusion lambdag taveer] [--trials 2000] [--cores 0,1] [--workers 1]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def measure(tree: Path, method: str, trials: int, shared: str, cores: str, workers: int) -> dict:
    command = [
        sys.executable,
        str(tree / "benchmarks" / "validation_speed.py"),
        "--trials", str(trials), "--method", method, "--workers", str(workers),
        "--shared", shared,
    ]  # fmt: skip
    if cores:
        command = ["taskset", "-c", cores, *command]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="another checkout of the project to compare with")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--methods", nargs="+", default=["fusion"])
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--cores", default="0,1", help="taskset core list ('' for none)")
    parser.add_argument("--workers", type=int, default=1, help="validate's processes")
    args = parser.parse_args()
    trees = {"this": REPO}
    if args.baseline:
        trees["baseline"] = Path(args.baseline).resolve()
    runs: dict[tuple[str, str], list[dict]] = {}
    load = [os.getloadavg()[0]]
    for _ in range(args.runs):
        for method in args.methods:
            for name, tree in trees.items():
                runs.setdefault((name, method), []).append(
                    measure(tree, method, args.trials, args.shared, args.cores, args.workers)
                )
                load.append(os.getloadavg()[0])
    medians = {}
    for (name, method), done in runs.items():
        row = {
            "tree": name,
            "method": method,
            "runs": len(done),
            "trials": done[0]["trials"],
            "workers": args.workers,
            "peak_rss_mib": statistics.median(r["peak_rss_mib"] for r in done),
            "total_seconds": statistics.median(r["total_seconds"] for r in done),
            "lambdag_seconds": statistics.median(r["lambdag_seconds"] or 0.0 for r in done),
            "every_peak_rss_mib": [r["peak_rss_mib"] for r in done],
            "every_total_seconds": [r["total_seconds"] for r in done],
        }
        medians[name, method] = row
        print(json.dumps(row), flush=True)
    for method in args.methods:
        if ("baseline", method) in medians:
            this, base = medians["this", method], medians["baseline", method]
            ratios = {
                k: round(this[k] / base[k], 3)
                for k in ("peak_rss_mib", "total_seconds", "lambdag_seconds")
                if base[k]
            }
            print(json.dumps({"method": method, "this_over_baseline": ratios}))
    print(json.dumps({"load_average_1min": {"min": min(load), "max": max(load)}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
