"""The validation wizard: validate the method for one case on a relevant population.

Six pages, in the order the Forensic Science Regulator's guidance (FSR-G-201) asks for, each in
its own module:

1. **Population** (``validation_population_page``) — a stored population, or a folder imported
   as one; the case's earlier validations counted.
2. **Conditions** (``validation_conditions_page``) — the lab's casework range of questioned and
   known lengths (the case's own inside it), repeats, folds, cap and seed.
3. **Method** and 4. **Acceptance criteria** (``validation_method_page``).
5. **Run** and 6. **Record** (``validation_run_page``): the model's name checked before any
   work, the run with honest progress per step, then the record with the verdict on the
   pessimistic end, the size for casework, coverage (range, repeats, bands), this case's
   population fit and every attempt of the case.

Every page scrolls inside itself, so at 150 % on a 1366 × 768 screen (910 × 512 logical pixels)
Back, Next and Close stay on the screen. The wizard never imports the main window; it announces
what it stored with ``population_imported`` and ``validation_stored`` after calling
``session.changed``.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget, QWizard

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.validation.validation import AcceptanceCriteria
from taveer_desktop.store import Case
from taveer_desktop.store.case_validation import CaseValidation
from taveer_desktop.store.population_repository import StoredPopulation
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.project_session import ProjectSession
from taveer_desktop.ui.task_worker import TaskWorker
from taveer_desktop.ui.validation_conditions_page import ConditionsPage
from taveer_desktop.ui.validation_method_page import CriteriaPage, MethodPage
from taveer_desktop.ui.validation_population_page import PopulationPage
from taveer_desktop.ui.validation_run_page import RecordPage, RunPage
from taveer_desktop.ui.validation_wizard_step import (
    CONDITIONS,
    CRITERIA,
    METHOD,
    POPULATION,
    RECORD,
    RUN,
    WizardStep,
)

__all__ = [
    "CONDITIONS",
    "CRITERIA",
    "METHOD",
    "POPULATION",
    "RECORD",
    "RUN",
    "ConditionsPage",
    "CriteriaPage",
    "MethodPage",
    "PopulationPage",
    "RecordPage",
    "RunPage",
    "ValidationWizard",
    "WizardStep",
]


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
        self.lengths: tuple[int, int] | None = None  # the case's own lengths
        self.ranges: tuple[tuple[int, int], tuple[int, int]] | None = None  # declared range
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
        """As large as the words want, never larger than the screen leaves room for: at most
        92 % of its width and 90 % of its height (frame and task bar)."""
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
