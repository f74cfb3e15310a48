"""The words for the population-fit check: whether a case's questioned and known documents look
like documents of the validation's population (plain text, no Qt, no HTML).

The check itself is the engine's (``core/population_fit.case_fit``): a conformal p-value of each
part of the case among the population's own documents, with a stated false-flag rate α — the
share of the population's own documents the check flags. Here a finished check is a
``FitCheck`` (the population's name, α and one ``FitPart`` per part), worded the same way for
the wizard's record page, the decision view and the case report.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from taveer_desktop.core.population_fit import PARTS, CaseFit
from taveer_desktop.presentation import numbers


@dataclass(frozen=True)
class FitPart:
    """One part of the case (the questioned text, the known texts) and its p-value."""

    label: str  # "the questioned text Q", "the known texts"
    p_value: float
    flagged: bool  # p below α: unlike the population's documents


@dataclass(frozen=True)
class FitCheck:
    """A case's population-fit check against one validation's population."""

    population: str
    alpha: float  # the stated false-flag rate
    parts: tuple[FitPart, ...]

    @property
    def fits(self) -> bool:
        return not any(part.flagged for part in self.parts)


FIT_MEANING = (
    "p is the share of the population's own documents that look at least as unusual, by "
    "features that do not depend on who wrote them (genre, register, era); a part whose p is "
    "at or below its share of the stated false-flag rate is unlike the population."
)
FIT_COLUMNS = ("Part of the case", "p-value", "Against the population")


def p_text(p: float) -> str:
    """A p-value as shown: "p = 0.42", "p = 0.003", "p < 0.001"."""
    if not math.isfinite(p):
        return "p not measured"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {numbers.significant(p, 2) if p < 0.1 else numbers.decimal(p, 2)}"


def alpha_text(alpha: float) -> str:
    """The stated rate for a case and its share for each part (Bonferroni: α / parts)."""
    return (
        f"the stated false-flag rate is {numbers.percent(alpha, 0).replace(' ', chr(0xA0))}: "
        "at most that share of "
        "cases made of the population's own documents is flagged by this check; each part (the "
        "questioned text, the known texts) is judged at "
        f"{numbers.percent(alpha / PARTS, 1).replace(' ', chr(0xA0))}"
    )


def _parts(parts: Sequence[FitPart]) -> str:
    return "; ".join(f"{part.label}: {p_text(part.p_value)}" for part in parts)


def fit_headline(check: FitCheck) -> str:
    """One sentence: the case fits the population, or which part does not, with p."""
    name = f"“{check.population}”"
    if check.fits:
        return f"The case fits the population {name} ({_parts(check.parts)})."
    flagged = [part for part in check.parts if part.flagged]
    if len(flagged) == 1:
        part = flagged[0]
        verb = "are" if part.label.endswith("texts") else "is"
        return (
            f"{part.label[0].upper()}{part.label[1:]} {verb} unlike the texts of the population "
            f"{name}: {p_text(part.p_value)}."
        )
    return f"The case is unlike the texts of the population {name} ({_parts(flagged)})."


def fit_consequence(check: FitCheck) -> str:
    if check.fits:
        return (
            "Nothing in the texts suggests another genre, register or era than the "
            "population's; this does not prove the population relevant, which remains the "
            "examiner's statement."
        )
    return (
        "A case that does not fit the validation's population gets no evaluative conclusion "
        "from that validation: its conclusion is for investigation only."
    )


def fit_sentences(check: FitCheck) -> list[str]:
    """The headline, its consequence, what p means and the stated false-flag rate."""
    return [
        fit_headline(check),
        fit_consequence(check),
        f"{FIT_MEANING} Here {alpha_text(check.alpha)}.",
    ]


def fit_cells(part: FitPart) -> tuple[str, str, str]:
    return (
        part.label,
        p_text(part.p_value),
        "unlike it (flagged)" if part.flagged else "fits",
    )


NO_PROFILE = (
    "The population-fit check cannot be made against this validation: its record carries no "
    "profile of the population's documents (it was made before the check existed). Validate "
    "again to have the check."
)

FIT_NOT_MADE = "The population-fit check of this case against this validation has not been made."
NO_BASIS_FOR_FIT = (
    "No population-fit check was made: the conclusion rests on no validation recorded in this "
    "project, so there is no validation population to check the case against."
)
FIT_NOT_STORED = (
    "The validation's record carries a profile of its population, but this run holds no "
    "population-fit check (it was verified before the check existed); verify again to have it."
)


def no_fit_sentence(reason: str = NO_PROFILE) -> str:
    return reason


def fit_summary(checks: Sequence[FitCheck]) -> str:
    """One line over several checks (one per questioned document)."""
    if not checks:
        return NO_PROFILE
    flagged = sum(1 for c in checks if not c.fits)
    if not flagged:
        return "Every part of the case fits the validation's population."
    return f"{numbers.integer(flagged)} of {numbers.integer(len(checks))} checks flag the case."


PART_LABELS = {"questioned": "the questioned text", "known": "the known texts"}


def fit_check_of(fit: CaseFit, population: str) -> FitCheck:
    """The engine's ``CaseFit`` as the check these words describe: each part flagged where the
    engine says it does not fit (a part that cannot be judged is flagged, with p not measured);
    α is the stated false-flag rate for the case (each part is judged at α / parts)."""
    parts = tuple(
        FitPart(
            PART_LABELS.get(part.part, part.part),
            float("nan") if part.p_value is None else part.p_value,
            not part.fits,
        )
        for part in fit.parts
    )
    return FitCheck(population, fit.alpha, parts)
