"""LambdaG validated on the trials TAVeer is validated on.

``core/validation/validation.py`` builds the trials (cut like the case, author-disjoint folds) and
cross-validates TAVeer; for ``--method lambdag``, or a fusion that combines LambdaG, it hands the
same trials to ``second_opinion``:

1. **λG of every trial, every order.** Each trial's questioned and known texts are the same
   sentences TAVeer counted (``TrialSet.questioned_cuts`` / ``known_cuts``), masked
   (``core/methods/lambdag/lambdag_masking.py``). The reference population of a trial is the
   population's documents by authors of the *other* folds — never the trial's own authors, as in a
   case, where the population does not contain the candidate. Reference samples hold as many
   sentences as the trial's known text; the trials of one fold whose known texts have the same
   number of sentences (to within 2.5 %, ``sample_size``; to within 5 % when the declared known
   lengths are a range, ``RANGE_SAMPLE_STEP``: the known texts then have many more sizes, and
   building the samples was half of LambdaG's time) share their r samples (drawn with a
   generator seeded by the seed, the fold and that number), which is what makes 2,000 trials
   take seconds rather than minutes.
   Both trials of a pair share the known text, so they share its model. The population's
   sentences are kept as masked tokens (two bytes a position, ``SentenceStream``); n-gram keys
   (sixteen bytes a position and order) are made only for the texts being modelled or scored
   — a sample, a known text, a questioned text — and dropped with them, so memory grows with
   the population's tokens, not with tokens × order.
2. **Order chosen by validation, calibration.** For each fold, on the trials of the other folds:
   the order 1 … N whose logistically calibrated λG has the lowest Cllr, and that calibration
   bounded, as TAVeer's, by the ELUB of its own training LRs; the held-out fold's trials are
   scored with them.
3. **The final part**: order and calibration from all trials, bounded, as TAVeer's final
   model, by the ELUB of LambdaG's cross-validated LRs; the reference population (all its
   authors) stored in the model (``core/methods/lambdag/lambdag_model.py``), whose cases draw
   their reference samples seeded by their own texts (format version 2), not by the seed.

The fusion of LambdaG with other methods is fitted on the held-out LRs of each
(``core/methods/fusion/fusion_validation.py``). The figures of every method come from the same
held-out trials and go into the record side by side (``core/validation/method_runs.py`` asks for
them and writes every method's figures alike).
Step 1 is ``core/methods/lambdag/lambdag_trial_scores.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from taveer_desktop.core.calibration.calibration import (
    Calibration,
    QualityInputs,
    fit_bounded_calibration,
    with_elub,
)
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.methods.lambdag.kneser_ney import (
    END,
)
from taveer_desktop.core.methods.lambdag.lambdag import vocabulary_size_of
from taveer_desktop.core.methods.lambdag.lambdag_masking import join_sentences, masked_sentences
from taveer_desktop.core.methods.lambdag.lambdag_model import (
    CASE_SEEDED_VERSION,
    LambdaGPart,
    encode_reference,
)
from taveer_desktop.core.methods.lambdag.lambdag_trial_scores import (
    RANGE_SAMPLE_STEP,
    SAMPLE_STEP,
    lambdag_trial_scores,
)
from taveer_desktop.core.methods.taveer.model_fields import MAX_MODEL_BYTES, Model
from taveer_desktop.core.trials.folds import Ranges, fold_masks, quality_inputs
from taveer_desktop.core.trials.population import Population
from taveer_desktop.core.trials.validation_settings import ValidationSettings, declared_bands
from taveer_desktop.core.trials.validation_trials import TrialSet

if TYPE_CHECKING:
    from taveer_desktop.core.methods.method_run import RepeatTrials

# the model file must stay readable (``model.MAX_MODEL_BYTES``): room for everything else
MAX_REFERENCE_BYTES = MAX_MODEL_BYTES - 1024 * 1024


# --- order, calibration --------------------------------------------------------------


def choose_order(
    raw: np.ndarray, truth: np.ndarray, quality: QualityInputs | None = None
) -> tuple[int, Calibration]:
    """The order whose calibrated λG has the lowest Cllr on these trials, and its calibration
    (with ``quality``, length terms; bounded by the ELUB of its own LRs on these trials)."""
    best: tuple[float, int, Calibration] | None = None
    for n in range(1, raw.shape[1] + 1):
        calibration = fit_bounded_calibration(raw[:, n - 1], truth, quality)
        value = calibration.training_cllr
        if value is not None and math.isfinite(value) and (best is None or value < best[0]):
            best = (value, n, calibration)
    assert best is not None
    return best[1], best[2]


@dataclass
class SecondOpinion:
    """LambdaG cross-validated on the trials, and its final part."""

    truth: np.ndarray
    cv_lambdag: np.ndarray  # held-out, bounded log10 LR of every trial
    raw: np.ndarray
    fold_orders: list[int]
    part: LambdaGPart
    lambdag_seconds: float
    reference_models: int
    reference_sentences: int

    def summary_lambdag(self) -> dict[str, Any]:
        """What the record and the model's ``validation`` say of LambdaG beyond its figures
        (those are written for every method alike: ``core/validation/method_runs.py``)."""
        n = len(self.truth)
        return {
            "lambdag": {
                "max_order": int(self.raw.shape[1]),
                "order": self.part.order,
                "fold_orders": self.fold_orders,
                "samples": self.part.samples,
                "reference": "per trial: the population's authors of the other folds; "
                "in the final model: all its authors",
                "reference_sentences": self.reference_sentences,
                "reference_models": self.reference_models,
                "seconds": round(self.lambdag_seconds, 3),
                "seconds_per_trial": round(self.lambdag_seconds / max(n, 1), 6),
            },
        }

    def attach(self, model: Model) -> Model:
        """The model stating LambdaG's ratio, with its part."""
        extra = {**model.extra, "method": MethodId.LAMBDAG.value, "lambdag": self.part.to_dict()}
        return replace(model, extra=extra)


