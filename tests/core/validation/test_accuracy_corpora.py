"""End to end on the shared corpora: train on train/, evaluate on test/, with sane floors.

Measured when written (median thresholds): stackexchange accuracy 0.652, AUC 0.722; reuters-c50
accuracy 0.70–0.72, AUC 0.73. The floors below catch a broken engine, not small changes.
"""

from __future__ import annotations

import pytest
from conftest import corpus_path
from golden_compare import same_record

from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.intake.corpus import PAN_FOLDER, PAN_JSONL, open_corpus
from taveer_desktop.core.methods.taveer.training import train
from taveer_desktop.core.validation.evaluation import evaluate

pytestmark = pytest.mark.corpus

CORPORA = ("stackexchange", "stackexchange-jsonl", "reuters-c50")
MIN_ACCURACY = 0.55
MIN_AUC = 0.6

_cache: dict[tuple[str, int], tuple] = {}


def trained_and_evaluated(name: str, workers: int = 1):
    """(model, evaluation) of a corpus, computed once per test session."""
    key = (name, workers)
    if key not in _cache:
        train_corpus = open_corpus(corpus_path(name, "train"))
        test_corpus = open_corpus(corpus_path(name, "test"))
        model = train(train_corpus, workers=workers)
        _cache[key] = (model, evaluate(model, test_corpus, workers=1), train_corpus, test_corpus)
    return _cache[key]


@pytest.mark.slow
@pytest.mark.parametrize("name", CORPORA)
def test_train_then_evaluate_beats_the_floors(name):
    model, result, train_corpus, test_corpus = trained_and_evaluated(name)
    metrics = result.metrics
    assert metrics.n == len(test_corpus)
    assert metrics.tp + metrics.fn + metrics.fp + metrics.tn == metrics.n
    assert metrics.accuracy > MIN_ACCURACY, metrics
    assert metrics.auc > MIN_AUC, metrics
    for value in (metrics.c_at_1, metrics.f05u, metrics.brier):
        assert 0.0 <= value <= 1.0
    # the model records where it came from
    assert model.training.cases == len(train_corpus)
    assert model.training.corpus_sha256 == train_corpus.sha256
    assert model.training.cases_y + model.training.cases_n == model.training.cases
    assert set(model.thresholds) == set(CATEGORY_IDS)
    assert model.ensemble and set(model.ensemble) <= set(CATEGORY_IDS)
    assert 0.5 < model.training.accuracy <= 1.0


def test_folder_and_jsonl_layouts_give_identical_results():
    folder_model, folder_result, folder_corpus, _ = trained_and_evaluated("stackexchange")
    jsonl_model, jsonl_result, jsonl_corpus, _ = trained_and_evaluated("stackexchange-jsonl")
    assert folder_corpus.layout == PAN_FOLDER and jsonl_corpus.layout == PAN_JSONL
    # distances add their terms smallest first, so the thresholds (medians of distances) are
    # the same to the last bit whichever importer read the texts, in whatever order
    assert folder_model.thresholds == jsonl_model.thresholds
    assert folder_model.ensemble == jsonl_model.ensemble
    assert folder_model.training.accuracy == jsonl_model.training.accuracy
    # the evaluation's figures are sums over cases taken in each layout's own case order, which
    # NumPy may round differently in the last digit: compared within the golden tolerance
    folder, jsonl = folder_result.metrics.to_dict(), jsonl_result.metrics.to_dict()
    assert same_record(folder, jsonl) is None


@pytest.mark.slow
@pytest.mark.parametrize("name", ["stackexchange", "reuters-c50"])
def test_two_workers_train_exactly_the_same_model_as_one(name):
    one, one_result, train_corpus, _ = trained_and_evaluated(name, workers=1)
    two, two_result, _, _ = trained_and_evaluated(name, workers=2)
    assert len(train_corpus) >= 16  # large enough for the process pool to be used
    assert two.thresholds == one.thresholds
    assert two.ensemble == one.ensemble
    assert two.training.accuracy == one.training.accuracy
    assert two.training.atomic_accuracy == one.training.atomic_accuracy
    assert two.training.abstentions == one.training.abstentions
    assert two_result.metrics == one_result.metrics


def test_evaluation_with_two_workers_gives_the_same_scores():
    model, result, _, test_corpus = trained_and_evaluated("reuters-c50")
    parallel = evaluate(model, test_corpus, workers=2)
    assert parallel.case_ids == result.case_ids
    assert parallel.scores.tolist() == result.scores.tolist()
    assert parallel.metrics == result.metrics
