"""A decision and a stated ratio no seed can flip (issue 30, item 4): at the casework minimum —
the 20 train authors of the shared reuters-c50 corpus — validate TAVeer with seeds 0–9 at one
test case's lengths, criterion Cllr ≤ 0.92, and verify that case with each seed's model.

Prints one JSON line a seed: the pooled Cllr, its interval, the worst repeat, the judged value,
whether the criterion was met; the case's log10 LR under the final model (``final``: what was
stated before the repeat check), what is stated now (``stated``: 0 where the repeats disagree)
and the repeats' own ratios (low, high, status); the model file's size with and without its
``repeat_models`` block. Then a summary line: how many seeds met the criterion (the decision is
seed-proof when at least 9 of 10 agree) and whether the case's stated direction (above 1, below 1
or none) changed with the seed, before and after.

``--time N`` also times N validations (seed 0) with the repeat fits and N without them (the same
code with the block's fitting left out), interleaved, and prints their medians and ratio.
``--cost [SEED …]`` validates over a declared range (questioned 800–4,000, known 2,000–12,000
characters) with each seed and verifies every test case inside it with each model: how many lose
their direction to the check, how many of those had pointed the wrong way, and how many cases
change direction with the seed before and after.
``--evidence CORPUS [SEED …]`` (issue 30): the check's cost in evidence over CORPUS's test split
(reuters-c50 or stackexchange), and the test cases that change direction with the seed before and
after it (``benchmarks/seed_decision_evidence.py`` says how).

    .venv/bin/python benchmarks/seed_decision_benchmark.py [--repeats 3] [--seeds 0 … 9]
        [--case EN041] [--topic unknown] [--time 3] [--cost 0 1 …]
        [--evidence stackexchange 0 1 2 3 4 [--keep DIR]] [--method coav|lambdag|fusion|…]

``--method`` validates that stated method in every mode (``fusion``: TAVeer + COAV, ``FUSE``);
the model sizes are given with every method's repeat fits, without any, and with TAVeer's alone
(the file before each method kept its own).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.seed_decision_evidence import args_seeds, evidence, model_sizes  # noqa: E402
from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.methods.taveer.model import parse_model  # noqa: E402
from taveer_desktop.core.trials.population import population_from_corpus  # noqa: E402
from taveer_desktop.core.validation import validation as validation_module  # noqa: E402
from taveer_desktop.core.validation.validation import (  # noqa: E402
    AcceptanceCriteria,
    ValidationSettings,
    validate,
)
from taveer_desktop.core.verification.method_verify import (  # noqa: E402
    taveer_log10_lr,
    verify_with_method,
)

CRITERION = 0.92
FUSE = ("taveer", "coav")  # the fusion measured (issue 30: TAVeer + COAV)
COST_RANGE = ((800, 4000), (2000, 12000))
# each corpus's declared range (questioned, known characters), as in the calibration benchmark
EVIDENCE_RANGES = {
    "reuters-c50": COST_RANGE,
    "stackexchange": ((500, 3000), (2000, 8000)),
}


def direction(log10_lr: float | None) -> str:
    if log10_lr is None:
        return "no ratio"
    return "Hp" if log10_lr > 0 else "Hd" if log10_lr < 0 else "none"


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def settings_for(
    lengths: tuple[Any, Any], seed: int, repeats: int, topic: str | None, method: str = "taveer"
) -> ValidationSettings:
    return ValidationSettings(
        questioned_chars=lengths[0],
        known_chars=lengths[1],
        seed=seed,
        repeats=repeats,
        criteria=AcceptanceCriteria.now(max_cllr=CRITERION),
        topic=topic,
        method=method,
        fuse=FUSE,  # combined only where ``method`` is the fusion
    )


STEP_SECONDS: list[float] = []  # the repeat-fit step's own seconds in each timed validation


def timed(population: Any, settings: ValidationSettings, with_fits: bool) -> float:
    """Seconds of one validation, with or without the repeat fits (the step left out); with
    them, the step's own seconds are added to ``STEP_SECONDS``."""
    keep = validation_module.with_repeat_models

    def step(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return keep(*args, **kwargs)
        finally:
            STEP_SECONDS.append(time.perf_counter() - started)

    fake = step if with_fits else (lambda model, *a, **k: model)
    validation_module.with_repeat_models = fake  # type: ignore[assignment]
    try:
        started = time.perf_counter()
        validate(population, settings)
        return time.perf_counter() - started
    finally:
        validation_module.with_repeat_models = keep  # type: ignore[assignment]


def cost(
    population: Any,
    test: Any,
    rows: list[dict[str, str]],
    repeats: int,
    seeds: list[int],
    method: str = "taveer",
) -> dict[str, Any]:
    """What the check costs over a declared range (every test case inside it verified with the
    model of each seed), and how many cases change direction with the seed, before and after."""
    (q_low, q_high), (k_low, k_high) = COST_RANGE
    inside = {
        r["id"]: r
        for r in rows
        if q_low <= int(r["unknown_chars"]) <= q_high and k_low <= int(r["known_chars"]) <= k_high
    }
    cases = [c for c in test.iter_cases() if c.case_id in inside]
    counts = {"agree": 0, "disagree": 0, "not_possible": 0}
    lost_wrong = lost_right = kept_wrong = kept_right = 0
    before: dict[str, set[str]] = {c.case_id: set() for c in cases}
    after: dict[str, set[str]] = {c.case_id: set() for c in cases}
    for seed in seeds:
        settings = settings_for(COST_RANGE, seed, repeats, None, method)
        model = parse_model(validate(population, settings).model.to_json(), "model")
        for case in cases:
            result = verify_with_method(model, case.known_texts, case.unknown_text)
            if result.repeats is None:
                continue
            status = result.repeats.status.value
            counts[status] += 1
            final = result.repeats.final_log10_lr
            before[case.case_id].add(direction(final))
            after[case.case_id].add(direction(result.conclusion.log10_lr))
            if final is None:
                continue
            wrong = (final > 0) != (inside[case.case_id]["label"] == "Y")
            if status == "disagree":
                lost_wrong += wrong
                lost_right += not wrong
            elif status == "agree":
                kept_wrong += wrong
                kept_right += not wrong

    def flipped(directions: dict[str, set[str]]) -> int:
        return sum({"Hp", "Hd"} <= found for found in directions.values())

    return {
        "cost": True,
        "range": COST_RANGE,
        "seeds": seeds,
        "cases": len(cases),
        "verifications": counts,
        "lost_direction_wrong_way": lost_wrong,
        "lost_direction_right_way": lost_right,
        "kept_direction_wrong_way": kept_wrong,
        "kept_direction_right_way": kept_right,
        "cases_changing_direction_before": flipped(before),
        "cases_changing_direction_after": flipped(after),
        "cases_with_a_direction_after_under_every_seed": sum(
            found <= {"Hp"} or found <= {"Hd"} for found in after.values()
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--seeds", type=int, nargs="+", default=list(range(10)))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--case", default=None, help="a test case id (default: the first)")
    parser.add_argument("--topic", default=None, choices=("same", "different", "unknown"))
    parser.add_argument("--method", default="taveer", help="the stated method (fusion: FUSE)")
    parser.add_argument("--time", type=int, default=0, help="validations to time each way")
    parser.add_argument(
        "--cost",
        type=int,
        nargs="*",
        default=None,
        help="the check over a declared range, with the models of these seeds (none given: seed 0)",
    )
    parser.add_argument(
        "--evidence",
        nargs="+",
        default=None,
        metavar="CORPUS [SEED …]",
        help="the check's cost in evidence over CORPUS's test split (default seeds 0-4)",
    )
    parser.add_argument(
        "--keep",
        default=None,
        metavar="DIR",
        help="with --evidence: keep each seed's model and record in DIR, reuse those found there",
    )
    args = parser.parse_args()
    if args.evidence:
        corpus, *seeds = args.evidence
        if corpus not in EVIDENCE_RANGES or not (Path(args.shared) / "corpora" / corpus).is_dir():
            print(f"{corpus}: not a shared corpus here ({', '.join(EVIDENCE_RANGES)})")
            return 2
        seeds = args_seeds([int(s) for s in seeds])
        ranges = EVIDENCE_RANGES[corpus]
        evidence(
            Path(args.shared),
            corpus,
            seeds,
            lambda seed: settings_for(ranges, seed, args.repeats, None, args.method),
            Path(args.keep) if args.keep else None,
        )
        return 0
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
    met, before, after, sizes = [], [], [], []
    for seed in args.seeds:
        settings = settings_for(lengths, seed, args.repeats, args.topic, args.method)
        started = time.perf_counter()
        result = validate(population, settings)
        seconds = time.perf_counter() - started
        record = result.record
        model = parse_model(result.model.to_json(), "model")  # as a file is read back
        verified = verify_with_method(model, case.known_texts, case.unknown_text)
        repeats = verified.repeats  # its final ratio: the stated method's, before the check
        final = repeats.final_log10_lr if repeats is not None else taveer_log10_lr(model, verified)
        met.append(record["acceptance"]["met"])
        before.append(direction(final))
        after.append(direction(verified.conclusion.log10_lr))
        sizes.append(model_sizes(model))
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
                    "final_log10_lr": _rounded(final),
                    "stated_log10_lr": _rounded(verified.conclusion.log10_lr),
                    "repeat_status": None if repeats is None else repeats.status.value,
                    "repeat_low": None if repeats is None else _rounded(repeats.lowest),
                    "repeat_high": None if repeats is None else _rounded(repeats.highest),
                    "model_bytes": sizes[-1][0],
                    "model_bytes_without_repeats": sizes[-1][1],
                    "model_bytes_taveer_fits_only": sizes[-1][2],
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
                "directions_before": {d: before.count(d) for d in sorted(set(before))},
                "directions_after": {d: after.count(d) for d in sorted(set(after))},
                "direction_kept_before": len({d for d in before if d in ("Hp", "Hd")}) <= 1,
                "direction_kept_after": len({d for d in after if d in ("Hp", "Hd")}) <= 1,
                "model_bytes_median": statistics.median(s[0] for s in sizes),
                "model_bytes_without_repeats_median": statistics.median(s[1] for s in sizes),
                "model_bytes_taveer_fits_only_median": statistics.median(s[2] for s in sizes),
            }
        ),
        flush=True,
    )
    if args.time:
        settings = settings_for(lengths, args.seeds[0], args.repeats, args.topic, args.method)
        without, with_fits = [], []
        for _ in range(args.time):  # interleaved, so that a change of load falls on both
            without.append(timed(population, settings, False))
            with_fits.append(timed(population, settings, True))
        print(
            json.dumps(
                {
                    "timing": True,
                    "runs": args.time,
                    "median_seconds_without_repeat_fits": round(statistics.median(without), 2),
                    "median_seconds_with_repeat_fits": round(statistics.median(with_fits), 2),
                    "ratio": round(statistics.median(with_fits) / statistics.median(without), 3),
                    "median_seconds_of_the_step": round(statistics.median(STEP_SECONDS), 3),
                    "load_average": round(os.getloadavg()[0], 2),
                }
            ),
            flush=True,
        )
    if args.cost is not None:
        found = cost(population, test, rows, args.repeats, args.cost or [0], args.method)
        print(json.dumps(found), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
