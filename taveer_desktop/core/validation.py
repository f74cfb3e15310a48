"""Validation over the laboratory's declared range of conditions, on a relevant population.

The protocol (``docs/validation.md`` states it for readers):

1. **Trials across the declared range** (``core/validation_trials.py``): folds by author;
   balanced same-/different-author pairs sharing their known text; each pair's questioned and
   known target lengths drawn log-uniformly within the declared (LO, HI) ranges (a single
   length N is (N, N)); cut at sentence boundaries; a document shorter than 80 % of its target
   cannot stand for it.
2. **Repeated cross-validation** (``core/cross_validation.py``): the whole of step 1 and the
   cross-validation by author are repeated ``repeats`` times with seeds seed, seed + 1, … (folds,
   trial choice and cuts all re-drawn); ``max_trials`` is the total over the repeats. Each fold
   learns thresholds, ensemble and calibration — with quality-measure (length) terms where the
   declared questioned range is a range (``core/quality_measures.py``) — on the other folds of
   its repeat. The held-out LRs of all repeats are pooled for the figures; the spread across
   repeats is reported (``repeats``), so no seed can be picked for a better figure.
3. **Figures with intervals** (``core/validation_figures.py``): every figure of the pooled trials
   with a bias-corrected percentile bootstrap interval over authors that contains it; the same
   per band of questioned length (``bands``, ``core/length_bands.py``).
4. **Acceptance** on the pessimistic end of each figure's interval, or the worst repeat where
   that is worse (``judged_on``: "pessimistic"), so a small population cannot pass by luck;
   ``casework`` says whether the validation is too small for casework (fewer than
   ``MIN_CASEWORK_AUTHORS`` authors or ``MIN_CASEWORK_TRIALS`` distinct trials of a class).
5. **The final model** is fitted on all pooled trials; its calibration is bounded by the ELUB of
   the cross-validated LRs of all trials, overall and per band (a case gets its band's bound);
   its validated conditions are the declared range (``lengths_basis`` "declared_range") and the
   distances the trials saw across it.

**The bound.** Every calibration is clipped to the empirical lower and upper bound (ELUB) of
Vergeer et al. (2016, *Science & Justice* 56(6):482–491; ``core/elub.py``). In each fold the
bound is the ELUB of the fold's own training trials' LRs; the final model's is the ELUB of the
cross-validated LRs the record lists, so anyone can recompute it from the record.

**The minimum.** Fewer than ``MIN_TRIALS_PER_CLASS`` (20) trials of either class is refused.
Acceptance criteria are fixed in ``ValidationSettings`` before any trial is built and recorded
with the time they were set.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from taveer_desktop import __version__
from taveer_desktop.core.atomic_file import write_text_atomically
from taveer_desktop.core.calibration import with_elub
from taveer_desktop.core.conditions import LENGTHS_DECLARED, LengthRange, ValidatedConditions
from taveer_desktop.core.corpus import Corpus
from taveer_desktop.core.cross_validation import (
    QUALITY_MEASURES,
    Learned,
    calibration_ranges,
    cross_validate,
    learn,
    quality_inputs,
    score,
)
from taveer_desktop.core.elub import ELUB_REFERENCE
from taveer_desktop.core.length_bands import length_bands
from taveer_desktop.core.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.model import Model
from taveer_desktop.core.population import Population
from taveer_desktop.core.progress import NO_PROGRESS, Progress
from taveer_desktop.core.training import CorpusDistances, fit_model
from taveer_desktop.core.validation_figures import (
    FIGURES,
    band_summaries,
    bootstrap_intervals,
    equal_error_rate,
    figures_of,
    rounded,
)
from taveer_desktop.core.validation_settings import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_FOLDS,
    DEFAULT_MAX_TRIALS,
    DEFAULT_REPEATS,
    METHOD_TITLES,
    METHODS,
    MIN_CASEWORK_AUTHORS,
    MIN_CASEWORK_TRIALS,
    MIN_LENGTH_SHARE,
    MIN_TRIALS_PER_CLASS,
    AcceptanceCriteria,
    ValidationSettings,
    declared_bands,
    length_range,
    now_utc,
    parse_length_range,
)
from taveer_desktop.core.validation_trials import (
    TrialSet,
    assign_folds,
    build_trials,
    known_cut,
    known_part,
    nearest_cut,
    pool_trials,
    questioned_cut,
    questioned_part,
)

__all__ = [
    "DEFAULT_BOOTSTRAP",
    "DEFAULT_FOLDS",
    "DEFAULT_MAX_TRIALS",
    "DEFAULT_REPEATS",
    "FIGURES",
    "METHODS",
    "METHOD_TITLES",
    "MIN_CASEWORK_AUTHORS",
    "MIN_CASEWORK_TRIALS",
    "MIN_LENGTH_SHARE",
    "MIN_TRIALS_PER_CLASS",
    "QUALITY_MEASURES",
    "AcceptanceCriteria",
    "Learned",
    "TrialSet",
    "ValidationResult",
    "ValidationSettings",
    "assign_folds",
    "bootstrap_intervals",
    "build_trials",
    "cross_validate",
    "equal_error_rate",
    "figures_of",
    "known_cut",
    "known_part",
    "learn",
    "length_range",
    "nearest_cut",
    "parse_length_range",
    "questioned_cut",
    "questioned_part",
    "record_json",
    "save_record",
    "score",
    "validate",
]

RECORD_FORMAT = "taveer-validation-record"
RECORD_FORMAT_VERSION = 2  # 2: conditions, repeats, bands, casework, judged_on
BOUND_RULE = (
    "log10 LR clipped to the empirical lower and upper bound (ELUB) of the cross-validated "
    "log10 LRs of all trials, overall and per band of questioned length (one misleading trial "
    f"of each class added; computed exactly): {ELUB_REFERENCE}"
)
REPEAT_FIGURES = ("cllr", "cllr_min", "auc", "eer", "misleading_y", "misleading_n")


@dataclass
class ValidationResult:
    """The final model and the validation record (a JSON-ready dictionary)."""

    model: Model
    record: dict[str, Any]
    trials: TrialSet
    cv_scores: np.ndarray
    cv_log10_lr: np.ndarray

    @property
    def figures(self) -> dict[str, float]:
        figures: dict[str, float] = self.record["figures"]
        return figures

    @property
    def acceptance(self) -> dict[str, Any]:
        acceptance: dict[str, Any] = self.record["acceptance"]
        return acceptance


def _population_text(population: Population) -> str:
    text = f"the population {population.name!r}"
    if population.description.strip():
        text += f" ({population.description.strip()})"
    return text


def _repeat_spread(
    trials: TrialSet, scores: np.ndarray, lrs: np.ndarray, seeds: list[int]
) -> dict[str, Any]:
    """Each repeat's own figures, and how far they spread (max − min)."""
    per: dict[str, list[float | None]] = {name: [] for name in REPEAT_FIGURES}
    counts = []
    for r in range(len(seeds)):
        rows = trials.repeat == r
        counts.append(int(rows.sum()))
        figures = figures_of(scores[rows], lrs[rows], trials.truth[rows])
        for name in REPEAT_FIGURES:
            per[name].append(rounded(figures[name]))
    spread = {}
    for name, values in per.items():
        finite = [v for v in values if v is not None]
        spread[name] = rounded(max(finite) - min(finite)) if finite else None
    return {"count": len(seeds), "seeds": seeds, "trials": counts, **per, "spread": spread}


