"""The validation wizard: validate the method for one case on a relevant population.

Six pages, in the order the Forensic Science Regulator's guidance (FSR-G-201) asks for:

1. **Population** — choose a stored population, or import a folder (one sub-folder per author)
   with its name and description (who, genre, period, how selected). The import is a job on the
   writer pool through the same intake and refusals as ``taveer population add``; a refusal is
   shown as one plain sentence and nothing is stored.
2. **Conditions** — the questioned and known lengths taken from the case's documents in use
   (shown, editable), the number of folds, the cap on trials and the seed.
3. **Method** — TAVeer alone, LambdaG alone or the fusion of both, each with what it does and
   what it costs (measured); LambdaG's highest order and reference samples under "advanced"
   (``ValidationSettings.lambdag_order`` / ``lambdag_samples``, defaults 10 and 30).
4. **Acceptance criteria** — the largest Cllr and the largest rate of misleading evidence that
   will be accepted, fixed and time-stamped when the examiner leaves the page: before the run.
5. **Run** — the validation as one writer-pool job (``store/case_validation.validate_case``)
   with progress and Cancel. Nothing is stored until the validation has finished, so Cancel
   (or Close) leaves the project as it was.
6. **Record** — the stored record: the method, figures with intervals (and every method's
   figures side by side), the acceptance verdict and the charts (``ValidationRecordView``).
   The model it produced is now the case's model.

The wizard never imports the main window; it announces what it stored with
``population_imported`` and ``validation_stored`` after calling ``session.changed``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.validation import (
    DEFAULT_FOLDS,
    DEFAULT_MAX_TRIALS,
    MIN_TRIALS_PER_CLASS,
    AcceptanceCriteria,
    ValidationSettings,
)
from taveer_desktop.presentation import validation_wizard_text as vt
from taveer_desktop.store import KNOWN, QUESTIONED, Case
from taveer_desktop.store.case_validation import CaseValidation
from taveer_desktop.store.population_repository import StoredPopulation
from taveer_desktop.ui import app_settings, jobs
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.progress_panel import ProgressPanel
from taveer_desktop.ui.project_session import (
    AUDIT,
    CASES,
    MODELS,
    VALIDATIONS,
    ProjectSession,
)
from taveer_desktop.ui.record_table_model import selected_record
from taveer_desktop.ui.task_worker import Job, TaskWorker
from taveer_desktop.ui.validation_record_view import ValidationRecordView
from taveer_desktop.ui.validation_table_models import P_DESCRIPTION, PopulationTableModel

POPULATION, CONDITIONS, METHOD, CRITERIA, RUN, RECORD = range(6)
DEFAULTS = ValidationSettings()  # LambdaG's default order and samples
ERROR_STYLE = "color: #b00020;"
MAX_CHARS = 10_000_000
DEFAULT_MAX_CLLR = 0.5
DEFAULT_MAX_MISLEADING = 0.10


def _wrapped(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _form_label(text: str, buddy: QWidget) -> QLabel:
    label = QLabel(text)
    label.setBuddy(buddy)
    return label


class WizardStep(QWizardPage):
    """A page of the wizard: its title, what it is for, and the wizard it belongs to."""

    def __init__(self, wizard: ValidationWizard, title: str, subtitle: str = "") -> None:
        super().__init__()
        self.owner = wizard
        self.setTitle(title)
        if subtitle:
            self.setSubTitle(subtitle)


# ---- page 1: the population ------------------------------------------------------------------


class PopulationPage(WizardStep):
    """Choose a stored population, or import a folder as a new one."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(
            wizard,
            "1 · The relevant population",
            "Texts by people like the possible writers of the questioned document (colleagues' "
            "e-mails, members of the same forum, letters of the same period). The trials are "
            "cut from them, and Hd will name this population.",
        )
        self.worker: TaskWorker | None = None
        self.use_stored = QRadioButton("Use a &stored population")
        self.use_import = QRadioButton("&Import a folder as a new population")
        group = QButtonGroup(self)
        group.addButton(self.use_stored)
        group.addButton(self.use_import)
        self.model = PopulationTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setTabKeyNavigation(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
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
        form.addRow(_form_label("Fol&der:", self.folder_edit), folder_row)
        form.addRow(_form_label("N&ame:", self.name_edit), self.name_edit)
        form.addRow(_form_label("&Who wrote the texts:", self.who_edit), self.who_edit)
        form.addRow(_form_label("&Genre:", self.genre_edit), self.genre_edit)
        form.addRow(_form_label("&Period:", self.period_edit), self.period_edit)
        form.addRow(_form_label("How se&lected:", self.selection_edit), self.selection_edit)
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
        self.message = _wrapped()

        layout = QVBoxLayout(self)
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
        folder = QFileDialog.getExistingDirectory(
            self, "Choose a population folder", app_settings.start_folder("populations")
        )
        if folder:
            app_settings.remember_folder("populations", Path(folder) / "x")
            self.set_folder(Path(folder))

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


# ---- page 2: the conditions of the case ------------------------------------------------------


class ConditionsPage(WizardStep):
    """The lengths of the case's documents (editable), folds, cap and seed."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(
            wizard,
            "2 · The conditions of the case",
            "Every trial is cut to the lengths of this case's texts, at sentence boundaries, so "
            "the validation measures the method under the case's conditions.",
        )
        self.case_text = _wrapped()
        self.questioned = QSpinBox()
        self.known = QSpinBox()
        for spin, tip in (
            (self.questioned, "Characters of each trial's questioned text"),
            (self.known, "Characters of each trial's known text (its documents together)"),
        ):
            spin.setRange(1, MAX_CHARS)
            spin.setGroupSeparatorShown(True)
            spin.setSuffix(" characters")
            spin.setToolTip(tip)
            spin.valueChanged.connect(self._lengths_changed)
        self.reset_button = QPushButton("&Use the Case's Lengths")
        self.reset_button.setToolTip("Set both lengths back to those of the case's documents")
        self.reset_button.clicked.connect(self.use_case_lengths)
        self.lengths_note = _wrapped()
        self.folds = QSpinBox()
        self.folds.setRange(2, 20)
        self.folds.setValue(DEFAULT_FOLDS)
        self.folds.setToolTip(
            "Authors are dealt into this many groups; each group is scored by what was learned "
            "on the others (at most one fold per two authors)"
        )
        self.max_trials = QSpinBox()
        self.max_trials.setRange(2 * MIN_TRIALS_PER_CLASS, 1_000_000)
        self.max_trials.setGroupSeparatorShown(True)
        self.max_trials.setValue(DEFAULT_MAX_TRIALS)
        self.max_trials.setToolTip(
            "At most this many trials (half same-author, half different-author)"
        )
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_147_483_647)
        self.seed.setToolTip("The same seed on the same population gives the same trials")
        form = QFormLayout()
        form.addRow(_form_label("&Questioned length:", self.questioned), self.questioned)
        form.addRow(_form_label("&Known length:", self.known), self.known)
        reset_row = QHBoxLayout()
        reset_row.addWidget(self.reset_button)
        reset_row.addStretch(1)
        form.addRow("", reset_row)
        form.addRow("", self.lengths_note)
        form.addRow(_form_label("F&olds (by author):", self.folds), self.folds)
        form.addRow(_form_label("&Maximum trials:", self.max_trials), self.max_trials)
        form.addRow(_form_label("&Seed:", self.seed), self.seed)
        layout = QVBoxLayout(self)
        layout.addWidget(self.case_text)
        layout.addLayout(form)
        layout.addStretch(1)
        self.case_lengths: tuple[int, int] | None = None

    def initializePage(self) -> None:
        store, case = self.owner.session.store, self.owner.case
        questioned = store.documents.in_use(case.id, QUESTIONED) if store else []
        known = store.documents.in_use(case.id, KNOWN) if store else []
        if questioned and known:
            self.case_lengths = (
                max(d.char_count for d in questioned),
                sum(d.char_count for d in known),
            )
        self.case_text.setText(vt.case_conditions_text(case.number, questioned, known))
        if self.case_lengths and self.owner.lengths is None:
            self.use_case_lengths()
        self._lengths_changed()

    def use_case_lengths(self) -> None:
        if self.case_lengths:
            self.questioned.setValue(self.case_lengths[0])
            self.known.setValue(self.case_lengths[1])

    def lengths(self) -> tuple[int, int]:
        return self.questioned.value(), self.known.value()

    def _lengths_changed(self, *_args) -> None:
        differs = self.case_lengths is not None and self.lengths() != self.case_lengths
        self.reset_button.setEnabled(differs)
        self.lengths_note.setStyleSheet(ERROR_STYLE if differs else "")
        self.lengths_note.setText(vt.lengths_note(self.case_lengths, self.lengths()))

    def validatePage(self) -> bool:
        self.owner.lengths = self.lengths()
        return True


# ---- page 3: the method ----------------------------------------------------------------------


class MethodPage(WizardStep):
    """TAVeer alone, LambdaG alone or their fusion, what each does and costs; LambdaG's
    options under "advanced"."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(
            wizard,
            "3 · The method",
            "Which method's likelihood ratio the model will state. Every method is validated on "
            "the same trials; a fusion or LambdaG record also keeps TAVeer's own figures.",
        )
        self.buttons: dict[str, QRadioButton] = {}
        group = QButtonGroup(self)
        content = QWidget()  # in a scroll area: at a large scale the words need not fit
        layout = QVBoxLayout(content)
        for choice in vt.METHOD_CHOICES:
            button = QRadioButton(choice.button)
            button.setToolTip(choice.cost)
            group.addButton(button)
            self.buttons[choice.method] = button
            explanation = _wrapped(f"{choice.explanation}\n{choice.cost}")
            explanation.setIndent(self.fontMetrics().horizontalAdvance("m") * 2)
            explanation.setBuddy(button)
            layout.addWidget(button)
            layout.addWidget(explanation)
            button.toggled.connect(self._method_changed)

        self.advanced_check = QCheckBox("Show the &advanced options (LambdaG)")
        self.advanced_check.setToolTip("LambdaG's highest order and reference samples")
        self.advanced = QGroupBox("Advanced: LambdaG's options")
        self.order = QSpinBox()
        self.order.setRange(1, 16)
        self.order.setValue(DEFAULTS.lambdag_order)
        self.order.setToolTip(
            f"Each fold chooses LambdaG's n-gram order up to this one (default "
            f"{DEFAULTS.lambdag_order}, as published)"
        )
        self.samples = QSpinBox()
        self.samples.setRange(1, 1000)
        self.samples.setValue(DEFAULTS.lambdag_samples)
        self.samples.setToolTip(
            f"Samples of the population each comparison is made against (default "
            f"{DEFAULTS.lambdag_samples})"
        )
        self.defaults_button = QPushButton("Use the &Defaults")
        self.defaults_button.setToolTip(
            f"Highest order {DEFAULTS.lambdag_order}, {DEFAULTS.lambdag_samples} reference samples"
        )
        self.defaults_button.clicked.connect(self.use_defaults)
        box = QVBoxLayout(self.advanced)
        box.addWidget(_wrapped(vt.ADVANCED_NOTE))
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        box.addLayout(form)
        form.addRow(_form_label("Highest o&rder:", self.order), self.order)
        form.addRow(_form_label("Reference sam&ples:", self.samples), self.samples)
        defaults_row = QHBoxLayout()
        defaults_row.addWidget(self.defaults_button)
        defaults_row.addStretch(1)
        form.addRow("", defaults_row)
        self.advanced_note = _wrapped()
        self.advanced_check.toggled.connect(self._method_changed)
        layout.addSpacing(self.fontMetrics().height() // 2)
        layout.addWidget(self.advanced_check)
        layout.addWidget(self.advanced)
        layout.addWidget(self.advanced_note)
        layout.addStretch(1)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidget(content)
        page_layout = QVBoxLayout(self)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.addWidget(self.scroll_area)
        self.advanced_check.toggled.connect(self._show_advanced)
        self.buttons["taveer"].setChecked(True)

    def method(self) -> str:
        return next(m for m, button in self.buttons.items() if button.isChecked())

    def _show_advanced(self, shown: bool) -> None:
        if shown:  # once laid out, scroll the options into view (a large scale hides them)
            QTimer.singleShot(0, lambda: self.scroll_area.ensureWidgetVisible(self.advanced))

    def use_defaults(self) -> None:
        self.order.setValue(DEFAULTS.lambdag_order)
        self.samples.setValue(DEFAULTS.lambdag_samples)

    def _method_changed(self, *_args) -> None:
        uses_lambdag = self.method() != "taveer"
        self.advanced.setVisible(self.advanced_check.isChecked())
        self.advanced.setEnabled(uses_lambdag)
        self.advanced_note.setText(
            "" if uses_lambdag or not self.advanced_check.isChecked() else vt.TAVEER_HAS_NO_OPTIONS
        )


# ---- page 4: acceptance criteria -------------------------------------------------------------


class CriteriaPage(WizardStep):
    """The acceptance criteria, fixed (and time-stamped) when the examiner goes on."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(
            wizard,
            "4 · Acceptance criteria, set before the run",
            "Decide now what result you will accept. The criteria are fixed and time-stamped "
            "when you go on, recorded with the result, and the record says whether they were met.",
        )
        self.cllr_check = QCheckBox("C&llr at most")
        self.cllr_check.setChecked(True)
        self.cllr_check.setToolTip(
            "Log-likelihood-ratio cost of the cross-validated likelihood ratios: 0 is perfect, "
            "1 is no better than giving no evidence, above 1 worse"
        )
        self.max_cllr = QDoubleSpinBox()
        self.max_cllr.setRange(0.0, 5.0)
        self.max_cllr.setDecimals(2)
        self.max_cllr.setSingleStep(0.05)
        self.max_cllr.setValue(DEFAULT_MAX_CLLR)
        self.misleading_check = QCheckBox("&Misleading evidence at most")
        self.misleading_check.setChecked(True)
        self.misleading_check.setToolTip(
            "Both rates: same-author trials whose likelihood ratio favours Hd, and "
            "different-author trials whose likelihood ratio favours Hp"
        )
        self.max_misleading = QDoubleSpinBox()
        self.max_misleading.setRange(0.0, 100.0)
        self.max_misleading.setDecimals(1)
        self.max_misleading.setSingleStep(1.0)
        self.max_misleading.setSuffix(" % of trials, both ways")
        self.max_misleading.setValue(DEFAULT_MAX_MISLEADING * 100)
        self.cllr_check.toggled.connect(self.max_cllr.setEnabled)
        self.misleading_check.toggled.connect(self.max_misleading.setEnabled)
        grid = QGridLayout()
        grid.addWidget(self.cllr_check, 0, 0)
        grid.addWidget(self.max_cllr, 0, 1)
        grid.addWidget(self.misleading_check, 1, 0)
        grid.addWidget(self.max_misleading, 1, 1)
        grid.setColumnStretch(2, 1)
        self.note = _wrapped(vt.CRITERIA_NOTE)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.note)
        layout.addStretch(1)

    def criteria(self) -> AcceptanceCriteria:
        """The criteria as they stand, time-stamped now."""
        return AcceptanceCriteria.now(
            self.max_cllr.value() if self.cllr_check.isChecked() else None,
            self.max_misleading.value() / 100 if self.misleading_check.isChecked() else None,
        )

    def validatePage(self) -> bool:
        self.owner.criteria = self.criteria()
        return True


# ---- page 5: the run -------------------------------------------------------------------------


class RunPage(WizardStep):
    """What will run, the run with progress and Cancel, and its outcome."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(
            wizard,
            "5 · The validation",
            "Trials are built from the population, scored by cross-validation by author, and a "
            "model is fitted on all of them. Nothing is stored until the run has finished.",
        )
        self.worker: TaskWorker | None = None
        self.plan = _wrapped()
        self.run_button = QPushButton("&Run the Validation")
        self.run_button.setToolTip("Start the validation in the background")
        self.run_button.clicked.connect(self.start)
        self.progress = ProgressPanel(self)
        self.status = _wrapped()
        row = QHBoxLayout()
        row.addWidget(self.run_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.plan)
        layout.addLayout(row)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addStretch(1)

    def settings(self) -> ValidationSettings:
        conditions, method = self.owner.conditions_page, self.owner.method_page
        return ValidationSettings(
            folds=conditions.folds.value(),
            max_trials=conditions.max_trials.value(),
            seed=conditions.seed.value(),
            method=method.method(),
            criteria=self.owner.criteria or AcceptanceCriteria.now(),
            lambdag_order=method.order.value(),
            lambdag_samples=method.samples.value(),
        )

    def initializePage(self) -> None:
        owner = self.owner
        if owner.population is None:  # the population page, before this one, chose one
            return
        settings = self.settings()
        self.plan.setText(
            vt.validation_plan_text(
                owner.case.number,
                owner.population.name,
                owner.lengths,
                settings.folds,
                settings.max_trials,
                settings.seed,
                settings.criteria.to_dict(),
                vt.method_plan_words(
                    settings.method, settings.lambdag_order, settings.lambdag_samples
                ),
            )
        )
        self.status.setText("")
        self.status.setStyleSheet("")
        self.run_button.setEnabled(True)

    def start(self) -> TaskWorker | None:
        owner, store = self.owner, self.owner.session.store
        if (
            store is None
            or owner.population is None
            or self.worker is not None
            or owner.validation is not None
        ):
            return None
        settings = self.settings()
        case_id, population, lengths = owner.case.id, owner.population.name, owner.lengths
        job = Job(
            f"Validating case {owner.case.number} on {population!r}",
            lambda p: jobs.validate_for_case(store, case_id, population, settings, lengths, p),
        )
        self.worker = owner.runner.start(job, self._finished, self._failed, self._cancelled)
        self.progress.attach(self.worker)
        self.run_button.setEnabled(False)
        self.status.setText("")
        self._busy_changed()
        return self.worker

    def _busy_changed(self) -> None:
        self.completeChanged.emit()
        back = self.owner.button(QWizard.WizardButton.BackButton)
        back.setEnabled(self.worker is None and self.owner.validation is None)

    def _ended(self, text: str, error: bool = False) -> None:
        self.worker = None
        self.progress.detach()
        self.status.setStyleSheet(ERROR_STYLE if error else "")
        self.status.setText(text)
        self.run_button.setEnabled(self.owner.validation is None)
        self._busy_changed()

    def _finished(self, done: CaseValidation) -> None:
        owner = self.owner
        owner.validation = done
        owner.session.changed(MODELS, CASES, VALIDATIONS, AUDIT, case_id=owner.case.id)
        self._ended(
            vt.validation_stored_text(
                done.model.name,
                done.chosen,
                done.case_model.name if done.case_model else None,
                done.validation.criteria_met,
            )
        )
        self.setCommitPage(True)  # stored: no way back to change what produced it
        owner.validation_stored.emit(done)
        owner.next()

    def _failed(self, message: str, _details: str) -> None:
        self._ended(f"The validation did not run: {message}", error=True)

    def _cancelled(self) -> None:
        self._ended("The validation was cancelled; nothing was stored.")

    def isComplete(self) -> bool:
        return self.worker is None and self.owner.validation is not None


