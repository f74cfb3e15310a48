"""Trials built like the case (issue 30): does the record predict the test split, with and
without matched trials, and what does matching cost?

Two measurements on the shared corpora (``docs/validation.md``, "Trials built like the case"):

- ``figures``: for each corpus the population is the train split's authors; a TAVeer + COAV
  fusion is validated (TAVeer, COAV and the fusion on the same trials) once for each relation
  of ``--topics`` (``none``: trials drawn without regard to topic; by default ``none same``), at
  the lengths ``--lengths`` names: ``medians`` (one length, the test cases' median questioned
  and known characters, as ``validation_benchmark.py``) or ``range`` (the range a laboratory
  would declare for the test split's cases: the 10th to the 90th percentile of their
  questioned and of their known lengths, read from ``cases.csv``, never from any outcome —
  ``casework_benchmark._declared_range``). Its model is evaluated on the test split (authors
  disjoint from the train split's) with the record as the basis of every case's conclusion
  (criterion Cllr ≤ ``--accept-cllr``, 1 by default, so that a met record makes evaluative
  conclusions possible), as ``taveer evaluate --record`` does. Prints one JSON line per
  (corpus, relation): per method the record's cross-validated Cllr and AUC, the test split's
  Cllr and AUC over all its cases, over its evaluative cases (with a bootstrap interval) and
  over the cases only the casework minimum stopped, with their counts, and the gap (test over
  evaluative cases − record, with its 95 % bootstrap interval over the test cases); TAVeer also
  as a TAVeer model states it (``taveer_stated``: the same settings validated with TAVeer
  stated, its ratios after the repeat check, which states LR 1 where the validation's repeats
  disagree — a COAV or fusion model keeps no fit per repeat in this tree, so the check is not
  possible for them) and the fusion as its model states it (``fusion_stated``: equal to
  ``fusion`` while the check is not possible for it); for the cases that got no evaluative
  conclusion, how many broke each rule of the gate and how many each first finding stopped
  (``_first_finding``).
  ``--cases-to DIR`` writes every test case's ratios, kind and rules.
- ``time``: the seconds of a TAVeer validation (the cheapest method, so the largest relative
  cost of matching) without and with a declared relation, alternated, medians of ``--runs``,
  and their ratio, measured in the same run.

    .venv/bin/python benchmarks/trial_topic_benchmark.py figures [--lengths range|medians]
        [--topics none same unknown different] [--cases-to DIR]
    .venv/bin/python benchmarks/trial_topic_benchmark.py time [--runs 3]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from casework_benchmark import _declared_range
from validation_benchmark import CORPORA, _test_lengths

from taveer_desktop.core.calibration.calibration import cllr
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.calibration.score_measures import roc_auc
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.taveer.model import save_model
from taveer_desktop.core.trials.population import population_from_corpus
from taveer_desktop.core.validation.evaluation import evaluate
from taveer_desktop.core.validation.record_basis import read_record_file
from taveer_desktop.core.validation.validation import (
    AcceptanceCriteria,
    ValidationSettings,
    save_record,
    validate,
)

REPO = Path(__file__).resolve().parent.parent
LengthRange = tuple[int, int]


def _r(value) -> float | None:
    return None if value is None or not np.isfinite(value) else round(float(value), 3)


def _lengths(root: Path, how: str) -> tuple[LengthRange, LengthRange]:
    """The declared questioned and known ranges (a single length N is (N, N))."""
    if how == "range":
        return _declared_range(root, "test")
    questioned, known = _test_lengths(root)
    return (questioned, questioned), (known, known)


def _test_case_lengths(root: Path) -> dict[str, tuple[int, int]]:
    with (root / "cases.csv").open(encoding="utf-8", newline="") as handle:
        return {
            r["id"]: (int(r["unknown_chars"]), int(r["known_chars"]))
            for r in csv.DictReader(handle)
            if r["split"] == "test"
        }


def _measures(log10_lr: np.ndarray, truth: np.ndarray, keep: np.ndarray) -> dict:
    """Cllr and AUC of the cases ``keep`` selects that have a ratio, with their counts, and a
    95 % percentile bootstrap interval of that Cllr over the cases (2,000 resamples, seed 0)."""
    keep = keep & np.isfinite(log10_lr)
    lr, t = log10_lr[keep], truth[keep]
    both = bool(t.any() and (~t).any())
    interval = None
    if both:
        rng, values = np.random.default_rng(0), []
        for _ in range(2000):
            pick = rng.integers(0, len(t), len(t))
            if t[pick].any() and not t[pick].all():
                values.append(cllr(lr[pick], t[pick]))
        interval = [_r(v) for v in np.percentile(values, [2.5, 97.5])]
    return {
        "cases": int(keep.sum()),
        "same": int(t.sum()),
        "different": int((~t).sum()),
        "cllr": _r(cllr(lr, t)) if both else None,
        "cllr_interval": interval,
        "auc": _r(roc_auc(lr, t)) if both else None,
    }


def _gap_interval(over: dict, record_cllr: float | None) -> list[float | None] | None:
    """The 95 % bootstrap interval of the gap over the test cases: the interval of the Cllr over
    them less the record's Cllr (the record is one fixed figure; what varies is which cases
    came)."""
    interval = over["cllr_interval"]
    if interval is None or record_cllr is None:
        return None
    return [None if v is None else round(v - record_cllr, 3) for v in interval]


def _first_finding(rules: set[str], inside: bool) -> str:
    """The finding that keeps a case from an evaluative conclusion, the first of: its lengths
    (shorter than the shortest validated: ``enough_text``; else outside the declared range),
    the population-fit check, its scores outside the validated ones, and last the casework
    minimum of the record (so "casework minimum alone" counts the cases nothing else stops)."""
    if "enough_text" in rules:
        return "too short (enough_text)"
    if "validated_conditions" in rules and not inside:
        return "lengths outside the declared range"
    if "population_fit" in rules:
        return "fit check (population_fit)"
    if "validated_conditions" in rules:
        return "scores outside the validated ones"
    if rules == {"validation_too_small"}:
        return "casework minimum alone (validation_too_small)"
    return " + ".join(sorted(rules)) or "(none broken)"


def _blocked(result, lengths, q: LengthRange, k: LengthRange) -> tuple[dict, dict, np.ndarray]:
    """How many non-evaluative cases broke each rule of the gate (a case may break several; the
    length rule split by whether the case's lengths lie inside the declared range), how many
    each first finding keeps out, and which cases only the casework minimum keeps out."""
    counts: Counter[str] = Counter()
    first: Counter[str] = Counter()
    alone = np.zeros(len(result.case_ids), dtype=bool)
    for i, (case_id, kind) in enumerate(zip(result.case_ids, result.kinds, strict=True)):
        if kind is ConclusionKind.EVALUATIVE:
            continue
        rules = set(result.case_rules[i])
        qc, kc = lengths[case_id]
        inside = q[0] <= qc <= q[1] and k[0] <= kc <= k[1]
        for rule in rules:
            if rule == "validated_conditions":
                rule += " (scores outside the validated)" if inside else " (lengths outside)"
            counts[rule] += 1
        first[_first_finding(rules, inside)] += 1
        alone[i] = rules == {"validation_too_small"}
    return dict(sorted(counts.items())), dict(sorted(first.items())), alone


def _write_cases(folder: Path, name: str, lengths: str, topic, result) -> None:
    """Every test case's truth, kind, broken rules and each method's log10 LR, for a reader
    who wants to look further than the summary (``--cases-to``)."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = [
        {
            "id": case_id,
            "truth": bool(result.truth[i]),
            "kind": result.kinds[i].value,
            "rules": list(result.case_rules[i]),
            "log10_lr": {m: _r(f.log10_lr[i]) for m, f in result.methods.items()},
        }
        for i, case_id in enumerate(result.case_ids)
    ]
    path = folder / f"{name}-{lengths}-{topic or 'none'}.json"
    path.write_text(json.dumps(rows), encoding="utf-8")


