"""Issue 30 item 5: every validation gives a model the program can use. Every comparison system
is validated on the train split of every shared corpus (small trial counts), its model written
to a file and read back through the reader ``verify`` uses (``load_model``: every calibration
coefficient within the bounds it enforces), and one test case verified with it. Skips with a
reason where ``../shared`` is absent."""

from __future__ import annotations

import pytest

from taveer_desktop.core.calibration.calibration import MAX_COEFFICIENT
from taveer_desktop.core.ground.registry import COMPARISON_IDS
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.systems.comparison_model import ComparisonPart
from taveer_desktop.core.methods.taveer.model import load_model, save_model
from taveer_desktop.core.trials.population import population_from_corpus
from taveer_desktop.core.validation.validation import ValidationSettings, validate
from taveer_desktop.core.verification.method_verify import verify_with_method
from tests.conftest import corpus_path
from tests.core.methods.systems.comparison_fixtures import small_settings

CORPORA = ("stackexchange", "reuters-c50")


@pytest.fixture(scope="module", params=CORPORA)
def corpus(request):
    root = corpus_path(request.param)
    return root, population_from_corpus(open_corpus(root / "train"))


def _settings(method: str) -> ValidationSettings:
    """The engine tests' small validation at the shared corpora's lengths, one repeat of 40."""
    return small_settings(
        method,
        questioned_chars=2000,
        known_chars=4500,
        repeats=1,
        max_trials=40,
        bootstrap=20,
        seed=5,
    )


@pytest.mark.slow
@pytest.mark.parametrize("method_id", COMPARISON_IDS)
def test_every_validation_writes_a_model_verify_reads(method_id, corpus, tmp_path):
    root, population = corpus
    result = validate(population, _settings(method_id))
    path = tmp_path / "model.json"
    save_model(result.model, path)
    model = load_model(path)  # the reader verify and evaluate use: refuses a slope beyond ±100
    part = ComparisonPart.of(model, str(path))
    assert part == ComparisonPart.of(result.model, "validated")
    calibration = part.calibration
    assert 0.0 <= calibration.slope <= MAX_COEFFICIENT
    assert abs(calibration.intercept) <= MAX_COEFFICIENT
    assert calibration.shrinkage is None or calibration.shrinkage >= 0.0
    case = next(iter(open_corpus(root / "test").iter_cases()))
    found = verify_with_method(model, case.known_texts, case.unknown_text).methods
    assert found is not None and found.stated == method_id
