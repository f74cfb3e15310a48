"""Training a model: pick a PAN corpus folder and a name, train in the background, keep it.

Training runs on the compute pool (it only reads the corpus); the finished model is then stored
by one short job on the store's writer pool. Cancel stops within a fraction of a second (the
engine checks between cases) and nothing is stored. Closing the dialog while training asks
first and cancels.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.intake.corpus_description import describe_corpus
from taveer_desktop.presentation import numbers
from taveer_desktop.store import StoredModel
from taveer_desktop.ui import jobs
from taveer_desktop.ui.dialog_size import resize_to_fit
from taveer_desktop.ui.folder_choice import choose_folder
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.progress_panel import ProgressPanel
from taveer_desktop.ui.project_session import MODELS, ProjectSession
from taveer_desktop.ui.task_worker import Job, TaskWorker


class TrainDialog(QDialog):
    model_trained = Signal(object)  # StoredModel
    training_cancelled = Signal()

    def __init__(
        self, session: ProjectSession, runner: JobRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.runner = runner
        self.worker: TaskWorker | None = None
        self.setWindowTitle(f"Train Model — {PROGRAM_NAME}")
        intro = QLabel(
            "Train a TAVeer model on a corpus of verification cases with known answers: a folder "
            "in a PAN layout (problem folders with known*.txt, unknown.txt and truth.txt, or "
            "pairs.jsonl with truth.jsonl). The model is kept in the open project."
        )
        intro.setWordWrap(True)
        self.folder_edit = QLineEdit()
        self.folder_edit.setToolTip("The corpus folder")
        self.folder_edit.editingFinished.connect(self._folder_changed)
        browse = QPushButton("&Browse…")
        browse.setToolTip("Choose the corpus folder")
        browse.clicked.connect(self._browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder_edit, stretch=1)
        folder_row.addWidget(browse)
        self.corpus_info = QLabel("No corpus chosen yet.")
        self.corpus_info.setWordWrap(True)
        self.name_edit = QLineEdit()
        self.name_edit.setToolTip("A name for the model, unique in this project")
        self.name_edit.textChanged.connect(self._validate)
        form = QFormLayout()
        folder_label = QLabel("Corpus &folder:")
        folder_label.setBuddy(self.folder_edit)
        form.addRow(folder_label, folder_row)
        form.addRow("", self.corpus_info)
        form.addRow("Model &name:", self.name_edit)
        self.progress = ProgressPanel(self)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.train_button = self.buttons.addButton("&Train", QDialogButtonBox.ButtonRole.AcceptRole)
        self.train_button.setToolTip("Start training in the background")
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.close_button.setToolTip("Close this dialog (asks first while training runs)")
        self.train_button.clicked.connect(self.start_training)
        self.close_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.setTabOrder(self.folder_edit, browse)
        self.setTabOrder(browse, self.name_edit)
        self._browse_button = browse
        resize_to_fit(self, 70)
        self._validate()

    # ---- inputs -------------------------------------------------------------------------------

    def set_corpus_folder(self, folder: Path) -> None:
        self.folder_edit.setText(str(folder))
        self._folder_changed()

    def _browse(self) -> None:
        folder = choose_folder(self, "Choose a training corpus folder", "corpora")
        if folder is not None:
            self.set_corpus_folder(folder)

    def _folder_changed(self) -> None:
        text = self.folder_edit.text().strip()
        if not text:
            self.corpus_info.setText("No corpus chosen yet.")
        else:
            folder = Path(text)
            self.corpus_info.setText(describe_corpus(folder))
            if not self.name_edit.text().strip():
                self.name_edit.setText(f"TAVeer model ({folder.name})")
        self._validate()

    def _name_taken(self, name: str) -> bool:
        return any(model.name == name for model in self.session.models())

    def _validate(self) -> None:
        name = self.name_edit.text().strip()
        problem = ""
        if not self.folder_edit.text().strip():
            problem = "Choose a corpus folder."
        elif (
            self.corpus_info.text().startswith("Cannot")
            or "cannot be used" in self.corpus_info.text()
        ):
            problem = "This folder cannot be used for training."
        elif not name:
            problem = "Give the model a name."
        elif self._name_taken(name):
            problem = f"The project already has a model named {name!r}; choose another name."
        running = self.worker is not None
        self.train_button.setEnabled(not problem and not running and self.session.is_open)
        if not running:
            self.status.setText(problem)

    # ---- training -----------------------------------------------------------------------------

    @property
    def training(self) -> bool:
        return self.worker is not None

    def start_training(self) -> TaskWorker | None:
        if self.worker is not None or not self.train_button.isEnabled():
            return None
        folder, name = Path(self.folder_edit.text().strip()), self.name_edit.text().strip()
        job = Job(
            f"Training {name}",
            lambda progress: jobs.train_model(folder, name, progress),
            writes_store=False,
        )
        self.worker = self.runner.start(job, self._trained, self._failed, self._cancelled)
        self.progress.attach(self.worker)
        self._set_inputs_enabled(False)
        self.status.setText("Training in the background; you may keep working in the main window.")
        return self.worker

    def cancel_training(self) -> None:
        if self.worker is not None:
            self.worker.cancel()

    def _trained(self, trained: jobs.TrainedModel) -> None:
        store = self.session.store
        if store is None:
            self._finish("The project was closed; the model was not kept.")
            return
        self.progress.detach()
        job = Job(
            f"Storing {trained.model.name}",
            lambda _p: jobs.store_model(store, trained),
            cancellable=False,
        )
        self.worker = self.runner.start(
            job, lambda stored: self._stored(stored, trained), self._failed
        )
        self.progress.attach(self.worker)

    def _stored(self, stored: StoredModel, trained: jobs.TrainedModel) -> None:
        info = trained.model.training
        self._finish(
            f"Model “{stored.name}” trained on {numbers.count(info.cases, 'case')} in "
            f"{numbers.seconds(info.seconds)} and kept in the project. Training accuracy "
            f"{numbers.percent(info.accuracy)}; ensemble "
            f"{' '.join(trained.model.ensemble)}."
        )
        self.session.changed(MODELS)
        self.model_trained.emit(stored)

    def _failed(self, message: str, _details: str) -> None:
        self._finish(f"Training failed: {message}")  # the window shows the error dialog

    def _cancelled(self) -> None:
        self._finish("Training cancelled. Nothing was stored.")
        self.training_cancelled.emit()

    def _finish(self, message: str) -> None:
        self.worker = None
        self.progress.detach()
        self._set_inputs_enabled(True)
        self._validate()
        self.status.setText(message)

    def _set_inputs_enabled(self, enabled: bool) -> None:
        for widget in (self.folder_edit, self._browse_button, self.name_edit):
            widget.setEnabled(enabled)

    # ---- closing ------------------------------------------------------------------------------

    def confirm_stop(self) -> bool:
        """Ask whether to stop the running training (tests replace this)."""
        answer = QMessageBox.question(
            self,
            f"Stop training? — {PROGRAM_NAME}",
            "A model is being trained. Stop the training? Nothing will be stored.",
        )
        return answer == QMessageBox.StandardButton.Yes

    def reject(self) -> None:
        """Close, Escape and the title bar's close box (``QDialog.closeEvent`` calls this): a
        running training is stopped only if the examiner says so."""
        if self.worker is not None:
            if not self.confirm_stop():
                return
            self.cancel_training()
        super().reject()
