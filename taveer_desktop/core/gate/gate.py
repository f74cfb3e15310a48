"""The fitness-for-purpose gate: may this verification be stated as an evaluative conclusion?

Each rule compares a measured value with a limit and, when broken, yields a ``GateFinding``
naming both (the rules, their limits and why: docs/method.md, "The fitness-for-purpose gate"):

- usable text (→ no conclusion): too few of a document's words are in the topic-agnostic
  lexicon (real English prose: never below 0.28 in the documents of three genres measured in
  docs/method.md; random bytes, other languages, number lists: below 0.05; source code about
  0.20), or few such words together with many program or markup symbols (code, not prose);
- enough text (→ no conclusion): fewer than ``MIN_WORDS`` words, shorter than the shortest text
  of the model's training cases, or half or more of the ensemble's categories abstaining;
- the same text (→ no conclusion): the questioned document and a known document share most of
  their word 5-grams (identical, nearly identical, or one contained in the other);
- validated conditions (→ investigative only): lengths outside the central range of the model's
  training cases, or a distance outside the range the model saw — or, for a model of another
  method, any of its methods' raw scores (λG, a comparison system's score) outside the range
  its validation trials gave (``raw_range_finding``); a model
  without a conditions record, an uncalibrated model, or a model made with another lexicon are
  investigative too;
- the validation the conclusion rests on (→ investigative only; ``validation_findings``): a
  ``ValidationBasis`` (``core/gate/validation_basis.py``) — a validation record stored in the
  project and linked to the case, or a record file given with ``--record`` — of this very model (its
  SHA-256) and method. None, or one of another model or method: ``no_validation`` (the model
  file's own ``validation`` block is never read as one). Fewer than 20 authors or 100 trials of a
  class: ``validation_too_small``. No acceptance criteria set before it, or criteria not met:
  ``validation_not_met`` (FSR-G-201). ``population_fit`` (the case unlike the population's
  documents) is named here and judged by the population-fit check.

Measuring reads each text once more with one compiled regular expression; it does not touch the
feature extraction.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from taveer_desktop.core.calibration.outcome import (
    Conclusion,
    ConclusionKind,
    GateFinding,
    GateRule,
    conclusion_kind,
)
from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.gate.conditions import ValidatedConditions, describe_population
from taveer_desktop.core.gate.gate_validation import validation_findings
from taveer_desktop.core.gate.population_fit import CaseCounts, case_counts
from taveer_desktop.core.gate.validation_basis import ValidationBasis
from taveer_desktop.core.ground.registry import method_info

if TYPE_CHECKING:  # annotations only: the gate stands below the methods' room
    from taveer_desktop.core.methods.taveer.model_fields import Model

MIN_WORDS = 50
MIN_LEXICON_SHARE = 0.20
# Text poor in function words AND rich in program/markup symbols reads as code, not prose.
CODE_LEXICON_SHARE = 0.30
CODE_MARKUP_SHARE = 0.03
SAME_TEXT_OVERLAP = 0.8
SHINGLE = 5
_FULL_SHINGLES_UP_TO = 50_000  # words; longer texts keep a consistent 1/16 sample of shingles
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_MARKUP = "{}[]<>=_|\\^~*#@$%`/"


def _percent(share: float, places: int) -> str:
    """A share as the house writes percentages (``presentation/numbers.percent``): ``55 %``."""
    return f"{100.0 * share:.{places}f} %"


@dataclass(frozen=True)
class TextMeasures:
    """What the gate needs to know of one document."""

    chars: int
    words: int
    lexicon_words: int
    markup_chars: int
    visible_chars: int

    @property
    def lexicon_share(self) -> float:
        return self.lexicon_words / self.words if self.words else 0.0

    @property
    def markup_share(self) -> float:
        return self.markup_chars / self.visible_chars if self.visible_chars else 0.0


@dataclass(frozen=True)
class CaseMeasures:
    """Measures of a questioned document and the known documents of one case."""

    questioned: TextMeasures
    known: tuple[TextMeasures, ...]
    overlap: float  # the largest share of word 5-grams one document has in the other
    overlap_known_index: int | None  # which known document (0-based) that was
    # the genre features of both parts, for the population-fit check (``core/population_fit``)
    fit_counts: CaseCounts | None = None

    @property
    def known_chars(self) -> int:
        return sum(k.chars for k in self.known)

    @property
    def known_words(self) -> int:
        return sum(k.words for k in self.known)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def measure_text(text: str, lexicon: Lexicon, words: list[str] | None = None) -> TextMeasures:
    words = _words(text) if words is None else words
    entries = lexicon.categories_of
    visible = len(text) - sum(text.count(c) for c in " \t\r\n\f\v")
    return TextMeasures(
        chars=len(text),
        words=len(words),
        lexicon_words=sum(1 for w in words if w in entries),
        markup_chars=sum(text.count(c) for c in _MARKUP),
        visible_chars=visible,
    )


def _shingles(words: list[str]) -> set[int]:
    grams = (hash(tuple(words[i : i + SHINGLE])) for i in range(len(words) - SHINGLE + 1))
    if len(words) <= _FULL_SHINGLES_UP_TO:
        return set(grams)
    return {g for g in grams if g % 16 == 0}


def _containment(a: set[int], b: set[int]) -> float:
    """The larger of: the share of a's shingles found in b, and of b's found in a."""
    if not a or not b:
        return 0.0
    common = len(a & b)
    return max(common / len(a), common / len(b))


def measure_case(known_texts: Sequence[str], unknown_text: str, lexicon: Lexicon) -> CaseMeasures:
    """Measure the documents of one case (each text read once more)."""
    q_words = _words(unknown_text)
    q_shingles = _shingles(q_words)
    known, overlap, overlap_index = [], 0.0, None
    for index, text in enumerate(known_texts):
        words = _words(text)
        known.append(measure_text(text, lexicon, words))
        share = 1.0 if text.strip() == unknown_text.strip() else 0.0
        share = max(share, _containment(q_shingles, _shingles(words)))
        if share > overlap:
            overlap, overlap_index = share, index
    return CaseMeasures(
        measure_text(unknown_text, lexicon, q_words),
        tuple(known),
        overlap,
        overlap_index,
        case_counts(unknown_text, known_texts, lexicon),
    )


def _usable(label: str, m: TextMeasures, document: str) -> list[GateFinding]:
    if m.words < MIN_WORDS:
        return [
            GateFinding(
                GateRule.ENOUGH_TEXT,
                f"the {label} has {m.words} words; at least {MIN_WORDS} are needed",
                m.words,
                MIN_WORDS,
                document,
            )
        ]
    findings = []
    if m.lexicon_share < MIN_LEXICON_SHARE:
        findings.append(
            GateFinding(
                GateRule.USABLE_TEXT,
                f"the {label} does not read as English prose: "
                f"{_percent(m.lexicon_share, 0)} of its "
                f"words are in the method's word list, real prose has at least "
                f"{_percent(MIN_LEXICON_SHARE, 0)}",
                round(m.lexicon_share, 4),
                MIN_LEXICON_SHARE,
                document,
            )
        )
    elif m.lexicon_share < CODE_LEXICON_SHARE and m.markup_share > CODE_MARKUP_SHARE:
        findings.append(
            GateFinding(
                GateRule.USABLE_TEXT,
                f"the {label} reads as code or markup, not prose: only "
                f"{_percent(m.lexicon_share, 0)} of its words are in the method's word list and "
                f"{_percent(m.markup_share, 1)} of its characters are program or markup symbols "
                f"(prose with fewer than {_percent(CODE_LEXICON_SHARE, 0)} such words has at most "
                f"{_percent(CODE_MARKUP_SHARE, 0)})",
                round(m.markup_share, 4),
                CODE_MARKUP_SHARE,
                document,
            )
        )
    return findings


def _text_findings(measures: CaseMeasures) -> list[GateFinding]:
    findings = _usable("questioned document", measures.questioned, "questioned")
    several = len(measures.known) > 1
    for index, m in enumerate(measures.known):
        label = f"known document {index + 1}" if several else "known document"
        findings += _usable(label, m, "known")
    if measures.overlap >= SAME_TEXT_OVERLAP:
        same = measures.overlap_known_index  # set wherever the overlap is above 0
        which = f"known document {same + 1}" if several and same is not None else "known document"
        findings.append(
            GateFinding(
                GateRule.SAME_TEXT,
                f"the questioned document and the {which} are the same text: they share "
                f"{_percent(measures.overlap, 0)} of their word sequences (limit "
                f"{_percent(SAME_TEXT_OVERLAP, 0)}); remove the copy or the quoted part",
                round(measures.overlap, 4),
                SAME_TEXT_OVERLAP,
                None,
            )
        )
    return findings


def _declared_range(conditions: ValidatedConditions) -> bool:
    """Whether the model's length ranges are the range its validation declared (a model made
    by a validation over a declared range) rather than what its training texts happened to be."""
    return getattr(conditions, "lengths_basis", None) == "declared_range"


def _length_findings(model: Model, measures: CaseMeasures) -> list[GateFinding]:
    conditions = model.conditions
    assert conditions is not None
    findings = []
    for subject, document, chars, lengths in (
        (
            "the questioned document has",
            "questioned",
            measures.questioned.chars,
            conditions.questioned_chars,
        ),
        ("the known documents have", "known", measures.known_chars, conditions.known_chars),
    ):
        if chars < lengths.shortest:
            findings.append(
                GateFinding(
                    GateRule.ENOUGH_TEXT,
                    f"{subject} {chars:,} characters, fewer than the shortest the model was "
                    f"trained on ({lengths.shortest:,})",
                    chars,
                    lengths.shortest,
                    document,
                )
            )
        elif not lengths.low <= chars <= lengths.high:
            where = (
                "the validated range"
                if _declared_range(conditions)
                else f"the central {_percent(conditions.coverage, 0)} of the model's training texts"
            )
            findings.append(
                GateFinding(
                    GateRule.VALIDATED_CONDITIONS,
                    f"{subject} {chars:,} characters, outside {where} "
                    f"({lengths.low:,}–{lengths.high:,})",
                    chars,
                    lengths.high if chars > lengths.high else lengths.low,
                    document,
                )
            )
    return findings


def _distance_findings(model: Model, distances: Mapping[str, float | None]) -> list[GateFinding]:
    conditions = model.conditions
    assert conditions is not None
    findings = []
    for category in model.ensemble:
        value = distances.get(category)
        seen = conditions.distances.get(category)
        if value is None or seen is None:
            continue
        low, high = seen
        if not low <= value <= high:
            findings.append(
                GateFinding(
                    GateRule.VALIDATED_CONDITIONS,
                    f"{category}: distance {value:.4f} lies outside the range the model saw in "
                    f"training ({low:.4f}–{high:.4f})",
                    value,
                    high if value > high else low,
                    None,
                )
            )
    return findings


def raw_range_finding(
    method: str, raw: float, raw_range: tuple[float, float] | None
) -> GateFinding | None:
    """A method's raw score (LambdaG's λG, a comparison system's score) outside the range its
    validation trials gave: its calibration is extrapolated there. One rule for every method,
    applied by ``verify`` and by ``evaluate`` (``core/validation/corpus_gate.py``); a score that is
    not a number (the method could not compare the case) is not this rule's finding. (For LambdaG it
    does not detect a questioned text of another genre than the population's: measured, such
    scores stayed inside the range — docs/lambdag.md.)"""
    if raw_range is None or not math.isfinite(raw):
        return None
    low, high = raw_range
    if low <= raw <= high:
        return None
    info = method_info(method)
    symbol, form = info.raw_score  # as the registry says a finding writes it
    return GateFinding(
        GateRule.VALIDATED_CONDITIONS,
        f"{info.name}: its score {symbol}{raw:{form}} lies outside the range "
        f"its validation trials gave ({low:{form}} to {high:{form}}); its likelihood ratio is "
        "extrapolated",
        raw,
        high if raw > high else low,
        None,
    )


def assess(
    model: Model,
    measures: CaseMeasures,
    distances: Mapping[str, float | None],
    lexicon_sha256: str,
    *,
    basis: ValidationBasis | None,
) -> tuple[GateFinding, ...]:
    """Every rule the case breaks, in the order: text, amount, conditions, model, validation.
    ``basis``: the validation record the conclusion rests on (None: none, investigative)."""
    findings = _text_findings(measures)
    abstaining = sum(1 for c in model.ensemble if distances.get(c) is None)
    if 2 * abstaining >= len(model.ensemble):
        findings.append(
            GateFinding(
                GateRule.ENOUGH_TEXT,
                f"{abstaining} of the ensemble's {len(model.ensemble)} categories abstain (no "
                f"feature on one side); half or more abstaining leaves too little to compare",
                abstaining,
                len(model.ensemble) / 2,
                None,
            )
        )
    if model.conditions is None:
        findings.append(
            GateFinding(
                GateRule.CONDITIONS_UNKNOWN,
                "the model does not record the conditions it was validated under (a model file "
                "from before format 3): whether this case is like its training cases is unknown",
            )
        )
    else:
        findings += _length_findings(model, measures)
        findings += _distance_findings(model, distances)
    if model.calibration is None:
        findings.append(
            GateFinding(
                GateRule.NOT_CALIBRATED,
                "the model is not calibrated: it gives no likelihood ratio",
            )
        )
    if model.lexicon_sha256 != lexicon_sha256:
        findings.append(
            GateFinding(
                GateRule.LEXICON,
                "the model was trained with a different word list than the one in use",
            )
        )
    findings += validation_findings(model, basis, measures.fit_counts)
    return tuple(findings)


def population_of(model: Model) -> str:
    """Hd's relevant population: the model's calibration population."""
    if model.conditions is not None:
        return model.conditions.population
    return describe_population(model.training.corpus_name, "genre and text lengths not recorded")


def conclude(model: Model, findings: tuple[GateFinding, ...], log10_lr: float | None) -> Conclusion:
    """The conclusion the findings leave; no likelihood ratio is kept when there is none."""
    kind = conclusion_kind(findings)
    return Conclusion(
        kind=kind,
        findings=findings,
        log10_lr=None if kind is ConclusionKind.NONE else log10_lr,
        population=population_of(model),
    )
