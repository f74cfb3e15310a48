"""Do conclusions follow the validation?  Measured on the shared corpora through the real CLI.

For every corpus with authors named in its ``cases.csv`` the population is its **train** split;
it is validated once over a declared range of lengths (``taveer validate --questioned-chars
LO:HI --known-chars LO:HI``, the range chosen from the population's own case lengths, the
10th to the 90th percentile), with each method asked for. Then every corpus's **test** split is
evaluated as casework with that model and its record (``taveer evaluate MODEL CASES --record
RECORD --json --cases``):

- the population's own test split: how many cases inside the declared range keep an
  evaluative conclusion, and Cllr over those evaluative cases (goal: most, and below 1);
- every other corpus (another genre): how many cases the population-fit check flags, how many
  stay evaluative, and how many of those give more than 10x support the wrong way (goal: none);
- the same model without its record: how many evaluative conclusions (goal: none).

Prints one JSON line per (population, cases, method) for docs/validation.md and docs/accuracy.md.

    .venv/bin/python benchmarks/casework_benchmark.py [--shared ../shared] [--methods taveer fusion]
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

from taveer_desktop.core.calibration.calibration import cllr

REPO = Path(__file__).resolve().parent.parent
# corpora whose train split can be a population (cases.csv names the authors) and whose test
# split are cases; the jsonl twin holds the same texts as stackexchange, so it is a same-genre
# set of cases for the stackexchange population.
POPULATIONS = ("stackexchange", "reuters-c50")
CASES = ("stackexchange", "stackexchange-jsonl", "reuters-c50")
SAME_GENRE = {("stackexchange", "stackexchange-jsonl")}


def _taveer(*args: str, check: bool = True) -> dict:
    taveer = str(Path(sys.executable).with_name("taveer"))
    done = subprocess.run([taveer, *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise SystemExit(f"taveer {' '.join(args)} failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def _declared_range(root: Path, split: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The 10th-90th percentile of a split's questioned and known lengths."""
    with (root / "cases.csv").open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["split"] == split]
    q = np.array([int(r["unknown_chars"]) for r in rows])
    k = np.array([int(r["known_chars"]) for r in rows])
    return (
        (int(np.percentile(q, 10)), int(np.percentile(q, 90))),
        (int(np.percentile(k, 10)), int(np.percentile(k, 90))),
    )


def _case_lengths(shared: Path, corpus: str) -> dict[str, tuple[int, int]]:
    """(questioned, known) characters of each test case, from cases.csv (the jsonl twin shares
    the stackexchange ids)."""
    source = "stackexchange" if corpus == "stackexchange-jsonl" else corpus
    with (shared / "corpora" / source / "cases.csv").open(encoding="utf-8", newline="") as f:
        return {
            r["id"]: (int(r["unknown_chars"]), int(r["known_chars"]))
            for r in csv.DictReader(f)
            if r["split"] == "test"
        }


def _summary(
    cases: list[dict],
    lengths: dict[str, tuple[int, int]],
    q_range: tuple[int, int],
    k_range: tuple[int, int],
) -> dict:
    inside = [
        c
        for c in cases
        if c["id"] in lengths
        and q_range[0] <= lengths[c["id"]][0] <= q_range[1]
        and k_range[0] <= lengths[c["id"]][1] <= k_range[1]
    ]
    evaluative = [c for c in cases if c["kind"] == "evaluative"]
    evaluative_inside = [c for c in inside if c["kind"] == "evaluative"]

    def wrong_10x(c: dict) -> bool:
        lr = c["log10_lr"]
        if lr is None:
            return False
        return (c["truth"] == "N" and lr > 1) or (c["truth"] == "Y" and lr < -1)

    def cllr_of(group: list[dict]) -> float | None:
        values = [c for c in group if c["log10_lr"] is not None]
        truth = np.array([c["truth"] == "Y" for c in values])
        if not values or truth.all() or not truth.any():
            return None
        return round(cllr(np.array([c["log10_lr"] for c in values]), truth), 4)

    rules: dict[str, int] = {}
    for c in cases:
        for rule in set(c["rules"]):
            rules[rule] = rules.get(rule, 0) + 1
    return {
        "cases": len(cases),
        "inside_range": len(inside),
        "evaluative": len(evaluative),
        "evaluative_inside": len(evaluative_inside),
        "evaluative_inside_share": round(len(evaluative_inside) / len(inside), 3)
        if inside
        else None,
        "cllr_evaluative": cllr_of(evaluative),
        "cllr_all": cllr_of(cases),
        "fit_flagged": rules.get("population_fit", 0),
        "evaluative_wrong_10x": sum(1 for c in evaluative if wrong_10x(c)),
        "rules": dict(sorted(rules.items())),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--methods", nargs="+", default=["taveer", "fusion"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--accept-cllr", default="0.95", help="the lab's criterion (pessimistic)")
    parser.add_argument("--populations", nargs="+", default=list(POPULATIONS))
    args = parser.parse_args()
    shared = Path(args.shared)
    with tempfile.TemporaryDirectory() as tmp:
        for population in args.populations:
            root = shared / "corpora" / population
            if not root.is_dir():
                print(f"skip {population}: not found", file=sys.stderr)
                continue
            q_range, k_range = _declared_range(root, "train")
            for method in args.methods:
                model = Path(tmp) / f"{population}-{method}.json"
                record = Path(tmp) / f"{population}-{method}.record.json"
                validated = _taveer(
                    "validate",
                    "--population",
                    str(root / "train"),
                    "--questioned-chars",
                    f"{q_range[0]}:{q_range[1]}",
                    "--known-chars",
                    f"{k_range[0]}:{k_range[1]}",
                    "--method",
                    method,
                    "--seed",
                    str(args.seed),
                    "--accept-cllr",
                    args.accept_cllr,
                    "-o",
                    str(model),
                    "--record",
                    str(record),
                    "--json",
                )
                head = {
                    "population": population,
                    "method": method,
                    "seed": args.seed,
                    "questioned_chars": q_range,
                    "known_chars": k_range,
                    "cv_cllr": validated.get("cllr"),
                    "cv_cllr_interval": validated.get("intervals", {}).get("cllr"),
                    "too_small": validated.get("casework", {}).get("too_small"),
                    "met": validated.get("acceptance", {}).get("met"),
                    "accept_cllr": float(args.accept_cllr),
                    "judged_cllr": validated.get("acceptance", {})
                    .get("judged_values", {})
                    .get("cllr"),
                }
                for corpus in CASES:
                    cases_root = shared / "corpora" / corpus / "test"
                    if not cases_root.is_dir():
                        continue
                    lengths = _case_lengths(shared, corpus)
                    for with_record in (True, False):
                        extra = ["--record", str(record)] if with_record else []
                        result = _taveer(
                            "evaluate", str(model), str(cases_root), *extra, "--json", "--cases"
                        )
                        own = corpus == population or (population, corpus) in SAME_GENRE
                        line = {
                            **head,
                            "cases_from": corpus,
                            "own_genre": own,
                            "with_record": with_record,
                            **_summary(result["cases"], lengths, q_range, k_range),
                        }
                        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
