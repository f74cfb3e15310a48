"""LambdaG's ratio of one case with a model's LambdaG part (``LambdaGScorer``).

The model's reference population is decoded once and serves every case; each case's samples
come from a generator seeded by the case's own texts (a model made before: by the model's seed;
``LambdaGPart.sample_seed``), so the same case always gives the same ratio, and with a model of
version 2 the same λG whatever the seed of the model's validation
(``core/methods/lambdag/lambdag.py``, masked texts). Used by LambdaG's seam for verification,
evaluation and the stability check (``core/methods/lambdag/lambdag_seam.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart

if TYPE_CHECKING:
    from taveer_desktop.core.calibration.method_findings import LambdaGEvidence
    from taveer_desktop.core.methods.lambdag.lambdag import ReferencePool


class LambdaGScorer:
    """LambdaG's part of verifications with one model: the model's reference population is
    decoded once and serves every case (``evaluate`` scores a whole corpus with one). Each
    case's samples come from a generator seeded by the case (or, in a model made before, by
    the model), so a case's ratio does not depend on which cases were scored before it, nor in
    which process. Picklable: a worker process gets the model's part and decodes the reference
    itself."""

    def __init__(self, part: LambdaGPart, lexicon: Lexicon, source: str):
        self.part = part
        self.lexicon = lexicon
        self.source = source
        self._pool: ReferencePool | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_pool": None}

    def pool(self) -> ReferencePool:
        if self._pool is None:
            from taveer_desktop.core.methods.lambdag.lambdag import ReferencePool
            from taveer_desktop.core.methods.lambdag.lambdag_masking import split_sentences
            from taveer_desktop.core.methods.lambdag.lambdag_model import decode_reference

            self._pool = ReferencePool.from_sentences(
                split_sentences(decode_reference(self.part.reference, self.source)),
                self.part.order,
                self.part.vocabulary_size,
            )
        return self._pool

    def score(
        self, known_texts: Sequence[str], unknown_text: str, explain: bool = False
    ) -> tuple[float, float, LambdaGEvidence | None]:
        """(raw λG, calibrated log10 LR, LambdaG's evidence in the text if ``explain``) of a
        case."""
        import numpy as np

        from taveer_desktop.core.features.feature_stream import encode_document, prepare_text
        from taveer_desktop.core.methods.lambdag.kneser_ney import sentence_keys
        from taveer_desktop.core.methods.lambdag.lambdag import contributions, lambda_g
        from taveer_desktop.core.methods.lambdag.lambdag_evidence import place_evidence
        from taveer_desktop.core.methods.lambdag.lambdag_masking import masked_sentences

        part, lexicon = self.part, self.lexicon
        known = sentence_keys(
            [s for text in known_texts for s in masked_sentences(encode_document(text, lexicon))],
            part.order,
        )
        document = encode_document(unknown_text, lexicon)
        questioned = sentence_keys(masked_sentences(document), part.order)
        rng = np.random.default_rng(part.sample_seed(known.tokens, questioned.tokens))
        scores = lambda_g(known, [questioned], self.pool(), part.samples, rng)[0]
        raw = float(scores.by_order[part.order - 1])
        evidence = None
        if explain:
            found = contributions(scores, questioned, part.order)
            evidence = place_evidence(prepare_text(unknown_text), document, lexicon, found)
        lengths = (len(unknown_text), sum(len(t) for t in known_texts))
        return raw, float(part.calibration.log10_lr(raw, *lengths)), evidence

    def sample_seed(self, known_texts: Sequence[str], unknown_text: str) -> int:
        """The seed of this case's reference samples (as ``score`` draws them)."""
        from taveer_desktop.core.features.feature_stream import encode_document
        from taveer_desktop.core.methods.lambdag.kneser_ney import SentenceStream
        from taveer_desktop.core.methods.lambdag.lambdag_masking import masked_sentences

        def tokens(texts: Sequence[str]) -> Any:
            coded = [encode_document(text, self.lexicon) for text in texts]
            return SentenceStream.of([s for c in coded for s in masked_sentences(c)]).tokens

        return self.part.sample_seed(tokens(known_texts), tokens([unknown_text]))

    def raw(self, known_texts: Sequence[str], unknown_text: str) -> float:
        """The raw λG of one case alone (what ``evaluate`` collects from its workers)."""
        return self.score(known_texts, unknown_text)[0]


def lambdag_for_case(
    part: LambdaGPart,
    known_texts: Sequence[str],
    unknown_text: str,
    lexicon: Lexicon,
    source: str,
    explain: bool = False,
) -> tuple[float, float, LambdaGEvidence | None]:
    """(raw λG, calibrated log10 LR, LambdaG's evidence in the text if ``explain``) of a case."""
    return LambdaGScorer(part, lexicon, source).score(known_texts, unknown_text, explain)