def casework_block(population: Population, trials: TrialSet) -> dict[str, Any]:
    """Whether the validation is big enough for casework: authors, and **distinct** trials of
    each class (a pair of documents drawn again in another repeat, cut differently, counts
    once)."""
    same: set[tuple[str, str]] = set()
    different: set[tuple[str, str]] = set()
    for i in range(len(trials)):
        key = (trials.known_author[i], trials.questioned_document[i])
        (same if trials.truth[i] else different).add(key)
    authors = len(population.documents)
    reasons = []
    if authors < MIN_CASEWORK_AUTHORS:
        reasons.append(f"{authors} authors, fewer than {MIN_CASEWORK_AUTHORS}")
    for count, kind in ((len(same), "same-author"), (len(different), "different-author")):
        if count < MIN_CASEWORK_TRIALS:
            reasons.append(f"{count} distinct {kind} trials, fewer than {MIN_CASEWORK_TRIALS}")
    return {
        "authors": authors,
        "trials_same": len(same),
        "trials_different": len(different),
        "min_authors": MIN_CASEWORK_AUTHORS,
        "min_trials": MIN_CASEWORK_TRIALS,
        "too_small": bool(reasons),
        "reasons": reasons,
    }


def validate(
    population: Population,
    settings: ValidationSettings,
    name: str | None = None,
    genre: str | None = None,
    lexicon: Lexicon | None = None,
    progress: Progress = NO_PROGRESS,
    workers: int | None = 1,
    quality_measures: tuple[str, ...] = QUALITY_MEASURES,
) -> ValidationResult:
    """Build the trials of every repeat, cross-validate by author, fit the final model; see the
    module. With ``workers`` > 1 the folds are learned in that many processes (same result).
    ``quality_measures`` (the lengths the calibration takes in) is for measuring the choice."""
    started = time.perf_counter()
    settings.check()
    criteria = settings.criteria
    if not criteria.set_utc:
        criteria = replace(criteria, set_utc=now_utc())
    lexicon = lexicon or default_lexicon()
    trials = pool_trials(
        [build_trials(population, settings, progress, r) for r in range(settings.repeats)]
    )
    truth = trials.truth
    ranges = calibration_ranges(settings, quality_measures)
    cv_scores, cv_lr = cross_validate(trials, settings.threshold_method, workers, progress, ranges)
    taveer_cv_lr = cv_lr
    second = None
    if settings.method != "taveer":  # LambdaG or the fusion: core/lambdag_validation.py
        from taveer_desktop.core.lambdag_validation import second_opinion

        second = second_opinion(population, trials, settings, cv_lr, progress, workers, ranges)
        cv_scores, cv_lr = second.cv_scores, second.cv_log10_lr
    figures = figures_of(cv_scores, cv_lr, truth)
    intervals = bootstrap_intervals(
        cv_scores,
        cv_lr,
        truth,
        trials.known_author,
        settings.bootstrap,
        settings.seed,
        progress,
        figures,
    )
    bands = (
        length_bands(*settings.questioned_chars)
        if settings.questioned_chars is not None
        else [(int(trials.questioned_chars.min()), int(trials.questioned_chars.max()))]
    )
    band_entries = band_summaries(
        bands,
        trials.questioned_chars,
        cv_scores,
        cv_lr,
        truth,
        trials.known_author,
        settings.bootstrap,
        settings.seed,
        progress,
    )
    spread = _repeat_spread(trials, cv_scores, cv_lr, settings.seeds)
    met = criteria.assess(intervals, spread)
    seconds = time.perf_counter() - started
    model = fit_model(
        CorpusDistances(
            [f"trial-{i + 1}" for i in range(len(trials))],
            trials.distances,
            truth,
            trials.questioned_chars,
            trials.known_chars,
        ),
        name or f"{METHOD_TITLES[settings.method]} model validated on {population.name}",
        Corpus(
            path=Path(population.source),
            name=population.name,
            layout="population",
            case_ids=[],
            truth={},
            sha256=population.sha256,
        ),
        settings.threshold_method,
        lexicon,
        seconds,
        genre=genre,
        population=_population_text(population),
        quality=quality_inputs(ranges, trials.questioned_chars, trials.known_chars),
    )
    assert model.calibration is not None and model.conditions is not None
    calibration = with_elub(
        model.calibration, taveer_cv_lr, truth, trials.questioned_chars, declared_bands(settings)
    )
    model = replace(
        model,
        calibration=calibration,
        conditions=declared_conditions(model.conditions, settings),
    )
    low, high = (
        second.stated_bounds
        if second is not None
        else (calibration.min_log10_lr, calibration.max_log10_lr)
    )
    protocol = _protocol(settings, trials)
    if calibration.quality is not None:
        protocol["calibration"] = (
            "logistic with quality-measure terms of the log "
            + " and ".join(m.replace("_chars", " length") for m in calibration.quality.measures)
            + " (clamped to the declared range)"
        )
    acceptance = {
        "criteria": criteria.to_dict(),
        "results": met,
        "met": all(met.values()) if met else None,
        "judged_on": "pessimistic",
        "judged_values": {
            k: rounded(v) for k, v in criteria.judged_values(intervals, spread).items()
        },
    }
    summary: dict[str, Any] = {
        "population": {
            "name": population.name,
            "description": population.description,
            "sha256": population.sha256,
            "authors": len(population.documents),
            "documents": population.n_documents,
        },
        "conditions": {
            "questioned_chars": _pair(settings.questioned_chars),
            "known_chars": _pair(settings.known_chars),
        },
        "protocol": protocol,
        "figures": {k: rounded(v) for k, v in figures.items()},
        "intervals": {k: [rounded(a), rounded(b)] for k, (a, b) in intervals.items()},
        "acceptance": acceptance,
        "bound": {
            "min_log10_lr": low,
            "max_log10_lr": high,
            "rule": BOUND_RULE,
            "trials_same": int(truth.sum()),
            "trials_different": int((~truth).sum()),
        },
        "bands": band_entries,
        "repeats": spread,
        "casework": casework_block(population, trials),
    }
    if second is not None:
        summary.update(second.summary())
    model = replace(model, extra={**model.extra, "validation": summary})
    if second is not None:
        model = second.attach(model)
    record = {
        "format": RECORD_FORMAT,
        "format_version": RECORD_FORMAT_VERSION,
        "created_utc": now_utc(),
        "software_version": __version__,
        **summary,
        "population": {**summary["population"], "source": population.source},
        "model": {"name": model.name, "sha256": model.sha256, "ensemble": list(model.ensemble)},
        "seconds": round(time.perf_counter() - started, 3),
        "warnings": list(population.warnings),
        "trials": _trial_rows(trials, cv_scores, cv_lr),
    }
    if second is not None:
        second.annotate(record)
    return ValidationResult(model, record, trials, cv_scores, cv_lr)


