"""Plain data behind the explanation views (no Qt): decision texts, Φ rows, CSV.

Everything shown by ``ui/explain`` is computed here from the engine's typed result and
evaluation, so the views only draw and the numbers can be tested without a window:

- the conclusion (``DecisionTexts``, its words all from ``presentation/conclusion_text``), the
  stored or computed stability in exact figures, and what the classification rests on;
- ``PhiRow``: one feature of Φ joined with its importance λ and its side (L_Y or L_N), taken
  from the engine's lists as they are, never recomputed;
- CSV and clipboard text of Φ, with spreadsheet formula injection neutralised.

The model view's ROC curve and kernel density are the engine's (``core/validation/evaluation.py``,
``core/calibration/similarity_density.py``).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from taveer_desktop.core.calibration.outcome import Classification, ConclusionKind
from taveer_desktop.core.methods.taveer.interpret import Interpretation
from taveer_desktop.core.methods.taveer.stability import RatioStability
from taveer_desktop.core.methods.taveer.verify import VerificationResult
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import (
    CLASSIFICATION_SHORT,
    KIND_EXPLANATIONS,
    KIND_LABELS,
    classification_sentence,
    format_lr,
    investigative_lr_sentence,
    lead_sentence,
    propositions,
    share_text,
)
from taveer_desktop.presentation.repeat_agreement_text import repeat_sentence
from taveer_desktop.presentation.second_view_text import SECOND_VIEW_NOTE

SIDE_Y, SIDE_N = "Y", "N"
SIDE_WORDS = {SIDE_Y: "L_Y (same author)", SIDE_N: "L_N (different authors)"}


@dataclass(frozen=True)
class DecisionTexts:
    """What the decision view says about one result, in reading order (no Qt).

    Every sentence comes from ``presentation/conclusion_text``: the kind of conclusion, the
    headline (the likelihood ratio first, or why there is none), the likelihood ratio marked
    for investigation only where it is not evaluative, the two propositions with Hd's
    population, and the method's classification as a secondary figure.
    """

    kind: ConclusionKind
    kind_label: str
    kind_explanation: str
    headline: str
    investigative: str | None
    hp: str
    hd: str
    classification: str
    lr_number: str | None  # "LR = 2.18 (log10 LR = +0.34)", None without a likelihood ratio
    repeats: str | None = None  # whether its direction depends on the validation's seed


def population_of(result: VerificationResult, model_population: str | None = None) -> str:
    """Hd's population: from the result, else from the model's conditions, else unnamed."""
    if result.conclusion.population:
        return result.conclusion.population
    if model_population:
        return model_population
    return "the population the model was calibrated on (not recorded with this result)"


def lr_number(log10_lr: float) -> str:
    return f"LR = {format_lr(log10_lr)}  (log10 LR = {log10_lr:+.2f})"


def decision_texts(
    result: VerificationResult,
    scale_id: str,
    model_population: str | None = None,
    bound: str | None = None,
) -> DecisionTexts:
    """What the desktop says of a result; ``bound`` (``conclusion_text.lr_bound``) says the
    stated ratio sits at its validation's bound."""
    conclusion = result.conclusion
    hp, hd = propositions(population_of(result, model_population))
    log10_lr = None if conclusion.kind is ConclusionKind.NONE else result.log10_lr
    return DecisionTexts(
        kind=conclusion.kind,
        kind_label=KIND_LABELS[conclusion.kind],
        kind_explanation=KIND_EXPLANATIONS[conclusion.kind],
        # plain words only: the reasons list under it gives each with its technical detail
        headline=lead_sentence(conclusion, scale_id, most=1, bound=bound, detail=False),
        investigative=investigative_lr_sentence(conclusion, bound),
        hp=hp,
        hd=hd,
        classification=classification_sentence(
            result.prediction, result.similarity, "TAVeer's" if result.methods else "The method's"
        )
        + (f" {SECOND_VIEW_NOTE}" if result.methods else ""),
        lr_number=None if log10_lr is None or not math.isfinite(log10_lr) else lr_number(log10_lr),
        repeats=repeat_sentence(result.repeats),
    )


class StoredStability(Protocol):
    """What a stored stability assessment (the store's ``StabilityCheck``) offers."""

    @property
    def agreeing(self) -> int: ...
    @property
    def resamples(self) -> int: ...
    @property
    def keep_fraction(self) -> float: ...
    @property
    def seed(self) -> int: ...
    @property
    def interval_low(self) -> float: ...
    @property
    def interval_high(self) -> float: ...
    @property
    def answers(self) -> Mapping[str, int]: ...
    @property
    def computed_utc(self) -> str: ...


