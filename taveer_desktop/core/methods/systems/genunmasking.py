"""Generalised Unmasking for short texts (Bevendorff, Stein, Hagen, Potthast 2019, NAACL).

Unmasking (``unmasking.py``) needs books: many long chunks per text. Bevendorff et al. make it
work on texts of a few pages by *oversampling*: each chunk's words are drawn at random, with
replacement, from the whole text, so any text gives as many chunks of any length as wanted.
The drawing adds noise, so the whole unmasking is run several times on fresh chunks and the
curves are averaged. The final decision, as in the paper, is a linear SVM trained on the
averaged curves together with their central-difference gradients of first and second order
and those gradients sorted; the paper answers only where the SVM's decision value is far enough
from the hyperplane (a confidence threshold trading recall for precision). Here the decision
value is the score (higher = same author) and the calibration to a likelihood ratio takes the
place of that threshold: a curve near the hyperplane gets a ratio near 1.

Hyperparameters (``DEFAULTS``) are the paper's fixed settings, which the seed (Halvani, Graner,
Regev 2020, section "Model and Hyperparameters") also used: 30 chunks of 700 words per text,
250 feature words, 10-fold cross-validation of a linear SVM, 5 features removed per side and
round, 24 rounds (as the authors' reference configuration: the 250 words run down to 20), 10
runs averaged (the paper recommends about 10).

As the authors' reference code (github.com/webis-de/unmasking: ``RandomWordTokenChunker``,
``AvgWordFreqFeatureSet``, ``FeatureRemoval``, checked in docs/method.md): in each run the
feature words are the 250 of highest average relative frequency *in that run's sampled chunks*
of the two texts (``most_frequent_in_chunks``; a run whose chunks hold fewer words has columns
of zeros, as the code's zero-padded vectors); a curve point is max(0, 2·(accuracy − ½)), how
far the cross-validated accuracy lies above chance (``above_chance``); the SVM is squared hinge,
C = 1 (``LinearSVC()``); the removed words are those of the fold models' mean weights.

Words keep their case, as the code's tokens do, but they are runs of letters and digits
(``chunks.words``). Where we differ from the code, and why: (1) the code's tokens are NLTK's
Treebank tokeniser's (which splits "don't" into "do" and "n't", and keeps "3.5", "e-mail",
"..." and "@" as tokens); it is not reproduced (no NLTK dependency, and its rules are not ours
to copy); (2) the known documents are joined and give 30 chunks, where the code chunks each
known document into 30 and pairs every known chunk with a randomly drawn questioned chunk (its
``RandomOversampler``), so a questioned chunk can sit in a training fold and, again, in the
held-out fold of the same model — which lifts its accuracies towards 1 and makes the cost grow
with the number of known documents; (3) the folds are stratified and shuffled by the generator,
where the code's are scikit-learn's unshuffled stratified folds over its paired rows; (4) the
second-order gradient is the gradient of the first (the paper's and the code's own description),
where the code computes ``np.gradient(curve, edge_order=2)``, a first-order gradient again. The
meta-learner (a linear SVM, C = 1, on the features as they are) is shared with
``unmasking.py``.

A text with no words, or two texts with fewer different words than the rounds remove, cannot
be compared (``CannotCompare``); the randomness (chunks, folds) comes from the given generator.
Several cases (a validation's trials, a stability check's resamples) are unmasked at once by
``features_many``, each with exactly the numbers it has alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.methods.systems import linear_svm
from taveer_desktop.core.methods.systems.chunks import (
    chunk_counts,
    encode_pair,
    most_frequent_in_chunks,
    oversampled_chunks,
)
from taveer_desktop.core.methods.systems.comparison import CannotCompare, CaseDraw, CaseTexts
from taveer_desktop.core.methods.systems.unmasking import Unmasking, degradation_curves

# chunk values (cases × runs × chunks × feature columns) unmasked together: 10 cases at the
# paper's settings, 12 MB, about 100 MiB more at a process's peak with the solver's copies; more
# cases at once were no faster (25: the same CPU time, 216 MiB more; docs/performance.md)
BATCH_FLOATS = 1_600_000


@dataclass(frozen=True)
class _Drawn:
    """One case's runs, drawn: chunk counts (runs, 2n, F), labels and folds (runs, 2n)."""

    x: np.ndarray
    y: np.ndarray
    folds: np.ndarray


