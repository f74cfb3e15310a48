"""Every method asked for, cross-validated on one set of trials, side by side.

``core/validation/validation.py`` cross-validates TAVeer on its trials and asks ``run_methods`` for
the others (the stated method, those compared beside it and those the fusion combines,
``ValidationSettings.validated``): LambdaG through ``core/methods/lambdag/lambdag_validation.py``,
the ten comparison systems through ``comparison_validation.py``, then the fusion of
``ValidationSettings.fuse`` from their held-out LRs (``fusion_validation.py``). Each gives a
``MethodRun``: its held-out log10 LR per trial (NaN where it could not compare), its cost, how
it attaches its part to the final model, and its final part's bound. ``choose_stated`` applies
a rule registered before the run (``CHOICE_RULES``) to pick the stated method;
``methods_block`` and ``annotate_trials`` write the record's ``"methods"`` and each trial's
``log10_lr_by_method``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.ground.registry import COMPARISON_IDS, MethodId, method_info, method_name
from taveer_desktop.core.methods.fusion.fusion import Fusion
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.validation.cross_validation import Ranges
from taveer_desktop.core.validation.evaluation import posterior_scores
from taveer_desktop.core.validation.method_figures import MethodFigures
from taveer_desktop.core.validation.population import Population
from taveer_desktop.core.validation.validation_figures import (
    FIGURES,
    bootstrap_intervals,
    figures_of,
)
from taveer_desktop.core.validation.validation_record import repeat_spread
from taveer_desktop.core.validation.validation_settings import (
    LOWEST_PESSIMISTIC_CLLR,
    ValidationSettings,
)
from taveer_desktop.core.validation.validation_trials import TrialSet

Bounds = tuple[float | None, float | None]


@dataclass
class MethodRun:
    """One method on the trials (see the module)."""

    method: str
    cv_log10_lr: np.ndarray  # held-out, bounded; NaN where the method could not compare
    seconds_per_trial: float
    attach: Callable[[Model], Model] | None = None  # None: TAVeer (the model is TAVeer's)
    bounds: Bounds = (None, None)  # its final part's overall bound
    reasons: dict[str, int] = field(default_factory=dict)
    seed_spread: dict[str, Any] | None = None
    summary: dict[str, Any] = field(default_factory=dict)  # more for the record (LambdaG's)
    rows: dict[str, np.ndarray] = field(default_factory=dict)  # more per trial ("lambdag_raw")
    scores: np.ndarray | None = None  # TAVeer's similarities (others: from their LRs)
    part: Any = None  # its final part (LambdaGPart, ComparisonPart, Fusion; None: TAVeer)

    @property
    def compared(self) -> np.ndarray:
        compared: np.ndarray = np.isfinite(self.cv_log10_lr)
        return compared

    def cv_scores(self) -> np.ndarray:
        """The scores ``figures_of`` takes (accuracy at 0.5): TAVeer's similarity, else the
        posterior of the LR at even prior odds."""
        if self.scores is not None:
            return self.scores
        return np.asarray(posterior_scores(self.cv_log10_lr), dtype=float)


def _lambdag_run(
    population: Population,
    trials: TrialSet,
    settings: ValidationSettings,
    taveer: MethodRun,
    progress: Progress,
    workers: int | None,
    ranges: Ranges,
) -> MethodRun:
    from taveer_desktop.core.methods.lambdag.lambdag_validation import second_opinion

    second = second_opinion(
        population,
        trials,
        replace(settings, method=MethodId.LAMBDAG.value),
        taveer.cv_log10_lr,
        progress,
        workers,
        ranges,
    )
    calibration = second.part.calibration
    return MethodRun(
        MethodId.LAMBDAG.value,
        second.cv_lambdag,
        second.lambdag_seconds / max(1, len(trials)),
        second.attach,
        (calibration.min_log10_lr, calibration.max_log10_lr),
        summary=second.summary_lambdag(),
        rows={"lambdag_raw": second.raw[:, second.part.order - 1]},
        part=second.part,
    )


def _fusion_run(
    runs: dict[str, MethodRun], trials: TrialSet, settings: ValidationSettings
) -> MethodRun:
    """The fusion of ``settings.fuse`` from their runs' held-out LRs (``fusion_validation``);
    its final model carries every fused method's part (see ``attach_fusion``)."""
    from taveer_desktop.core.methods.fusion.fusion_validation import validate_fusion

    fused = tuple(settings.fuse)
    found = validate_fusion(fused, {m: runs[m].cv_log10_lr for m in fused}, trials, settings)
    fusion = found.fusion
    rows: dict[str, np.ndarray] = {}
    for m in fused:
        rows.update(runs[m].rows)
    return MethodRun(
        MethodId.FUSION.value,
        found.cv_log10_lr,
        sum(runs[m].seconds_per_trial for m in fused),
        lambda model: attach_fusion(model, fusion, [runs[m].part for m in fused]),
        (fusion.min_log10_lr, fusion.max_log10_lr),
        reasons={
            f"{method_name(m)} could not compare the trial": n
            for m, n in found.left_out.items()
            if n
        },
        summary=found.summary(),
        rows=rows,
        part=fusion,
    )


