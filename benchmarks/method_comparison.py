"""Every method side by side on the shared corpora (a Table-5-style comparison).

For each corpus of ``../shared/corpora`` (``stackexchange``, ``reuters-c50``): the population
is the train split's authors; the declared lengths (``--lengths``) are by default the **central
80 %** of the test cases' questioned and known lengths (their 10th to 90th percentiles, so the
trials are cut across the lengths the model is applied to, as a laboratory declares the range
of its casework), or with ``--lengths median`` the test cases' median lengths (as
``validation_benchmark.py``; every test case of another length then lies outside the validated
conditions, and a method whose score grows with length, as ProfAV's does, is calibrated on
trials that never show it). Then

- **cross-validated** (``cv``): one validation comparing every method that loads
  (``taveer validate --compare``: the same trials, folds by author): accuracy (LR > 1), AUC, Cllr
  and Cllr_min of each, trials it could not compare, its seed spread if it draws at random;
- **test split** (``test``, with ``--test``): each method validated alone on the population
  (its model; its cross-validated figures are then taken from that validation's record, not
  from a combined one, so each method is validated once), every test case verified with it
  (``verify_with_method``; the test authors are disjoint from the population's): accuracy (the
  stated log10 LR > 0), AUC, Cllr, Cllr_min (after the PAV transform of those LRs) over the
  cases it gave a ratio, how many it could not compare, the shrinkage κ its calibration was
  given (comparison systems, ``core/calibration/calibration_shrinkage.py``) and its validation's
  seconds.

The paper's Table 5 (Halvani, Graner, Regev 2020) is printed beside, **for other corpora** (its
Stack Exchange, Yelp, Reddit and Amazon test corpora, accuracy and AUC of its own
implementations with thresholds, no likelihood ratios); the figures are not comparable number
for number. Methods whose module is not in the build are listed as unavailable. One JSON line
per corpus, then the paper's table:

    .venv/bin/python benchmarks/method_comparison.py [--shared ../shared] [--test] [--repeats 1]
        [--workers 2] [--methods taveer coav …] [--fuse taveer,coav] [--topic same]
        [--lengths central|median]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from validation_benchmark import _test_lengths

from taveer_desktop.core.calibration.calibration import cllr, pav_log10_lr
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.ground.registry import METHOD_IDS, MethodId
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.systems.catalogue import available
from taveer_desktop.core.trials.population import population_from_corpus
from taveer_desktop.core.trials.validation_settings import DEFAULT_FUSE
from taveer_desktop.core.validation.evaluation import roc_auc
from taveer_desktop.core.validation.validation import ValidationSettings, validate
from taveer_desktop.core.verification.method_verify import taveer_log10_lr, verify_with_method

REPO = Path(__file__).resolve().parent.parent
CORPORA = ("stackexchange", "reuters-c50")
FIGURES = ("accuracy", "auc", "cllr", "cllr_min")

# Table 5 of the paper: accuracy and AUC on ITS test corpora (not ours), per method
PAPER_TABLE5 = {
    "Stack Exchange (paper)": {
        "taveer": (0.697, 0.778), "coav": (0.404, 0.388), "im": (0.482, 0.515),
        "baff": (0.531, 0.545), "dynamicav": (0.496, 0.518), "nncd": (0.513, 0.552),
        "occav": (0.496, 0.408), "profav": (0.539, 0.609), "spatium": (0.636, 0.723),
        "genunmasking": (0.522, 0.524), "unmasking": (0.539, 0.542),
    },
    "Yelp (paper)": {
        "taveer": (0.690, 0.746), "coav": (0.710, 0.769), "im": (0.708, 0.788),
        "baff": (0.592, 0.704), "dynamicav": (0.608, 0.663), "nncd": (0.629, 0.986),
        "occav": (0.629, 0.703), "profav": (0.665, 0.723), "spatium": (0.590, 0.651),
        "genunmasking": (0.500, 0.500), "unmasking": (0.596, 0.639),
    },
    "Reddit (paper)": {
        "taveer": (0.806, 0.861), "coav": (0.836, 0.909), "im": (0.833, 0.888),
        "baff": (0.759, 0.824), "dynamicav": (0.770, 0.820), "nncd": (0.773, 0.999),
        "occav": (0.778, 0.851), "profav": (0.764, 0.821), "spatium": (0.797, 0.863),
        "genunmasking": (0.585, 0.621), "unmasking": (0.719, 0.785),
    },
    "Amazon (paper)": {
        "taveer": (0.842, 0.912), "coav": (0.768, 0.847), "im": (0.815, 0.901),
        "baff": (0.698, 0.762), "dynamicav": (0.785, 0.876), "nncd": (0.600, 0.996),
        "occav": (0.738, 0.810), "profav": (0.723, 0.797), "spatium": (0.788, 0.873),
        "genunmasking": (0.563, 0.598), "unmasking": (0.725, 0.801),
    },
}  # fmt: skip


def _round(value: float | None) -> float | None:
    return None if value is None or not np.isfinite(value) else round(float(value), 3)


def _central_lengths(root: Path, share: float = 0.8) -> tuple[tuple[int, int], tuple[int, int]]:
    """The central ``share`` of the test cases' (questioned, known) lengths (``cases.csv``)."""
    with (root / "cases.csv").open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["split"] == "test"]
    tail = 100.0 * (1.0 - share) / 2.0

    def central(column: str) -> tuple[int, int]:
        lo, hi = np.percentile([int(r[column]) for r in rows], [tail, 100.0 - tail])
        return round(float(lo)), round(float(hi))

    return central("unknown_chars"), central("known_chars")


