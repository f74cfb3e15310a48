"""Model view on a real evaluation (AUC equals the engine's) and the standalone launcher."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QImage

from taveer_desktop import paths
from taveer_desktop.core.calibration.calibration import tippett_curves
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.taveer.model import load_model
from taveer_desktop.core.validation.evaluation import evaluate
from taveer_desktop.ui.explain import ModelView
from taveer_desktop.ui.explain.chart_export import export_png, export_svg


@pytest.fixture(scope="module")
def evaluation():
    from conftest import corpus_path

    model = load_model(paths.resource("models", "default.json"))
    corpus = open_corpus(corpus_path("stackexchange", "test"))
    return model, evaluate(model, corpus, workers=1), corpus.name


@pytest.mark.corpus
def test_model_view_auc_equals_the_engines(qtbot, tmp_path, evaluation):
    model, result, name = evaluation
    view = ModelView()
    qtbot.addWidget(view)
    view.resize(1300, 850)
    view.show()
    view.show_evaluation(model, result, name)
    assert view.auc == result.metrics.auc
    assert view.roc_area == pytest.approx(result.metrics.auc, abs=1e-12)
    assert f"AUC = {result.metrics.auc:.3f}" in view.roc_plot.titleLabel.text
    assert f"AUC {result.metrics.auc:.3f}" in view.summary.text()
    # the Tippett curves drawn are the engine's
    x, share_y, _share_n = tippett_curves(result.log10_lr, result.truth)
    drawn = view.tippett_plot.listDataItems()[0].getData()
    assert np.array_equal(drawn[0], x) and np.array_equal(drawn[1], share_y)
    qtbot.waitExposed(view)
    png = export_png(view.charts, tmp_path / "model.png")
    assert not QImage(str(png)).isNull()
    assert export_svg(view.charts, tmp_path / "model.svg").stat().st_size > 1000


@pytest.fixture
def application_font_restored(qapp):
    """The launcher sets the application font; later tests must get the font they had."""
    font = qapp.font()
    yield
    qapp.setFont(font)


def test_launcher_writes_screenshots(tmp_path, application_font_restored):
    from taveer_desktop.ui.explain.__main__ import main

    demo = paths.resource("demo", "federalist")
    known = [str(demo / f"federalist_{n}.txt") for n in ("10", "14")]
    code = main(
        [
            str(paths.resource("models", "demo-formal-prose.json")),
            "--known",
            *known,
            "--unknown",
            str(demo / "federalist_51_questioned.txt"),
            "--category",
            "F4",
            "--screenshot",
            str(tmp_path / "shot"),
            "--size",
            "1200x800",
        ]
    )
    assert code == 0
    for part in ("result", "features", "importance", "evidence", "distance"):
        image = QImage(str(tmp_path / f"shot-{part}.png"))
        assert not image.isNull() and image.width() > 200, part


def test_launcher_refuses_a_case_without_texts(capsys):
    from taveer_desktop.ui.explain.__main__ import main

    assert main([str(paths.resource("models", "default.json"))]) == 2
    assert "--known" in capsys.readouterr().err
