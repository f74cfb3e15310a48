"""One method's run on a validation's trials (``MethodRun``), what every run is given
(``RunContext``) and one repeat of those trials for a method's fit on it alone
(``RepeatTrials``); each method's seam makes its own (``core/methods/method_seam.py``) and
``core/validation/method_runs.py`` puts them side by side. The validation's types are named
here for annotations only, so that the methods' seams need nothing from the room above."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from taveer_desktop.core.calibration.score_measures import posterior_scores
from taveer_desktop.core.ground.progress import Progress
from taveer_desktop.core.methods.taveer.model_fields import Model

if TYPE_CHECKING:
    from taveer_desktop.core.trials.folds import Ranges
    from taveer_desktop.core.trials.population import Population
    from taveer_desktop.core.trials.validation_settings import ValidationSettings
    from taveer_desktop.core.trials.validation_trials import TrialSet

Bounds = tuple[float | None, float | None]


@dataclass(frozen=True)
class RunContext:
    """What every method's run is given: the population, its trials, the settings, progress,
    worker processes and the validated ranges of the case's measures."""

    population: Population
    trials: TrialSet
    settings: ValidationSettings
    progress: Progress
    workers: int | None
    ranges: Ranges


@dataclass(frozen=True)
class RepeatTrials:
    """One repeat of a validation's trials (``rows``: their indices among all ``trials``), with
    the settings and validated ranges a method's fit on them alone needs."""

    trials: TrialSet
    rows: np.ndarray
    settings: ValidationSettings
    ranges: Ranges

    def quality(self, rows: np.ndarray) -> Any:
        """The calibration's length inputs of these of all trials' rows (``quality_inputs``)."""
        from taveer_desktop.core.trials.folds import quality_inputs

        trials = self.trials
        return quality_inputs(self.ranges, trials.questioned_chars[rows], trials.known_chars[rows])


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
