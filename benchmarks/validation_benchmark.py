"""Validation on the shared corpora, run through the real ``taveer`` command line.

For each corpus: the population is the train split's authors (``cases.csv`` names them), the
cases are the test split. The case's conditions are the test cases' median questioned and known
lengths. Then

- ``taveer validate --population <corpus>/train`` → validated model and cross-validated figures;
- ``taveer train <corpus>/train`` → the ordinary model;
- ``taveer evaluate`` of both on ``<corpus>/test``: test Cllr (all cases), AUC, and the gate;

and prints one JSON line per corpus for docs/validation.md: does the record's cross-validated
Cllr predict the test Cllr, and is the validated model no worse than the trained one?

    .venv/bin/python benchmarks/validation_benchmark.py [--shared ../shared] [--seeds 0 1 2]
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPORA = ("stackexchange", "reuters-c50")


def _run(*args: str) -> dict:
    taveer = str(Path(sys.executable).with_name("taveer"))
    done = subprocess.run([taveer, *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _test_lengths(root: Path) -> tuple[int, int]:
    with (root / "cases.csv").open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["split"] == "test"]
    return (
        int(statistics.median(int(r["unknown_chars"]) for r in rows)),
        int(statistics.median(int(r["known_chars"]) for r in rows)),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    args = parser.parse_args()
    keep = ("cllr", "cllr_min", "auc", "accuracy", "misleading_y", "misleading_n")
    with tempfile.TemporaryDirectory() as tmp:
        for name in CORPORA:
            root = Path(args.shared) / "corpora" / name
            if not root.is_dir():
                print(f"skip {name}: not found", file=sys.stderr)
                continue
            questioned, known = _test_lengths(root)
            trained = Path(tmp) / f"{name}-trained.json"
            _run("train", str(root / "train"), "-o", str(trained), "--json")
            test_trained = _run("evaluate", str(trained), str(root / "test"), "--json")
            trained_calibration = json.loads(trained.read_text(encoding="utf-8"))["calibration"]
            trained_bound = [trained_calibration.get(k) for k in ("min_log10_lr", "max_log10_lr")]
            for seed in args.seeds:
                validated = Path(tmp) / f"{name}-validated-{seed}.json"
                record = _run(
                    "validate", "--population", str(root / "train"), "-o", str(validated),
                    "--questioned-chars", str(questioned), "--known-chars", str(known),
                    "--seed", str(seed), "--json",
                )  # fmt: skip
                test_validated = _run("evaluate", str(validated), str(root / "test"), "--json")
                print(
                    json.dumps(
                        {
                            "corpus": name,
                            "seed": seed,
                            "questioned_chars": questioned,
                            "known_chars": known,
                            "authors": record["authors"],
                            "trials": record["trials"],
                            "cv": {k: record[k] for k in keep},
                            "cv_cllr_interval": record["intervals"]["cllr"],
                            "bound_validated": record["bound"],
                            "bound_trained": trained_bound,
                            "test_validated": {k: test_validated[k] for k in keep}
                            | {
                                "cases": test_validated["n"],
                                "outside_conditions": test_validated["outside_conditions"],
                                "evaluative": test_validated["evaluative"],
                                "cllr_evaluative": test_validated["cllr_evaluative"],
                            },
                            "test_trained": {k: test_trained[k] for k in keep},
                        }
                    ),
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
