"""The folds and declared ranges every method's cross-validation shares: which trials each fold
of each repeat learns on and scores, and the declared length ranges the calibration's
quality-measure terms take (``core/calibration/quality_measures.py``). TAVeer's own
cross-validation (``core/validation/cross_validation.py``), LambdaG's, the fusion's and the
comparison systems' all cut their folds here, so every method is scored on the same folds."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from taveer_desktop.core.calibration.calibration import QualityInputs
from taveer_desktop.core.calibration.quality_measures import MEASURES
from taveer_desktop.core.trials.validation_settings import ValidationSettings
from taveer_desktop.core.trials.validation_trials import TrialSet

# the lengths the calibration takes into account (measured: docs/validation.md, "Calibration")
QUALITY_MEASURES: tuple[str, ...] = ("questioned_chars",)

Ranges = Mapping[str, tuple[int, int]]


def calibration_ranges(
    settings: ValidationSettings, measures: tuple[str, ...] = QUALITY_MEASURES
) -> dict[str, tuple[int, int]]:
    """The declared ranges the calibration's quality terms use (those that are ranges)."""
    out = {}
    for name in measures:
        value = getattr(settings, name)
        if name in MEASURES and value is not None and value[0] < value[1]:
            out[name] = (int(value[0]), int(value[1]))
    return out


def quality_inputs(
    ranges: Ranges, questioned_chars: np.ndarray, known_chars: np.ndarray
) -> QualityInputs | None:
    """What ``fit_calibration`` needs for the quality-measure map (None: the plain map)."""
    if not ranges:
        return None
    lengths = {"questioned_chars": questioned_chars, "known_chars": known_chars}
    return {k: v for k, v in lengths.items() if k in ranges}, dict(ranges)


def fold_masks(trials: TrialSet) -> list[tuple[np.ndarray, np.ndarray]]:
    """(training rows, held-out rows) of every fold of every repeat."""
    repeats = trials.repeat if len(trials.repeat) == len(trials) else np.zeros(len(trials), int)
    masks = []
    for r in np.unique(repeats):
        mine = repeats == r
        for f in range(trials.folds):
            held_out = mine & (trials.fold == f)
            if held_out.any():
                masks.append((mine & ~held_out, held_out))
    return masks
