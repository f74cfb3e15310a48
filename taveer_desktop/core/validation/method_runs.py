"""Every method asked for, cross-validated on one set of trials, side by side.

``core/validation/validation.py`` cross-validates TAVeer on its trials and asks ``run_methods`` for
the others (the stated method, those compared beside it and those the fusion combines,
``ValidationSettings.validated``): each method's seam makes its run
(``core/methods/method_registry.py``: LambdaG through ``lambdag_validation.py``, the ten
comparison systems through ``comparison_validation.py``, then the fusion of
``ValidationSettings.fuse`` from their held-out LRs, ``fusion_validation.py``). Each gives a
``MethodRun`` (``core/validation/method_run.py``): its held-out log10 LR per trial (NaN where
it could not compare), its cost, how it attaches its part to the final model, and its final
part's bound. ``choose_stated`` applies
a rule registered before the run (``CHOICE_RULES``) to pick the stated method;
``methods_block`` and ``annotate_trials`` write the record's ``"methods"`` and each trial's
``log10_lr_by_method``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.ground.registry import method_info
from taveer_desktop.core.methods.method_registry import method_seam
from taveer_desktop.core.methods.method_run import Bounds as Bounds
from taveer_desktop.core.methods.method_run import MethodRun as MethodRun
from taveer_desktop.core.methods.method_run import RunContext
from taveer_desktop.core.trials.folds import Ranges
from taveer_desktop.core.trials.population import Population
from taveer_desktop.core.trials.validation_settings import (
    LOWEST_PESSIMISTIC_CLLR,
    ValidationSettings,
)
from taveer_desktop.core.trials.validation_trials import TrialSet
from taveer_desktop.core.validation.evaluation_measures import posterior_scores
from taveer_desktop.core.validation.method_figures import MethodFigures
from taveer_desktop.core.validation.validation_figures import (
    FIGURES,
    bootstrap_intervals,
    figures_of,
)
from taveer_desktop.core.validation.validation_record import repeat_spread


def run_methods(
    population: Population,
    trials: TrialSet,
    settings: ValidationSettings,
    taveer: MethodRun,
    progress: Progress = NO_PROGRESS,
    workers: int | None = 1,
    ranges: Ranges | None = None,
) -> dict[str, MethodRun]:
    """TAVeer's run and every other method of ``settings.validated`` (the stated and compared
    methods, and those the fusion combines), in that order; each method's seam makes its run
    (the methods with a part of their own first, then the comparison systems, then a fusion
    of their held-out ratios)."""
    context = RunContext(population, trials, settings, progress, workers, dict(ranges or {}))
    wanted = list(settings.validated)  # the fusion's methods too, where it is asked for
    runs = {taveer.method: taveer}
    stages = sorted(
        wanted,
        key=lambda m: (method_info(m).capabilities.fuses, method_info(m).comparison),
    )
    for method in stages:
        if method not in runs:
            runs[method] = method_seam(method).cross_validate(context, runs)
    order = [taveer.method, *(m for m in wanted if m != taveer.method)]
    return {m: runs[m] for m in [*order, *(m for m in runs if m not in order)]}


def _pessimistic_cllr(run: MethodRun, trials: TrialSet, settings: ValidationSettings) -> float:
    """The upper end of the method's Cllr interval or its worst repeat, whichever is worse."""
    rows = run.compared
    if rows.sum() < 2 or trials.truth[rows].all() or not trials.truth[rows].any():
        return math.inf
    sub = trials.subset(np.flatnonzero(rows))
    lr, scores = run.cv_log10_lr[rows], run.cv_scores()[rows]
    figures = figures_of(scores, lr, sub.truth)
    intervals = bootstrap_intervals(
        scores,
        lr,
        sub.truth,
        sub.known_author,
        settings.bootstrap,
        settings.seed,
        estimates=figures,
    )
    worst = intervals["cllr"][1]
    for value in repeat_spread(sub, scores, lr, settings.seeds).get("cllr", []):
        worst = max(worst, math.inf if value is None else value)
    return float(worst) if math.isfinite(worst) else math.inf


def choose_stated(
    runs: dict[str, MethodRun], trials: TrialSet, settings: ValidationSettings
) -> tuple[str, dict[str, float]]:
    """The stated method: ``settings.method``, or the one the registered rule picks among
    ``(method, *compare)``; and the values the rule compared (empty without a rule)."""
    if settings.choose_by is None:
        return settings.method, {}
    assert settings.choose_by == LOWEST_PESSIMISTIC_CLLR
    candidates = [settings.method, *settings.compare]
    values = {m: _pessimistic_cllr(runs[m], trials, settings) for m in candidates}
    best = min(candidates, key=lambda m: (values[m], candidates.index(m)))
    return best, values


def _rounded(value: float) -> float | None:
    return round(float(value), 6) if math.isfinite(value) else None


def figures_block(run: MethodRun, trials: TrialSet) -> MethodFigures:
    """The record's block of one method (``method_figures.MethodFigures``)."""
    rows = run.compared
    truth = trials.truth[rows]
    if truth.any() and not truth.all():  # every method alike: accuracy is LR > 1
        lr = run.cv_log10_lr[rows]
        found = figures_of(posterior_scores(lr), lr, truth)
        figures = {k: _rounded(found[k]) for k in FIGURES}
    else:
        figures = dict.fromkeys(FIGURES)
    spread = None
    if run.seed_spread is not None:
        spread = {k: (v[0], v[1]) for k, v in run.seed_spread.items() if k in ("auc", "cllr") and v}
    return MethodFigures(
        method=run.method,
        figures=figures,
        trials=int(rows.sum()),
        cannot_compare=int(len(rows) - rows.sum()),
        seconds_per_trial=round(run.seconds_per_trial, 6),
        deterministic=method_info(run.method).deterministic,
        seed_spread=spread,
        # with how many seeds and trials the spread was measured
        spread_sizes=(
            (run.seed_spread["seeds"], run.seed_spread["trials"])
            if run.seed_spread is not None
            else None
        ),
        cannot_compare_reasons=dict(run.reasons) if run.reasons else None,
    )


def methods_block(runs: dict[str, MethodRun], trials: TrialSet) -> dict[str, Any]:
    """``record["methods"]``: every run's block."""
    out = {}
    for method, run in runs.items():
        out[method] = figures_block(run, trials).to_dict()
    return out


def annotate_trials(
    record_rows: list[dict[str, Any]], rows: np.ndarray, runs: dict[str, MethodRun]
) -> None:
    """Each trial row's log10 LR by every method (None where it could not compare) and each
    run's per-trial extras; ``rows`` are the trials' indices into the runs' arrays."""
    for entry, i in zip(record_rows, rows, strict=True):
        entry["log10_lr_by_method"] = {m: _rounded(run.cv_log10_lr[i]) for m, run in runs.items()}
        for run in runs.values():
            for key, values in run.rows.items():
                entry[key] = _rounded(values[i])