def _pair(value: tuple[int, int] | None) -> list[int] | None:
    return None if value is None else [int(value[0]), int(value[1])]


def _trial_rows(trials: TrialSet, scores: np.ndarray, lrs: np.ndarray) -> list[dict[str, Any]]:
    return [
        {
            "known_author": trials.known_author[i],
            "questioned_author": trials.questioned_author[i],
            "same": bool(trials.truth[i]),
            "repeat": int(trials.repeat[i]),
            "fold": int(trials.fold[i]),
            "questioned_chars": int(trials.questioned_chars[i]),
            "known_chars": int(trials.known_chars[i]),
            "known_documents": int(trials.known_documents[i]),
            "score": round(float(scores[i]), 6),
            "log10_lr": round(float(lrs[i]), 6),
        }
        for i in range(len(trials))
    ]


def declared_conditions(
    conditions: ValidatedConditions, settings: ValidationSettings
) -> ValidatedConditions:
    """The model's validated lengths are the declared range (the trials were built across it);
    ``shortest`` stays the shortest trial (cuts fall either side of a target, and a document
    of 80 % of LO could stand for it). A side without a declared range (whole documents) keeps
    the central range of the trials' lengths. The distances are what the trials saw."""

    def declared(lengths: LengthRange, value: tuple[int, int] | None) -> LengthRange:
        if value is None:
            return lengths
        lo, hi = value
        return LengthRange(min(lengths.shortest, lo), lo, hi)

    if settings.questioned_chars is None and settings.known_chars is None:
        return conditions
    return replace(
        conditions,
        questioned_chars=declared(conditions.questioned_chars, settings.questioned_chars),
        known_chars=declared(conditions.known_chars, settings.known_chars),
        lengths_basis=LENGTHS_DECLARED,
    )


