"""LambdaG's λG under the stability check's resamples (``core/methods/taveer/stability.py``).

The stability check leaves out a random tenth of the questioned text's sentences and,
independently, of the known texts' sentences, in each of B seeded resamples. For a LambdaG or
fused model the stated ratio rests on λG as well, so λG is resampled with the very same
sentences left out (the same 0/1 weights as TAVeer's counts; both methods split the texts into
the same sentences, ``core/features/feature_stream.py``):

- the questioned text: λG is a sum over its sentences (each sentence is modelled on its own),
  so leaving sentences out is leaving their terms out — nothing is recomputed;
- the known texts: the known author's model is rebuilt from the kept sentences, once per
  resample (one n-gram model, ``core/methods/lambdag/kneser_ney.py``), and the questioned text
  scored with it;
- the reference samples: drawn once, seeded as in the verification (by the case's texts; in a
  model made before, by the model), each of as
  many sentences as every resample keeps of the known texts, and shared by all resamples — so
  the spread measured is that of the sentences alone, not of the reference draws (which the
  verification fixes by its seed too).

The cost is one n-gram model and one scoring per resample (the verification builds 1 + r
models; ``benchmarks/ratio_stability_cost.py``, ``docs/performance.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from taveer_desktop.core.features.feature_stream import encode_document
from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.methods.lambdag.kneser_ney import (
    KneserNeyModel,
    ModelStack,
    SentenceStream,
)
from taveer_desktop.core.methods.lambdag.lambdag import ReferencePool
from taveer_desktop.core.methods.lambdag.lambdag_masking import masked_sentences


def sentence_counts(
    known_texts: Sequence[str], unknown_text: str, lexicon: Lexicon
) -> tuple[int, int]:
    """(questioned, known) sentence counts as LambdaG splits the texts."""
    known = sum(encode_document(text, lexicon).n_sentences for text in known_texts)
    return encode_document(unknown_text, lexicon).n_sentences, known


def resampled_lambda_g(
    pool: ReferencePool,
    order: int,
    samples: int,
    seed: int,
    known_texts: Sequence[str],
    unknown_text: str,
    lexicon: Lexicon,
    keep_unknown: np.ndarray,
    keep_known: np.ndarray,
    progress: Progress = NO_PROGRESS,
) -> np.ndarray:
    """The raw λG (at ``order``) of each resample: ``keep_unknown`` (resamples × questioned
    sentences) and ``keep_known`` (resamples × known sentences) say which sentences each
    resample keeps; every resample keeps the same number of known sentences."""
    known_sentences = [
        s for text in known_texts for s in masked_sentences(encode_document(text, lexicon))
    ]
    questioned_sentences = masked_sentences(encode_document(unknown_text, lexicon))
    if keep_unknown.shape[1] != len(questioned_sentences) or keep_known.shape[1] != len(
        known_sentences
    ):
        raise ValueError("the resamples' weights do not match the texts' sentences")
    questioned = SentenceStream.of(questioned_sentences).keys(order)
    known = SentenceStream.of(known_sentences).keys(order)  # made once, selected per resample
    kept = int(keep_known[0].sum()) if len(keep_known) else 0
    rng = np.random.default_rng(seed)
    references = ModelStack(pool.sample_models(max(kept, 1), samples, rng, order))
    reference = references.mean_log10_probabilities(questioned)[order - 1]
    starts = questioned.offsets[:-1]
    raws = np.empty(len(keep_known))
    for b in range(len(keep_known)):
        if b % 10 == 0:
            progress.check()
        model = KneserNeyModel(
            known.select(np.flatnonzero(keep_known[b])), pool.vocabulary_size, order
        )
        terms = model.log10_probabilities(questioned)[order - 1] - reference
        per_sentence = np.add.reduceat(terms, starts) if len(terms) else terms
        raws[b] = float(per_sentence[keep_unknown[b]].sum())
    return raws
