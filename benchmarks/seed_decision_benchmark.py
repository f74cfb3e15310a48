"""A decision no seed can flip (issue 30, item 4): at the casework minimum — the 20 train
authors of the shared reuters-c50 corpus — validate TAVeer with seeds 0–9 at one test case's
lengths, criterion Cllr ≤ 0.92, and verify that case with each seed's model.

Prints one JSON line a seed (the pooled Cllr, its interval, the worst repeat, the judged value,
whether the criterion was met, the case's log10 LR) and a summary line: how many seeds met the
criterion (the decision is seed-proof when at least 9 of 10 agree) and whether the case's ratio
kept its direction across the seeds.

    .venv/bin/python benchmarks/seed_decision_benchmark.py [--repeats 3] [--seeds 0 … 9]
        [--case EN041] [--topic unknown]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.methods.taveer.verify import verify  # noqa: E402
from taveer_desktop.core.trials.population import population_from_corpus  # noqa: E402
from taveer_desktop.core.validation.validation import (  # noqa: E402
    AcceptanceCriteria,
    ValidationSettings,
    validate,
)
from taveer_desktop.core.verification.method_verify import taveer_log10_lr  # noqa: E402

CRITERION = 0.92


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--seeds", type=int, nargs="+", default=list(range(10)))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--case", default=None, help="a test case id (default: the first)")
    parser.add_argument("--topic", default=None, choices=("same", "different", "unknown"))
    args = parser.parse_args()
    root = Path(args.shared) / "corpora" / "reuters-c50"
    if not root.is_dir():
        print(f"{root} not found", file=sys.stderr)
        return 2
    with (root / "cases.csv").open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["split"] == "test"]
    row = next(r for r in rows if r["id"] == args.case) if args.case else rows[0]
    test = open_corpus(root / "test")
    case = next(c for c in test.iter_cases() if c.case_id == row["id"])
    lengths = (int(row["unknown_chars"]), int(row["known_chars"]))
    population = population_from_corpus(open_corpus(root / "train"))
    met, signs = [], []
    for seed in args.seeds:
        settings = ValidationSettings(
            questioned_chars=lengths[0],
            known_chars=lengths[1],
            seed=seed,
            repeats=args.repeats,
            criteria=AcceptanceCriteria.now(max_cllr=CRITERION),
            topic=args.topic,
        )
        started = time.perf_counter()
        result = validate(population, settings)
        seconds = time.perf_counter() - started
        record = result.record
        verified = verify(result.model, case.known_texts, case.unknown_text)
        log10_lr = taveer_log10_lr(result.model, verified)
        met.append(record["acceptance"]["met"])
        signs.append(None if log10_lr is None else log10_lr > 0)
        print(
            json.dumps(
                {
                    "seed": seed,
                    "repeats_asked": args.repeats,
                    "repeats": record["protocol"]["repeats"],
                    "cllr": record["figures"]["cllr"],
                    "interval": record["intervals"]["cllr"],
                    "worst_repeat": max(c for c in record["repeats"]["cllr"] if c is not None),
                    "judged": record["acceptance"]["judged_values"].get("cllr"),
                    "met": record["acceptance"]["met"],
                    "case": row["id"],
                    "truth": row["label"],
                    "log10_lr": None if log10_lr is None else round(log10_lr, 4),
                    "seconds": round(seconds, 1),
                    "load_average": round(os.getloadavg()[0], 2),
                }
            ),
            flush=True,
        )
    agree = max(met.count(True), met.count(False))
    print(
        json.dumps(
            {
                "summary": True,
                "repeats_asked": args.repeats,
                "seeds": len(met),
                "met": met.count(True),
                "same_decision": agree,
                "ratio_direction_kept": len({s for s in signs if s is not None}) <= 1,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
