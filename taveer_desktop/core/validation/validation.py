"""Validation over the laboratory's declared range of conditions, on a relevant population.

The protocol (``docs/validation.md`` states it for readers):

1. **Trials across the declared range** (``core/trials/validation_trials.py``): folds by author;
   balanced same-/different-author pairs sharing their known text; each pair's questioned and
   known target lengths drawn log-uniformly within the declared (LO, HI) ranges (a single
   length N is (N, N)); cut at sentence boundaries; a document shorter than 80 % of its target
   cannot stand for it; with a declared topic relation, both trials of a pair stand in it
   where the population allows (``core/trials/trial_topics.py``). Every method is validated on
   these same trials.
2. **Repeated cross-validation** (``core/validation/cross_validation.py``): the whole of step 1 and
   the cross-validation by author are repeated ``repeats`` times with seeds seed, seed + 1, …
   (folds, trial choice and cuts all re-drawn); ``max_trials`` is the total over the repeats. Each
   fold learns thresholds, ensemble and calibration — with quality-measure (length) terms where the
   declared questioned range is a range (``core/calibration/quality_measures.py``) — on the other
   folds of its repeat. The held-out LRs of all repeats are pooled for the figures; the spread
   across repeats is reported (``repeats``), so no seed can be picked for a better figure.
3. **Figures with intervals** (``core/validation/validation_figures.py``): every figure of the
   pooled trials with a bias-corrected percentile bootstrap interval over authors that contains it;
   the same per band of questioned length (``bands``, ``core/calibration/length_bands.py``).
4. **Acceptance** on the pessimistic end of each figure's interval, or the worst repeat where
   that is worse (``judged_on``: "pessimistic"), so a small population cannot pass by luck;
   ``casework`` says whether the validation is too small for casework (fewer than
   ``MIN_CASEWORK_AUTHORS`` authors or ``MIN_CASEWORK_TRIALS`` distinct trials of a class).
5. **Every method asked for** (``settings.method`` and ``settings.compare``;
   ``core/validation/method_runs.py``): TAVeer is cross-validated on the trials always (they are
   its trials); LambdaG, the fusion and the ten comparison systems are cross-validated on the
   same trials, each with its calibration and bound; the record holds every method's figures
   (``methods``, read by ``core/validation/method_figures.py``), ``comparison`` when methods were
   compared, and each trial's ``log10_lr_by_method``. The stated method is ``settings.method``
   or the one the rule ``settings.choose_by`` picks; the record's figures, intervals, bands,
   repeats and trials are the stated method's, over the trials it could compare.
6. **The final model** is fitted on all pooled trials; its calibration is bounded by the ELUB of
   the cross-validated LRs of all trials, overall and per band (a case gets its band's bound);
   its validated conditions are the declared range (``lengths_basis`` "declared_range") and the
   distances the trials saw across it. For another stated method the model also carries that
   method's part (``core/methods/lambdag/lambdag_model.py``,
   ``core/methods/systems/comparison_model.py``), bounded the same way by the ELUB of that method's
   cross-validated LRs. Each repeat's own fits (TAVeer's, and the stated method's) are kept beside
   it (``repeat_models``, ``core/validation/repeat_fits.py``): a case whose repeats point
   different ways gets no direction.

**The bound.** Every calibration is clipped to the empirical lower and upper bound (ELUB) of
Vergeer et al. (2016, *Science & Justice* 56(6):482–491; ``core/calibration/elub.py``). In each
fold the bound is the ELUB of the fold's own training trials' LRs; the final model's is the ELUB of
the cross-validated LRs the record lists, so anyone can recompute it from the record.

**The minimum.** Fewer than ``MIN_TRIALS_PER_CLASS`` (20) trials of either class is refused.
Acceptance criteria are fixed in ``ValidationSettings`` before any trial is built and recorded
with the time they were set.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from taveer_desktop import __version__
from taveer_desktop.core.calibration.calibration import with_elub
from taveer_desktop.core.calibration.elub import ELUB_REFERENCE
from taveer_desktop.core.calibration.length_bands import length_bands
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.intake.corpus import Corpus
from taveer_desktop.core.methods.systems.catalogue import require_loadable
from taveer_desktop.core.methods.taveer.model_fields import Model
from taveer_desktop.core.methods.taveer.training import CorpusDistances, fit_model
from taveer_desktop.core.trials.folds import QUALITY_MEASURES, calibration_ranges, quality_inputs
from taveer_desktop.core.trials.population import Population
from taveer_desktop.core.trials.validation_settings import (
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
from taveer_desktop.core.trials.validation_trials import (
    TrialSet,
    assign_folds,
    build_trials,
    known_cut,
    known_part,
    nearest_cut,
    pool_trials,
    questioned_cut,
    questioned_part,
    trial_set,
)
from taveer_desktop.core.validation.cross_validation import (
    Learned,
    cross_validate,
    learn,
    score,
)
from taveer_desktop.core.validation.method_runs import (
    MethodRun,
    annotate_trials,
    choose_stated,
    methods_block,
    run_methods,
)
from taveer_desktop.core.validation.repeat_fits import with_repeat_models
from taveer_desktop.core.validation.validation_figures import (
    FIGURES,
    band_summaries,
    bootstrap_intervals,
    equal_error_rate,
    figures_of,
    rounded,
)
from taveer_desktop.core.validation.validation_record import (
    casework_block,
    declared_conditions,
    pair,
    protocol_of,
    record_json,
    repeat_spread,
    save_record,
    trial_rows,
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
    "pool_trials",
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
    text = f"the population “{population.name}”"
    if population.description.strip():
        text += f" ({population.description.strip()})"
    return text


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
    require_loadable(settings.named)
    asked_repeats = settings.repeats
    settings = replace(settings, repeats=settings.repeats_for(len(population.authors)))
    criteria = settings.criteria
    if not criteria.set_utc:
        criteria = replace(criteria, set_utc=now_utc())
    lexicon = lexicon or default_lexicon()
    trials = trial_set(population, settings, progress)
    ranges = calibration_ranges(settings, quality_measures)
    cv_started = time.perf_counter()
    cv_scores, cv_lr = cross_validate(trials, settings.threshold_method, workers, progress, ranges)
    taveer = MethodRun(
        MethodId.TAVEER.value,
        cv_lr,
        (time.perf_counter() - cv_started) / max(1, len(trials)),
        scores=cv_scores,
    )
    runs = run_methods(population, trials, settings, taveer, progress, workers, ranges)
    stated_id, rule_values = choose_stated(runs, trials, settings)
    stated = runs[stated_id]
    rows = np.flatnonzero(stated.compared)  # the trials the stated method could compare
    scored = trials if len(rows) == len(trials) else trials.subset(rows)
    truth = scored.truth
    cv_scores, cv_lr = stated.cv_scores()[rows], stated.cv_log10_lr[rows]
    figures = figures_of(cv_scores, cv_lr, truth)
    intervals = bootstrap_intervals(
        cv_scores,
        cv_lr,
        truth,
        scored.known_author,
        settings.bootstrap,
        settings.seed,
        progress,
        figures,
    )
    bands = (
        length_bands(*settings.questioned_chars)
        if settings.questioned_chars is not None
        else [(int(scored.questioned_chars.min()), int(scored.questioned_chars.max()))]
    )
    band_entries = band_summaries(
        bands,
        scored.questioned_chars,
        cv_scores,
        cv_lr,
        truth,
        scored.known_author,
        settings.bootstrap,
        settings.seed,
        progress,
    )
    spread = repeat_spread(scored, cv_scores, cv_lr, settings.seeds)
    met = criteria.assess(intervals, spread)
    seconds = time.perf_counter() - started
    model = fit_model(
        CorpusDistances(
            [f"trial-{i + 1}" for i in range(len(trials))],
            trials.distances,
            trials.truth,
            trials.questioned_chars,
            trials.known_chars,
        ),
        name or f"{settings.name_of(stated_id)} model validated on {population.name}",
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
        model.calibration,
        taveer.cv_log10_lr,
        trials.truth,
        trials.questioned_chars,
        declared_bands(settings),
    )
    model = replace(
        model,
        calibration=calibration,
        conditions=declared_conditions(model.conditions, settings),
    )
    low, high = (
        stated.bounds
        if stated.attach is not None
        else (calibration.min_log10_lr, calibration.max_log10_lr)
    )
    protocol = {**protocol_of(settings, scored), "method": stated_id}
    protocol["repeats_asked"] = asked_repeats  # raised for the population's size (see settings)
    if calibration.quality is not None:  # every method's calibration takes the same lengths
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
            "questioned_chars": pair(settings.questioned_chars),
            "known_chars": pair(settings.known_chars),
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
        "casework": casework_block(population, scored, settings.topic is not None),
        "methods": methods_block(runs, trials),
    }
    for run in runs.values():
        summary.update(run.summary)
    if settings.compare:
        summary["comparison"] = {
            "methods": list(settings.methods),
            "stated": stated_id,
            "rule": settings.choose_by,
            "rule_set_utc": criteria.set_utc if settings.choose_by else None,
            "rule_values": {m: rounded(v) for m, v in rule_values.items()},
        }
    model = replace(model, extra={**model.extra, "validation": summary})
    if stated.attach is not None:
        model = stated.attach(model)
    model = with_repeat_models(model, runs, trials, settings, ranges)  # each repeat's own fits
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
        "trials": trial_rows(scored, cv_scores, cv_lr),
    }
    annotate_trials(record["trials"], rows, runs)
    if population.fit is not None:  # what the gate holds each case's documents against
        record["population_fit"] = population.fit.to_dict()
    return ValidationResult(model, record, scored, cv_scores, cv_lr)
