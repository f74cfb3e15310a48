"""Each repeat's own fits, kept beside a validation's final model (``repeat_models``).

The final model is fitted on the pooled trials of all repeats (``core/validation/validation.py``,
step 6). Here the same fit is made on each repeat's trials alone: thresholds, the best of the
2,047 ensembles and the calibration with the same quality-measure terms (``cross_validation
.learn``), the calibration bounded by the ELUB of that repeat's cross-validated log10 LRs, overall
and per declared band — as the final model's is by all of them. Where the model states another
method's ratio, each repeat's fit also keeps that method's own fit on the repeat's trials, and
that of every method its ratio is made of (a fusion's fused methods), each made by the method's
seam (``MethodSeam.repeat_part``: LambdaG's and a comparison system's calibration of its raw
score, the fusion's weights). A verification states the final model's ratio only where every
repeat's fit points the same way (``core/verification/repeat_check.py``); the block's format is
``core/methods/taveer/repeat_models.py``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from taveer_desktop.core.calibration.calibration import with_elub
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.methods.method_registry import BASE_METHOD, method_seam
from taveer_desktop.core.methods.method_run import MethodRun, RepeatTrials
from taveer_desktop.core.methods.taveer.model_fields import Model, method_of
from taveer_desktop.core.methods.taveer.repeat_models import RepeatFit, repeat_models_block
from taveer_desktop.core.trials.folds import Ranges, quality_inputs
from taveer_desktop.core.trials.validation_settings import ValidationSettings, declared_bands
from taveer_desktop.core.trials.validation_trials import TrialSet
from taveer_desktop.core.validation.cross_validation import learn


def repeat_fits(
    trials: TrialSet, cv_log10_lr: np.ndarray, settings: ValidationSettings, ranges: Ranges
) -> list[RepeatFit]:
    """TAVeer fitted on each repeat's trials (``cv_log10_lr``: TAVeer's held-out ratios of all
    trials, which bound each repeat's calibration); a repeat lacking a class is skipped."""
    repeats = trials.repeat if len(trials.repeat) == len(trials) else np.zeros(len(trials), int)
    bands = declared_bands(settings)
    fits = []
    for r, seed in enumerate(settings.seeds):
        rows = repeats == r
        truth = trials.truth[rows]
        if not (truth.any() and (~truth).any()):
            continue
        q_chars, k_chars = trials.questioned_chars[rows], trials.known_chars[rows]
        learned = learn(
            trials.distances[rows],
            truth,
            settings.threshold_method,
            quality_inputs(ranges, q_chars, k_chars),
        )
        calibration = with_elub(learned.calibration, cv_log10_lr[rows], truth, q_chars, bands)
        thresholds = {c: float(learned.thresholds[j]) for j, c in enumerate(CATEGORY_IDS)}
        fits.append(RepeatFit(seed, thresholds, learned.ensemble, calibration))
    return fits


def with_repeat_models(
    model: Model,
    runs: dict[str, MethodRun],
    trials: TrialSet,
    settings: ValidationSettings,
    ranges: Ranges,
) -> Model:
    """The final model (its stated method's part attached) with each repeat's own fits: TAVeer's
    and, by method id, those of the stated method and of every method its ratio is made of. A
    method that cannot be fitted on some repeat leaves every method's parts out (the check is
    then said to be not possible for the model), never a repeat out."""
    fits = repeat_fits(trials, runs[BASE_METHOD].cv_log10_lr, settings, ranges)
    if not fits:
        return model
    stated = method_of(model)
    wanted = dict.fromkeys([stated, *method_seam(stated).components(model, "the model")])
    wanted.pop(BASE_METHOD, None)
    repeats = trials.repeat if len(trials.repeat) == len(trials) else np.zeros(len(trials), int)
    with_parts = []
    for fit in fits:
        r = settings.seeds.index(fit.seed)
        repeat = RepeatTrials(trials, np.flatnonzero(repeats == r), settings, ranges)
        parts = {m: method_seam(m).repeat_part(repeat, runs) for m in wanted}
        if any(part is None for part in parts.values()):
            with_parts = list(fits)
            break
        with_parts.append(replace(fit, parts=parts))
    block = repeat_models_block(with_parts)
    return replace(model, extra={**model.extra, **block})