class GeneralisedUnmasking(Unmasking):
    """Generalised Unmasking (see the module); learns and scores as ``Unmasking`` does."""

    info = method_info(MethodId.GENUNMASKING)
    DEFAULTS: ClassVar[Mapping[str, Any]] = {
        "chunks": 30,  # per text, in each run
        "chunk_words": 700,
        "initial_features": 250,
        "eliminated_per_side": 5,
        "iterations": 24,
        "folds": 10,
        "runs": 10,  # unmasking runs averaged
    }
    BOOK_SETTINGS = None  # the paper's settings serve short texts and books alike
    BATCHES = True
    LEARNED_MARK: ClassVar[Mapping[str, Any]] = {
        "curves": "as webis-de/unmasking: words per run, case kept, above chance"
    }

    def check_params(self, params: Mapping[str, Any]) -> None:
        super().check_params(params)
        if params["chunks"] < params["folds"]:
            raise ValueError(f"{self.info.name}: chunks must be at least folds ({params['folds']})")

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        found = self.features_many([(case, impostors, rng)])[0]
        if isinstance(found, CannotCompare):
            raise found
        return found

    def features_many(self, cases: Sequence[CaseDraw]) -> list[np.ndarray | CannotCompare]:
        """Several cases' features, their unmasking runs stacked and unmasked together, round
        by round — at most ``BATCH_FLOATS`` chunk values at a time, only cases of the same
        shapes together. Each case draws from its own generator as ``features`` does, and its
        curve is exactly its own (``degradation_curves``' ``batch``): what the cases share is
        numpy's calls, not any number (docs/performance.md)."""
        p = self.params
        found: list[np.ndarray | CannotCompare] = []
        drawn: list[tuple[int, _Drawn]] = []
        for index, (case, _, rng) in enumerate(cases):
            try:
                drawn.append((index, self._drawn(case, rng)))
                found.append(np.empty(0))  # its place: filled below
            except CannotCompare as reason:
                found.append(reason)
        runs = p["runs"]
        per_case = runs * 2 * p["chunks"] * (p["initial_features"] + 1)
        size = max(1, BATCH_FLOATS // per_case)
        shapes = {d.x.shape for _, d in drawn}  # fewer feature words where the texts have fewer
        alike = [[(i, d) for i, d in drawn if d.x.shape == shape] for shape in sorted(shapes)]
        for part in (same[k : k + size] for same in alike for k in range(0, len(same), size)):
            accuracy = degradation_curves(
                np.concatenate([d.x for _, d in part]),
                np.concatenate([d.y for _, d in part]),
                np.concatenate([d.folds for _, d in part]),
                p["folds"],
                p["eliminated_per_side"],
                p["iterations"],
                batch=np.repeat(np.arange(len(part)), runs),
            )
            for j, (index, _) in enumerate(part):
                curve = above_chance(accuracy[j * runs : (j + 1) * runs]).mean(axis=0)
                found[index] = self.curve_features(curve)
        return found

    def _drawn(self, case: CaseTexts, rng: np.random.Generator) -> _Drawn:
        """A case's runs of chunks and folds, drawn from ``rng`` (or ``CannotCompare``)."""
        p = self.params
        pair = encode_pair(case.known_joined, case.questioned, keep_case=True)
        for label, ids in (("known text", pair.first), ("questioned text", pair.second)):
            if len(ids) == 0:
                raise CannotCompare(
                    f"{self.info.name} needs words in each text; the {label} has none"
                )
        self._features_of(pair)  # enough different words for the rounds, or CannotCompare
        n, runs = p["chunks"], p["runs"]
        known = oversampled_chunks(pair.first, n, p["chunk_words"], rng, runs)
        questioned = oversampled_chunks(pair.second, n, p["chunk_words"], rng, runs)
        size = len(pair.vocabulary)
        chosen = most_frequent_in_chunks(known, questioned, size, p["initial_features"])
        x = np.stack(
            [
                chunk_counts(np.concatenate([known[r], questioned[r]]), chosen[r], size)
                for r in range(runs)
            ]
        )
        y = np.concatenate([np.ones(n), -np.ones(n)])
        folds = np.stack([linear_svm.stratified_folds(y, p["folds"], rng) for _ in range(runs)])
        return _Drawn(x, np.broadcast_to(y, (runs, 2 * n)), folds)

    def curve_features(self, curve: np.ndarray) -> np.ndarray:
        """The averaged curve, its first and second central-difference gradients, and both
        gradients sorted ascending (5 × rounds values)."""
        first = np.gradient(curve)
        second = np.gradient(first)
        return np.concatenate([curve, first, second, np.sort(first), np.sort(second)])

    def feature_length(self) -> int:
        return 5 * int(self.params["iterations"])


def above_chance(accuracy: np.ndarray) -> np.ndarray:
    """The reference code's curve value for a cross-validated accuracy: how far it lies above
    chance (one half), scaled to 0..1 — max(0, 2·(accuracy − ½))."""
    return np.maximum(0.0, 2.0 * (np.asarray(accuracy) - 0.5))


METHOD = GeneralisedUnmasking