def _settings(root: Path, method: str, compare: tuple[str, ...], args) -> ValidationSettings:
    lengths = _test_lengths if args.lengths == "median" else _central_lengths
    questioned, known = lengths(root)
    return ValidationSettings(
        questioned_chars=questioned,
        known_chars=known,
        seed=args.seed,
        repeats=args.repeats,
        method=method,
        compare=compare,
        fuse=tuple(args.fuse.split(",")) if args.fuse else DEFAULT_FUSE,
        topic=args.topic,
    )


def _test_figures(model, root: Path, method: str) -> dict:
    """The model's stated ratio on every test case (see the module)."""
    lexicon = default_lexicon()
    test = open_corpus(root / "test")
    truth, lrs, refused, seconds = [], [], 0, []
    for case in test.iter_cases():
        started = time.perf_counter()
        done = verify_with_method(model, case.known_texts, case.unknown_text, lexicon)
        seconds.append(time.perf_counter() - started)
        value = (
            taveer_log10_lr(model, done)
            if method == MethodId.TAVEER
            else (done.methods.by_method.get(method) if done.methods else None)
        )
        if value is None:
            refused += 1
            continue
        truth.append(test.truth[case.case_id])
        lrs.append(value)
    t, lr = np.array(truth, dtype=bool), np.array(lrs, dtype=float)
    both = bool(t.any() and (~t).any())
    return {
        "cases": len(t),
        "no_ratio": refused,
        "accuracy": _round(float(np.mean((lr > 0) == t))) if len(t) else None,
        "auc": _round(roc_auc(lr, t)) if both else None,
        "cllr": _round(cllr(lr, t)) if both else None,
        "cllr_min": _round(cllr(pav_log10_lr(lr, t), t)) if both else None,
        "verify_seconds_median": round(float(np.median(seconds)), 3),
    }


def _cv_block(block: dict) -> dict:
    return {
        **{k: _round(block.get(k)) for k in FIGURES},
        "cannot_compare": block.get("cannot_compare"),
        "seconds_per_trial": block.get("seconds_per_trial"),
        **({"seed_spread": block["seed_spread"]} if "seed_spread" in block else {}),
    }


def _shrinkage(model) -> float | None:
    part = model.extra.get("comparison")
    return part["calibration"].get("shrinkage", 0.0) if isinstance(part, dict) else None


def run_corpus(root: Path, methods: list[str], args) -> dict:
    population = population_from_corpus(open_corpus(root / "train"))
    settings = _settings(root, methods[0], tuple(methods[1:]), args)
    line: dict = {
        "corpus": root.name,
        "questioned_chars": settings.questioned_chars,
        "known_chars": settings.known_chars,
    }
    if args.test:  # each method validated alone: its record's figures and its model
        line.update(cv={}, test={})
        for method in methods:
            started = time.perf_counter()
            done = validate(population, _settings(root, method, (), args), workers=args.workers)
            seconds = round(time.perf_counter() - started, 1)
            line.update(authors=done.record["population"]["authors"], trials=len(done.trials))
            line["cv"][method] = _cv_block(done.record["methods"][method])
            found = _test_figures(done.model, root, method)
            found.update(shrinkage=_shrinkage(done.model), validation_seconds=seconds)
            line["test"][method] = found
            said = {
                "corpus": root.name,
                method: found,
                "cv": line["cv"][method],
            }  # a stopped run keeps both
            print(json.dumps(said), file=sys.stderr, flush=True)
        return line
    started = time.perf_counter()
    record = validate(population, settings, workers=args.workers).record
    line.update(
        authors=record["population"]["authors"],
        trials=len(record["trials"]),
        validation_seconds=round(time.perf_counter() - started, 1),
        cv={m: _cv_block(block) for m, block in record["methods"].items()},
    )
    if "fusion" in record:  # which methods the fusion combined, with their weights
        line["fusion"] = {k: record["fusion"][k] for k in ("methods", "weights", "left_out")}
    return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--corpora", nargs="+", default=list(CORPORA))
    parser.add_argument("--methods", nargs="+", default=list(METHOD_IDS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fuse", metavar="ID,ID", help="the methods the fusion combines")
    parser.add_argument("--test", action="store_true", help="also each method on the test split")
    parser.add_argument(
        "--topic",
        choices=("same", "different", "unknown"),
        help="the case's declared topic relation (trials built like it); none: trials as before",
    )
    parser.add_argument(
        "--lengths",
        choices=("central", "median"),
        default="central",
        help="declared lengths: the test cases' central 80 %% (default) or their medians",
    )
    args = parser.parse_args()
    missing = {m: why for m, why in available().items() if why is not None and m in args.methods}
    methods = [m for m in args.methods if m not in missing]
    print(json.dumps({"unavailable": missing}), flush=True)
    for name in args.corpora:
        root = Path(args.shared) / "corpora" / name
        if not root.is_dir():
            print(f"skip {name}: not found", file=sys.stderr)
            continue
        print(json.dumps(run_corpus(root, methods, args)), flush=True)
    print(json.dumps({"paper_table5_other_corpora": PAPER_TABLE5}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
