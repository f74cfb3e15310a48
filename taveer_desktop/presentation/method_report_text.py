"""The words the PDF reports add for a LambdaG or fused model (plain text, no Qt, no HTML).

The case report states the model's method's likelihood ratio as its conclusion and shows each
method's own ratio beside it (``method_agreement``); its method section describes LambdaG's part
of the model (order, samples, seed, reference population, calibration) and the fusion; its
result section traces each method's ratio from its raw score; its interpretation shows LambdaG's
evidence in the questioned text with the tokens highlighted by their share. How LambdaG ran
in a validation is here too; what else the validation report says of a record's methods is
``method_validation_text``'s. The PDF escapes everything here (``report/escape.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.calibration import Calibration
from taveer_desktop.core.calibration.method_findings import LambdaGEvidence
from taveer_desktop.core.ground.registry import MethodId, fusion_name, method_info
from taveer_desktop.core.methods.fusion.fusion import Fusion
from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart
from taveer_desktop.core.validation.record_reader import LambdaGBlock, ValidationRecord
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import format_lr
from taveer_desktop.presentation.method_agreement import (
    method_label,
)

# --- the case report's summary -----------------------------------------------------------------

EACH_METHOD_HEAD = "Each method's likelihood ratio"


def stated_method_sentence(name: str) -> str:
    """Which method's ratio the conclusion states (``name``: its name, a fusion's by what it
    combines), and that the others stand beside it."""
    return (
        f"The conclusion above states the likelihood ratio of {name}, the method "
        "this model was validated to state. Each method's own ratio, from the same run, stands "
        "beside it:"
    )


ROLE_STATED = "stated in the conclusion"
ROLE_ALONE = "alone"
NO_RATIO = "no likelihood ratio"


# --- the case report's method section ------------------------------------------------------------

LAMBDAG_VARIANT = (
    "A variant, not the published method. The published LambdaG masks the texts with a "
    "part-of-speech tagger (POSNoise), which this program does not need: it masks them with its "
    "own lexicon instead, keeping the same words, phrases and punctuation TAVeer counts and "
    "replacing every other word by one placeholder that carries no part of speech. Figures "
    "measured with this variant, including the validation of this model, are this variant's, "
    "not the published paper's."
)


_MEASURE = {"questioned_chars": "questioned length", "known_chars": "known texts' length"}


def calibration_text(calibration: Calibration) -> str:
    """λG's calibration as a formula with its numbers and bound."""
    text = (
        f"log10 LR = (a + b · λG) / ln 10 with a = {numbers.decimal(calibration.intercept, 4)}, "
        f"b = {numbers.decimal(calibration.slope, 5)}"
    )
    if calibration.prior_log_odds:
        text += f", less the training prior log odds {numbers.decimal(calibration.prior_log_odds)}"
    quality = calibration.quality
    if quality is not None:
        for name, (lo, hi), c, d in zip(
            quality.measures, quality.ranges, quality.weights, quality.interactions, strict=True
        ):
            text += (
                f", plus c · q + d · λG · q with q the natural log of the {_MEASURE[name]} "
                f"(clamped to {numbers.integer(lo)}–{numbers.integer(hi)} characters) less that "
                f"of their geometric mean, c = {numbers.decimal(c, 4)}, d = {numbers.decimal(d, 5)}"
            )
    text += "; " + bound_text(calibration.min_log10_lr, calibration.max_log10_lr)
    for band in calibration.bands:
        lo, hi = band.questioned_chars
        text += (
            f"; questioned texts of {numbers.integer(lo)}–{numbers.integer(hi)} characters: "
            + bound_text(band.min_log10_lr, band.max_log10_lr)
        )
    if calibration.training_cllr is not None:
        text += (
            f"; Cllr on the trials it was fitted on {numbers.decimal(calibration.training_cllr)}"
        )
    return text


def bound_text(low: float | None, high: float | None) -> str:
    """A likelihood ratio's bound: "bounded between 0.0589 and 13.0 (log10 −1.230 to 1.114)"."""
    if low is None or high is None:
        return "not bounded"
    return (
        f"bounded between {format_lr(low)} and {format_lr(high)} (log10 "
        f"{numbers.decimal(low)} to {numbers.decimal(high)}, the validation's empirical lower "
        "and upper bound)"
    )


