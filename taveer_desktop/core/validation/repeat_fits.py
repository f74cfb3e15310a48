"""Each repeat's own TAVeer fit, kept beside a validation's final model (``repeat_models``).

The final model is fitted on the pooled trials of all repeats (``core/validation/validation.py``,
step 6). Here the same fit is made on each repeat's trials alone: thresholds, the best of the
2,047 ensembles and the calibration with the same quality-measure terms (``cross_validation
.learn``), the calibration bounded by the ELUB of that repeat's cross-validated log10 LRs, overall
and per declared band — as the final model's is by all of them. A verification states the final
model's ratio only where every repeat's fit points the same way
(``core/verification/repeat_check.py``); the block's format is
``core/methods/taveer/repeat_models.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from taveer_desktop.core.calibration.calibration import with_elub
from taveer_desktop.core.features.features import CATEGORY_IDS
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


def repeat_models(
    trials: TrialSet, cv_log10_lr: np.ndarray, settings: ValidationSettings, ranges: Ranges
) -> dict[str, Any]:
    """The model's ``repeat_models`` entry (empty where no repeat has both classes)."""
    fits = repeat_fits(trials, cv_log10_lr, settings, ranges)
    return repeat_models_block(fits) if fits else {}
