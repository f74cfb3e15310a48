"""The words of a validation record's plots (plain text, no Qt): the Tippett, empirical
cross-entropy and score plots' titles, axes, series names and captions (``PlotText``), the class
names, the reference-line labels and the one-line notes under the plots. Shared by the validation
report and the desktop's validation charts."""

from __future__ import annotations

from dataclasses import dataclass

from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.validation_figures_text import finite_number
from taveer_desktop.presentation.validation_text import ratio_text

CLASS_NAMES = {
    "same": "same-author trials (Hp true)",
    "different": "different-author trials (Hd true)",
}


@dataclass(frozen=True)
class PlotText:
    title: str
    x_axis: str
    y_axis: str
    series: tuple[str, ...]
    caption: str


TIPPETT = PlotText(
    "Tippett plot",
    "log10 likelihood ratio (x)",
    "share of trials with log10 LR above x",
    (CLASS_NAMES["same"], CLASS_NAMES["different"]),
    "Each curve shows, for every value x, the share of one kind of trial whose cross-validated "
    "log10 LR is above x. Same-author curves far to the right and different-author curves far "
    "to the left mean strong, correct evidence. Where the different-author curve crosses "
    "x = 0 is the share of different-author trials that supported Hp; the gap between 1 and "
    "the same-author curve at x = 0 is the share of same-author trials that did not support Hp.",
)
ECE_PLOT = PlotText(
    "Empirical cross-entropy plot",
    "prior log10 odds of Hp",
    "empirical cross-entropy (bits)",
    (
        "likelihood ratios as validated",
        "after PAV recalibration (best possible)",
        "neutral reference (LR = 1)",
    ),
    "The information a decision maker would still lack, on average, after receiving these "
    "likelihood ratios, for every prior odds they might hold (lower is better). At prior log10 "
    "odds 0 the validated curve equals Cllr and the PAV curve Cllr_min. Where the validated "
    "curve lies above the neutral reference, the likelihood ratios would mislead more than "
    "they help at that prior; the distance to the PAV curve is the cost of calibration.",
)
SCORE_PLOT = PlotText(
    "Score distributions",
    "cross-validated ensemble score (0.5 = the method's threshold)",
    "share of the class's trials",
    (CLASS_NAMES["same"], CLASS_NAMES["different"]),
    "Bars: the share of each kind of trial in each score bin; lines: the same, smoothed. "
    "The more the two distributions overlap, the less the score can tell the two kinds of "
    "trial apart.",
)


EVEN_ODDS_MARK = "prior odds 1"
THRESHOLD_MARK = "threshold 0.5"
LR_ONE_MARK = "LR = 1"


def bound_marks(record: ValidationRecord) -> list[tuple[float, str]]:
    """(log10 LR, label) of the bound's two ends, for the Tippett plot ([] if none)."""
    bound = record.bound
    low = bound.min_log10_lr if bound is not None else None
    high = bound.max_log10_lr if bound is not None else None
    if not (finite_number(low) and finite_number(high)):
        return []
    return [(low, f"bound {ratio_text(low)}"), (high, f"bound {ratio_text(high)}")]


def tippett_note(n_same: int, n_different: int) -> str:
    return (
        f"Cross-validated log10 LR of {numbers.integer(n_same)} same-author and "
        f"{numbers.integer(n_different)} "
        "different-author trials; dotted lines: the bound on the LR."
    )


def ece_note(cllr: float, cllr_min: float, clipped_at: float | None) -> str:
    text = (
        f"At prior odds 1: validated {numbers.decimal(cllr)} (Cllr), after PAV "
        f"{numbers.decimal(cllr_min)} (Cllr_min)."
    )
    if clipped_at is not None:
        text += f" Values above {numbers.short(clipped_at)} bits are cut off."
    return text


def score_note(n_same: int, n_different: int, bins: int) -> str:
    return (
        f"{bins} equal bins over 0–1; {numbers.integer(n_same)} same-author and "
        f"{numbers.integer(n_different)} "
        "different-author trials, each class's bars summing to 1."
    )
