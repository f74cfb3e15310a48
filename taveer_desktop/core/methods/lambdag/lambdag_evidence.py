"""Where in the questioned text LambdaG's score comes from: its shares placed on the text.

``core/lambdag.contributions`` splits λG into one share per predicted position of the masked
questioned text (each token and each sentence's end). This module puts each share on the
characters it belongs to, so that the desktop and the report can highlight the text: the
sentences are those of ``core/feature_stream.encode_document`` and the tokens of each sentence
those of ``core/occurrences.sentence_tokens`` — the same tokens, in the same order, that the
masked stream was made of (a test checks this on real documents), so position i of a sentence
is its i-th token and the last position its end.
"""

from __future__ import annotations

from taveer_desktop.core.calibration.method_findings import (
    LambdaGEvidence,
    SentenceEvidence,
    TokenEvidence,
    TokenKind,
)
from taveer_desktop.core.features.feature_stream import CodedDocument
from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.features.occurrences import sentence_tokens
from taveer_desktop.core.features.text import lower_preserving_length
from taveer_desktop.core.methods.lambdag.kneser_ney import END
from taveer_desktop.core.methods.lambdag.lambdag import Contributions
from taveer_desktop.core.methods.lambdag.lambdag_masking import PLACEHOLDER


def place_evidence(
    prepared: str, document: CodedDocument, lexicon: Lexicon, found: Contributions
) -> LambdaGEvidence:
    """The shares of ``found`` (the questioned document's contributions, one sentence of
    ``document`` after another) on the spans of ``prepared``, the document's prepared text."""
    lowered = lower_preserving_length(prepared)
    shares = found.per_token.tolist()
    ids = found.tokens.tolist()
    sentences = []
    position = 0
    for start, end in document.spans:
        tokens = sentence_tokens(lowered, start, end, lexicon)
        placed = []
        for token in tokens:
            kind = TokenKind.MASKED if ids[position] == PLACEHOLDER else TokenKind.KEPT
            placed.append(TokenEvidence(token.start, token.end, kind, shares[position]))
            position += 1
        if ids[position] != END:
            raise AssertionError(f"LambdaG's positions and the tokens of {start}..{end} differ")
        placed.append(TokenEvidence(end, end, TokenKind.END, shares[position]))
        position += 1
        sentences.append(SentenceEvidence(start, end, tuple(placed)))
    if position != len(shares):
        raise AssertionError("LambdaG's positions and the questioned text's tokens differ")
    return LambdaGEvidence(found.order, tuple(sentences))
