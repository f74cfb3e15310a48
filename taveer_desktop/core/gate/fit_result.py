"""What a population-fit check found: each part's p-value, the case's, and the reasons in words.

The check (``core/gate/population_fit.py``) gives each part of a case — the questioned text, and the
known texts counted together — a conformal p-value among the population's own documents. The
case is judged as one: **Fisher's method** combines the parts' p-values into one
(``fisher_p``: ``-2 Σ ln p`` is chi-squared with ``2 k`` degrees of freedom when the parts are
independent), and the case fails at ``p <= FIT_ALPHA``. Combining lets two parts that are each
somewhat unusual — the usual picture when a whole case is of another genre — count together,
where judging each part alone at ``FIT_ALPHA / 2`` (Bonferroni, the rule before) let one part
hide the other. The parts of one case are not independent (one writer's texts, often one
topic), so the stated rate is checked by measurement, not only by the formula
(docs/validation.md, "Measured power": with a version 2 profile 3.4 % of Stack Exchange cases
and 3 % of newswire cases of new writers of the populations' own genre flagged).

A check stored before the combination existed (no ``combination`` key) is read back as
``BONFERRONI`` and judged as it was; one stored before ``profile_version`` was judged against a
version 1 profile. ``CaseFit.from_dict`` refuses anything malformed with one
``InputError`` naming the source.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from taveer_desktop.core.ground.errors import InputError

FIT_ALPHA = 0.05  # the stated false-flag rate for a case of the population
PARTS = 2  # questioned, known
PART_ALPHA = FIT_ALPHA / PARTS  # each part alone, in checks stored before Fisher's method
# the fewest population documents with which a part's p-value can reach PART_ALPHA
MIN_DOCUMENTS_TO_FLAG = math.ceil(1 / PART_ALPHA) - 1
FISHER = "fisher"
BONFERRONI = "bonferroni"


def fisher_p(p_values: Sequence[float]) -> float:
    """Fisher's combined p-value of independent p-values: with ``L = -Σ ln p`` and ``k``
    p-values, ``P(chi-squared with 2k degrees of freedom >= 2L) = e^-L Σ_{i<k} L^i / i!``."""
    if not p_values:
        raise ValueError("no p-value to combine")
    total = -sum(math.log(max(p, 1e-300)) for p in p_values)
    return min(
        1.0, math.exp(-total) * sum(total**i / math.factorial(i) for i in range(len(p_values)))
    )


SHOWN_FEATURES = 3


@dataclass(frozen=True)
class FeatureDeviation:
    """One feature of a part and how far it lies from the population (in z units)."""

    feature: str  # the id, e.g. "chars:semicolon"
    label: str  # e.g. "semicolons"
    rate: float  # in the part
    population_rate: float  # the population's mean
    z: float


@dataclass(frozen=True)
class PartFit:
    """The fit of one part of a case: the questioned text or the known texts together."""

    part: str  # "questioned" or "known"
    chars: int
    words: int
    p_value: float | None  # None: cannot be judged (see ``problem``)
    smallest_p: float  # the smallest p-value the population can give
    furthest: tuple[FeatureDeviation, ...]
    problem: str | None = None

    @property
    def judged(self) -> bool:
        return self.p_value is not None

    @property
    def fits(self) -> bool:
        return self.p_value is not None and self.p_value > PART_ALPHA


def _deviation_of(
    data: dict[str, object], number: Callable[[object, str], float]
) -> FeatureDeviation:
    """A stored feature deviation (its rates are not stored: only what is shown)."""
    return FeatureDeviation(
        str(data.get("feature", "")), str(data["label"]), math.nan, math.nan,
        number(data.get("z"), "z"),
    )  # fmt: skip


@dataclass(frozen=True)
class CaseFit:
    """The population-fit check of one case: every part must fit for the case to fit."""

    parts: tuple[PartFit, ...]
    population_documents: int
    alpha: float = FIT_ALPHA
    # how the parts are judged together: FISHER (one p-value for the case) or, in checks
    # stored before it, BONFERRONI (each part alone at alpha / parts)
    combination: str = FISHER
    # the version of the profile it was judged against (``fit_profile_data``): what the check
    # was measured to catch differs between versions; checks stored before the key: 1
    profile_version: int = 1

    @property
    def judged(self) -> bool:
        return bool(self.parts) and all(part.judged for part in self.parts)

    @property
    def p_value(self) -> float | None:
        """The case's p-value: Fisher's combination of its parts' (None: a part not judged)."""
        if not self.judged:
            return None
        return fisher_p([part.p_value for part in self.parts if part.p_value is not None])

    @property
    def fits(self) -> bool:
        if not self.judged:
            return False
        if self.combination == BONFERRONI:
            return all(part.fits for part in self.parts)
        p_value = self.p_value
        return p_value is not None and p_value > self.alpha

    @property
    def failed(self) -> tuple[PartFit, ...]:
        """The parts that cannot be judged, or (Bonferroni) that fail alone."""
        if self.combination == BONFERRONI or not self.judged:
            return tuple(part for part in self.parts if not part.fits)
        return ()

    @classmethod
    def from_dict(cls, data: object, source: str) -> CaseFit:
        """A stored check read back strictly (``InputError`` naming ``source`` otherwise)."""

        def fail(what: str) -> NoReturn:
            raise InputError(f"the stored population-fit check: {what}", source)

        def number(value: object, what: str) -> float:
            if isinstance(value, bool) or not isinstance(value, int | float):
                fail(f"{what} is not a number")
            if not math.isfinite(value):
                fail(f"{what} is not finite")
            return float(value)

        if not isinstance(data, dict) or not isinstance(data.get("parts"), list):
            fail("not an object with parts")
        parts = []
        for item in data["parts"]:
            if not isinstance(item, dict) or item.get("part") not in ("questioned", "known"):
                fail("a part is not 'questioned' or 'known'")
            p_value = item.get("p_value")
            problem = item.get("problem")
            furthest = item.get("furthest") or []
            if not isinstance(furthest, list) or not all(
                isinstance(d, dict) and isinstance(d.get("label"), str) for d in furthest
            ):
                fail("furthest is not a list of features")
            parts.append(
                PartFit(
                    item["part"],
                    int(number(item.get("chars"), "chars")),
                    int(number(item.get("words"), "words")),
                    None if p_value is None else number(p_value, "p_value"),
                    number(item.get("smallest_p"), "smallest_p"),
                    tuple(_deviation_of(d, number) for d in furthest),
                    problem if isinstance(problem, str) else None,
                )
            )
        documents = int(number(data.get("population_documents"), "population_documents"))
        combination = data.get("combination", BONFERRONI)  # checks stored before Fisher's
        if combination not in (FISHER, BONFERRONI):
            fail(f"combination is not {FISHER!r} or {BONFERRONI!r}")
        alpha = number(data.get("alpha", FIT_ALPHA), "alpha")
        version = data.get("profile_version", 1)  # checks stored before the key: version 1
        if isinstance(version, bool) or version not in (1, 2):
            fail("profile_version is not 1 or 2")
        return cls(tuple(parts), documents, alpha, str(combination), int(version))

    def to_dict(self) -> dict[str, object]:
        """What a stored verification keeps of the check (numbers and labels, no text)."""
        return {
            "fits": self.fits,
            "alpha": self.alpha,
            "combination": self.combination,
            "p_value": self.p_value,
            "part_alpha": PART_ALPHA if self.combination == BONFERRONI else None,
            "population_documents": self.population_documents,
            "profile_version": self.profile_version,
            "parts": [
                {
                    "part": part.part,
                    "chars": part.chars,
                    "words": part.words,
                    "p_value": part.p_value,
                    "smallest_p": part.smallest_p,
                    "fits": part.fits,
                    "problem": part.problem,
                    "furthest": [
                        {"feature": d.feature, "label": d.label, "z": d.z} for d in part.furthest
                    ],
                }
                for part in self.parts
            ],
        }