def second_opinion(
    population: Population,
    trials: TrialSet,
    settings: ValidationSettings,
    taveer_cv_log10_lr: np.ndarray,
    progress: Progress = NO_PROGRESS,
    workers: int | None = 1,
    ranges: Ranges | None = None,
) -> SecondOpinion:
    """LambdaG on the trials; see the module.
    With ``workers`` > 1 the folds' λG is computed in that many processes (the same values)."""
    truth = trials.truth
    everything = [
        sentence
        for author in population.authors
        for document in population.documents[author]
        for sentence in masked_sentences(document.coded)
        if len(sentence)
    ]
    stream = join_sentences(everything)
    reference = encode_reference(stream)
    if len(reference["data"]) > MAX_REFERENCE_BYTES:  # refused before the long part
        raise InputError(
            f"the population is too large for a LambdaG model to carry: its masked text takes "
            f"{len(reference['data']) / 1e6:.1f} MB, at most {MAX_REFERENCE_BYTES / 1e6:.1f} MB "
            "fit in a model file; validate with fewer authors or documents",
            population.source,
        )
    known = settings.known_chars
    scored = lambdag_trial_scores(
        population,
        trials,
        settings.lambdag_order,
        settings.lambdag_samples,
        settings.seed,
        progress=progress,
        workers=workers,
        sample_step=RANGE_SAMPLE_STEP if known is not None and known[0] < known[1] else SAMPLE_STEP,
    )
    raw = scored.raw
    lambdag_seconds, reference_models = scored.seconds, scored.reference_models
    ranges = dict(ranges or {})
    q_chars, k_chars = trials.questioned_chars, trials.known_chars

    def quality(rows: np.ndarray) -> QualityInputs | None:
        return quality_inputs(ranges, q_chars[rows], k_chars[rows])

    cv_lambdag = np.zeros(len(trials))
    fold_orders = []
    masks = fold_masks(trials)
    for train, held_out in masks:
        order, calibration = choose_order(raw[train], truth[train], quality(train))
        fold_orders.append(order)
        cv_lambdag[held_out] = calibration.log10_lr(
            raw[held_out, order - 1], q_chars[held_out], k_chars[held_out]
        )
    bands = declared_bands(settings)
    everything_rows = np.arange(len(trials))
    order, calibration = choose_order(raw, truth, quality(everything_rows))
    calibration = with_elub(calibration, cv_lambdag, truth, q_chars, bands)
    vocabulary = vocabulary_size_of(np.append(stream, END))
    part = LambdaGPart(
        order=order,
        samples=settings.lambdag_samples,
        seed=settings.seed,
        vocabulary_size=vocabulary,
        calibration=calibration,
        reference=reference,
        population_sha256=population.sha256,
        raw_range=(float(raw[:, order - 1].min()), float(raw[:, order - 1].max())),
        format_version=CASE_SEEDED_VERSION,  # a case's samples seeded by the case
    )
    return SecondOpinion(
        truth=truth,
        cv_lambdag=cv_lambdag,
        raw=raw,
        fold_orders=fold_orders,
        part=part,
        lambdag_seconds=lambdag_seconds,
        reference_models=reference_models,
        reference_sentences=len(everything),
    )


def repeat_calibration(
    raw: np.ndarray, cv_log10_lr: np.ndarray, repeat: RepeatTrials
) -> Calibration | None:
    """LambdaG's calibration of λG at its final order (``raw``: every trial's) fitted on one
    repeat's trials alone, as the final part's is on all of them (step 3), and bounded by the
    ELUB of that repeat's cross-validated ratios, overall and per declared band (None: the
    repeat lacks a class)."""
    rows = repeat.rows
    truth = repeat.trials.truth[rows]
    if not (truth.any() and (~truth).any()):
        return None
    calibration = fit_bounded_calibration(raw[rows], truth, repeat.quality(rows))
    q_chars = repeat.trials.questioned_chars[rows]
    bands = declared_bands(repeat.settings)
    return with_elub(calibration, cv_log10_lr[rows], truth, q_chars, bands)
