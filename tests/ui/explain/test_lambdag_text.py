"""LambdaG's evidence in shades and words, without Qt (``presentation/lambdag_shades``)."""

from __future__ import annotations

import pytest

from taveer_desktop.core.calibration.method_findings import (
    LambdaGEvidence,
    SentenceEvidence,
    TokenEvidence,
    TokenKind,
)
from taveer_desktop.core.methods.taveer.sentence_agreement import SentenceLeaning
from taveer_desktop.presentation import lambdag_shades as words
from taveer_desktop.presentation.lambdag_evidence_text import leaning_text

TEXT = "The cat sat.  A dog ran away!"


def _evidence(shares: list[float]) -> LambdaGEvidence:
    """Two sentences of TEXT: 'The cat sat' (+ '.') and 'A dog ran away' (+ '!')."""
    spans = [(0, 3), (4, 7), (8, 11), (11, 12), (14, 15), (16, 19), (20, 23), (24, 28), (28, 29)]
    kinds = [TokenKind.KEPT, TokenKind.MASKED, TokenKind.MASKED, TokenKind.KEPT]
    kinds += [TokenKind.KEPT, TokenKind.MASKED, TokenKind.MASKED, TokenKind.MASKED, TokenKind.KEPT]
    tokens = [TokenEvidence(a, b, k, s) for (a, b), k, s in zip(spans, kinds, shares, strict=False)]
    first = (*tokens[:4], TokenEvidence(12, 12, TokenKind.END, shares[9]))
    second = (*tokens[4:9], TokenEvidence(29, 29, TokenKind.END, shares[10]))
    return LambdaGEvidence(3, (SentenceEvidence(0, 12, first), SentenceEvidence(14, 29, second)))


SHARES = [0.5, -0.1, 0.2, 1.0, -2.0, 0.05, -0.3, 0.0, 0.4, 0.25, -0.5]


def test_the_scale_is_the_95th_percentile_of_the_tokens_shares():
    evidence = _evidence(SHARES)
    magnitudes = sorted(abs(s) for s in SHARES[:9])  # the ends have no characters
    rank = 8 * 0.95
    expected = magnitudes[7] + (magnitudes[8] - magnitudes[7]) * (rank - 7)
    assert words.shade_unit(evidence) == pytest.approx(expected)
    assert words.shaded_tokens(evidence) == [
        t for s in evidence.sentences for t in s.tokens if t.kind is not TokenKind.END
    ]


def test_levels_are_signed_thirds_below_the_scale_and_four_from_it():
    unit = 0.9
    assert words.shade_level(0.0, unit) == 0
    assert words.shade_level(0.29, unit) == 1 and words.shade_level(-0.29, unit) == -1
    assert words.shade_level(0.31, unit) == 2 and words.shade_level(-0.61, unit) == -3
    assert words.shade_level(0.9, unit) == 4 and words.shade_level(-5.0, unit) == -4
    assert words.shade_level(0.5, 0.0) == 0  # no scale: nothing is shaded
    assert words.level_range(4, unit) == "+0.900 or more"
    assert words.level_range(-4, unit) == "−0.900 or less"
    assert words.level_range(2, unit) == "+0.300 to +0.600"
    assert words.level_range(-1, unit) == "0 to −0.300"
    for level in (1, 2, 3, -1, -2, -3):  # a share in each range has that level
        low = unit * (abs(level) - 1) / 3
        share = (low + unit / 6) * (1 if level > 0 else -1)
        assert words.shade_level(share, unit) == level


def test_sentence_rows_and_the_agreement_words():
    leanings = [
        SentenceLeaning(0, 12, 0.02, 1.5),  # both towards Hp
        SentenceLeaning(14, 29, -0.01, -2.0),  # both towards Hd
    ]
    rows = words.sentence_rows(TEXT, leanings)
    assert [(r.number, r.excerpt, r.agreement, r.direction) for r in rows] == [
        (1, "The cat sat.", leaning_text(leanings[0]), 1),
        (2, "A dog ran away!", leaning_text(leanings[1]), -1),
    ]
    assert rows[0].agreement == "both methods → Hp" and rows[1].both_point_same_way
    assert words.agreement_tip(rows[0]).startswith("both methods → Hp: both point towards Hp")
    assert [words.agreement_cell(r) for r in rows] == ["both → Hp", "both → Hd"]
    silent = words.sentence_rows(TEXT, [SentenceLeaning(0, 12, 0.0, 1.5)])[0]
    assert not silent.both_point_same_way
    assert words.agreement_tip(silent).endswith("does not move TAVeer's distances")
    assert words.agreement_cell(silent) == "no TAVeer effect"
    tip = words.sentence_tip(rows[1])
    assert tip.startswith("Sentence 2: LambdaG share −2.000, TAVeer lean −0.0100")
    assert "carry −0.250" in words.ends_sentence(_evidence(SHARES))  # the ends: +0.25, -0.5


def test_excerpts_are_one_line_and_cut_with_an_ellipsis():
    text = "A  long\r\nsentence " + "word " * 40
    cut = words.excerpt(text, 0, len(text), limit=20)
    assert cut == "A long sentence wor…" and len(cut) == 20
    assert words.excerpt("Short.\n", 0, 7) == "Short."


def test_token_tips_name_the_token_its_share_and_its_sentence():
    evidence = _evidence(SHARES)
    row = words.sentence_rows(TEXT, [SentenceLeaning(0, 12, 0.02, 1.5)])[0]
    token = evidence.sentences[0].tokens[1]
    tip = words.token_tip(TEXT, token, row)
    assert tip.splitlines() == [
        "“cat”: LambdaG share −0.100",
        "A content word, masked to a placeholder before LambdaG read it.",
        words.sentence_tip(row),
    ]
