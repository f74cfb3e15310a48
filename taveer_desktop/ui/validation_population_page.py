"""Page 1 of the validation wizard: choose a stored population, or import a folder (one
sub-folder per author) with its name and description (who, genre, period, how selected). The
import is a job on the writer pool through the same intake and refusals as ``taveer population
add``; a refusal is shown as one plain sentence and nothing is stored. The page opens with how
many validations the case already has (they are listed on the last page)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QButtonGroup,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QTableView,
)

from taveer_desktop.presentation import validation_wizard_text as vt
from taveer_desktop.report.validation_attempts import case_attempts
from taveer_desktop.store.case_validation import failed_attempts
from taveer_desktop.ui import jobs
from taveer_desktop.ui.folder_choice import choose_folder
from taveer_desktop.ui.progress_panel import ProgressPanel
from taveer_desktop.ui.project_session import AUDIT, VALIDATIONS
from taveer_desktop.ui.record_table_model import selected_record
from taveer_desktop.ui.table_view import house_table
from taveer_desktop.ui.task_worker import Job, TaskWorker
from taveer_desktop.ui.validation_table_models import P_DESCRIPTION, PopulationTableModel
from taveer_desktop.ui.validation_wizard_step import (
    ERROR_STYLE,
    WizardStep,
    form_label,
    wrapped,
)

if TYPE_CHECKING:
    from taveer_desktop.ui.validation_wizard import ValidationWizard


class PopulationPage(WizardStep):
    """Choose a stored population, or import a folder as a new one."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(
            wizard,
            "1 · The relevant population",
            # two lines at 150 % on a 1366 × 768 screen: the wizard's header shows no third
            "Texts by people like the possible writers of the questioned document (colleagues' "
            "e-mails, a forum's members): the trials are cut from them, and Hd names them.",
        )
        self.worker: TaskWorker | None = None
        self.use_stored = QRadioButton("Use a &stored population")
        self.use_import = QRadioButton("&Import a folder as a new population")
        group = QButtonGroup(self)
        group.addButton(self.use_stored)
        group.addButton(self.use_import)
        self.model = PopulationTableModel(self)
        self.table = house_table(QTableView(), self.model, single=True)
        self.table.setToolTip("The populations stored in this project")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(P_DESCRIPTION, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().selectionChanged.connect(self._mode_changed)
        self.table.setMinimumHeight(self.fontMetrics().height() * 5)

        self.import_box = QGroupBox("A new population")
        self.folder_edit = QLineEdit()
        self.folder_edit.setPlaceholderText("a folder with one sub-folder per author")
        self.folder_edit.setToolTip(
            "One sub-folder per author, each with two or more .txt, .eml or .docx documents"
        )
        browse = QPushButton("Br&owse…")
        browse.setToolTip("Choose the population folder")
        browse.clicked.connect(self._browse)
        self.browse_button = browse
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder_edit, 1)
        folder_row.addWidget(browse)
        self.name_edit = QLineEdit()
        self.name_edit.setToolTip("A short name, unique in this project; Hd will name it")
        self.who_edit = QLineEdit()
        self.who_edit.setPlaceholderText("e.g. employees of the company other than the suspect")
        self.genre_edit = QLineEdit()
        self.genre_edit.setPlaceholderText("e.g. internal business e-mail")
        self.period_edit = QLineEdit()
        self.period_edit.setPlaceholderText("e.g. 2021–2024")
        self.selection_edit = QLineEdit()
        self.selection_edit.setPlaceholderText(
            "e.g. every sender with two or more e-mails in the seized mailbox"
        )
        form = QFormLayout(self.import_box)
        form.addRow(form_label("Fol&der:", self.folder_edit), folder_row)
        form.addRow(form_label("N&ame:", self.name_edit), self.name_edit)
        form.addRow(form_label("&Who wrote the texts:", self.who_edit), self.who_edit)
        form.addRow(form_label("&Genre:", self.genre_edit), self.genre_edit)
        form.addRow(form_label("&Period:", self.period_edit), self.period_edit)
        form.addRow(form_label("How se&lected:", self.selection_edit), self.selection_edit)
        self.import_button = QPushButton("&Read and Store the Folder")
        self.import_button.setToolTip(
            "Read every document through the evidence intake, hash it and store the population "
            "in the project (audited)"
        )
        self.import_button.clicked.connect(self.start_import)
        button_row = QHBoxLayout()
        button_row.addWidget(self.import_button)
        button_row.addStretch(1)
        form.addRow("", button_row)
        self.progress = ProgressPanel(self)
        self.message = wrapped()

        self.attempts_line = wrapped()
        layout = self.scrolled()
        layout.addWidget(self.attempts_line)
        layout.addWidget(self.use_stored)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.use_import)
        layout.addWidget(self.import_box)
        layout.addWidget(self.progress)
        layout.addWidget(self.message)
        self.use_stored.toggled.connect(self._mode_changed)
        for edit in (
            self.folder_edit,
            self.name_edit,
            self.who_edit,
            self.genre_edit,
            self.period_edit,
            self.selection_edit,
        ):
            edit.textChanged.connect(self._mode_changed)
        self.reload()

    # -- state --

    def initializePage(self) -> None:
        store, case = self.owner.session.store, self.owner.case
        attempts = case_attempts(store, case) if store is not None else ()
        failed = failed_attempts(store, case.id) if store is not None else ()
        self.attempts_line.setText(vt.earlier_attempts_line(attempts, case.number, len(failed)))

    def reload(self, select: str | None = None) -> None:
        populations = self.owner.session.populations()
        self.model.set_records(populations)
        self.table.resizeColumnsToContents()
        if select is None and populations:
            select = populations[0].name
        row = self.model.find_row(lambda p: p.name == select) if select else -1
        if row >= 0:
            self.table.selectRow(row)
        (self.use_stored if populations else self.use_import).setChecked(True)
        self.use_stored.setEnabled(bool(populations))
        self._mode_changed()

    def selected(self):
        return selected_record(self.table)

    def description(self) -> str:
        """The four answers as the one description the store keeps."""
        parts = (
            ("who", self.who_edit),
            ("genre", self.genre_edit),
            ("period", self.period_edit),
            ("how selected", self.selection_edit),
        )
        return "; ".join(f"{word}: {' '.join(edit.text().split())}" for word, edit in parts)

    def missing(self) -> str | None:
        """What the import still needs, or None."""
        if not self.folder_edit.text().strip():
            return "choose the population folder"
        if not self.name_edit.text().strip():
            return "give the population a name"
        empty = [
            word
            for word, edit in (
                ("who wrote the texts", self.who_edit),
                ("their genre", self.genre_edit),
                ("their period", self.period_edit),
                ("how they were selected", self.selection_edit),
            )
            if not edit.text().strip()
        ]
        return f"describe {', '.join(empty)}" if empty else None

    def _mode_changed(self, *_args) -> None:
        importing = self.use_import.isChecked()
        busy = self.worker is not None
        self.table.setEnabled(not importing and not busy)
        self.import_box.setEnabled(importing and not busy)
        missing = self.missing()
        self.import_button.setEnabled(importing and not busy and missing is None)
        self.import_button.setToolTip(
            "Read every document through the evidence intake, hash it and store the population"
            + (f" — {missing} first" if missing else "")
        )
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        return self.worker is None and self.use_stored.isChecked() and self.selected() is not None

    def validatePage(self) -> bool:
        self.owner.population = self.selected()
        return self.owner.population is not None

    # -- importing --

    def _browse(self) -> None:
        folder = choose_folder(self, "Choose a population folder", "populations")
        if folder is not None:
            self.set_folder(folder)

    def set_folder(self, folder: Path) -> None:
        self.folder_edit.setText(str(folder))
        if not self.name_edit.text().strip():
            self.name_edit.setText(folder.name)

    def start_import(self) -> TaskWorker | None:
        store = self.owner.session.store
        if store is None or self.worker is not None or self.missing() is not None:
            return None
        folder = Path(self.folder_edit.text().strip())
        name, description = self.name_edit.text().strip(), self.description()
        job = Job(
            f"Importing the population {name!r}",
            lambda p: jobs.import_population(store, name, folder, description, p),
        )
        self.worker = self.owner.runner.start(
            job, self._imported, self._import_failed, self._import_cancelled
        )
        self.progress.attach(self.worker)
        self.message.setStyleSheet("")
        self.message.setText("")
        self._mode_changed()
        return self.worker

    def _import_done(self) -> None:
        self.worker = None
        self.progress.detach()

    def _imported(self, outcome) -> None:
        population, warnings = outcome
        self._import_done()
        self.owner.session.changed(VALIDATIONS, AUDIT)
        self.owner.population_imported.emit(population)
        for edit in (
            self.folder_edit,
            self.name_edit,
            self.who_edit,
            self.genre_edit,
            self.period_edit,
            self.selection_edit,
        ):
            edit.clear()
        self.reload(select=population.name)
        text = vt.population_imported_text(population, warnings)
        self.message.setStyleSheet("")
        self.message.setText(text)

    def _import_failed(self, message: str, _details: str) -> None:
        self._import_done()
        self.message.setStyleSheet(ERROR_STYLE)
        self.message.setText(f"The population was not imported: {message}")
        self._mode_changed()

    def _import_cancelled(self) -> None:
        self._import_done()
        self.message.setStyleSheet("")
        self.message.setText("Import cancelled; nothing was stored.")
        self._mode_changed()