def _orders_text(order: int, lambdag_record: LambdaGBlock | None) -> str:
    text = f"{order}, chosen by validation: the order whose calibrated λG had the lowest Cllr"
    if lambdag_record is None:
        return text
    top = lambdag_record.max_order
    folds = lambdag_record.fold_orders
    if top is not None:
        text += f" among 1 to {top}"
    if folds:
        text += " (each fold's training trials chose " + ", ".join(str(f) for f in folds) + ")"
    return text


def lambdag_pairs(
    part: LambdaGPart, extra: dict[str, Any], lambdag_record: LambdaGBlock | None
) -> list[tuple[str, str]]:
    """(label, value) rows of the model's LambdaG part; ``extra`` is the part as stored
    (smoothing and masking in words), ``lambdag_record`` the validation record's ``lambdag``."""
    reference = part.reference
    tokens = reference.get("tokens")
    rows = [
        ("Masking", str(extra.get("masking", "lexicon words and punctuation kept"))),
        ("Language models", str(extra.get("smoothing", "interpolated Kneser-Ney"))),
        ("Order N", _orders_text(part.order, lambdag_record)),
        (
            "Reference samples",
            f"{numbers.integer(part.samples)} random samples of the reference population, each "
            "of as many sentences as the known texts; λG is averaged over them",
        ),
        ("Seed", f"{part.seed} ({_seed_words(part)})"),
        ("Vocabulary", numbers.count(part.vocabulary_size, "masked symbol")),
        (
            "Reference population",
            "carried in the model as masked token streams (no running text)"
            + (f": {numbers.count(tokens, 'token')}" if isinstance(tokens, int) else ""),
        ),
        ("Population SHA-256", part.population_sha256 or "not recorded"),
        ("Reference SHA-256", str(reference.get("sha256", "not recorded"))),
        ("Calibration", calibration_text(part.calibration)),
    ]
    return rows


def _seed_words(part: LambdaGPart) -> str:
    """What the stored seed draws (issue 30, item 4: a newer model seeds a case by the case)."""
    if part.seeded_by_case:
        return (
            "the validation's trials; a case's samples are seeded by the case's own texts, so "
            "the same case gives the same λG whatever the seed"
        )
    return "the same case and model always give the same λG"


def fusion_head(fusion: Fusion) -> str:
    """The fusion's heading, named by the methods it combines ("The fusion (TAVeer + COAV)")."""
    return f"The fusion ({fusion_name(fusion.methods)})"


def fusion_pairs(fusion: Fusion) -> list[tuple[str, str]]:
    """(label, value) rows of the model's fusion."""
    weights = ", ".join(
        f"{method_label(m)} {numbers.decimal(w)}"
        for m, w in zip(fusion.methods, fusion.weights, strict=True)
    )
    rows = [
        ("Intercept a", numbers.decimal(fusion.intercept, 4)),
        ("Weights", weights),
        ("Bound", bound_text(fusion.min_log10_lr, fusion.max_log10_lr)),
    ]
    if fusion.training_cllr is not None:
        rows.append(("Cllr on its trials", f"{numbers.decimal(fusion.training_cllr)} (all trials)"))
    return rows


# --- the case report's result section ----------------------------------------------------------

EACH_METHOD_RESULT_HEAD = "Each method's likelihood ratio, from its score"


def _unbounded(value: float, bounded: float) -> str:
    if math.isclose(value, bounded, abs_tol=5e-7):
        return f"log10 LR {numbers.decimal(bounded)}"
    return f"log10 LR {numbers.decimal(value)}, beyond the bound, so {numbers.decimal(bounded)}"


def _unbounded_value(
    calibration: Calibration, value: float, lengths: tuple[int, int] | None
) -> float | None:
    """The calibration's log10 LR before any bound (None: a length-aware calibration whose
    case lengths were not given)."""
    if calibration.quality is not None and lengths is None:
        return None
    return float(calibration.unbounded().log10_lr(value, *(lengths or (None, None))))


