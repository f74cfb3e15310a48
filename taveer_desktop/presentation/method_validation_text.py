"""What a validation record says about its method, in words (plain text, no Qt).

A validation with another method than TAVeer keeps, beside the stated method's figures, every
method's figures on the same held-out trials (``record["methods"]``, set side by side by
``method_comparison_text``), LambdaG's settings where LambdaG ran (``record["lambdag"]``: the
highest order tried, the order each fold's training trials chose, the order of the final model,
the reference samples) and each trial's log10 LR by method (``log10_lr_by_method``). This
module words which method the record states, LambdaG's settings, the chart texts that depend
on the method, and the validation report's words on its methods (its PDF subject, the heading
and sentence over each method's figures). Method names are the registry's
(``core/ground/registry.py``); what a figure means is ``presentation/validation_text``'s.
"""

from __future__ import annotations

from typing import Any

from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.face_registry import face, scores_by_classification
from taveer_desktop.presentation.fusion_text import (
    record_method_label,
    record_method_name,
)
from taveer_desktop.presentation.method_agreement import (
    compared_methods,
    record_method,
)
from taveer_desktop.presentation.validation_plot_text import (
    LR_ONE_MARK,
    SCORE_PLOT,
    THRESHOLD_MARK,
    TIPPETT,
    PlotText,
)


def stated_method_sentence(record: ValidationRecord) -> str:
    """Which method the record's figures, acceptance and charts are of."""
    stated = record_method(record)
    methods = compared_methods(record)
    if not methods:
        return f"Method: {record_method_name(record)}."
    others = ", ".join(record_method_label(record, m) for m in methods[1:])
    name = record_method_name(record)
    whose = face(stated).figures_owner or name
    return (
        f"Method: {name}. The figures, intervals, acceptance and charts are "
        f"{whose}'s; the figures of {others} on the same held-out trials are in the "
        "comparison beside them."
    )


def _orders(fold_orders: Any) -> str:
    if not isinstance(fold_orders, tuple) or not fold_orders:
        return "not recorded"
    return ", ".join(f"fold {i} chose {order}" for i, order in enumerate(fold_orders, 1))


def lambdag_pairs(record: ValidationRecord) -> list[tuple[str, str]]:
    """LambdaG's settings as (label, value) pairs (empty for a record without LambdaG)."""
    lam = record.lambdag
    if lam is None:
        return []
    pairs = [
        ("Highest order tried", numbers.integer(int(lam.max_order or 0))),
        ("Order chosen per fold", _orders(lam.fold_orders)),
        ("Order of the model", numbers.integer(int(lam.order or 0))),
        (
            "Reference samples",
            f"{numbers.integer(int(lam.samples or 0))} per comparison, each as many "
            "sentences as the known text",
        ),
        ("Reference texts", lam.reference or "not recorded"),
    ]
    seconds = lam.seconds
    if seconds is not None:
        per_trial = lam.seconds_per_trial
        pairs.append(
            (
                "LambdaG's part of the run",
                numbers.seconds(float(seconds))
                + (
                    f" ({numbers.significant(float(per_trial) * 1000)} ms a trial)"
                    if per_trial is not None
                    else ""
                ),
            )
        )
    return pairs


LAMBDAG_ORDER_NOTE = (
    "The order is how many tokens of context LambdaG's grammar models condition on. It is "
    "chosen by validation: in each fold, the order whose calibrated score had the lowest Cllr "
    "on the other folds' trials, up to the highest order tried; the model's own order is chosen "
    "the same way on all trials."
)


def score_plot_text(record: ValidationRecord) -> PlotText:
    """The score chart's words: TAVeer's ensemble score, or for LambdaG and the fusion the
    stated likelihood ratio's LR / (1 + LR), the trials' ``score`` in their records."""
    if scores_by_classification(record_method(record)):
        return SCORE_PLOT
    return PlotText(
        SCORE_PLOT.title,
        # no " (" before the note: the chart puts what the parenthesis says on the 0.5 line
        "cross-validated LR/(1+LR) (0.5 = LR 1)",
        SCORE_PLOT.y_axis,
        SCORE_PLOT.series,
        f"Each trial's score here is {record_method_name(record)}'s cross-validated likelihood "
        "ratio as a share, LR/(1+LR): 0.5 is a likelihood ratio of 1. " + SCORE_PLOT.caption,
    )


def charts_method_note(record: ValidationRecord) -> str:
    """Whose likelihood ratios the charts draw ('' for a TAVeer record)."""
    if scores_by_classification(record_method(record)):
        return ""
    return f"The charts draw {record_method_name(record)}'s likelihood ratios (the stated method)."


METHOD_TIPPETT = PlotText(
    "Tippett plot of each method",
    TIPPETT.x_axis,
    TIPPETT.y_axis,
    ("same-author trials (solid)", "different-author trials (dashed)"),
    "The Tippett curves of each method on the same held-out trials, the stated method's lines "
    "thicker. The method whose solid (same-author) curve lies further right and whose dashed "
    "(different-author) curve lies further left gives stronger correct evidence; where a "
    "dashed curve crosses x = 0 is that method's share of "
    "different-author trials that supported Hp.",
)


METHOD_TIPPETT_KEY = (
    "One colour per method; solid lines: same-author trials (Hp true), dashed: different-author "
    "trials (Hd true)."
)
NO_METHOD_CHART = (
    "No chart: this summary does not keep the trials; the project's stored validation record does."
)


def method_series_name(record: ValidationRecord, method: str, stated: str) -> str:
    """A method's legend entry in the comparison chart: "TAVeer + COAV (stated)"."""
    return record_method_label(record, method) + (" (stated)" if method == stated else "")


# --- the validation report ---------------------------------------------------------------------

EACH_METHOD_FIGURES_HEAD = "Each method's figures on the same trials"


def each_method_sentence(record: ValidationRecord) -> str:
    return (
        f"The validated model states the likelihood ratio of {record_method_name(record)}; the "
        "figures above and the Tippett and cross-entropy plots are of that ratio. Every method "
        "was measured on the same cross-validated trials; each method's figures, side by side:"
    )


def score_plot_mark(record: ValidationRecord) -> str:
    """The label of the score chart's line at 0.5: TAVeer's threshold, or for a method whose
    trials' score is its likelihood ratio as a share (``score_plot_text``) a ratio of 1."""
    if scores_by_classification(record_method(record)):
        return THRESHOLD_MARK
    return LR_ONE_MARK


def subject_method(record: ValidationRecord) -> str:
    """The method in the validation report's PDF subject."""
    return face(record_method(record)).subject or record_method_name(record)
