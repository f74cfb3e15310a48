"""Seconds per validation trial of every registered method on the demo population.

The trials are those of one validation (one repeat, the demo population, declared questioned
lengths 1,500–4,000 and known 9,000 characters, 3 folds, seed 0), built once. For each method,
one process, ``--runs`` runs, the median:

- ``taveer``: cutting the trials and extracting their features (``build_trials``) plus the
  cross-validation (thresholds, ensemble, calibration), divided by the trials;
- ``lambdag``: its part of the validation (λG of every trial at every order, the order chosen,
  the calibration: ``lambdag_validation.second_opinion``), divided by the trials;
- ``fusion``: TAVeer's and LambdaG's costs added (the fusion's own fitting is negligible);
- each comparison system: its features of every trial and its per-fold learning and
  calibration (``comparison_validation.validate_comparison`` without the seed spread), divided
  by the trials — each run in a fresh process, so that no cache of an earlier run (compressed
  texts, the impostors' n-gram index) makes it look cheaper than a validation is; for a
  method that draws at random the seed spread costs ``SPREAD_SEEDS`` ×
  min(``SPREAD_TRIALS``, the first repeat's trials) more feature computations on top.

A method whose module is not in the build is listed as unavailable, with the reason. One JSON
line per method; the figure for ``presentation/method_costs.SECONDS_PER_TRIAL`` is
``seconds_per_trial``:

    .venv/bin/python benchmarks/method_cost.py [--runs 3] [--methods coav im …]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the demo texts
from timing import median_seconds

from taveer_desktop.core.ground.registry import COMPARISON_IDS, METHOD_IDS, MethodId
from taveer_desktop.core.methods.systems.catalogue import available
from taveer_desktop.core.methods.systems.comparison_validation import validate_comparison
from taveer_desktop.core.trials.folds import calibration_ranges
from taveer_desktop.core.trials.population import population_from_texts
from taveer_desktop.core.validation.cross_validation import cross_validate
from taveer_desktop.core.validation.validation import ValidationSettings, build_trials
from taveer_desktop.store.population_folder import read_population_folder
from tests.core.validation_fixtures import make_demo_population

SETTINGS = ValidationSettings(
    questioned_chars=(1500, 4000), known_chars=9000, folds=3, repeats=1, max_trials=400, seed=0
)


def _population(root: Path):
    folder = make_demo_population(root)
    files = read_population_folder(folder)
    return population_from_texts(files.texts(), "demo", str(folder), "demo population")


_SHARED: dict = {}  # the population and trials, inherited by each forked run


def _comparison_cost(method: str) -> tuple[float, float, int]:
    """(seconds per trial, wall seconds, trials not compared) of one cold run."""
    population, trials = _SHARED["population"], _SHARED["trials"]
    started = time.perf_counter()
    done = validate_comparison(
        method, population, trials, SETTINGS, calibration_ranges(SETTINGS), spread=False
    )
    return (
        done.seconds_per_trial,
        time.perf_counter() - started,
        int(len(trials) - done.compared.sum()),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--methods", nargs="+", default=list(METHOD_IDS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        population = _population(Path(tmp))
    trials = build_trials(population, SETTINGS)
    _SHARED.update(population=population, trials=trials)
    n = len(trials)
    ranges = calibration_ranges(SETTINGS)
    building, _ = median_seconds(lambda: build_trials(population, SETTINGS), args.runs)
    crossing, _ = median_seconds(
        lambda: cross_validate(trials, "median", 1, ranges=ranges), args.runs
    )
    taveer = (building + crossing) / n
    lambdag = None
    missing = available()
    for method in args.methods:
        line: dict = {"method": method, "trials": n, "runs": args.runs}
        if method == MethodId.TAVEER:
            line["seconds_per_trial"] = round(taveer, 6)
        elif method in (MethodId.LAMBDAG, MethodId.FUSION):
            if lambdag is None:
                from taveer_desktop.core.methods.lambdag.lambdag_validation import second_opinion

                settings = replace(SETTINGS, method=MethodId.LAMBDAG.value)
                taveer_lr = cross_validate(trials, "median", 1, ranges=ranges)[1]
                lambdag, _ = median_seconds(
                    lambda s=settings, lr=taveer_lr: second_opinion(population, trials, s, lr),
                    args.runs,
                )
            own = lambdag / n
            line["seconds_per_trial"] = round(own + (taveer if method == "fusion" else 0), 6)
        elif method in COMPARISON_IDS and missing.get(method) is not None:
            line["unavailable"] = missing[method]
        elif method in COMPARISON_IDS:
            costs = []
            for _ in range(args.runs):  # each run in a fresh process: no cache carried over
                with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
                    costs.append(pool.submit(_comparison_cost, method).result())
            costs.sort()
            line["seconds_per_trial"] = round(costs[len(costs) // 2][0], 6)
            line["wall_seconds"] = round(costs[len(costs) // 2][1], 3)
            line["not_compared"] = costs[0][2]
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