def taveer_trace(
    similarity: float,
    calibration: Calibration | None,
    log10_lr: float | None,
    lengths: tuple[int, int] | None = None,
) -> str:
    """TAVeer's score to its likelihood ratio (``lengths``: the case's questioned and known
    characters, which a length-aware calibration takes)."""
    if log10_lr is None:
        return "no likelihood ratio (every feature kind of the ensemble abstained)"
    value = None if calibration is None else _unbounded_value(calibration, similarity, lengths)
    if value is None:
        return f"score {numbers.decimal(similarity)}: LR {format_lr(log10_lr)}"
    return (
        f"score {numbers.decimal(similarity)}; its calibration gives "
        f"{_unbounded(value, log10_lr)}: LR {format_lr(log10_lr)}"
    )


def lambdag_trace(
    raw: float | None,
    order: int,
    calibration: Calibration,
    log10_lr: float | None,
    lengths: tuple[int, int] | None = None,
) -> str:
    """λG to LambdaG's likelihood ratio (``lengths`` as for ``taveer_trace``)."""
    if raw is None or log10_lr is None:
        return "no likelihood ratio"
    value = _unbounded_value(calibration, raw, lengths)
    if value is None:
        return f"λG {numbers.decimal(raw)} at order {order}: LR {format_lr(log10_lr)}"
    return (
        f"λG {numbers.decimal(raw)} at order {order}; its calibration gives "
        f"{_unbounded(value, log10_lr)}: LR {format_lr(log10_lr)}"
    )


def comparison_sentence(method: str) -> str:
    """What a comparison system is, for the report's method section."""
    info = method_info(method)
    randomness = (
        "It is deterministic."
        if info.deterministic
        else "It draws at random from a recorded seed, so the same case gives the same score."
    )
    return (
        f"{info.name}, {info.family.value}: {info.origin.value}, "  # its own paper's, no other's
        f"implemented from {info.reference}. Its raw score is calibrated to a "
        f"likelihood ratio on the validation's trials, as TAVeer's is. {randomness} "
        f"It gives no evidence in the text."
    )