def _validated_and_evaluated(population, settings, root: Path, tmp: str, args) -> tuple:
    """The validation's record, its model's evaluation on the test split (the record file read
    back as ``taveer evaluate --record`` reads it) and the seconds of the validation alone."""
    started = time.perf_counter()
    validated = validate(population, settings, workers=args.workers)
    seconds = time.perf_counter() - started
    tag = f"{root.name}-{settings.method}-{settings.topic}"
    record_file = Path(tmp) / f"{tag}-record.json"
    save_model(validated.model, Path(tmp) / f"{tag}.json")
    save_record(validated.record, record_file)
    result = evaluate(
        validated.model,
        open_corpus(root / "test"),
        workers=args.workers,
        basis=read_record_file(record_file),
    )
    return validated.record, result, seconds


def _taveer_stated(population, settings, root: Path, tmp: str, args) -> dict:
    """TAVeer as a TAVeer model states it, after the repeat check (``evaluate`` withdraws the
    direction of a case whose validation repeats disagree, LR 1): the same settings validated
    with TAVeer as the stated method (the trials do not depend on the method, so its record is
    the fusion validation's TAVeer record), its evaluative cases those its own gate leaves. A
    fusion or COAV model keeps no fit per repeat of its method, so for them the check is not
    possible and their figures above are what they state."""
    record, result, _ = _validated_and_evaluated(
        population, replace(settings, method="taveer"), root, tmp, args
    )
    return _stated(record, result, "taveer")


