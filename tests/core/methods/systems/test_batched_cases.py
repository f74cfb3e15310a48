"""Generalised Unmasking's cases computed together give each case's own numbers, digit for digit.

Issue 34 item 3: the validation's trials and the stability check's resamples are unmasked many
cases at once (``features_many``, ``degradation_curves``' ``batch``), the representer's Gram
matrices kept from round to round where exact (``linear_svm.exact_gram``). Each is checked here
against the computation case by case: the same SVM fits, the same curves, the same features,
the same scores — a case that cannot be compared reported in its place."""

from __future__ import annotations

import numpy as np
import pytest

from taveer_desktop.core.calibration.calibration import Calibration
from taveer_desktop.core.methods.systems import comparison_validation, linear_svm
from taveer_desktop.core.methods.systems.comparison import CannotCompare, CaseTexts
from taveer_desktop.core.methods.systems.comparison_model import ComparisonPart
from taveer_desktop.core.methods.systems.comparison_stability import (
    BATCH,
    SentenceSegments,
    resampled_comparison,
)
from taveer_desktop.core.methods.systems.comparison_trials import Impostors
from taveer_desktop.core.methods.systems.comparison_verify import ComparisonScorer
from taveer_desktop.core.methods.systems.genunmasking import GeneralisedUnmasking
from taveer_desktop.core.methods.systems.unmasking import Unmasking, degradation_curves
from taveer_desktop.core.methods.taveer.stability import resample_weights
from tests.core.methods.systems.unmasking_trials import GENUNMASKING_SMALL, stackexchange_cases

SMALL = GENUNMASKING_SMALL


def _text(seed: int, words: int, vocabulary: int) -> str:
    rng = np.random.default_rng(seed)
    ids = rng.zipf(1.3, size=words) % vocabulary
    return " ".join(f"w{i}" for i in ids)


def _counts(seed: int, sets: int, samples: int, features: int) -> np.ndarray:
    return np.random.default_rng(seed).poisson(1.5, size=(sets, samples, features)).astype(float)


def test_stacked_batches_fit_as_each_alone() -> None:
    """Two independent batches (representer shapes, different active-set sizes) in one call:
    every weight, output and accuracy is bit for bit that of the batch fitted alone."""
    y = np.broadcast_to(np.r_[np.ones(10), -np.ones(10)], (2, 20))
    folds = np.stack(
        [linear_svm.stratified_folds(y[0], 5, np.random.default_rng(s)) for s in (1, 2)]
    )
    first, second = _counts(1, 2, 20, 60), _counts(2, 2, 20, 60)
    second[:, :, 12:] = 0.0  # 12 words: more chunks inside the margin
    alone = [linear_svm.cross_validate(x, y, folds, 5) for x in (first, second)]
    both = linear_svm.cross_validate(
        np.concatenate([first, second]),
        np.concatenate([y, y]),
        np.concatenate([folds, folds]),
        5,
        batch=np.array([0, 0, 1, 1]),
    )
    np.testing.assert_array_equal(both.weights, np.concatenate([a.weights for a in alone]))
    np.testing.assert_array_equal(both.accuracy, np.concatenate([a.accuracy for a in alone]))
    outputs = np.concatenate([a.fit.outputs for a in alone])
    np.testing.assert_array_equal(both.fit.outputs, outputs)
    sizes = [int(a.fit.active.sum(axis=1).max()) for a in alone]
    assert sizes[0] != sizes[1]  # the batches' systems are padded to different sizes


def test_stacked_cases_unmask_as_each_alone() -> None:
    """Every round (active-set starts, kept Gram matrices): the stacked curves are each case's
    (numpy's stacking; the compiled curve takes set by set, test_native_curve.py)."""
    y = np.broadcast_to(np.r_[np.ones(12), -np.ones(12)], (3, 24))
    rng = np.random.default_rng(4)
    folds = np.stack([linear_svm.stratified_folds(y[0], 4, rng) for _ in range(3)])
    cases = [_counts(seed, 3, 24, 40) for seed in (5, 6)]
    alone = [degradation_curves(x, y, folds, 4, 2, 6, compiled=False) for x in cases]
    both = degradation_curves(
        np.concatenate(cases),
        np.concatenate([y, y]),
        np.concatenate([folds, folds]),
        4,
        2,
        6,
        batch=np.repeat([0, 1], 3),
        compiled=False,
    )
    np.testing.assert_array_equal(both, np.concatenate(alone))


def test_the_kept_gram_matrices_are_those_summed_afresh() -> None:
    x = _counts(7, 3, 20, 50)
    augmented = np.concatenate([x, np.ones((3, 20, 1))], axis=2)
    gram = linear_svm.exact_gram(x)
    assert gram is not None
    np.testing.assert_array_equal(gram, augmented @ augmented.transpose(0, 2, 1))
    removed = np.array([[0, 7, 9], [1, 2, 3], [49, 10, 20]])
    linear_svm.without_columns(gram, np.take_along_axis(x, removed[:, None, :], axis=2))
    x[np.arange(3)[:, None], :, removed] = 0.0
    augmented = np.concatenate([x, np.ones((3, 20, 1))], axis=2)
    np.testing.assert_array_equal(gram, augmented @ augmented.transpose(0, 2, 1))
    assert linear_svm.exact_gram(x + 0.5) is None  # not whole numbers: summed afresh
    assert linear_svm.exact_gram(_counts(7, 1, 60, 20)) is None  # the primal's shapes
    assert linear_svm.exact_gram(np.full((1, 4, 8), 2.0**30)) is None  # sums beyond 2⁵²


