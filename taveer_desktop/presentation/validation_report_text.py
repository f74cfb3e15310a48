"""The words of a validation as a report states it (plain text, no Qt): the validation
report's opening statement (``statement_sentences``), ``REPORT_TITLE``, ``identification_pairs``
(record, model, export) and ``lengths_sentence(q, k)``; the case report's paragraph on the
validation (``case_summary_sentences``) and ``ERROR_RATES_FROM_VALIDATION``, its lead-in where
the model has no other held-out figures."""

from __future__ import annotations

from typing import Any

import numpy as np

from taveer_desktop.core.ground.registry import method_name
from taveer_desktop.core.validation.record_reader import RecordModel, ValidationRecord
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.presentation.face_registry import face, is_seed
from taveer_desktop.presentation.fusion_text import (
    record_fusion,
    record_method_label,
    record_method_name,
)
from taveer_desktop.presentation.method_agreement import (
    compared_methods,
    record_method,
)
from taveer_desktop.presentation.method_names import names_text
from taveer_desktop.presentation.numbers import count
from taveer_desktop.presentation.trial_construction_text import case_topic_sentence
from taveer_desktop.presentation.validation_figures_text import (
    acceptance_sentence,
    acceptance_verdict,
    figure_value,
    finite_number,
    interval_text,
    trial_counts,
)
from taveer_desktop.presentation.validation_text import (
    bound_sentence,
    casework_shortfalls,
    shortened,
    trial_length,
)


def validated_method(record: ValidationRecord) -> str:
    """The method a record validates, as its statement names it."""
    stated = record_method(record)
    look = face(stated)
    if look.statement is not None:  # its own ("the fusion of the TAVeer and COAV …")
        return look.statement.format(fused=names_text(record_fusion(record)))
    others = [record_method_label(record, m) for m in compared_methods(record)[1:]]
    beside = f", with {', '.join(others)} measured beside it" if others else ""
    return f"the {method_name(stated)} authorship verification method{look.variant}{beside}"


def statement_sentences(record: ValidationRecord) -> list[str]:
    """The validation report's opening statement: what it is and what it is not."""
    population = record.population
    n_same, n_different = trial_counts(record)
    figures = record.figures
    verdict = acceptance_verdict(record.acceptance.met)
    return [
        f"This report records a validation of {validated_method(record)} under "
        "stated conditions. It measures how well the method's likelihood ratios performed on "
        f"{numbers.integer(n_same + n_different)} trials whose truth was known "
        f"({numbers.integer(n_same)} same-author, "
        f"{numbers.integer(n_different)} different-author), built from the relevant population "
        f"“{population.name}”.",
        f"Cross-validated Cllr {figure_value('cllr', figures.cllr)} and AUC "
        f"{figure_value('auc', figures.auc)}; {verdict}.",
        "It states nothing about who wrote any document. A likelihood ratio the validated model "
        "gives in a case weighs the findings under two propositions; its meaning rests on the "
        "population and conditions recorded here.",
    ] + (
        [
            "This validation is too small for casework (see the limits at the end); it shows "
            "how the method behaves, not that it can be relied on in a case."
        ]
        if casework_shortfalls(record)
        else []
    )


ERROR_RATES_FROM_VALIDATION = (
    "This model's error rates under the conditions of this case were measured by "
    "cross-validation on the relevant population, in trials whose authors the model had not "
    "seen; they follow."
)


def case_summary_sentences(record: ValidationRecord) -> list[str]:
    """The case report's paragraph on the validation that produced the model: population and
    protocol, figures with intervals and the acceptance, the bound."""
    population = record.population
    protocol = record.protocol
    figures = record.figures
    intervals = record.intervals
    n_same, n_different = trial_counts(record)

    def shown(key: str) -> str:
        value = figure_value(key, figures.value(key))
        interval = interval_text(key, intervals.value(key))
        return value if interval == "not measured" else f"{value} (95 % interval {interval})"

    description = shortened(population.description)
    shortfalls = casework_shortfalls(record)
    return [
        f"The model was validated on the relevant population “{population.name}” "
        f"({description}): {count(int(population.authors or 0), 'author')}, "
        f"{count(int(population.documents or 0), 'document')}. Trials were built like "
        f"the case: questioned texts of {trial_length(protocol.questioned_chars)} and known "
        f"texts of {trial_length(protocol.known_chars)}, cut at sentence boundaries; "
        f"{numbers.integer(n_same)} same-author and {numbers.integer(n_different)} "
        "different-author trials in "
        f"{protocol.folds} folds by author (seed {protocol.seed}). Thresholds, "
        "ensemble and calibration were learned on the other folds and every trial scored by a "
        "model that had not seen its authors. "
        + case_topic_sentence(record)
        + (f" Too small for casework: {'; '.join(shortfalls)}." if shortfalls else ""),
        f"Cross-validated figures: Cllr {shown('cllr')}, Cllr_min {shown('cllr_min')}, EER "
        f"{shown('eer')}, AUC {shown('auc')}; misleading evidence for Hd in same-author "
        f"trials {shown('misleading_y')}, for Hp in different-author trials "
        f"{shown('misleading_n')}. Intervals: bootstrap over authors. "
        + acceptance_sentence(record),
        bound_sentence(record),
    ]


# --- identification --------------------------------------------------------------------------

REPORT_TITLE = "Validation report"


def identification_pairs(
    record: ValidationRecord, record_sha256: str, source: str, exported: str, software: str
) -> list[tuple[str, str]]:
    """(label, value) rows that identify the record, the model it produced and this export."""
    model = record.model or RecordModel()
    ensemble = model.ensemble
    stated = record_method(record)
    method = [] if is_seed(stated) else [("Method stated", record_method_name(record))]
    return [
        ("Validation record", source),
        ("Record SHA-256", record_sha256),
        ("Model produced", model.name or "not recorded"),
        ("Model SHA-256", model.sha256 or "not recorded"),
        *method,
        ("Ensemble", ", ".join(ensemble) or "not recorded"),
        ("Validated with", f"TAVeer Desktop {record.software_version or '?'}"),
        ("Record created", recorded_time(record.created_utc or "") or "not recorded"),
        (
            "Criteria set",
            recorded_time(record.acceptance.criteria.set_utc or "") or "no criteria set",
        ),
        (
            "Run time",
            f"{numbers.seconds(record.seconds)}" if finite_number(record.seconds) else "–",
        ),
        ("Report exported", exported),
        ("Exported with", software),
    ]


def lengths_sentence(questioned: Any, known: Any) -> str:
    """The trials' measured lengths: median and range of questioned and known characters."""
    q, k = np.asarray(questioned, dtype=float), np.asarray(known, dtype=float)
    if not len(q):
        return "The record holds no trial lengths."
    return (
        f"Measured in the trials: questioned texts {numbers.integer(round(np.median(q)))} "
        "characters (median; "
        f"{numbers.integer(round(q.min()))}–{numbers.integer(round(q.max()))}), known texts "
        f"{numbers.integer(round(np.median(k)))} characters "
        f"({numbers.integer(round(k.min()))}–{numbers.integer(round(k.max()))})."
    )
