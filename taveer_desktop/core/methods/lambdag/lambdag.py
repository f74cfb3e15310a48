"""LambdaG: the likelihood ratio of grammar models (Nini, Halvani, Graner, Gherardi, Ishihara).

For a questioned text U, the known texts K of the candidate and a reference population R:

    λG = (1/r) Σ_{j=1..r} Σ_{sentences s of U} Σ_{tokens t of s, and its end}
             log10 [ P(t | context; G_K) / P(t | context; G_Rj) ]

where G_K is an n-gram model (``core/methods/lambdag/kneser_ney.py``, interpolated Kneser–Ney,
sentence by sentence) of the known texts and G_Rj one of r models of random samples of the reference
population, each sample holding as many sentences as the known texts (drawn without
replacement). The published defaults are order N = 10 and r = 30; λG is an uncalibrated log10
likelihood ratio and is calibrated by logistic regression on validation trials
(``core/methods/lambdag/lambdag_validation.py``). Here the texts are masked without a tagger
(``core/methods/lambdag/lambdag_masking.py``), a variant of the published POSNoise masking.

Each position of U contributes one term, so the evidence per token and per sentence is the
same sum split up (``contributions``). One call scores every order 1 … N at once (the model of
order N holds all lower ones), which is how the order is chosen by validation.

Deterministic: every random sample comes from a generator seeded by the caller; a case's samples
may be seeded by the case's own texts (``case_seed``), so that the same case draws the same
samples whatever else is seeded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.methods.lambdag.kneser_ney import (
    END,
    KneserNeyModel,
    ModelStack,
    SentenceKeys,
    SentenceStream,
)

DEFAULT_ORDER = 10
DEFAULT_SAMPLES = 30


class ReferencePool:
    """The masked sentences of a reference population, from which samples are drawn.

    The sentences are kept as tokens alone (``SentenceStream``, two bytes a position); only
    the sampled sentences' n-gram keys are ever made, when a sample's model is built."""

    def __init__(self, stream: SentenceStream, order: int, vocabulary_size: int):
        if stream.n_sentences == 0:
            raise ValueError("the reference population has no sentence")
        self.stream = stream
        self.order = order
        self.n_sentences = stream.n_sentences
        self.vocabulary_size = vocabulary_size

    @classmethod
    def from_sentences(
        cls, sentences: Sequence[np.ndarray], order: int, vocabulary_size: int | None = None
    ) -> ReferencePool:
        stream = SentenceStream.of(sentences)
        if vocabulary_size is None:
            vocabulary_size = vocabulary_size_of(np.append(stream.tokens, END))
        return cls(stream, order, vocabulary_size)

    def sample_models(
        self, n_sentences: int, samples: int, rng: np.random.Generator, order: int | None = None
    ) -> list[KneserNeyModel]:
        """``samples`` models, each of ``n_sentences`` sentences drawn without replacement
        (with replacement only if the population has fewer sentences than that)."""
        total = self.n_sentences
        order = self.order if order is None else order
        models = []
        for _ in range(samples):
            chosen = rng.choice(total, size=n_sentences, replace=n_sentences > total)
            keys = self.stream.select(np.sort(chosen)).keys(order)
            models.append(KneserNeyModel(keys, self.vocabulary_size))
        return models


CASE_SEED_DOMAIN = b"TAVeer LambdaG case samples, 1\0"


def case_seed(known_tokens: np.ndarray, questioned_tokens: np.ndarray) -> int:
    """A seed made of a case's own texts: the SHA-256 of its known and its questioned masked
    tokens (each sentence's tokens and end symbol, ``SentenceKeys.tokens``), first 8 bytes.
    The same case gives the same seed under every model and in every process."""
    digest = hashlib.sha256(CASE_SEED_DOMAIN)
    for tokens in (known_tokens, questioned_tokens):
        data = np.ascontiguousarray(tokens, dtype="<u2").tobytes()
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return int.from_bytes(digest.digest()[:8], "little")


def vocabulary_size_of(tokens: np.ndarray) -> int:
    """The vocabulary of the uniform base distribution: the distinct predicted tokens of the
    reference population (the end symbol among them) and one more for any token never seen."""
    return len(np.unique(tokens)) + 1


@dataclass(frozen=True)
class LambdaGScores:
    """λG of one questioned text for every order 1 … N, and its terms at every order."""

    by_order: np.ndarray  # (N,) Σ of the terms
    terms: np.ndarray  # (N, positions) log10 P_K − mean_j log10 P_Rj
    offsets: np.ndarray  # where each questioned sentence's positions start


def score_questioned(
    known_model: KneserNeyModel,
    references: Sequence[KneserNeyModel] | ModelStack,
    questioned: SentenceKeys,
) -> LambdaGScores:
    """λG of a questioned text against a known model and reference models (all orders)."""
    known = known_model.log10_probabilities(questioned)
    stack = references if isinstance(references, ModelStack) else ModelStack(references)
    terms = known - stack.mean_log10_probabilities(questioned)
    return LambdaGScores(terms.sum(axis=1), terms, questioned.offsets)


def lambda_g(
    known: SentenceKeys,
    questioned: Sequence[SentenceKeys],
    pool: ReferencePool,
    samples: int,
    rng: np.random.Generator,
    order: int | None = None,
) -> list[LambdaGScores]:
    """λG of each questioned text against the same known texts (their model and the reference
    samples are made once for all of them)."""
    known_model = KneserNeyModel(known, pool.vocabulary_size, order)
    references = ModelStack(pool.sample_models(known.n_sentences, samples, rng, order))
    return [score_questioned(known_model, references, q) for q in questioned]


@dataclass(frozen=True)
class Contributions:
    """λG at one order split into its terms: per predicted position and per sentence."""

    order: int
    tokens: np.ndarray  # (positions,) the masked token predicted at each position (0: end)
    per_token: np.ndarray  # (positions,)
    per_sentence: np.ndarray  # (sentences,)

    @property
    def total(self) -> float:
        return float(self.per_token.sum())


def contributions(scores: LambdaGScores, questioned: SentenceKeys, order: int) -> Contributions:
    """The evidence of each token and each sentence of the questioned text at ``order``."""
    per_token = scores.terms[order - 1]
    per_sentence = np.add.reduceat(per_token, scores.offsets[:-1]) if len(per_token) else per_token
    return Contributions(order, questioned.tokens, per_token, per_sentence)
