"""Models through the window: train with progress and cancel, the GUI stays responsive, closing
during training, the model manager, evaluation, import and export."""

from __future__ import annotations

import time

import pytest
from conftest import corpus_path
from PySide6.QtCore import Qt, QTimer

from taveer_desktop.store import ProjectStore

from .conftest import make_pan_corpus, open_window

STALL_LIMIT_MS = 100


@pytest.fixture
def slow_cases(monkeypatch):
    """Each training case takes at least 30 ms, so a cancel always lands mid-training."""
    from taveer_desktop.core.methods.taveer import training

    real = training.distances_of_texts

    def slowed(*args, **kwargs):
        time.sleep(0.03)
        return real(*args, **kwargs)

    monkeypatch.setattr(training, "distances_of_texts", slowed)


class StallMeter:
    """Ticks every 10 ms on the GUI thread and records the longest gap between ticks."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.longest_ms = 0.0
        self.ticks = 0

    def start(self) -> None:
        self.last = time.perf_counter()
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest_ms = max(self.longest_ms, (now - self.last) * 1000)
        self.last = now
        self.ticks += 1

    def stop(self) -> None:
        self.timer.stop()


@pytest.mark.slow  # 2.5-5.5 s in a quiet quick-loop run (CONTRIBUTING's rule)
def test_train_with_progress_then_cancel_then_train_to_the_end(qtbot, window, tmp_path, slow_cases):
    corpus = make_pan_corpus(tmp_path / "brontes", cases=24)
    dialog = window.models.open_train_dialog()
    dialog.set_corpus_folder(corpus)
    assert "24 cases (12 same author, 12 different)" in dialog.corpus_info.text()
    assert dialog.name_edit.text() == "TAVeer model (brontes)"
    assert dialog.train_button.isEnabled()

    # first run: cancel at the first progress report
    progress = []
    worker = dialog.start_training()
    worker.signals.progress.connect(lambda d, t, m: progress.append((d, t, m)))
    qtbot.waitUntil(lambda: bool(progress), timeout=10_000)
    assert dialog.progress.isVisible() and dialog.progress.bar.maximum() == 24
    clicked = time.monotonic()
    with qtbot.waitSignal(dialog.training_cancelled, timeout=5_000):
        dialog.progress.cancel_button.click()
    print(f"\ncancel to cancelled: {(time.monotonic() - clicked) * 1000:.0f} ms")
    assert time.monotonic() - clicked < 1.0
    assert "Nothing was stored" in dialog.status.text()
    assert window.session.models() == []
    assert not window.runner.busy

    # second run: to the end; the model is kept and listed
    with qtbot.waitSignal(dialog.model_trained, timeout=60_000) as blocker:
        dialog.start_training()
    stored = blocker.args[0]
    assert stored.name == "TAVeer model (brontes)"
    assert stored.corpus_name == "brontes"
    assert "kept in the project" in dialog.status.text()
    assert not dialog.train_button.isEnabled()  # the name is taken now
    manager = window.models.open_manager()
    assert manager.model.rowCount() == 1
    summary = manager.model.record(0)
    assert summary.cases == 24 and 0.0 <= summary.accuracy <= 1.0
    assert summary.ensemble
    assert [e.action for e in window.session.audit(None)].count("model_added") == 1


def test_the_gui_stays_responsive_while_training(qtbot, window):
    corpus = corpus_path("stackexchange", "train")
    dialog = window.models.open_train_dialog()
    dialog.set_corpus_folder(corpus)
    meter = StallMeter()
    meter.start()
    started = time.perf_counter()
    with qtbot.waitSignal(dialog.model_trained, timeout=120_000):
        dialog.start_training()
    seconds = time.perf_counter() - started
    meter.stop()
    print(f"\ntraining 136 cases: {seconds:.2f} s, longest GUI stall {meter.longest_ms:.1f} ms")
    assert meter.ticks > 10
    assert meter.longest_ms < STALL_LIMIT_MS


@pytest.mark.parametrize("answer", [True, False])
def test_closing_during_training_asks_and_cancels_cleanly(qtbot, tmp_path, answer, slow_cases):
    project = tmp_path / "closing.taveer"
    window = open_window(qtbot, project)
    corpus = make_pan_corpus(tmp_path / "brontes", cases=32)
    asked = []
    window.confirm_close_while_busy = lambda titles: asked.append(titles) or answer
    dialog = window.models.open_train_dialog()
    dialog.set_corpus_folder(corpus)
    progress = []
    worker = dialog.start_training()
    worker.signals.progress.connect(lambda d, t, m: progress.append(d))
    qtbot.waitUntil(lambda: bool(progress), timeout=10_000)
    started = time.monotonic()
    window.close()
    assert asked and "Training TAVeer model (brontes)" in asked[0]
    if not answer:  # the user said no: nothing stops
        assert window.isVisible() and window.runner.busy
        worker.cancel()
        qtbot.waitUntil(lambda: not window.runner.busy, timeout=10_000)
        return
    print(f"\nclose during training: {(time.monotonic() - started) * 1000:.0f} ms")
    assert time.monotonic() - started < 1.5
    assert not window.isVisible() and not window.session.is_open
    with ProjectStore.open(project) as store:  # consistent, and no half-trained model
        assert store.last_integrity_report.ok
        assert store.models.list_all() == []


def test_evaluate_a_model_on_a_test_corpus(qtbot, demo_window, tiny_corpus):
    dialog = demo_window.models.open_evaluate_dialog()
    dialog.choose_model("TAVeer formal prose (public-domain demo)")
    dialog.set_corpus_folder(tiny_corpus)
    with qtbot.waitSignal(dialog.evaluation_finished, timeout=60_000) as blocker:
        dialog.start_evaluation()
    metrics = blocker.args[0].metrics
    assert metrics.n == 8
    cells = {k: int(label.text()) for k, label in dialog.matrix_labels.items()}
    assert sum(cells.values()) == 8
    assert cells == {"tp": metrics.tp, "fn": metrics.fn, "fp": metrics.fp, "tn": metrics.tn}
    assert dialog.metric_labels["accuracy"].text() == f"{metrics.accuracy:.3f}"
    assert metrics.cllr is not None  # the bundled model is calibrated: Evaluate shows its Cllr
    assert dialog.metric_labels["cllr"].text() == f"{metrics.cllr:.3f}"
    assert dialog.metric_labels["cllr_min"].text() == f"{metrics.cllr_min:.3f}"
    for key in ("auc", "c_at_1", "f05u", "brier"):
        assert dialog.metric_labels[key].text() != "—" or key == "auc"
    assert dialog.results.isVisible()
    gate = blocker.args[0].gate  # the gate's verdict on the corpus, in the presentation's words
    assert gate.cases == 8 and gate.evaluative + gate.investigative + gate.no_conclusion == 8
    assert dialog.gate_label.text().startswith(f"{gate.evaluative} of 8 (")
    verb = "gets" if gate.no_conclusion == 1 else "get"
    assert f"{gate.no_conclusion} {verb} no conclusion" in dialog.gate_label.text()
    assert f"{gate.investigative} " in dialog.gate_label.text()  # the three kinds add up
    charts = dialog.show_charts()  # the model view of this evaluation (violins, ROC, Tippett)
    qtbot.addWidget(charts)
    from taveer_desktop.ui.explain import ModelView

    summary = charts.findChild(ModelView).summary.text()  # (in a scroll area: a small screen)
    assert f"accuracy {metrics.accuracy:.3f}" in summary and f"AUC {metrics.auc:.3f}" in summary
    area = charts.screen().availableGeometry()
    assert charts.width() >= area.width() * 8 // 10  # room for the charts
    qtbot.keyClick(charts, Qt.Key.Key_Escape)
    assert not charts.isVisible()


def test_a_folder_that_is_no_corpus_is_explained_before_training(qtbot, window, tmp_path):
    dialog = window.models.open_train_dialog()
    dialog.set_corpus_folder(tmp_path)
    assert dialog.corpus_info.text().startswith("Cannot use this folder")
    assert not dialog.train_button.isEnabled()


def test_export_and_import_a_model(qtbot, demo_window, tmp_path):
    window = demo_window
    name = "TAVeer default (Stack Exchange)"
    target = window.models.export_model(name, tmp_path / "exported.json")
    store = window.session.store
    assert target.read_bytes() == store.models.json_bytes(store.models.find(name).id)
    assert not list(tmp_path.glob(".*.partial"))
    other = open_window(qtbot, tmp_path / "other.taveer")
    assert other.models.import_model(target)
    assert [m.name for m in other.session.models()] == [name]
    assert not other.models.import_model(target)  # the same model twice is refused plainly