def _p_text(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def _percent(p: float) -> str:
    return f"{100 * p:.1f} %" if p < 0.1 else f"{100 * p:.0f} %"


def _deviation_text(deviation: FeatureDeviation) -> str:
    more = "more" if deviation.z > 0 else "fewer"
    return f"{more} {deviation.label} (z = {deviation.z:+.1f})"


def case_reason(fit: CaseFit, population_name: str) -> str | None:
    """One plain sentence on a case whose parts, judged together, are unlike the population
    (None: it fits, or a part cannot be judged — ``part_reason`` says why)."""
    p_value = fit.p_value
    if fit.combination != FISHER or p_value is None or p_value > fit.alpha:
        return None
    parts = "; ".join(
        f"{'questioned text' if part.part == 'questioned' else 'known texts'} "
        f"p = {_p_text(part.p_value)}"
        for part in fit.parts
        if part.p_value is not None
    )
    sentence = (
        f"the case's texts are unlike the texts of the population “{population_name}”: cases "
        f"made of the population's own texts look this unusual in at most "
        f"{_percent(p_value)} of cases (p = {_p_text(p_value)}, the parts combined: {parts}; "
        f"a case fails at p <= {fit.alpha:g})"
    )
    shown = [d for part in fit.parts for d in part.furthest if abs(d.z) >= 2][:SHOWN_FEATURES]
    if shown:
        sentence += "; compared with the population they have " + ", ".join(
            _deviation_text(d) for d in shown
        )
    return sentence


def part_reason(part: PartFit, population_name: str) -> str | None:
    """One plain sentence on a part that does not fit (None when it fits)."""
    if part.p_value is None:
        return part.problem
    if part.fits:
        return None
    subject = "questioned text is" if part.part == "questioned" else "known texts are"
    smallest = (
        f", the smallest p-value {part.smallest_p:.3f} this population can give"
        if part.p_value <= part.smallest_p
        else ""
    )
    sentence = (
        f"the {subject} unlike the texts of the population “{population_name}”: "
        f"p = {_p_text(part.p_value)} (a text of the population itself scores this low in "
        f"{_percent(part.p_value)} of cases{smallest}; a part fails at p <= {PART_ALPHA:g})"
    )
    shown = [d for d in part.furthest if abs(d.z) >= 2]
    if shown:
        sentence += "; compared with the population it has " + ", ".join(
            _deviation_text(d) for d in shown
        )
    return sentence


def fit_reasons(fit: CaseFit, population_name: str) -> tuple[str, ...]:
    """The sentences saying why a case does not fit the population (empty when it fits)."""
    if fit.fits:
        return ()
    whole = case_reason(fit, population_name)
    if whole is not None:
        return (whole,)
    return tuple(r for part in fit.failed if (r := part_reason(part, population_name)) is not None)