def _stated(record: dict, result, method: str) -> dict:
    """The figures of the ratios the model states (``stated_log10_lr``: after the repeat check)
    over all cases and over its evaluative cases, against the record's Cllr of ``method``."""
    truth = np.asarray(result.truth, dtype=bool)
    evaluative = np.array([k is ConclusionKind.EVALUATIVE for k in result.kinds])
    withdrawn = np.array(["repeats_disagree" in rules for rules in result.case_rules])
    stated = np.asarray(result.stated_log10_lr, dtype=float)
    over_evaluative = _measures(stated, truth, evaluative)
    record_cllr = _r(record["methods"][method]["cllr"])
    gap = over_evaluative["cllr"]
    return {
        "record_cllr": record_cllr,
        "test_all": _measures(stated, truth, np.ones(len(truth), dtype=bool)),
        "test_evaluative": over_evaluative,
        "gap": None if gap is None else round(gap - record_cllr, 3),
        "gap_interval": _gap_interval(over_evaluative, record_cllr),
        "withdrawn_all": int(withdrawn.sum()),
        "withdrawn_evaluative": int((withdrawn & evaluative).sum()),
        "casework_too_small": record["casework"]["too_small"],
    }


def figures(args, roots: dict[str, Path]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, root in roots.items():
            population = population_from_corpus(open_corpus(root / "train"))
            q_range, k_range = _lengths(root, args.lengths)
            lengths = _test_case_lengths(root)
            for topic in [None if t == "none" else t for t in args.topics]:
                settings = ValidationSettings(
                    questioned_chars=q_range,
                    known_chars=k_range,
                    seed=args.seed,
                    method="fusion",
                    fuse=("taveer", "coav"),
                    topic=topic,
                    criteria=AcceptanceCriteria.now(max_cllr=args.accept_cllr),
                )
                record, result, seconds = _validated_and_evaluated(
                    population, settings, root, tmp, args
                )
                truth = np.asarray(result.truth, dtype=bool)
                evaluative = np.array([k is ConclusionKind.EVALUATIVE for k in result.kinds])
                everything = np.ones(len(truth), dtype=bool)
                rules, first, alone = _blocked(result, lengths, q_range, k_range)
                methods = {}
                for m, f in result.methods.items():
                    if m not in record["methods"]:
                        continue
                    lr = np.asarray(f.log10_lr, dtype=float)
                    over_evaluative = _measures(lr, truth, evaluative)
                    record_cllr = _r(record["methods"][m]["cllr"])
                    gap = over_evaluative["cllr"]
                    methods[m] = {
                        "record_cllr": record_cllr,
                        "record_auc": _r(record["methods"][m].get("auc")),
                        "test_all": _measures(lr, truth, everything),
                        "test_evaluative": over_evaluative,
                        # evaluative but for the casework minimum: what a larger record's
                        # cases would be (its gap says whether its figure would hold)
                        "test_but_for_minimum": _measures(lr, truth, evaluative | alone),
                        "gap": None if gap is None else round(gap - record_cllr, 3),
                        "gap_interval": _gap_interval(over_evaluative, record_cllr),
                    }
                # the fusion as its model states it: the same as "fusion" while a fusion model
                # keeps no fit per repeat (the check not possible), the checked ratios once it does
                methods["fusion_stated"] = _stated(record, result, settings.method)
                methods["taveer_stated"] = _taveer_stated(population, settings, root, tmp, args)
                if args.cases_to:
                    _write_cases(Path(args.cases_to), name, args.lengths, topic, result)
                construction = record["protocol"]["trials"]["construction"]
                acceptance = record["acceptance"]
                print(
                    json.dumps(
                        {
                            "corpus": name,
                            "lengths": args.lengths,
                            "questioned_chars": q_range,
                            "known_chars": k_range,
                            "topic": topic,
                            "matched_same": construction.get("matched_share_same"),
                            "matched_different": construction.get("matched_share_different"),
                            "groups": construction.get("groups"),
                            "trials": dict(
                                Counter(
                                    "same" if t["same"] else "different" for t in record["trials"]
                                )
                            ),
                            "casework": record["casework"],
                            "met": acceptance["met"],
                            "judged": acceptance.get("judged_values"),
                            "methods": methods,
                            "test_cases": len(truth),
                            "evaluative": int(evaluative.sum()),
                            "kinds": dict(Counter(k.value for k in result.kinds)),
                            "rules_broken": rules,
                            "kept_out_by": first,
                            "validate_seconds": round(seconds, 1),
                            "load_average": round(os.getloadavg()[0], 2),
                        }
                    ),
                    flush=True,
                )


def timing(args, roots: dict[str, Path]) -> None:
    for name, root in roots.items():
        population = population_from_corpus(open_corpus(root / "train"))
        questioned, known = _test_lengths(root)
        seconds: dict[str, list[float]] = {"none": [], args.topic: []}
        for _ in range(args.runs):
            for label, topic in (("none", None), (args.topic, args.topic)):
                settings = ValidationSettings(
                    questioned_chars=questioned, known_chars=known, seed=args.seed, topic=topic
                )
                started = time.perf_counter()
                validate(population, settings)
                seconds[label].append(time.perf_counter() - started)
        medians = {k: statistics.median(v) for k, v in seconds.items()}
        print(
            json.dumps(
                {
                    "corpus": name,
                    "runs": args.runs,
                    "seconds": {k: [round(x, 2) for x in v] for k, v in seconds.items()},
                    "medians": {k: round(v, 2) for k, v in medians.items()},
                    "ratio": round(medians[args.topic] / medians["none"], 3),
                    "load_average": round(os.getloadavg()[0], 2),
                }
            ),
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("figures", "time"))
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--corpora", nargs="+", default=list(CORPORA))
    parser.add_argument(
        "--topics", nargs="+", default=["none", "same"], help="figures: none = not declared"
    )
    parser.add_argument("--lengths", choices=("medians", "range"), default="range")
    parser.add_argument("--cases-to", help="figures: a folder for every test case's ratios")
    parser.add_argument("--topic", default="unknown", help="the relation timed")
    parser.add_argument("--accept-cllr", type=float, default=1.0, help="figures: the criterion")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    roots = {n: Path(args.shared) / "corpora" / n for n in args.corpora}
    roots = {n: r for n, r in roots.items() if r.is_dir()}
    if not roots:
        print(f"no corpus found under {args.shared}/corpora", file=sys.stderr)
        return 2
    (figures if args.what == "figures" else timing)(args, roots)
    return 0


if __name__ == "__main__":
    sys.exit(main())
