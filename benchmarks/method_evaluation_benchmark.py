"""``taveer evaluate`` of fused models on the shared corpora: every method's measures side by side.

For each corpus: the population is the train split's authors, the case's lengths the test cases'
median questioned and known lengths (as ``validation_benchmark.py``); ``taveer validate
--method fusion`` writes the fused model, and ``taveer evaluate <model> <corpus>/test --json``
measures it on each test split — its own corpus's and the other corpus's (a genre the model was
not validated for) — through the real command line, with ``--workers`` processes. Prints one
JSON line per model, test split and seed: the stated method's headline measures, each method's
(``methods``: TAVeer alone, LambdaG alone, the fusion), the gate's counts and the wall time of
the evaluation.

    .venv/bin/python benchmarks/method_evaluation_benchmark.py [--shared ../shared]
        [--seeds 0 1 2] [--workers 2] [--fuse taveer,coav] [--corpora reuters-c50]

``--fuse`` names the fused methods (default: TAVeer and LambdaG); ``--corpora`` limits the
corpora (default: every shared corpus found).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from validation_benchmark import CORPORA, _test_lengths

REPO = Path(__file__).resolve().parent.parent
KEEP = ("n", "accuracy", "auc", "c_at_1", "f05u", "brier", "cllr", "cllr_min", "cllr_evaluative")


def _taveer(*args: str) -> tuple[dict, float]:
    taveer = str(Path(sys.executable).with_name("taveer"))
    started = time.perf_counter()
    done = subprocess.run([taveer, *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout), time.perf_counter() - started


def _round(figures: dict) -> dict:
    return {k: None if figures[k] is None else round(figures[k], 3) for k in KEEP}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fuse", default="taveer,lambdag")
    parser.add_argument("--corpora", nargs="+", default=list(CORPORA))
    args = parser.parse_args()
    roots = {name: Path(args.shared) / "corpora" / name for name in args.corpora}
    roots = {name: root for name, root in roots.items() if root.is_dir()}
    if not roots:
        print(f"no corpus found under {args.shared}/corpora", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            for name, root in roots.items():
                questioned, known = _test_lengths(root)
                model = Path(tmp) / f"{name}-fusion-{seed}.json"
                record, validate_seconds = _taveer(
                    "validate", "--population", str(root / "train"), "-o", str(model),
                    "--fuse", args.fuse, "--questioned-chars", str(questioned),
                    "--known-chars", str(known), "--seed", str(seed), "--json",
                )  # fmt: skip
                for test_name, test_root in roots.items():
                    evaluated, seconds = _taveer(
                        "evaluate", str(model), str(test_root / "test"), "--json",
                        "--workers", str(args.workers),
                    )  # fmt: skip
                    print(
                        json.dumps(
                            {
                                "model": name,
                                "test": test_name,
                                "seed": seed,
                                "stated": evaluated["method"],
                                "headline": _round(evaluated),
                                "methods": {m: _round(f) for m, f in evaluated["methods"].items()},
                                "gate": {
                                    k: evaluated[k]
                                    for k in ("evaluative", "investigative", "no_conclusion")
                                }
                                | {"outside_conditions": evaluated["outside_conditions"]},
                                "cv_methods": {
                                    m: {k: f[k] for k in ("cllr", "auc")}
                                    for m, f in record["methods"].items()
                                },
                                "validate_seconds": round(validate_seconds, 1),
                                "evaluate_seconds": round(seconds, 1),
                                "workers": args.workers,
                                "load_average": round(os.getloadavg()[0], 2),
                            }
                        ),
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