def _protocol(settings: ValidationSettings, trials: TrialSet) -> dict[str, Any]:
    return {
        "method": settings.method,
        "threshold_method": settings.threshold_method,
        "questioned_chars": _pair(settings.questioned_chars),
        "known_chars": _pair(settings.known_chars),
        "length_draw": "log-uniform within the declared range, per pair (none when LO = HI)",
        "min_length_share": MIN_LENGTH_SHARE,
        "folds": trials.folds,
        "folds_asked": settings.folds,
        "max_trials": settings.max_trials,
        "seed": settings.seed,
        "repeats": settings.repeats,
        "seeds": settings.seeds,
        "bootstrap": settings.bootstrap,
        "interval": "95 % bias-corrected percentile bootstrap over authors, containing the figure",
        "calibration": "logistic",  # the final model's, set when it is fitted
        "trials_same": int(trials.truth.sum()),
        "trials_different": int((~trials.truth).sum()),
        "same_author_trials_possible": trials.candidates_same,
        "min_trials_per_class": MIN_TRIALS_PER_CLASS,
        "cut": "at the sentence boundary nearest the target length",
        "pairing": "each same-author trial paired with a different-author trial "
        "with the same known text",
        "folds_by": "author (trials are built within a fold; folds re-dealt every repeat)",
    }


def record_json(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def save_record(record: dict[str, Any], path: str | Path) -> None:
    """Write a validation record atomically (never half-written; a ``FileWriteError`` names it)."""
    write_text_atomically(path, record_json(record))


def settings_dict(settings: ValidationSettings) -> dict[str, Any]:
    return asdict(settings)
