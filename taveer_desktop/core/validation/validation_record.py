"""The validation record's parts beyond the figures: the spread across repeats, whether the
validation is big enough for casework, the protocol, the trials, the model's declared conditions,
and writing the record (``core/validation/validation.py`` assembles them; ``docs/validation.md``,
"The record", lists every key)."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

from taveer_desktop.core.gate.conditions import LENGTHS_DECLARED, LengthRange, ValidatedConditions
from taveer_desktop.core.ground.atomic_file import write_text_atomically
from taveer_desktop.core.trials.population import Population
from taveer_desktop.core.trials.trial_dates import dates_block
from taveer_desktop.core.trials.trial_topics import COUNTED_MATCHED, construction_block
from taveer_desktop.core.trials.validation_settings import (
    MIN_CASEWORK_AUTHORS,
    MIN_CASEWORK_TRIALS,
    MIN_LENGTH_SHARE,
    MIN_TRIALS_PER_CLASS,
    ValidationSettings,
)
from taveer_desktop.core.trials.validation_trials import TrialSet
from taveer_desktop.core.validation.validation_figures import figures_of, rounded

REPEAT_FIGURES = ("cllr", "cllr_min", "auc", "eer", "misleading_y", "misleading_n")


def repeat_spread(
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


def casework_block(
    population: Population, trials: TrialSet, matched_only: bool = False
) -> dict[str, Any]:
    """Whether the validation is big enough for casework: authors, and **distinct** trials of
    each class (a pair of documents drawn again in another repeat, cut differently, counts
    once) — with a declared topic relation (``matched_only``), only the trials that stand in
    it count (``core/trials/trial_topics.py``); where the documents are dated, only the
    same-author trials apart in time (``core/trials/trial_dates.py``)."""
    same: set[tuple[str, str]] = set()
    different: set[tuple[str, str]] = set()
    for i in range(len(trials)):
        if matched_only and not trials.matched[i]:
            continue
        if trials.dated is not None and trials.truth[i] and not trials.time_side[i]:
            continue
        key = (trials.known_author[i], trials.questioned_document[i])
        (same if trials.truth[i] else different).add(key)
    authors = len(population.documents)
    reasons = []
    if authors < MIN_CASEWORK_AUTHORS:
        reasons.append(f"{authors} authors, fewer than {MIN_CASEWORK_AUTHORS}")
    matched = "matched " if matched_only else ""
    apart = " apart in time" if trials.dated is not None else ""
    for count, kind, when in (
        (len(same), "same-author", apart),
        (len(different), "different-author", ""),
    ):
        if count < MIN_CASEWORK_TRIALS:
            reasons.append(
                f"{count} distinct {matched}{kind} trials{when}, fewer than {MIN_CASEWORK_TRIALS}"
            )
    return {
        "authors": authors,
        "trials_same": len(same),
        "trials_different": len(different),
        "min_authors": MIN_CASEWORK_AUTHORS,
        "min_trials": MIN_CASEWORK_TRIALS,
        "counted": COUNTED_MATCHED if matched_only else "all trials",
        "too_small": bool(reasons),
        "reasons": reasons,
    }


def pair(value: tuple[int, int] | None) -> list[int] | None:
    return None if value is None else [int(value[0]), int(value[1])]


def trial_rows(trials: TrialSet, scores: np.ndarray, lrs: np.ndarray) -> list[dict[str, Any]]:
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
            **({"matched": bool(trials.matched[i])} if trials.topic is not None else {}),
        }
        for i in range(len(trials))
    ]


def declared_conditions(
    conditions: ValidatedConditions, settings: ValidationSettings
) -> ValidatedConditions:
    """The model's validated lengths are the declared range (the trials were built across it),
    widened to the central range of the lengths the trials really had: cuts at sentence
    boundaries fall either side of a target, and a document of 80 % of a target could stand for
    it — so a single declared length N keeps its old meaning (the trials' central range, N
    inside). ``shortest`` stays the shortest trial. A side without a declared range (whole
    documents) keeps the central range of the trials' lengths. The distances are what the
    trials saw."""

    def declared(lengths: LengthRange, value: tuple[int, int] | None) -> LengthRange:
        if value is None:
            return lengths
        lo, hi = value
        return LengthRange(min(lengths.shortest, lo), min(lengths.low, lo), max(lengths.high, hi))

    if settings.questioned_chars is None and settings.known_chars is None:
        return conditions
    return replace(
        conditions,
        questioned_chars=declared(conditions.questioned_chars, settings.questioned_chars),
        known_chars=declared(conditions.known_chars, settings.known_chars),
        lengths_basis=LENGTHS_DECLARED,
    )


def protocol_of(settings: ValidationSettings, trials: TrialSet) -> dict[str, Any]:
    return {
        "method": settings.method,
        "threshold_method": settings.threshold_method,
        "questioned_chars": pair(settings.questioned_chars),
        "known_chars": pair(settings.known_chars),
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
        "trials": {
            "construction": {
                **construction_block(trials.topic, trials.groups, trials.truth, trials.matched),
                "dates": dates_block(trials.dated, trials.truth, trials.time_side),
            }
        },
    }


def record_json(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def save_record(record: dict[str, Any], path: str | Path) -> None:
    """Write a validation record atomically (never half-written; a ``FileWriteError`` names it)."""
    write_text_atomically(path, record_json(record))


def settings_dict(settings: ValidationSettings) -> dict[str, Any]:
    return asdict(settings)