# ---- page 6: the record ----------------------------------------------------------------------


class RecordPage(WizardStep):
    """The stored record, as the model view shows it."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(wizard, "6 · The validation record")
        self.setFinalPage(True)
        self.view = ValidationRecordView(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)

    def initializePage(self) -> None:
        done = self.owner.validation
        if done is None:
            return
        self.setSubTitle(vt.record_subtitle(done.result.record, self.owner.case.number))
        self.view.show_record(done.result.record, done.model.name)


# ---- the wizard ------------------------------------------------------------------------------


class ValidationWizard(QWizard):
    """Validate the method for ``case`` on a relevant population (see the module)."""

    population_imported = Signal(object)  # StoredPopulation
    validation_stored = Signal(object)  # CaseValidation

    def __init__(
        self,
        session: ProjectSession,
        runner: JobRunner,
        case: Case,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.session, self.runner, self.case = session, runner, case
        self.population: StoredPopulation | None = None
        self.lengths: tuple[int, int] | None = None
        self.criteria: AcceptanceCriteria | None = None
        self.validation: CaseValidation | None = None  # not result: QDialog.result() is Qt's
        self.setWindowTitle(f"Validate on a Population — {case.number} — {PROGRAM_NAME}")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnLastPage, True)
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)
        self.setButtonText(QWizard.WizardButton.CancelButton, "Close")
        self.button(QWizard.WizardButton.CancelButton).setToolTip(
            "Close the wizard (a running validation is cancelled and nothing is stored)"
        )
        self.population_page = PopulationPage(self)
        self.conditions_page = ConditionsPage(self)
        self.method_page = MethodPage(self)
        self.criteria_page = CriteriaPage(self)
        self.run_page = RunPage(self)
        self.record_page = RecordPage(self)
        for page_id, page in enumerate(
            (
                self.population_page,
                self.conditions_page,
                self.method_page,
                self.criteria_page,
                self.run_page,
                self.record_page,
            )
        ):
            self.setPage(page_id, page)
        self.setStartId(POPULATION)
        self._fit_to_screen()

    def _fit_to_screen(self) -> None:
        em = self.fontMetrics().horizontalAdvance("m")
        width, height = em * 100, self.fontMetrics().height() * 44
        screen = self.screen()
        if screen is not None:
            area = screen.availableGeometry()
            width = min(width, area.width() * 92 // 100)
            height = min(height, area.height() * 90 // 100)
        self.resize(width, height)

    def running(self) -> TaskWorker | None:
        """The import or validation job this wizard started and that has not ended."""
        return self.population_page.worker or self.run_page.worker

    def reject(self) -> None:
        """Close, Escape and the close box cancel a running job (nothing of it is stored)."""
        worker = self.running()
        if worker is not None:
            worker.cancel()
        super().reject()
