"""Model menu work: the manager, training, import, export, evaluation.

A ``ModelController`` is given the session, the job runner, a parent widget for its dialogs and
a way to ask for the selected case's chosen model (the one export and evaluation offer first);
it reports with ``status_message``. Dialogs are non-modal and kept while open, so the examiner
can go on working in the window while a model trains or is evaluated.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from taveer_desktop.core.ground.atomic_file import write_bytes_atomically
from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.ui import app_settings
from taveer_desktop.ui.error_dialog import show_failure
from taveer_desktop.ui.evaluate_dialog import EvaluateDialog
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.model_manager_dialog import ModelManagerDialog
from taveer_desktop.ui.model_table_model import ModelSummary
from taveer_desktop.ui.project_session import MODELS, ProjectSession
from taveer_desktop.ui.train_dialog import TrainDialog

if TYPE_CHECKING:  # imported when first shown
    from taveer_desktop.ui.validation_records_dialog import ValidationRecordsDialog

MODEL_FILTER = "TAVeer models (*.json);;All files (*)"


class ModelController(QObject):
    """Opens the model dialogs and imports and exports model files."""

    status_message = Signal(str, int)  # text, milliseconds to show it

    def __init__(
        self,
        session: ProjectSession,
        runner: JobRunner,
        parent: QWidget,
        chosen_model: Callable[[], str | None],
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.session = session
        self.runner = runner
        self.chosen_model = chosen_model
        self.manager: ModelManagerDialog | None = None
        self.train_dialog: TrainDialog | None = None
        self.evaluate_dialog: EvaluateDialog | None = None
        self.validations_dialog: ValidationRecordsDialog | None = None  # created when first shown

    def dialogs(self) -> list:
        """The model dialogs created so far (the window hides them when it closes)."""
        dialogs = (self.train_dialog, self.evaluate_dialog, self.manager, self.validations_dialog)
        return [d for d in dialogs if d]

    # ---- dialogs ------------------------------------------------------------------------------

    def open_manager(self) -> ModelManagerDialog:
        if self.manager is None:
            self.manager = ModelManagerDialog(self.session, self.parent_widget)
            self.manager.train_requested.connect(self.open_train_dialog)
            self.manager.import_requested.connect(lambda: self.import_model())
            self.manager.export_requested.connect(lambda s: self.export_model(s.name))
            self.manager.evaluate_requested.connect(lambda s: self.open_evaluate_dialog(s))
            self.manager.validation_requested.connect(lambda s: self.show_validations(s.stored.id))
        self.manager.reload()
        self.manager.show()
        self.manager.raise_()
        self.manager.activateWindow()
        return self.manager

    def open_train_dialog(self) -> TrainDialog:
        if self.train_dialog is None:
            self.train_dialog = TrainDialog(self.session, self.runner, self.parent_widget)
        self.train_dialog.show()
        self.train_dialog.raise_()
        self.train_dialog.activateWindow()
        return self.train_dialog

    def open_evaluate_dialog(self, summary: ModelSummary | None = None) -> EvaluateDialog:
        dialog = self.evaluate_dialog
        if dialog is None or (dialog.worker is None and not dialog.isVisible()):
            dialog = self.evaluate_dialog = EvaluateDialog(
                self.session, self.runner, self.parent_widget
            )
        name = summary.name if summary else self.chosen_model()
        if name:
            dialog.choose_model(name)
        dialog.show()
        dialog.raise_()
        return dialog

    def show_validations(self, model_id: int | None = None):
        """The validation records; with ``model_id``, the validation that produced that model."""
        from taveer_desktop.ui.validation_records_dialog import ValidationRecordsDialog

        if self.validations_dialog is None:
            self.validations_dialog = ValidationRecordsDialog(
                self.session, self.parent_widget, self.runner
            )
        dialog = self.validations_dialog
        dialog.reload()
        if model_id is not None:
            dialog.show_model(model_id)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    @property
    def training(self) -> bool:
        return self.train_dialog is not None and self.train_dialog.training

    # ---- import and export --------------------------------------------------------------------

    def import_model(self, path: Path | None = None) -> bool:
        store = self.session.store
        if store is None:
            return False
        if path is None:
            name, _f = QFileDialog.getOpenFileName(
                self.parent_widget,
                "Import a model",
                app_settings.start_folder("models"),
                MODEL_FILTER,
            )
            if not name:
                return False
            path = Path(name)
            app_settings.remember_folder("models", path)
        try:
            stored = store.models.add_file(path)
        except TaveerError as error:
            show_failure(
                self.parent_widget, f"The model was not imported: {error}", title="Not imported"
            )
            return False
        self.session.changed(MODELS)
        self.status_message.emit(f"Model imported: {stored.name}", 10_000)
        return True

    def export_model(self, name: str | None = None, target: Path | None = None) -> Path | None:
        """Write a model's JSON exactly as stored (atomically: temporary file, then rename)."""
        store = self.session.store
        if store is None:
            return None
        name = name or self.chosen_model()
        if not name:
            if store.models.list_all():  # no case model to export: let the examiner pick one
                self.open_manager()
                return None
            show_failure(
                self.parent_widget, "The project has no model to export.", title="Nothing to export"
            )
            return None
        stored = store.models.find(name)
        if target is None:
            suggestion = Path(app_settings.start_folder("models")) / (
                stored.source_file_name or "model.json"
            )
            chosen, _f = QFileDialog.getSaveFileName(
                self.parent_widget, f"Export {name}", str(suggestion), MODEL_FILTER
            )
            if not chosen:
                return None
            target = Path(chosen)
            app_settings.remember_folder("models", target)
        try:
            write_bytes_atomically(target, store.models.json_bytes(stored.id))
        except TaveerError as error:
            show_failure(
                self.parent_widget, f"The model was not exported: {error}", title="Not exported"
            )
            return None
        self.status_message.emit(f"Model {name} exported to {target}", 10_000)
        return target
