"""LambdaG's evidence in the questioned text as the desktop shows it: shades, sentences, words.

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
  both methods point the same way (``sentence_rows``, ``agreement_words``);
- the share range of each level for the legend (``level_range``), and a one-sentence
  **summary** of the whole text (``evidence_summary``).

The sentences explaining LambdaG, shares and agreement are those of
``presentation/method_agreement.py`` (one wording for the desktop and the report).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from taveer_desktop.core.method_findings import LambdaGEvidence, TokenEvidence, TokenKind
from taveer_desktop.core.sentence_agreement import SentenceLeaning
from taveer_desktop.presentation import numbers

LEVELS = 4  # shade levels on each side of zero
STRONGEST = LEVELS  # the level that is underlined as well as shaded
UNIT_PERCENTILE = 95  # |share| at this percentile of the tokens is where the strongest starts
EXCERPT_CHARS = 70
TAVEER_SILENT = "TAVeer silent"
LAMBDAG_SILENT = "LambdaG silent"
DIFFER = "differ"
BOTH_HP = "both → Hp"
BOTH_HD = "both → Hd"

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


def signed(value: float, places: int = 3) -> str:
    """A share or lean with its sign: ``+0.458``, ``-0.045``, ``0.000``."""
    text = numbers.decimal(value, places)
    return "+" + text if value > 0 and text.strip("0.,") else text


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
        return f"{signed(sign * unit)} or {'more' if level > 0 else 'less'}"
    low, high = unit * (size - 1) / below, unit * size / below
    return f"{signed(sign * low) if size > 1 else '0'} to {signed(sign * high)}"


def excerpt(text: str, start: int, end: int, limit: int = EXCERPT_CHARS) -> str:
    """The sentence's text on one line, cut to ``limit`` characters with an ellipsis."""
    flat = re.sub(r"\s+", " ", text[start:end]).strip()
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def agreement_words(leaning: SentenceLeaning) -> str:
    """Whether both methods point the same way in a sentence, in a few words."""
    if leaning.direction > 0:
        return BOTH_HP
    if leaning.direction < 0:
        return BOTH_HD
    if leaning.taveer == 0:
        return TAVEER_SILENT
    if leaning.lambdag == 0:
        return LAMBDAG_SILENT
    return DIFFER


AGREEMENT_TIPS = {
    BOTH_HP: "Both methods point towards Hp (the same author) in this sentence",
    BOTH_HD: "Both methods point towards Hd (another author) in this sentence",
    DIFFER: "The methods point different ways in this sentence",
    TAVEER_SILENT: "None of the features TAVeer's interpretation lists occurs in this sentence",
    LAMBDAG_SILENT: "LambdaG's share of this sentence is zero",
}


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
    agreement: str  # ``agreement_words``

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
            agreement_words(leaning),
        )
        for i, leaning in enumerate(leanings, start=1)
    ]


def sentence_tip(row: SentenceRow) -> str:
    """The tooltip of a sentence (in the list and over its tokens)."""
    return (
        f"Sentence {numbers.integer(row.number)}: LambdaG share {signed(row.lambdag)}, "
        f"TAVeer lean {signed(row.taveer, 4)} — {AGREEMENT_TIPS[row.agreement].lower()}."
    )


def token_tip(prepared: str, token: TokenEvidence, row: SentenceRow | None) -> str:
    """The tooltip of one token: its text, its share, what it is, and its sentence."""
    shown = re.sub(r"\s+", " ", prepared[token.start : token.end])
    lines = [
        f"“{shown}”: LambdaG share {signed(token.share)}",
        TOKEN_KIND_WORDS[token.kind][0].upper() + TOKEN_KIND_WORDS[token.kind][1:] + ".",
    ]
    if row is not None:
        lines.append(sentence_tip(row))
    return "\n".join(lines)


def evidence_pending(evidence: LambdaGEvidence) -> str:
    """The summary while TAVeer's features are being placed in the sentences."""
    return (
        f"λG = {signed(evidence.total)} (order {numbers.integer(evidence.order)}) over "
        f"{numbers.count(len(evidence.sentences), 'sentence')}; placing TAVeer's features in "
        "each sentence…"
    )


def evidence_summary(evidence: LambdaGEvidence, rows: Sequence[SentenceRow]) -> str:
    """One sentence on the whole text: λG, its sentences and where both methods agree."""
    towards_hp = sum(1 for r in rows if r.direction > 0)
    towards_hd = sum(1 for r in rows if r.direction < 0)
    ends = math.fsum(t.share for s in evidence.sentences for t in s.tokens if t.end == t.start)
    return (
        f"λG = {signed(evidence.total)} (order {numbers.integer(evidence.order)}) over "
        f"{numbers.count(len(rows), 'sentence')} (their ends, which have no characters to "
        f"shade, carry {signed(ends)}). Both methods point the same way in "
        f"{numbers.count(towards_hp + towards_hd, 'sentence')}: {numbers.integer(towards_hp)} "
        f"towards Hp, {numbers.integer(towards_hd)} towards Hd."
    )
