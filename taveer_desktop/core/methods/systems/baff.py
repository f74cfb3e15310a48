"""BAFF, the "Basic and Fairly Flawed" verifier of Bevendorff, Hagen, Stein and Potthast (2019),
"Bias Analysis and Mitigation in the Evaluation of Authorship Verification", ACL 2019,
pp. 6301-6306.

The authors built BAFF to show that the PAN verification benchmarks' biases let a very simple
model score among the best: "one of the most basic approaches: a TFIDF-weighted character
3-gram model", extended "with a few additional features, such as the Kullback-Leibler
divergence and related" ones (the paper's introduction). That much is the paper's; which
related measures, how the divergences are smoothed and which classifier combines them are our
reading (the full method section could not be consulted here) — check them against the paper
before relying on BAFF's figures. As implemented:

* the known documents (counted together) and the questioned text become TF-IDF vectors of
  plain character 3-grams: raw counts × idf, idf(g) = ln((1 + D) / (1 + df(g))) + 1 over a
  collection of D documents — the impostor documents (other authors of the validation
  population, standing in for the training corpus the original fitted its weights on) plus the
  case's two sides;
* five features of the pair: the cosine similarity of the two vectors, and between the two
  vectors normalised to distributions p (questioned) and q (known) over their joint 3-grams,
  the Kullback-Leibler divergence KL(p‖q) (both smoothed: p' = (1 − ε) p + ε / |V|,
  ε = ``SMOOTHING``), the skew divergence KL(p ‖ α q + (1 − α) p) with α = 0.99, the
  Jensen-Shannon divergence (base 2) and the Hellinger distance sqrt(½ Σ (√p − √q)²);
* a logistic regression on the standardised features, learned on the validation's training
  trials (``learn``); the raw score is its log-odds (higher = more like the same author), which
  the validation then calibrates to a likelihood ratio. Training trials of one kind only leave
  nothing to learn: the score is then the standardised cosine alone.

BAFF has no tuned hyperparameters in the seed; ``DEFAULTS`` are the 3-gram order and the L2
penalty of the logistic regression.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.methods.systems.char_ngrams import (
    NgramMatrix,
    document_ngrams,
    population,
    text_ngrams,
)
from taveer_desktop.core.methods.systems.comparison import (
    CannotCompare,
    CaseTexts,
    ComparisonMethod,
)
from taveer_desktop.core.methods.systems.param_checks import real_number, whole_number

SMOOTHING = 1e-4
SKEW = 0.99
FEATURES = ("cosine", "kullback_leibler", "skew", "jensen_shannon", "hellinger")


def _kl(p: np.ndarray, q: np.ndarray) -> float:
    """KL(p‖q) in nats; terms with p = 0 contribute 0 (q must be > 0 where p > 0)."""
    where = p > 0
    return float(np.sum(p[where] * np.log(p[where] / q[where])))


def pair_features(tfidf_questioned: np.ndarray, tfidf_known: np.ndarray) -> np.ndarray:
    """The five BAFF features of two TF-IDF vectors on one vocabulary (module docstring)."""
    norms = np.linalg.norm(tfidf_questioned) * np.linalg.norm(tfidf_known)
    cosine = float(tfidf_questioned @ tfidf_known / norms) if norms > 0 else 0.0
    joint = (tfidf_questioned > 0) | (tfidf_known > 0)
    p = tfidf_questioned[joint] / tfidf_questioned.sum()
    q = tfidf_known[joint] / tfidf_known.sum()
    size = len(p)
    kullback_leibler = _kl(
        (1 - SMOOTHING) * p + SMOOTHING / size, (1 - SMOOTHING) * q + SMOOTHING / size
    )
    skew = _kl(p, SKEW * q + (1 - SKEW) * p)
    middle = (p + q) / 2
    jensen_shannon = (_kl(p, middle) + _kl(q, middle)) / (2 * np.log(2))
    hellinger = float(np.sqrt(0.5 * np.sum((np.sqrt(p) - np.sqrt(q)) ** 2)))
    return np.array([cosine, kullback_leibler, skew, jensen_shannon, hellinger])


def fit_logistic(x: np.ndarray, truth: np.ndarray, penalty: float) -> tuple[np.ndarray, float]:
    """Weights and intercept of an L2-penalised logistic regression (Newton's method; the
    intercept is not penalised)."""
    design = np.hstack([x, np.ones((len(x), 1))])
    ridge = np.full(design.shape[1], penalty)
    ridge[-1] = 0.0
    beta = np.zeros(design.shape[1])
    target = truth.astype(float)
    for _ in range(100):
        prob = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -500, 500)))
        gradient = design.T @ (prob - target) + ridge * beta
        hessian = (
            (design.T * (prob * (1 - prob))) @ design + np.diag(ridge) + 1e-9 * np.eye(len(beta))
        )
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta[:-1], float(beta[-1])


class Baff(ComparisonMethod):
    """Bevendorff et al.'s BAFF verifier (see the module)."""

    info = method_info(MethodId.BAFF)
    DEFAULTS: ClassVar[Mapping[str, Any]] = {"n": 3, "penalty": 1.0}

    def check_params(self, params: Mapping[str, Any]) -> None:
        whole_number(params, "n", 1, 20)
        real_number(params, "penalty", 0.0, 1e6)

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        n = self.params["n"]
        known = document_ngrams(case.known, n)
        questioned = text_ngrams(case.questioned, n)
        for side, counts in (("questioned text", questioned), ("known documents", known)):
            if counts.total == 0:
                raise CannotCompare(
                    f"BAFF needs character {n}-grams in both texts; the {side} has none "
                    f"(fewer than {n} characters)"
                )
        pair = NgramMatrix.of([questioned, known])
        rows = pair.dense([0, 1])
        pool = population(impostors, n)
        ids = pool.locate(pair.vocabulary)
        document_frequency = (rows > 0).sum(axis=0)  # the case's two sides
        found = ids >= 0
        document_frequency[found] += pool.document_frequency[ids[found]]
        documents = pool.counts.rows + 2
        idf = np.log((1.0 + documents) / (1.0 + document_frequency)) + 1.0
        rows = rows * idf
        return pair_features(rows[0], rows[1])

    def learn(self, features: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
        x = np.asarray(features, dtype=float)
        truth = np.asarray(truth, dtype=bool)
        mean = x.mean(axis=0)
        scale = x.std(axis=0)
        scale[scale == 0] = 1.0
        if truth.all() or not truth.any():  # nothing to learn from: the cosine alone
            weights, intercept = np.eye(len(FEATURES))[0], 0.0
        else:
            weights, intercept = fit_logistic((x - mean) / scale, truth, self.params["penalty"])
        return {
            "features": list(FEATURES),
            "mean": mean.tolist(),
            "scale": scale.tolist(),
            "weights": weights.tolist(),
            "intercept": intercept,
        }

    def check_learned(self, learned: Mapping[str, Any]) -> None:
        if list(learned.get("features", [])) != list(FEATURES):
            raise ValueError(f"BAFF's learned features must be {', '.join(FEATURES)}")
        for key in ("mean", "scale", "weights"):
            values = np.asarray(learned.get(key), dtype=float)
            if values.shape != (len(FEATURES),) or not np.all(np.isfinite(values)):
                raise ValueError(f"BAFF's learned {key} must be {len(FEATURES)} finite numbers")
        if np.any(np.asarray(learned["scale"], dtype=float) <= 0):
            raise ValueError("BAFF's learned scale must be positive")
        intercept = learned.get("intercept")
        if isinstance(intercept, bool) or not isinstance(intercept, int | float):
            raise ValueError("BAFF's learned intercept must be a number")
        if not np.isfinite(intercept):
            raise ValueError("BAFF's learned intercept must be finite")

    def score(self, features: np.ndarray, learned: Mapping[str, Any]) -> np.ndarray:
        self.check_learned(learned)
        x = np.asarray(features, dtype=float)
        z = (x - np.asarray(learned["mean"])) / np.asarray(learned["scale"])
        return np.asarray(z @ np.asarray(learned["weights"]) + float(learned["intercept"]))


METHOD = Baff
