"""The three plots of the validation report as layouts (pure, no Qt): the Tippett plot with the
bound's marks, the empirical cross-entropy plot (its y axis cut at ``ECE_CEILING``) and the
score distributions, from ``core/validation_curves`` with the words of
``presentation/validation_plot_text``; ``report/plot_layout.py`` draws them."""

from __future__ import annotations

import math

import numpy as np

from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.core.validation.validation_curves import (
    EceCurves,
    ScoreDistributions,
    TippettCurves,
)
from taveer_desktop.presentation import validation_plot_text as plot_words
from taveer_desktop.report.plot_layout import Bars, Mark, PlotLayout, Series, range_ticks

ECE_CEILING = 2.0  # bits: an ECE plot's y axis never runs higher (the neutral curve is ≤ 1)


def tippett_plot(curves: TippettCurves, record: ValidationRecord, n: tuple[int, int]) -> PlotLayout:
    marks = [Mark(x, label, "bound") for x, label in plot_words.bound_marks(record)]
    low, high = curves.x_range
    for x, _ in plot_words.bound_marks(record):
        low, high = min(low, x - 0.15), max(high, x + 0.15)
    same_xs, same_ys = curves.steps(curves.same)
    diff_xs, diff_ys = curves.steps(curves.different)
    same_xs[0], diff_xs[0], same_xs[-1], diff_xs[-1] = low, low, high, high
    text = plot_words.TIPPETT
    return PlotLayout(
        text.title,
        text.x_axis,
        text.y_axis,
        (low, high),
        (-0.02, 1.02),
        range_ticks(low, high, 8),
        range_ticks(0.0, 1.0, 5),
        series=(
            Series(text.series[0], tuple(same_xs), tuple(same_ys), "same"),
            Series(text.series[1], tuple(diff_xs), tuple(diff_ys), "different"),
        ),
        marks=(Mark(0.0, plot_words.LR_ONE_MARK), *marks),
        note=plot_words.tippett_note(*n),
    )


def ece_plot(curves: EceCurves) -> PlotLayout:
    theta = curves.prior_log10_odds
    finite = np.concatenate([c[np.isfinite(c)] for c in (curves.validated, curves.calibrated)])
    top = max(float(finite.max(initial=0.0)), float(curves.neutral.max()))
    clipped = top > ECE_CEILING
    top = min(top, ECE_CEILING)
    y_max = math.ceil(top * 1.08 / 0.2) * 0.2
    text = plot_words.ECE_PLOT
    validated, calibrated, _ = curves.at_even_odds()

    def line(values: np.ndarray) -> tuple[float, ...]:
        return tuple(float(min(v, 10 * y_max)) for v in values)  # inf drawn off the top

    return PlotLayout(
        text.title,
        text.x_axis,
        text.y_axis,
        (float(theta[0]), float(theta[-1])),
        (0.0, y_max),
        range_ticks(float(theta[0]), float(theta[-1]), 10),
        range_ticks(0.0, y_max, 5),
        series=(
            Series(text.series[0], tuple(theta), line(curves.validated), "validated"),
            Series(text.series[1], tuple(theta), line(curves.calibrated), "calibrated"),
            Series(text.series[2], tuple(theta), line(curves.neutral), "neutral"),
        ),
        marks=(Mark(0.0, plot_words.EVEN_ODDS_MARK),),
        note=plot_words.ece_note(validated, calibrated, ECE_CEILING if clipped else None),
    )


def _score_range(scores: ScoreDistributions) -> tuple[float, float]:
    """The part of 0–1 the axis shows: the occupied bins, widened to tenths, 0.5 included."""
    occupied = np.flatnonzero(scores.same_counts + scores.different_counts)
    low = min(float(scores.edges[occupied[0]]), 0.5)
    high = max(float(scores.edges[occupied[-1] + 1]), 0.5)
    return max(math.floor(low * 10 + 1e-9) / 10, 0.0), min(math.ceil(high * 10 - 1e-9) / 10, 1.0)


def score_plot(
    scores: ScoreDistributions,
    n: tuple[int, int],
    text: plot_words.PlotText = plot_words.SCORE_PLOT,
    mark: str = plot_words.THRESHOLD_MARK,
) -> PlotLayout:
    width = float(scores.edges[1] - scores.edges[0])
    same_line = scores.same_density * width  # a density as a share per bin of this width
    diff_line = scores.different_density * width
    top = max(
        float(scores.same_shares.max()),
        float(scores.different_shares.max()),
        float(same_line.max()),
        float(diff_line.max()),
    )
    y_ticks = range_ticks(0.0, top * 1.1, 5)
    y_max = max(top * 1.1, y_ticks[-1])
    edges = tuple(float(e) for e in scores.edges)
    low, high = _score_range(scores)
    return PlotLayout(
        text.title,
        text.x_axis,
        text.y_axis,
        (low, high),
        (0.0, y_max),
        range_ticks(low, high, 10),
        y_ticks,
        series=(
            Series("", tuple(scores.grid), tuple(same_line), "same"),
            Series("", tuple(scores.grid), tuple(diff_line), "different"),
        ),
        bars=(
            Bars(text.series[0], edges, tuple(scores.same_shares), "same"),
            Bars(text.series[1], edges, tuple(scores.different_shares), "different"),
        ),
        marks=(Mark(0.5, mark),),
        note=plot_words.score_note(*n, len(edges) - 1),
    )
