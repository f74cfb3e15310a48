"""Today's engine against its golden record (``engine_golden.py``): every count (and the order
features are listed in), sentence count, choice and case id exactly, every distance, threshold
and score within a relative 1e-9 (``golden_compare``) of what the engine produced when the
record was written.

The demo record runs everywhere (texts shipped in ``resources/demo``); the shared record needs
``../shared`` and skips with a reason where it is absent.
"""

from __future__ import annotations

import json

import pytest
from conftest import CORPORA, DEMO_TEXTS, corpus_path
from golden_compare import same_record

from taveer_desktop.core.features.features import extract_features
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.taveer.training import train
from taveer_desktop.core.validation.evaluation import evaluate
from tests.core.engine_golden import (
    DEMO_GOLDEN,
    MODELS,
    SHARED_GOLDEN,
    corpus_record,
    demo_record,
    model_record,
    numbers,
)


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def _shared_golden() -> dict:
    if not SHARED_GOLDEN.exists():
        pytest.fail(f"{SHARED_GOLDEN} is missing")
    return _load(SHARED_GOLDEN)


@pytest.mark.slow
def test_demo_documents_case_and_stability_equal_the_golden_record():
    golden = _load(DEMO_GOLDEN)
    assert golden["lexicon_sha256"] == default_lexicon().sha256
    now = json.loads(json.dumps(demo_record()))  # tuples as lists, as in the file
    for key in ("documents", "sentences", "distances", "verification", "stability"):
        assert same_record(now[key], golden[key], key) is None


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.parametrize("name", ["stackexchange", "stackexchange-jsonl", "reuters-c50"])
@pytest.mark.parametrize("split", ["train", "test"])
def test_every_document_and_case_of_the_shared_corpora_equals_the_golden_record(name, split):
    root = corpus_path(name, split)
    golden = _shared_golden()["corpora"][name][split]
    now = corpus_record(root)
    assert list(now) == list(golden)
    for case_id, case in now.items():
        assert same_record(case, golden[case_id], case_id) is None


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.parametrize("key", [f"{n}/{m}/{'band' if b else 'no-band'}" for n, m, b in MODELS])
def test_trained_models_and_evaluations_equal_the_golden_record(key):
    name, method, band = key.split("/")
    golden = _shared_golden()["models"][key]
    model = train(
        open_corpus(corpus_path(name, "train")),
        threshold_method=method,
        workers=1,
        with_inconclusive_band=band == "band",
    )
    assert same_record(json.loads(json.dumps(model_record(model))), golden["model"]) is None
    result = evaluate(model, open_corpus(corpus_path(name, "test")), workers=1)
    assert result.case_ids == golden["evaluation"]["case_ids"]
    assert same_record(numbers(result.scores), golden["evaluation"]["scores"]) is None
    lr = None if result.log10_lr is None else numbers(result.log10_lr)
    assert same_record(lr, golden["evaluation"]["log10_lr"]) is None
    metrics = json.loads(json.dumps(result.metrics.to_dict()))
    assert same_record(metrics, golden["evaluation"]["metrics"]) is None


@pytest.mark.slow
@pytest.mark.corpus
def test_two_processes_train_the_golden_model():
    golden = _shared_golden()["models"]["stackexchange/median/no-band"]
    model = train(open_corpus(corpus_path("stackexchange", "train")), workers=2)
    assert same_record(json.loads(json.dumps(model_record(model))), golden["model"]) is None


@pytest.mark.slow
def test_shared_demo_texts_equal_the_golden_record():
    if not DEMO_TEXTS.is_dir() or not CORPORA.is_dir():
        pytest.skip(f"shared demo texts {DEMO_TEXTS} are not available on this machine")
    from tests.core.engine_golden import document_record

    golden = _shared_golden()["demo_texts"]
    lexicon = default_lexicon()
    paths = sorted(DEMO_TEXTS.glob("*/*.txt"))
    assert [str(p.relative_to(DEMO_TEXTS)) for p in paths] == list(golden)
    for path in paths:
        features = extract_features(path.read_text(encoding="utf-8"), lexicon)
        assert document_record(features) == golden[str(path.relative_to(DEMO_TEXTS))], path.name
