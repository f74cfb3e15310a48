"""LambdaG's evidence in the questioned text as the desktop shows it: shades, sentences, tips.

``core/method_findings.LambdaGEvidence`` gives each token of the questioned text its share of
λG and ``core/sentence_agreement.sentence_leanings`` each sentence its TAVeer lean beside its
LambdaG share. Here that becomes what a reader sees, without Qt:

- a **shade** per token: a signed level from −4 to +4, its sign the direction of the share
  (+ the known author's model predicted the token better, − worse) and its size the share's
  magnitude against the document's own scale, ``shade_unit`` (the 95th percentile of the
  tokens' absolute shares, so one extreme token does not wash out the rest). Level ±4, the
  strongest twentieth of the tokens, is also underlined, so the strongest tokens do not rest on
  colour alone; every token's exact share is in its tooltip (``token_tip``);
- a **row** per sentence: its number, an excerpt, LambdaG's share, TAVeer's lean and whether
  both methods point the same way (``sentence_rows``; the words of
  ``presentation/lambdag_evidence_text.leaning_text``, which the command line uses too);
- the share range of each level for the legend (``level_range``), and what the sentences' ends
  carry (``ends_sentence``), beside the summary all three interfaces share
  (``lambdag_evidence_text.evidence_summary``).

The sentences explaining LambdaG, shares and agreement are those of
``presentation/method_agreement.py``, and shares and leanings are written as
``presentation/lambdag_evidence_text.py`` writes them for ``taveer explain`` (one wording for
the desktop, the command line and the report).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from taveer_desktop.core.calibration.method_findings import (
    LambdaGEvidence,
    TokenEvidence,
    TokenKind,
)
from taveer_desktop.core.methods.taveer.sentence_agreement import SentenceLeaning
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.lambdag_evidence_text import leaning_text, share_text

LEVELS = 4  # shade levels on each side of zero
STRONGEST = LEVELS  # the level that is underlined as well as shaded
UNIT_PERCENTILE = 95  # |share| at this percentile of the tokens is where the strongest starts
EXCERPT_CHARS = 70
LEAN_PLACES = 4  # a TAVeer lean is smaller than a share: one more decimal
LEAN_MEANING = (
    "How much farther the questioned text would lie from the known texts in TAVeer's ensemble "
    "categories if the sentence were left out (each category's change of distance divided by "
    "its threshold θ, added up): positive where the sentence brings the questioned text closer "
    "to the known author's style (towards Hp), negative where it takes it away (towards Hd)."
)

# the legend's words (the desktop adds a swatch of each level after the first two)
POSITIVE_LEGEND = ("Green", "the known author's model predicted the token better (towards Hp)")
NEGATIVE_LEGEND = ("Vermillion", "worse (towards Hd)")
MARKS_LEGEND = (
    f"Underlined (straight on green, wavy on vermillion): the strongest {100 - UNIT_PERCENTILE} % "
    "of the tokens. Overlined: a sentence where both methods point the same way. Hover a token "
    "for its share; choose a sentence in the list to find it in the text."
)

TOKEN_KIND_WORDS = {
    TokenKind.KEPT: "kept as it is (a function word, phrase or punctuation of the lexicon)",
    TokenKind.MASKED: "a content word, masked to a placeholder before LambdaG read it",
    TokenKind.END: "the sentence's end",
}


def shaded_tokens(evidence: LambdaGEvidence) -> list[TokenEvidence]:
    """The tokens that have characters to shade (every token but the sentences' ends)."""
    return [t for s in evidence.sentences for t in s.tokens if t.end > t.start]


def shade_unit(evidence: LambdaGEvidence) -> float:
    """The magnitude of share where the strongest level begins (see the module); 0 if none."""
    magnitudes = sorted(abs(t.share) for t in shaded_tokens(evidence))
    if not magnitudes:
        return 0.0
    rank = (len(magnitudes) - 1) * UNIT_PERCENTILE / 100
    low = math.floor(rank)
    high = min(low + 1, len(magnitudes) - 1)
    return magnitudes[low] + (magnitudes[high] - magnitudes[low]) * (rank - low)


def shade_level(share: float, unit: float) -> int:
    """−4 … +4: the share's direction and its size: ±4 from ``unit`` on, below it ±1 to ±3
    by thirds of ``unit`` (0: a share of exactly zero)."""
    if share == 0 or unit <= 0:
        return 0
    below = LEVELS - 1
    size = LEVELS if abs(share) >= unit else min(below, 1 + int(abs(share) / unit * below))
    return size if share > 0 else -size


def level_range(level: int, unit: float) -> str:
    """The shares a level stands for, in words (``+0.371 to +0.742``, ``-1.113 or less``)."""
    size, below = abs(level), LEVELS - 1
    sign = 1 if level > 0 else -1
    if size == LEVELS:
        return f"{share_text(sign * unit)} or {'more' if level > 0 else 'less'}"
    low, high = unit * (size - 1) / below, unit * size / below
    return f"{share_text(sign * low) if size > 1 else '0'} to {share_text(sign * high)}"


def excerpt(text: str, start: int, end: int, limit: int = EXCERPT_CHARS) -> str:
    """The sentence's text on one line, cut to ``limit`` characters with an ellipsis."""
    flat = re.sub(r"\s+", " ", text[start:end]).strip()
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def agreement_cell(row: SentenceRow) -> str:
    """``row.agreement`` shortened for a table cell under the heading "Both methods"."""
    if row.direction:
        return "both → Hp" if row.direction > 0 else "both → Hd"
    return "no TAVeer effect" if row.taveer == 0 else "other ways"


def agreement_tip(row: SentenceRow) -> str:
    """Whether both methods point the same way in a sentence, in a sentence."""
    if row.direction:
        towards = "Hp (the same author)" if row.direction > 0 else "Hd (another author)"
        return f"{row.agreement}: both point towards {towards} in this sentence"
    if row.taveer == 0:
        return f"{row.agreement}: leaving this sentence out does not move TAVeer's distances"
    return f"{row.agreement}: the two methods point different ways in this sentence"


@dataclass(frozen=True)
class SentenceRow:
    """One sentence of the questioned text as the sentence list shows it."""

    number: int  # 1-based, in the order of the text
    start: int
    end: int
    excerpt: str
    lambdag: float
    taveer: float
    direction: int  # +1 both towards Hp, −1 both towards Hd, 0 otherwise
    agreement: str  # ``lambdag_evidence_text.leaning_text``

    @property
    def both_point_same_way(self) -> bool:
        return self.direction != 0


def sentence_rows(prepared: str, leanings: Sequence[SentenceLeaning]) -> list[SentenceRow]:
    """One row per sentence of ``leanings`` (spans into ``prepared``), in the text's order."""
    return [
        SentenceRow(
            i,
            leaning.start,
            leaning.end,
            excerpt(prepared, leaning.start, leaning.end),
            leaning.lambdag,
            leaning.taveer,
            leaning.direction,
            leaning_text(leaning),
        )
        for i, leaning in enumerate(leanings, start=1)
    ]


def sentence_tip(row: SentenceRow) -> str:
    """The tooltip of a sentence (in the list and over its tokens)."""
    return (
        f"Sentence {numbers.integer(row.number)}: LambdaG share {share_text(row.lambdag)}, "
        f"TAVeer lean {share_text(row.taveer, LEAN_PLACES)} — {row.agreement}."
    )


def token_tip(prepared: str, token: TokenEvidence, row: SentenceRow | None) -> str:
    """The tooltip of one token: its text, its share, what it is, and its sentence."""
    shown = re.sub(r"\s+", " ", prepared[token.start : token.end])
    lines = [
        f"“{shown}”: LambdaG share {share_text(token.share)}",
        TOKEN_KIND_WORDS[token.kind][0].upper() + TOKEN_KIND_WORDS[token.kind][1:] + ".",
    ]
    if row is not None:
        lines.append(sentence_tip(row))
    return "\n".join(lines)


def evidence_pending(evidence: LambdaGEvidence) -> str:
    """The summary while TAVeer's features are being placed in the sentences."""
    return (
        f"λG = {share_text(evidence.total)} (order {numbers.integer(evidence.order)}) over "
        f"{numbers.count(len(evidence.sentences), 'sentence')}; placing TAVeer's features in "
        "each sentence…"
    )


def ends_sentence(evidence: LambdaGEvidence) -> str:
    """What the sentences' ends carry: shares with no characters to shade."""
    ends = math.fsum(t.share for s in evidence.sentences for t in s.tokens if t.end == t.start)
    return f"The sentences' ends, which have no characters to shade, carry {share_text(ends)}."