@dataclass(frozen=True)
class StabilityFigures:
    """A stability assessment as shown: stored (``StabilityCheck``) or just computed (dict)."""

    agreeing: int
    resamples: int
    keep_fraction: float
    seed: int
    interval: tuple[float, float]
    answers: dict[str, int]
    stored_utc: str | None = None
    ratio: RatioStability | None = None  # a LambdaG or fused model's stated ratio

    @classmethod
    def from_check(cls, check: StoredStability) -> StabilityFigures:
        return cls(
            check.agreeing,
            check.resamples,
            check.keep_fraction,
            check.seed,
            (check.interval_low, check.interval_high),
            dict(check.answers),
            check.computed_utc,
            getattr(check, "ratio", None),
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StabilityFigures:
        low, high = data["similarity_interval"]
        return cls(
            round(data["agreement"] * data["resamples"]),
            int(data["resamples"]),
            float(data["keep_fraction"]),
            int(data["seed"]),
            (float(low), float(high)),
            dict(data["answers"]),
            ratio=RatioStability.from_dict(data.get("ratio")) if data.get("ratio") else None,
        )


def _answer_word(code: str) -> str:
    try:
        return CLASSIFICATION_SHORT[Classification(code)]
    except ValueError:
        return code


def stability_sentence(figures: StabilityFigures, prediction: Classification) -> str:
    """'199 of 200 (99.5 %) resamples give the same classification (…)': exact, never rounded
    up to 100 %; the other answers are named when there are any."""
    low, high = figures.interval
    sentence = (
        f"{share_text(figures.agreeing, figures.resamples)} resamples give the same "
        f"classification ({CLASSIFICATION_SHORT[prediction]}); 95 % of the resampled scores lie "
        f"between {numbers.decimal(low)} and {numbers.decimal(high)}."
    )
    others = {c: n for c, n in figures.answers.items() if c != prediction.value and n}
    if others:
        tally = ", ".join(f"{_answer_word(c)} {n}" for c, n in sorted(others.items()))
        sentence += f" Other answers: {tally}."
    return sentence


def stability_method(figures: StabilityFigures) -> str:
    """How a stability figure was computed (so that it can be repeated)."""
    left_out = round(100.0 * (1.0 - figures.keep_fraction))
    text = (
        f"{numbers.count(figures.resamples, 'resample')}, each leaving out {left_out} % of the "
        "sentences of "
        f"either side; seed {figures.seed}"
    )
    if figures.stored_utc:
        text += f"; stored with the run {figures.stored_utc[:19].replace('T', ' ')} UTC"
    return text + "."


NO_CLASSIFICATION = (
    "The method's classification is not reported: where no conclusion can be drawn from the "
    "texts, a similarity score measured on them means nothing."
)


def decision_basis(result: VerificationResult) -> str:
    """One sentence on what the decision rests on (the ensemble median and the 0.5 rule)."""
    members = list(result.ensemble)
    used = [c for c in members if not result.categories[c].abstained]
    if result.prediction is Classification.INSUFFICIENT:
        return f"No ensemble category could be measured ({', '.join(members)} all abstain)."
    score = result.similarity
    relation = "above" if score > 0.5 else "not above"
    text = (
        f"Score {numbers.decimal(score)} = median similarity of {numbers.integer(len(used))} of "
        f"{numbers.count(len(members), 'ensemble category')} ({', '.join(used)}); {relation} "
        "the 0.5 decision boundary."
    )
    band = result.inconclusive_band
    if band:
        text += f" Inconclusive band: {numbers.decimal(band[0])}–{numbers.decimal(band[1])}."
    return text


@dataclass(frozen=True)
class PhiRow:
    """One feature of a category: Φ entry plus the engine's importance λ and side."""

    feature: str
    x: float
    y: float
    distance: float
    importance: float
    side: str
    count_unknown: int
    count_known: int


def phi_rows(interpretation: Interpretation) -> list[PhiRow]:
    """Rows of Φ in the engine's order (distance descending), λ and side from L_Y/L_N."""
    lam: dict[str, tuple[float, str]] = {}
    for side, pairs in ((SIDE_Y, interpretation.l_y), (SIDE_N, interpretation.l_n)):
        for feature, importance in pairs:
            lam[feature] = (importance, side)
    rows = []
    for entry in interpretation.phi:
        importance, side = lam[entry.feature]
        rows.append(
            PhiRow(
                entry.feature,
                entry.x,
                entry.y,
                entry.distance,
                importance,
                side,
                entry.count_unknown,
                entry.count_known,
            )
        )
    return rows


def feature_tooltip(row: PhiRow, category: str = "") -> str:
    """Hover text of one feature: λ, side, relative frequency and count in each document."""
    head = f"{category} feature “{row.feature}”" if category else f"“{row.feature}”"
    return (
        f"{head}\n"
        f"λ = {numbers.decimal(row.importance, 5)} → {SIDE_WORDS[row.side]}\n"
        f"questioned text: {numbers.percent(row.x, 4)} "
        f"({numbers.count(row.count_unknown, 'occurrence')})\n"
        f"known texts: {numbers.percent(row.y, 4)} "
        f"({numbers.count(row.count_known, 'occurrence')})\n"
        f"|x − y| = {numbers.decimal(row.distance, 5)}"
    )


CSV_HEADER = ("feature", "x", "y", "|x-y|", "lambda", "side", "count_unknown", "count_known")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula (prefixed with ')."""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def row_cells(row: PhiRow) -> list[str]:
    return [
        safe_cell(row.feature),
        repr(row.x),
        repr(row.y),
        repr(row.distance),
        repr(row.importance),
        row.side,
        str(row.count_unknown),
        str(row.count_known),
    ]


def rows_to_csv(rows: Iterable[PhiRow]) -> str:
    """CSV (RFC 4180, CRLF line ends) of Φ rows with a header; full float precision."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for row in rows:
        writer.writerow(row_cells(row))
    return out.getvalue()


def rows_to_tsv(rows: Iterable[PhiRow]) -> str:
    """Tab-separated text of Φ rows for the clipboard (tabs and line breaks in cells escaped)."""
    lines = ["\t".join(CSV_HEADER)]
    for row in rows:
        cells = [c.replace("\t", "\\t").replace("\n", "\\n") for c in row_cells(row)]
        lines.append("\t".join(cells))
    return "\n".join(lines) + "\n"
