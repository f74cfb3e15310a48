"""Unmasking (Koppel and Schler 2004, ICML): how fast two texts stop being told apart.

A linear SVM learns to tell chunks of the known text from chunks of the questioned text; its
cross-validated accuracy is recorded; the features it leans on most — the U2 words with the
largest positive and the U2 with the largest negative weight — are removed, and again, U3
times. If one author wrote both texts the few words that separated them are soon gone and the
accuracy drops fast; different authors differ in many words and the accuracy holds up. The
*degradation curve* (the U3 accuracies and the U3 − 1 drops between them) is the case's
feature vector, and, as in the original, a meta-learner — a linear SVM on the curves of the
training trials — tells same-author curves from different-author ones. Its decision value is
the score (higher = same author); the calibration turns it into a likelihood ratio.

Hyperparameters (``DEFAULTS``) are the seed's (Halvani, Graner, Regev 2020, Table
"Hyperparameters … tuned on the respective training corpora"), StackExchange column, tuned
within its shortened ranges for documents far shorter than the original's books (Table
"Adjusted hyperparameter ranges"; original settings in brackets): U1 = 150 most frequent words
as features [250], U2 = 5 removed per side per round [3], U3 = 5 rounds [10], U4 = 5 words per
chunk [500], U5 = 10 folds [10]. Those suit short texts only: a validation whose trials are
book-length (``params_for_lengths``: the median questioned and known text each at least
``BOOK_CHARS`` characters) runs Koppel and Schler's own settings (``BOOK_SETTINGS``: 250 / 3 /
10 / 500-word chunks / 10 folds) instead, and the model's recorded ``params`` say which ran.

Choices the papers leave open, made here: the feature words are those with the highest average
relative frequency in the two texts (as Koppel, Schler and Bonchek-Dokow 2007 describe); a chunk
is represented by the counts of those words in it; the longer text's chunks are subsampled at
random to the shorter text's number (so chance accuracy is one half, whatever the lengths);
folds are stratified and drawn at random; the words removed are those of the fold models'
average weights (as the Webis reference code, github.com/webis-de/unmasking, removes them); the
SVM is ``linear_svm`` (squared hinge, C = 1: scikit-learn's ``LinearSVC()``, which that code
uses, to its convergence tolerance). The meta-learner is the same SVM, C = 1, on the curve
features as they are: what the reference code's meta-learner does in effect — its ``classify``
runs a grid search (C, loss, class weights) but its ``fit`` then resets the model's parameters
and fits ``LinearSVC()`` at its defaults. The randomness (subsample, folds) comes from the given
generator only.

Texts too short to give U5 chunks each cannot be compared (``CannotCompare``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.methods.systems import linear_svm, native
from taveer_desktop.core.methods.systems.chunks import (
    EncodedPair,
    chunk_counts,
    consecutive_chunks,
    encode_pair,
    most_frequent,
)
from taveer_desktop.core.methods.systems.comparison import (
    CannotCompare,
    CaseTexts,
    ComparisonMethod,
)


def degradation_curves(
    x: np.ndarray,
    y: np.ndarray,
    folds: np.ndarray,
    n_folds: int,
    eliminated: int,
    rounds: int,
    batch: np.ndarray | None = None,
    compiled: bool = True,
) -> np.ndarray:
    """Unmasking of R chunk sets at once: ``x`` (R, N, F) chunk features, ``y`` and ``folds``
    (R, N). Returns (R, rounds): the cross-validated accuracy before each round of removing the
    ``eliminated`` most positive and most negative features (of the fold models' mean weights).
    A removed feature's column is zeroed, which gives it weight 0 in every later model.
    ``batch`` (R,), optional: the case of each chunk set where several cases' sets are stacked;
    each set's curve is then exactly what its case's sets alone give (``linear_svm.fit_many``).

    Where the features outnumber the samples and the Gram sums are exact (word counts), the
    compiled curve (``native``) computes the same, set by set, if it was built and ``compiled``
    is left true; otherwise numpy does, the sets stacked as below."""
    x = np.array(x, dtype=float)
    n_sets, _, n_features = x.shape
    if n_features - 2 * eliminated * (rounds - 1) < 1:
        raise ValueError("too few features for the rounds of removal")
    if compiled and linear_svm.gram_is_exact(x):
        found = native.curves(x, y, folds, n_folds, eliminated, rounds, linear_svm.C_DEFAULT)
        if found is not None:
            return found
    alive = np.ones((n_sets, n_features), dtype=bool)
    curves = np.empty((n_sets, rounds))
    start = None
    gram = linear_svm.exact_gram(x)  # kept from round to round where exact, else None
    for step in range(rounds):
        result = linear_svm.cross_validate(
            x, y, folds, n_folds, start=start, batch=batch, gram=gram
        )
        curves[:, step] = result.accuracy
        start = result.fit  # the next round's models differ little: start from these
        if step == rounds - 1:
            break
        removed = strongest_features(result.weights.mean(axis=1), alive, eliminated)
        rows = np.arange(n_sets)[:, None]
        alive[rows, removed] = False
        if gram is not None:
            linear_svm.without_columns(gram, np.take_along_axis(x, removed[:, None, :], axis=2))
        x[rows, :, removed] = 0.0
    return curves


def strongest_features(weights: np.ndarray, alive: np.ndarray, per_side: int) -> np.ndarray:
    """(R, 2·per_side) indices: of the features still ``alive``, the ``per_side`` with the most
    negative and the ``per_side`` with the most positive weight (ties: the lower index)."""
    n_alive = int(alive[0].sum())
    order = np.argsort(np.where(alive, weights, np.inf), axis=1, kind="stable")
    return np.concatenate([order[:, :per_side], order[:, n_alive - per_side : n_alive]], axis=1)


def check_positive_ints(name: str, params: Mapping[str, Any], names: Sequence[str]) -> None:
    """Refuse any of ``names`` that is not a whole number ≥ 1 (``ValueError`` naming it)."""
    for key in names:
        value = params[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name}: {key} must be a whole number of at least 1, not {value!r}")


class Unmasking(ComparisonMethod):
    """Unmasking (see the module)."""

    info = method_info(MethodId.UNMASKING)
    DEFAULTS: ClassVar[Mapping[str, Any]] = {
        "initial_features": 150,  # U1
        "eliminated_per_side": 5,  # U2
        "iterations": 5,  # U3
        "chunk_words": 5,  # U4
        "folds": 10,  # U5
    }

    BOOK_SETTINGS: ClassVar[Mapping[str, Any] | None] = {  # Koppel and Schler 2004
        "initial_features": 250,
        "eliminated_per_side": 3,
        "iterations": 10,
        "chunk_words": 500,
        "folds": 10,
    }
    BOOK_CHARS = 30_000  # about 5,000 words: 10 chunks of 500 words, one per fold
    # entries a learned classifier carries to say which curves it was learned on (a model of
    # curves computed differently is refused, not scored): none for Unmasking, whose curves
    # have not changed
    LEARNED_MARK: ClassVar[Mapping[str, Any]] = {}

    def params_for_lengths(
        self, questioned_chars: np.ndarray, known_chars: np.ndarray
    ) -> dict[str, Any]:
        """The seed's settings (``DEFAULTS``, tuned for short texts) unless the trials are
        book-length — the median questioned and the median known text each at least
        ``BOOK_CHARS`` characters, enough for a 500-word chunk per fold — when, if this method
        was left at its defaults, Koppel and Schler's settings for books. Explicitly set
        hyperparameters are kept whatever the lengths."""
        q, k = np.asarray(questioned_chars), np.asarray(known_chars)
        books = len(q) > 0 and min(np.median(q), np.median(k)) >= self.BOOK_CHARS
        if books and self.BOOK_SETTINGS is not None and self.params == dict(self.DEFAULTS):
            return dict(self.BOOK_SETTINGS)
        return dict(self.params)

    def check_params(self, params: Mapping[str, Any]) -> None:
        check_positive_ints(self.info.name, params, tuple(self.DEFAULTS))
        if params["folds"] < 2:
            raise ValueError(f"{self.info.name}: folds must be at least 2")
        if params["iterations"] < 2:
            raise ValueError(f"{self.info.name}: iterations must be at least 2 (a curve)")
        removed = 2 * params["eliminated_per_side"] * (params["iterations"] - 1)
        if params["initial_features"] <= removed:
            raise ValueError(
                f"{self.info.name}: initial_features must exceed the {removed} words the "
                "rounds remove"
            )

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        p = self.params
        pair = encode_pair(case.known_joined, case.questioned)
        size, k = p["chunk_words"], p["folds"]
        known = consecutive_chunks(pair.first, size)
        questioned = consecutive_chunks(pair.second, size)
        for label, chunks, ids in (
            ("known text", known, pair.first),
            ("questioned text", questioned, pair.second),
        ):
            if len(chunks) < k:
                raise CannotCompare(
                    f"Unmasking needs at least {k} chunks of {size} words in each text "
                    f"({k * size} words); the {label} gives {len(chunks)} ({len(ids)} words)"
                )
        n = min(len(known), len(questioned))
        known = known[np.sort(rng.choice(len(known), n, replace=False))]
        questioned = questioned[np.sort(rng.choice(len(questioned), n, replace=False))]
        vocabulary = self._features_of(pair)
        x = chunk_counts(np.concatenate([known, questioned]), vocabulary, len(pair.vocabulary))
        y = np.concatenate([np.ones(n), -np.ones(n)])
        folds = linear_svm.stratified_folds(y, k, rng)
        curve = degradation_curves(
            x[None], y[None], folds[None], k, p["eliminated_per_side"], p["iterations"]
        )[0]
        return self.curve_features(curve)

    def _features_of(self, pair: EncodedPair) -> np.ndarray:
        """The feature words, or ``CannotCompare`` if the texts have too few different words
        for the rounds of removal."""
        p = self.params
        needed = 2 * p["eliminated_per_side"] * (p["iterations"] - 1) + 1
        features = most_frequent(pair, p["initial_features"])
        if len(features) < needed:
            raise CannotCompare(
                f"{self.info.name} needs at least {needed} different words in the two texts "
                f"({p['iterations'] - 1} rounds removing {2 * p['eliminated_per_side']}); "
                f"they have {len(features)}"
            )
        return features

    def curve_features(self, curve: np.ndarray) -> np.ndarray:
        """The feature vector of a degradation curve: its accuracies, then the drop from each
        round to the next."""
        return np.concatenate([curve, curve[:-1] - curve[1:]])

    def feature_length(self) -> int:
        """Length of ``features``' vector under these hyperparameters."""
        return 2 * int(self.params["iterations"]) - 1

    # --- the meta-learner: a linear SVM (C = 1) on the curve features, as the reference ------

    def learn(self, features: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
        rows = self._rows(features)
        same = np.asarray(truth).astype(bool)
        if same.shape != (len(rows),):
            raise ValueError(f"{self.info.name}: one truth value is needed per feature row")
        if same.all() or not same.any():
            raise ValueError(
                f"{self.info.name} learns from same-author and different-author trials; "
                "the training trials hold only one kind"
            )
        # the features as they are (mean 0 and scale 1 keep the model format, which can
        # standardise), C = 1: the reference's meta-learner in effect (see the module)
        cost = linear_svm.C_DEFAULT
        weights, bias = linear_svm.fit(rows, np.where(same, 1.0, -1.0), cost)
        return {
            **self.LEARNED_MARK,
            "mean": [0.0] * rows.shape[1],
            "scale": [1.0] * rows.shape[1],
            "weights": weights.tolist(),
            "bias": bias,
            "cost": cost,
        }

    def score(self, features: np.ndarray, learned: Mapping[str, Any]) -> np.ndarray:
        self.check_learned(learned)
        rows = self._rows(features)
        mean, scale, weights = (np.array(learned[k], dtype=float) for k in _VECTORS)
        return np.asarray(((rows - mean) / scale) @ weights + float(learned["bias"]))

    def check_learned(self, learned: Mapping[str, Any]) -> None:
        name, length = self.info.name, self.feature_length()
        marks = (
            {k: learned.get(k) for k in self.LEARNED_MARK} if isinstance(learned, Mapping) else {}
        )
        if (
            isinstance(learned, Mapping)
            and set(learned) >= set(_KEYS)
            and marks != self.LEARNED_MARK
        ):
            raise ValueError(
                f"{name}: this model's curve classifier was learned on the curves of an earlier "
                "version of the method; validate it again"
            )
        if not isinstance(learned, Mapping) or set(learned) != {*_KEYS, *self.LEARNED_MARK}:
            keys = (*self.LEARNED_MARK, *_KEYS)
            raise ValueError(f"{name}: the learned curve classifier needs {', '.join(keys)}")
        for key in _VECTORS:
            value = learned[key]
            if not isinstance(value, list) or len(value) != length:
                raise ValueError(f"{name}: learned {key} must be a list of {length} numbers")
            if not all(_is_finite_number(v) for v in value):
                raise ValueError(f"{name}: learned {key} holds a value that is not a number")
        if not all(v > 0 for v in learned["scale"]):
            raise ValueError(f"{name}: learned scale must be positive")
        if not _is_finite_number(learned["bias"]):
            raise ValueError(f"{name}: learned bias must be a number")
        if not _is_finite_number(learned["cost"]) or not learned["cost"] > 0:
            raise ValueError(f"{name}: learned cost must be a positive number")

    def _rows(self, features: np.ndarray) -> np.ndarray:
        rows = np.asarray(features, dtype=float)
        if rows.ndim != 2 or rows.shape[1] != self.feature_length():
            raise ValueError(
                f"{self.info.name}: feature rows must have {self.feature_length()} columns"
            )
        return rows


_VECTORS = ("mean", "scale", "weights")
_KEYS = (*_VECTORS, "bias", "cost")


def _is_finite_number(value: object) -> bool:
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and bool(np.isfinite(value))
    )


METHOD = Unmasking
