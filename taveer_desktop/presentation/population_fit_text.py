"""The words for the population-fit check: whether a case's questioned and known documents look
like documents of the validation's population (plain text, no Qt, no HTML).

The check itself is the engine's (``core/population_fit.case_fit``): a conformal p-value of each
part of the case among the population's own documents, combined into one for the case
(Fisher's method), with a stated false-flag rate α — the share of cases made of the
population's own documents the check flags. A case that passes is never said to be of the
population's kind: the words say the check found no sign of a difference, and state what the
check was measured to catch (``FIT_POWER``). Here a finished check is a
``FitCheck`` (the population's name, α and one ``FitPart`` per part), worded the same way for
the wizard's record page, the decision view and the case report.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from taveer_desktop.core.gate.population_fit import FISHER, PART_ALPHA, PARTS, CaseFit
from taveer_desktop.presentation import numbers


@dataclass(frozen=True)
class FitPart:
    """One part of the case (the questioned text, the known texts) and its p-value."""

    label: str  # "the questioned text Q", "the known texts"
    p_value: float
    flagged: bool  # unlike the population on its own (p at or below α), or not judged


@dataclass(frozen=True)
class FitCheck:
    """A case's population-fit check against one validation's population."""

    population: str
    alpha: float  # the stated false-flag rate
    parts: tuple[FitPart, ...]
    # the case's p-value (Fisher's combination of its parts), one per questioned document;
    # None: a check stored before the combination, whose parts were judged alone
    combined: tuple[float, ...] | None = None
    profile_version: int = (
        1  # the population profile's version: what the check was measured to catch
    )

    @property
    def fits(self) -> bool:
        if any(not math.isfinite(part.p_value) for part in self.parts):
            return False
        if self.combined is None:
            return not any(part.flagged for part in self.parts)
        return all(p > self.alpha for p in self.combined)


FIT_MEANING = (
    "p is the share of the population's own documents that look at least as unusual, by "
    "features that mark a genre, register or era rather than a writer or a topic (rates of "
    "function words, punctuation, word lengths, capitals, digits); the parts' p-values are "
    "combined into one for the case, and a case at or below the stated false-flag rate is "
    "unlike the population."
)
FIT_COLUMNS = ("Part of the case", "p-value", "Against the population")
# what the check was measured to catch (docs/validation.md, "Measured power";
# benchmarks/fit_power.py): said wherever a case passes, so a pass is not read as proof
FIT_POWER = (
    "The check is a screen, not proof. Measured on texts kept out of its design, it flagged "
    "{power} In the population's own genre it flagged {own}. Text of a genre close to the "
    "population's (another web forum, another news desk) can pass it."
)
# per profile version (``core/gate/fit_profile_data.py``): each version's own measurement
FIT_POWER_FIGURES = {
    1: {
        "power": (
            "89 of 100 newswire cases cut to the lengths of a Stack Exchange population's "
            "cases, and all 38 cases of 18th-century essays and 19th-century novels under a "
            "newswire population."
        ),
        "own": (
            "2 of 60 newswire cases and 10 of 204 Stack Exchange cases (about 1 in 20 or fewer)"
        ),
    },
    2: {
        "power": (
            "every case of software changelogs and of copyright notices cut to the lengths of a "
            "Stack Exchange population's cases, but only 19 of 23 cases of software package "
            "descriptions and 44 of 50 of software manuals, writing close to that population's "
            "technical posts; under a newswire population it flagged every case of all four."
        ),
        "own": "2 of 60 newswire cases and 7 of 204 Stack Exchange cases (about 1 in 30)",
    },
}


def p_text(p: float) -> str:
    """A p-value as shown: "p = 0.42", "p = 0.003", "p < 0.001"."""
    if not math.isfinite(p):
        return "p not measured"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {numbers.significant(p, 2) if p < 0.1 else numbers.decimal(p, 2)}"


def _percent(share: float, places: int) -> str:
    return numbers.percent(share, places).replace(" ", chr(0xA0))


def alpha_text(alpha: float, combined: bool = True) -> str:
    """The stated rate for a case (and, for a check judged part by part, each part's share)."""
    if combined:
        return (
            f"the stated false-flag rate is {_percent(alpha, 0)}: the parts' p-values are "
            "combined (Fisher's method) into one for the case, and a case made of the "
            f"population's own documents falls at or below {_percent(alpha, 0)} in about that "
            "share of cases"
        )
    return (
        f"the stated false-flag rate is {_percent(alpha, 0)}: at most that share of "
        "cases made of the population's own documents is flagged by this check; each part (the "
        f"questioned text, the known texts) is judged at {_percent(alpha / PARTS, 1)}"
    )


def _parts(parts: Sequence[FitPart]) -> str:
    return "; ".join(f"{part.label}: {p_text(part.p_value)}" for part in parts)


def _together(check: FitCheck) -> str:
    if not check.combined:
        return ""
    return "; together " + ", ".join(p_text(p) for p in check.combined)


def fit_headline(check: FitCheck) -> str:
    """One sentence: what the check found, then its figures."""
    name = f"“{check.population}”"
    if check.fits:
        return (
            f"The check found no sign that the case's texts differ from those of the "
            f"population {name} ({_parts(check.parts)}{_together(check)})."
        )
    unjudged = [part for part in check.parts if not math.isfinite(part.p_value)]
    flagged = unjudged or [part for part in check.parts if part.flagged]
    if check.combined is not None and not unjudged:
        return (
            f"The case's texts are unlike those of the population {name}: "
            f"{_together(check)[2:]} ({_parts(check.parts)})."
        )
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
            FIT_POWER.format(**FIT_POWER_FIGURES[check.profile_version])
            + " Whether the population is relevant to the case remains the examiner's statement."
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
        f"{FIT_MEANING} Here {alpha_text(check.alpha, check.combined is not None)}.",
    ]


def fit_cells(part: FitPart) -> tuple[str, str, str]:
    return (
        part.label,
        p_text(part.p_value),
        "unlike it on its own" if part.flagged else "no sign of a difference on its own",
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
    """The engine's ``CaseFit`` as the check these words describe: the case's combined p-value
    (Fisher's method), each part flagged where it is unlike the population on its own (a part
    that cannot be judged is flagged, with p not measured); a check stored before the
    combination keeps its part-by-part judgement (each part at α / parts)."""
    combined = fit.combination == FISHER
    limit = fit.alpha if combined else PART_ALPHA
    parts = tuple(
        FitPart(
            PART_LABELS.get(part.part, part.part),
            float("nan") if part.p_value is None else part.p_value,
            part.p_value is None or part.p_value <= limit,
        )
        for part in fit.parts
    )
    p_value = fit.p_value
    together = (p_value,) if combined and p_value is not None else (() if combined else None)
    return FitCheck(population, fit.alpha, parts, together, fit.profile_version)
