"""Evaluating a model on a test corpus with known answers, in the background.

Shows the cost of the likelihood ratios (Cllr, Cllr_min), the paper's and PAN's measures
(accuracy, AUC, c@1, F0.5u, Brier complement) and the
confusion matrix. Nothing is written to the project.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.intake.corpus_description import describe_corpus
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.validation.evaluation import Evaluation, Metrics
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import gate_summary_text
from taveer_desktop.ui import jobs
from taveer_desktop.ui.dialog_size import fit_size, keep_on_screen, resize_to_fit
from taveer_desktop.ui.elided_combo import ElidedComboBox
from taveer_desktop.ui.folder_choice import choose_folder
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.progress_panel import ProgressPanel
from taveer_desktop.ui.project_session import ProjectSession
from taveer_desktop.ui.task_worker import Job, TaskWorker

METRIC_ROWS = (
    (
        "cllr",
        "Cllr",
        "Cost of the model's likelihood ratios on these cases: 0 is perfect, 1 tells nothing, "
        "above 1 misleads; lower is better (— for a model without calibration)",
    ),
    (
        "cllr_min",
        "Cllr_min",
        "The cost after the best possible recalibration: what the scores could give; Cllr − "
        "Cllr_min is lost to calibration",
    ),
    ("accuracy", "Accuracy", "Share of cases decided correctly (score above 0.5 means Y)"),
    ("auc", "AUC", "Area under the ROC curve: how well the scores rank Y above N cases"),
    ("c_at_1", "c@1", "PAN: accuracy that rewards leaving hard cases unanswered (score 0.5)"),
    ("f05u", "F0.5u", "PAN: F0.5 that counts unanswered cases as false negatives"),
    ("brier", "Brier (complement)", "1 − mean squared error of the scores; higher is better"),
)


def metric_text(metrics: Metrics, key: str) -> str:
    return numbers.decimal(getattr(metrics, key))  # a dash for NaN (e.g. AUC with one class)


class EvaluateDialog(QDialog):
    evaluation_finished = Signal(object)  # Evaluation

    def __init__(
        self, session: ProjectSession, runner: JobRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.runner = runner
        self.worker: TaskWorker | None = None
        self.evaluation: Evaluation | None = None
        self.evaluated_model: Model | None = None
        self.charts_dialog: QDialog | None = None
        self.setWindowTitle(f"Evaluate Model — {PROGRAM_NAME}")
        # as wide as the dialog, not as its longest model name (a validated model's name made
        # the dialog 1,272 pixels wide on a 910-pixel screen at 150 %), the name shortened with
        # "…" where it does not fit (it was cut off mid-number); the list shows names whole
        self.model_combo = ElidedComboBox()
        self.model_combo.setToolTip("The model to evaluate")
        self.model_combo.currentTextChanged.connect(
            lambda name: self.model_combo.setToolTip(f"The model to evaluate: {name}")
        )
        self.folder_edit = QLineEdit()
        self.folder_edit.setToolTip("A test corpus folder in a PAN layout, with its truth")
        self.folder_edit.editingFinished.connect(self._folder_changed)
        browse = QPushButton("&Browse…")
        browse.setToolTip("Choose the test corpus folder")
        browse.clicked.connect(self._browse)
        self._browse_button = browse
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder_edit, stretch=1)
        folder_row.addWidget(browse)
        self.corpus_info = QLabel("No corpus chosen yet.")
        self.corpus_info.setWordWrap(True)
        form = QFormLayout()
        form.addRow("&Model:", self.model_combo)
        folder_label = QLabel("Test &corpus:")
        folder_label.setBuddy(self.folder_edit)
        form.addRow(folder_label, folder_row)
        form.addRow("", self.corpus_info)
        self.progress = ProgressPanel(self)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.results = self._build_results()
        self.results.setVisible(False)
        self.buttons = QDialogButtonBox()
        self.evaluate_button = self.buttons.addButton(
            "&Evaluate", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.evaluate_button.setToolTip("Verify every case of the corpus and compute the measures")
        self.evaluate_button.clicked.connect(self.start_evaluation)
        close = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.setToolTip("Close (cancels a running evaluation)")
        self.close_button = close
        close.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.results)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        names = [m.name for m in session.models()]
        self.model_combo.addItems(names)
        resize_to_fit(self, 70)
        self._validate()

    def _build_results(self) -> QGroupBox:
        box = QGroupBox("Results")
        self.metric_labels: dict[str, QLabel] = {}
        metrics_form = QFormLayout()
        # room below each row for an underscore ("Cllr_min" was drawn as "Cllr min", its "_"
        # covered by the next row, and under Xvfb cut off by its own label's edge): each line
        # drawn at the top of a label three pixels taller than the font's line
        metrics_form.setVerticalSpacing(max(metrics_form.verticalSpacing(), 4))
        em = self.fontMetrics().horizontalAdvance("m")  # "Brier (complement):" touched its value
        metrics_form.setHorizontalSpacing(max(metrics_form.horizontalSpacing(), em))
        tall = self.fontMetrics().height() + 3
        top = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
        for key, title, tip in METRIC_ROWS:
            label = QLabel(numbers.MISSING)
            label.setToolTip(tip)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            name = QLabel(title + ":")
            name.setToolTip(tip)
            for line in (name, label):
                line.setMinimumHeight(tall)
                line.setAlignment(top)
            metrics_form.addRow(name, label)
            self.metric_labels[key] = label
        self.cases_label = QLabel()
        metrics_form.addRow("Cases:", self.cases_label)
        self.gate_label = QLabel()
        self.gate_label.setWordWrap(True)  # across the whole box, under the figures
        self.gate_label.setToolTip(
            "Every case judged by the fitness-for-purpose gate as a verification would be"
        )
        grid = QGridLayout()
        grid.addWidget(QLabel("<b>Confusion matrix</b>"), 0, 0, 1, 3)
        grid.addWidget(QLabel("Truth ↓ / decision →"), 1, 0)
        grid.addWidget(QLabel("<b>Same author</b>"), 1, 1)
        grid.addWidget(QLabel("<b>Different</b>"), 1, 2)
        grid.addWidget(QLabel("<b>Same author</b>"), 2, 0)
        grid.addWidget(QLabel("<b>Different</b>"), 3, 0)
        self.matrix_labels: dict[str, QLabel] = {}
        cells = {"tp": (2, 1), "fn": (2, 2), "fp": (3, 1), "tn": (3, 2)}
        tips = {
            "tp": "True positives: same author, decided same author",
            "fn": "False negatives: same author, decided different",
            "fp": "False positives: different authors, decided same author",
            "tn": "True negatives: different authors, decided different",
        }
        for key, (row, column) in cells.items():
            label = QLabel(numbers.MISSING)
            label.setFrameShape(QFrame.Shape.Box)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setToolTip(tips[key])
            grid.addWidget(label, row, column)
            self.matrix_labels[key] = label
        self.charts_button = QPushButton("Show &Charts…")
        self.charts_button.setToolTip(
            "Per-category similarities of the same-author and the different-author cases, ROC "
            "curve, Tippett and calibration plots of this evaluation"
        )
        self.charts_button.clicked.connect(self.show_charts)
        grid.addWidget(self.charts_button, 4, 0, 1, 3)
        figures = QHBoxLayout()
        figures.addLayout(metrics_form, stretch=1)
        figures.addLayout(grid, stretch=1)
        conclusions = QHBoxLayout()
        caption = QLabel("Conclusions:")
        caption.setAlignment(Qt.AlignmentFlag.AlignTop)
        conclusions.addWidget(caption)
        conclusions.addWidget(self.gate_label, stretch=1)
        layout = QVBoxLayout(box)
        layout.addLayout(figures)
        layout.addLayout(conclusions)
        return box

    def show_charts(self) -> QDialog | None:
        """The model view of the last evaluation, in a window of its own."""
        if self.evaluation is None or self.evaluated_model is None:
            return None
        from taveer_desktop.ui.explain import ModelView

        dialog = QDialog(self)
        dialog.setWindowTitle(f"Model View — {self.evaluated_model.name} — {PROGRAM_NAME}")
        view = ModelView(dialog)
        view.show_evaluation(self.evaluated_model, self.evaluation, self.folder_edit.text())
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
        close.rejected.connect(dialog.reject)
        scroll = QScrollArea(dialog)  # on a small screen the charts scroll, the dialog fits
        scroll.setWidgetResizable(True)
        scroll.setWidget(view)
        layout = QVBoxLayout(dialog)
        layout.addWidget(scroll, 1)
        layout.addWidget(close)
        screen = self.screen()
        if screen is not None:  # room for the charts: most of the screen, never more
            area = screen.availableGeometry()
            dialog.resize(area.width() * 85 // 100, area.height() * 85 // 100)
        dialog.show()
        self.charts_dialog = dialog
        return dialog

    # ---- inputs -------------------------------------------------------------------------------

    def set_corpus_folder(self, folder: Path) -> None:
        self.folder_edit.setText(str(folder))
        self._folder_changed()

    def choose_model(self, name: str) -> None:
        index = self.model_combo.findText(name)
        if index >= 0:
            self.model_combo.setCurrentIndex(index)

    def _browse(self) -> None:
        folder = choose_folder(self, "Choose a test corpus folder", "corpora")
        if folder is not None:
            self.set_corpus_folder(folder)

    def _folder_changed(self) -> None:
        text = self.folder_edit.text().strip()
        self.corpus_info.setText(describe_corpus(Path(text)) if text else "No corpus chosen yet.")
        self._validate()

    def _validate(self) -> None:
        info = self.corpus_info.text()
        usable = bool(self.folder_edit.text().strip()) and not (
            info.startswith("Cannot") or "cannot be used" in info
        )
        self.evaluate_button.setEnabled(
            usable and self.model_combo.count() > 0 and self.worker is None
        )

    # ---- evaluation ---------------------------------------------------------------------------

    def start_evaluation(self) -> TaskWorker | None:
        store = self.session.store
        if self.worker is not None or store is None or not self.evaluate_button.isEnabled():
            return None
        stored = store.models.find(self.model_combo.currentText())
        model = store.models.load(stored.id)
        self.evaluated_model = model
        folder = Path(self.folder_edit.text().strip())
        job = Job(
            f"Evaluating {model.name}",
            lambda progress: jobs.evaluate_model(model, folder, progress),
            writes_store=False,
        )
        self.worker = self.runner.start(job, self._evaluated, self._failed, self._cancelled)
        self.progress.attach(self.worker)
        self.status.setText("")
        self._validate()
        return self.worker

    def _evaluated(self, evaluation: Evaluation) -> None:
        self._done(
            f"Evaluated on {numbers.count(evaluation.metrics.n, 'case')} in "
            f"{numbers.seconds(evaluation.seconds)}."
        )
        self.show_metrics(evaluation.metrics)
        self.gate_label.setText(
            gate_summary_text(evaluation.gate) if evaluation.gate else numbers.MISSING
        )
        self.evaluation = evaluation
        if self.height() < self.sizeHint().height():  # room for the results, within the screen
            self.resize(self.width(), fit_size(self, 70)[1])
            keep_on_screen(self)  # grown downwards: its bottom went off a short screen
        self.evaluation_finished.emit(evaluation)

    def show_metrics(self, metrics: Metrics) -> None:
        for key, label in self.metric_labels.items():
            label.setText(metric_text(metrics, key))
        for key, label in self.matrix_labels.items():
            label.setText(numbers.integer(getattr(metrics, key)))
        self.cases_label.setText(
            f"{numbers.integer(metrics.n)} ({numbers.integer(metrics.unanswered)} unanswered)"
        )
        self.results.setVisible(True)

    def _failed(self, message: str, _details: str) -> None:
        self._done(f"Evaluation failed: {message}")

    def _cancelled(self) -> None:
        self._done("Evaluation cancelled.")

    def _done(self, message: str) -> None:
        self.worker = None
        self.progress.detach()
        self.status.setText(message)
        self._validate()

    def reject(self) -> None:
        """Close, Escape and the close box (``QDialog.closeEvent`` calls this) stop a running
        evaluation (nothing of it is stored) and hide the dialog."""
        if self.worker is not None:
            self.worker.cancel()
        super().reject()