def _small_cases() -> list[CaseTexts]:
    return [
        CaseTexts((_text(1, 400, 60),), _text(2, 300, 60)),
        CaseTexts((_text(3, 500, 80), _text(4, 200, 80)), _text(5, 250, 80)),
        CaseTexts(("some words",), " ... "),  # no words in the questioned text
        CaseTexts((_text(6, 300, 9),), _text(7, 300, 9)),  # 9 words: fewer feature columns
        CaseTexts((_text(8, 350, 50),), _text(9, 280, 50)),
    ]


def test_features_of_many_cases_are_each_cases_own() -> None:
    method = GeneralisedUnmasking(SMALL)
    cases = _small_cases()
    together = method.features_many(
        [(c, (), np.random.default_rng(i)) for i, c in enumerate(cases)]
    )
    assert isinstance(together[2], CannotCompare)
    assert "the questioned text has none" in str(together[2])
    for index, case in enumerate(cases):
        if index == 2:
            continue
        alone = method.features(case, (), np.random.default_rng(index))
        np.testing.assert_array_equal(together[index], alone)
    assert GeneralisedUnmasking.BATCHES and not Unmasking.BATCHES


def test_a_method_that_does_not_batch_gives_each_case_in_turn() -> None:
    method = Unmasking({"chunk_words": 3, "initial_features": 41})
    case = CaseTexts((_text(1, 600, 60),), _text(2, 400, 60))
    short = CaseTexts(("a b",), "c d")  # too short for ten chunks: cannot be compared
    found = method.features_many(
        [(case, (), np.random.default_rng(1)), (short, (), np.random.default_rng(2))]
    )
    np.testing.assert_array_equal(found[0], method.features(case, (), np.random.default_rng(1)))
    assert isinstance(found[1], CannotCompare)


def test_a_validation_chunk_is_unmasked_together_with_each_trials_features() -> None:
    method = GeneralisedUnmasking(SMALL)
    cases = _small_cases()
    tasks = [(10 + i, case, None, (3, 0, i)) for i, case in enumerate(cases)]
    work = comparison_validation._Work(method, Impostors((), (), {}))
    found, _ = comparison_validation._compute(work, tasks)
    assert [row for row, _ in found] == [10, 11, 12, 13, 14]
    assert isinstance(found[2][1], str) and "the questioned text has none" in found[2][1]
    for (_, vector), (_, case, _, seed) in zip(found, tasks, strict=True):
        if isinstance(vector, str):
            continue
        alone = method.features(case, (), np.random.default_rng(list(seed)))
        np.testing.assert_array_equal(vector, alone)


def _scorer() -> ComparisonScorer:
    method = GeneralisedUnmasking(SMALL)
    rows = np.random.default_rng(0).normal(size=(8, method.feature_length()))
    part = ComparisonPart(
        id="genunmasking",
        params=dict(SMALL),
        learned=method.learn(rows, np.array([True, False] * 4)),
        calibration=Calibration(intercept=0.0, slope=1.0, prior_log_odds=0.0),
        seed=5,
        raw_range=None,
        impostors=None,
    )
    return ComparisonScorer(part)


SENTENCES = [f"The {_text(i, 12, 40)} went on. " for i in range(30)]


def test_the_stability_checks_resamples_are_scored_together_as_one_by_one() -> None:
    scorer = _scorer()
    known, questioned = ["".join(SENTENCES[:18])], "".join(SENTENCES[18:])
    resamples = BATCH + 3  # the first alone, then a batch and the rest
    keep_u, keep_k = resample_weights(known, questioned, resamples, 2)
    raws = resampled_comparison(scorer, known, questioned, keep_u, keep_k, 9, workers=1)
    segments = SentenceSegments.of(known, questioned)
    alone = [scorer.score(segments.case(keep_u[b], keep_k[b]), (9, b)) for b in range(resamples)]
    assert all(isinstance(raw, float) for raw in alone)
    np.testing.assert_array_equal(raws, alone)
    cases = [(segments.case(keep_u[b], keep_k[b]), (9, b)) for b in range(5)]
    assert scorer.score_many(cases) == alone[:5]


@pytest.mark.slow
def test_real_cases_together_are_each_cases_own_features() -> None:
    """The paper's settings on the first Stack Exchange test cases (skips where the shared
    corpus is absent), one that cannot be compared among them."""
    cases = [case for case, _ in stackexchange_cases(8)]
    cases.insert(3, CaseTexts(("some words",), " ... "))
    method = GeneralisedUnmasking()
    together = method.features_many(
        [(case, (), np.random.default_rng(i)) for i, case in enumerate(cases)]
    )
    assert isinstance(together[3], CannotCompare)
    for index, case in enumerate(cases):
        if index != 3:
            alone = method.features(case, (), np.random.default_rng(index))
            np.testing.assert_array_equal(together[index], alone)