def attach_fusion(model: Model, fusion: Fusion, parts: list[Any]) -> Model:
    """The model stating the fusion's ratio: its fusion, LambdaG's part if it fuses LambdaG,
    and every fused comparison system's part in ``"comparisons"`` (``comparison_model``);
    TAVeer's part is the model itself (``parts`` holds None for it)."""
    from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart
    from taveer_desktop.core.methods.systems.comparison_model import (
        ComparisonPart,
        comparisons_block,
    )

    extra = {**model.extra, "method": MethodId.FUSION.value, "fusion": fusion.to_dict()}
    comparisons = [p for p in parts if isinstance(p, ComparisonPart)]
    for part in parts:
        if isinstance(part, LambdaGPart):
            extra[MethodId.LAMBDAG.value] = part.to_dict()
    if comparisons:
        extra["comparisons"] = comparisons_block(comparisons, "the fused model")
    return replace(model, extra=extra)


def _comparison_run(
    method_id: str,
    population: Population,
    trials: TrialSet,
    settings: ValidationSettings,
    progress: Progress,
    workers: int | None,
    ranges: Ranges,
) -> MethodRun:
    from taveer_desktop.core.methods.systems.catalogue import comparison_method
    from taveer_desktop.core.methods.systems.comparison_validation import validate_comparison

    params = comparison_method(method_id).params_for_lengths(
        trials.questioned_chars, trials.known_chars
    )
    done = validate_comparison(
        method_id, population, trials, settings, ranges, progress, workers, params
    )
    calibration = done.part.calibration
    return MethodRun(
        method_id,
        done.cv_log10_lr,
        done.seconds_per_trial,
        done.part.attach,
        (calibration.min_log10_lr, calibration.max_log10_lr),
        reasons=done.reasons,
        seed_spread=done.seed_spread,
        rows={f"{method_id}_raw": done.cv_raw},
        part=done.part,
    )


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
    methods, and those the fusion combines), in that order."""
    ranges = dict(ranges or {})
    wanted = list(settings.validated)  # the fusion's methods too, where it is asked for
    runs = {MethodId.TAVEER.value: taveer}
    if MethodId.LAMBDAG.value in wanted:
        runs[MethodId.LAMBDAG.value] = _lambdag_run(
            population, trials, settings, taveer, progress, workers, ranges
        )
    for method_id in wanted:
        if method_id in COMPARISON_IDS:
            runs[method_id] = _comparison_run(
                method_id, population, trials, settings, progress, workers, ranges
            )
    if MethodId.FUSION.value in wanted:
        runs[MethodId.FUSION.value] = _fusion_run(runs, trials, settings)
    order = [MethodId.TAVEER.value, *(m for m in wanted if m != MethodId.TAVEER.value)]
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
    )


def methods_block(runs: dict[str, MethodRun], trials: TrialSet) -> dict[str, Any]:
    """``record["methods"]``: every run's block."""
    out = {}
    for method, run in runs.items():
        block = figures_block(run, trials).to_dict()
        if run.seed_spread is not None:  # with how many seeds and trials it was measured
            block["seed_spread"].update(
                seeds=run.seed_spread["seeds"], trials=run.seed_spread["trials"]
            )
        if run.reasons:
            block["cannot_compare_reasons"] = dict(run.reasons)
        out[method] = block
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
