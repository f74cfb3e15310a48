"""Wording about a validation record, shared by the report, the command line and the desktop.

- ``bound_sentence``: the range of likelihood ratios the validation supports (its ELUB).
- ``population_caveat``: a plain warning when the population has too few authors for its
  figures to mean much for a case. The program cannot judge whether a population is relevant
  (genre, period, register — its description is the examiner's statement of that); it can count
  authors. Below ``SMALL_POPULATION_AUTHORS`` the bootstrap over authors resamples so few units
  that its intervals are wide and unstable, so the warning says the population is too small for
  casework.
"""

from __future__ import annotations

from typing import Any

SMALL_POPULATION_AUTHORS = 20


def _ratio(log10_lr: float) -> str:
    value = 10.0 ** abs(log10_lr)
    shown = f"{value:,.3g}"
    if shown == "1":
        return "1"
    return shown if log10_lr >= 0 else f"1/{shown}"


def bound_sentence(bound: dict[str, Any]) -> str:
    """The supported range of the likelihood ratio, in words (from a record's ``bound``)."""
    low, high = bound.get("min_log10_lr"), bound.get("max_log10_lr")
    if not isinstance(low, int | float) or not isinstance(high, int | float):
        return "The record states no bound on the likelihood ratio."
    if low == 0.0 and high == 0.0:
        return (
            "The validation trials do not show the method doing better than a likelihood ratio "
            "of 1, so every likelihood ratio of this model is 1."
        )
    return (
        f"The likelihood ratio is bounded to what the validation trials support: between "
        f"{_ratio(low)} and {_ratio(high)} (the empirical lower and upper bound of Vergeer et "
        "al. 2016, computed from the cross-validated likelihood ratios)."
    )


def population_caveat(population: dict[str, Any]) -> str | None:
    """A warning for a population too small for casework (from a record's ``population``)."""
    authors = population.get("authors")
    if not isinstance(authors, int) or authors >= SMALL_POPULATION_AUTHORS:
        return None
    return (
        f"The population has only {authors} authors: far too small for casework. Its figures "
        "and bound show how the validation works, not how well the method works for a case."
    )