def comparison_pairs(part: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) rows of a comparison system's part of the model: its parameters and
    seed, as the model records them."""
    params = part.get("params")
    rows = []
    if isinstance(params, dict) and params:
        rows.append(("Parameters", ", ".join(f"{k} = {v}" for k, v in sorted(params.items()))))
    if part.get("seed") is not None:
        rows.append(("Seed", str(part["seed"])))
    return rows


def plain_trace(log10_lr: float | None) -> str:
    """A method whose score the report does not trace (one of the comparison systems): its
    calibrated ratio, and that it gives no evidence in the text."""
    if log10_lr is None:
        return "no likelihood ratio (the method could not compare these texts)"
    return f"LR {format_lr(log10_lr)}, calibrated on its validation's trials; {NO_TEXT_EVIDENCE}"


NO_TEXT_EVIDENCE = "it gives no evidence in the text (no words or sentences are marked for it)"


def fusion_trace(fusion: Fusion, by_method: dict[str, float | None]) -> str:
    """The two calibrated ratios to the fused one."""
    fused = by_method.get(MethodId.FUSION)
    parts = [by_method.get(m) for m in fusion.methods]
    if fused is None or any(p is None for p in parts):
        return "no likelihood ratio (one of the fused methods gives none)"
    value = float(
        fusion.unbounded().log10_lr(np.array([[float(p) for p in parts if p is not None]]))[0]
    )
    return (
        f"the fusion of the log10 LRs above gives {_unbounded(value, fused)}: LR {format_lr(fused)}"
    )


# --- the case report's interpretation: LambdaG's evidence --------------------------------------

LAMBDAG_EVIDENCE_HEAD = "LambdaG's evidence in the questioned text"
TEXT_EVIDENCE_HEAD = "Evidence in the questioned text"
MARK_MIN_SHARE = 0.1  # a token is never marked below this share (either way)
MARKED_QUANTILE = 0.75  # tokens above this quantile of |share| in the questioned text are marked
STRONG_QUANTILE = 0.95  # … and set in bold above this one
SENTENCES_SHOWN = 5  # strongest sentences each way
END_MARK = "¶"
TOWARDS_HP_SIGN, TOWARDS_HD_SIGN = "▲", "▼"

LEGEND_TOWARDS_HP = (
    "green, underlined, marked {sign}: the known author's model predicted this token better "
    "than the other authors' models did, by a share of at least +{low} (bold from +{strong})"
)
LEGEND_TOWARDS_HD = (
    "orange, overlined, marked {sign}: the other authors' models predicted it better, by a "
    "share of −{low} or below (bold from −{strong})"
)
LEGEND_REST = (
    "Tokens with smaller shares are not marked: the marks are the largest quarter of the "
    "shares in the questioned text (and at least {floor}), bold the largest twentieth. Words in "
    "italics are content words (right-to-left script is not slanted): LambdaG saw only a "
    "placeholder in their place, never the word itself. {end} stands for the end of a "
    "sentence, which LambdaG predicts like a token."
)


@dataclass(frozen=True)
class MarkLevels:
    """From which size of share (either way) a token is marked, and set in bold."""

    low: float
    strong: float


def mark_levels(evidence: LambdaGEvidence) -> MarkLevels:
    """The levels of this questioned text: quantiles of its tokens' |share|, rounded to 10⁻²
    so that the legend states exactly the numbers compared."""
    sizes = sorted(abs(t.share) for s in evidence.sentences for t in s.tokens)
    if not sizes:
        return MarkLevels(MARK_MIN_SHARE, MARK_MIN_SHARE)

    def quantile(q: float) -> float:
        return sizes[min(len(sizes) - 1, int(q * len(sizes)))]

    low = max(MARK_MIN_SHARE, round(quantile(MARKED_QUANTILE), 2))
    return MarkLevels(low, max(low, round(quantile(STRONG_QUANTILE), 2)))


def legend_lines(levels: MarkLevels) -> tuple[str, str, str]:
    """The highlighting legend: towards Hp, towards Hd, the rest."""
    low, strong = numbers.decimal(levels.low, 2), numbers.decimal(levels.strong, 2)
    return (
        LEGEND_TOWARDS_HP.format(sign=TOWARDS_HP_SIGN, low=low, strong=strong),
        LEGEND_TOWARDS_HD.format(sign=TOWARDS_HD_SIGN, low=low, strong=strong),
        LEGEND_REST.format(end=END_MARK, floor=numbers.decimal(MARK_MIN_SHARE, 1)),
    )


def sentence_label(index: int) -> str:
    """A sentence's name in the report: S1 is the first sentence of the questioned text."""
    return f"S{index + 1}"


SENTENCE_NAMES = "S1 is the first sentence of the questioned text, S2 the second, and so on."
NO_EVIDENCE = (
    "This run was stored without LambdaG's evidence in the text; verify the case again (with "
    "explanation, as the program does by default) to see it."
)


# --- the validation report ---------------------------------------------------------------------


def lambdag_validation_sentences(record: ValidationRecord) -> list[str]:
    """How LambdaG was run in the validation: orders per fold, samples, reference, time."""
    data = record.lambdag
    if data is None:
        return []
    folds = data.fold_orders or ()
    fold_text = "; ".join(f"fold {i + 1}: {order}" for i, order in enumerate(folds))
    sentences = [
        f"LambdaG's order. Each fold's training trials chose the order whose calibrated λG had "
        f"the lowest Cllr, among 1 to {data.max_order or '?'} ({fold_text or 'not recorded'});"
        f" the model, fitted on all trials, uses order {data.order or '?'}.",
        f"LambdaG's reference. {numbers.count(int(data.samples or 0), 'random sample')} of "
        f"the reference population per trial, each of as many sentences as the trial's known "
        f"text; the reference is {data.reference or 'not recorded'}.",
    ]
    if data.seconds is not None:
        sentences.append(
            f"LambdaG's cost. {numbers.seconds(float(data.seconds))} for LambdaG in all "
            f"({numbers.integer(int(data.reference_models or 0))} reference models)."
        )
    return sentences
