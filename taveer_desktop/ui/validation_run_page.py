"""Pages 5 and 6 of the validation wizard.

5. **Run** — what will run, in words; the model's name (pre-filled, unique in the project, not
   empty: checked as it is typed and again right before the job starts, so a clash never costs
   a run); the validation as one writer-pool job (``store/case_validation.validate_case``) with
   progress per step (``StepProgressPanel``) and Cancel. Nothing is stored until the validation
   has finished, so Cancel (or Close) leaves the project as it was.
6. **Record** — the verdict judged on the pessimistic end of the intervals and the size for
   casework first, then the stored record (``ValidationRecordView``: figures, charts, coverage —
   range, repeats, bands —, population, limits) with two tabs about this case: its fit to the
   validation's population and every validation attempt of the case.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPushButton, QWizard

from taveer_desktop.core.validation.record_reader import read_validation_record
from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.presentation import population_fit_text as fit_words
from taveer_desktop.presentation import validation_wizard_text as vt
from taveer_desktop.presentation.method_choice_text import comparison_plan_words
from taveer_desktop.store.case_validation import CaseValidation
from taveer_desktop.ui import jobs
from taveer_desktop.ui.project_session import AUDIT, CASES, MODELS, VALIDATIONS
from taveer_desktop.ui.step_progress_panel import StepProgressPanel
from taveer_desktop.ui.task_worker import Job, TaskWorker
from taveer_desktop.ui.validation_case_views import RecordCaseTabs
from taveer_desktop.ui.validation_record_view import ValidationRecordView
from taveer_desktop.ui.validation_wizard_step import ERROR_STYLE, WizardStep, form_label, wrapped

if TYPE_CHECKING:
    from taveer_desktop.ui.validation_wizard import ValidationWizard


class RunPage(WizardStep):
    """What will run, the model's name, the run with progress and Cancel, and its outcome."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(
            wizard,
            "5 · The validation",
            "Trials are built from the population, scored by cross-validation by author, and a "
            "model is fitted on all of them. Nothing is stored until the run has finished.",
        )
        self.worker: TaskWorker | None = None
        self.plan = wrapped()
        self.name_edit = QLineEdit()
        self.name_edit.setToolTip("Unique in this project; the case, its report and audit name it")
        self.name_edit.textChanged.connect(self._name_changed)
        self.name_note = wrapped()
        self.run_button = QPushButton("&Run the Validation")
        self.run_button.setToolTip("Start the validation in the background")
        self.run_button.clicked.connect(self.start)
        self.progress = StepProgressPanel(self)
        self.status = wrapped()
        name_row = QHBoxLayout()
        name_row.addWidget(form_label("Model n&ame:", self.name_edit))
        name_row.addWidget(self.name_edit, 1)
        row = QHBoxLayout()
        row.addWidget(self.run_button)
        row.addStretch(1)
        layout = self.scrolled()
        layout.addWidget(self.plan)
        layout.addLayout(name_row)
        layout.addWidget(self.name_note)
        layout.addLayout(row)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addStretch(1)

    def settings(self) -> ValidationSettings:
        owner = self.owner
        conditions, method = owner.conditions_page, owner.method_page
        choice = method.choice()
        settings = ValidationSettings(
            folds=conditions.folds.value(),
            max_trials=conditions.max_trials.value(),
            seed=conditions.seed.value(),
            repeats=conditions.repeats.value(),
            method=choice.method,
            compare=tuple(choice.compare),
            choose_by=choice.choose_by,
            fuse=choice.fuse,
            criteria=owner.criteria or AcceptanceCriteria.now(),
            lambdag_order=method.order.value(),
            lambdag_samples=method.samples.value(),
            topic=str(conditions.topic.currentData()),
        )
        if owner.ranges is not None:
            settings = replace(
                settings, questioned_chars=owner.ranges[0], known_chars=owner.ranges[1]
            )
        return settings

    def used_names(self) -> set[str]:
        store = self.owner.session.store
        return {m.name for m in store.models.list_all()} if store is not None else set()

    def name_problem(self) -> str:
        return vt.model_name_problem(self.name_edit.text(), self.used_names())

    def model_name(self) -> str:
        return " ".join(self.name_edit.text().split())

    def initializePage(self) -> None:
        owner = self.owner
        if owner.population is None:  # the population page, before this one, chose one
            return
        settings = self.settings()
        choice = owner.method_page.choice()
        repeats = owner.conditions_page.repeats.value()
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
                    settings.method, settings.lambdag_order, settings.lambdag_samples, settings.fuse
                )
                + comparison_plan_words(
                    choice.method, choice.compare, choice.choose_by, settings.fuse
                ),
                ranges=owner.ranges,
                repeats=repeats,
            )
        )
        if owner.validation is None:
            self.name_edit.setText(
                vt.suggested_model_name(
                    owner.case.number,
                    owner.population.name,
                    settings.method,
                    owner.ranges,
                    settings.seed,
                    self.used_names(),
                    settings.fuse,
                )
            )
        self.status.setText("")
        self.status.setStyleSheet("")
        self._name_changed()

    def _name_changed(self, *_args) -> None:
        problem = self.name_problem()
        self.name_note.setStyleSheet(ERROR_STYLE if problem else "")
        self.name_note.setText(problem or "The model will be stored under this name.")
        busy = self.worker is not None or self.owner.validation is not None
        self.run_button.setEnabled(not problem and not busy)
        self.name_edit.setEnabled(not busy)

    def start(self) -> TaskWorker | None:
        owner, store = self.owner, self.owner.session.store
        if (
            store is None
            or owner.population is None
            or self.worker is not None
            or owner.validation is not None
        ):
            return None
        problem = self.name_problem()  # again: another window may have taken the name
        if problem:
            self._name_changed()
            return None
        settings, name = self.settings(), self.model_name()
        case_id, population, lengths = owner.case.id, owner.population.name, owner.lengths
        job = Job(
            f"Validating case {owner.case.number} on {population!r}",
            lambda p: jobs.validate_for_case(
                store, case_id, population, settings, lengths, p, model_name=name
            ),
        )
        self.worker = owner.runner.start(job, self._finished, self._failed, self._cancelled)
        self.progress.attach(self.worker)
        self.status.setText("")
        self._busy_changed()
        self._show(self.progress)
        return self.worker

    def _show(self, widget) -> None:
        """Scroll ``widget`` into view once laid out (at 150 % the plan fills the page)."""
        QTimer.singleShot(0, lambda: self.scroll_area.ensureWidgetVisible(widget))

    def _busy_changed(self) -> None:
        self._name_changed()
        self.completeChanged.emit()
        back = self.owner.button(QWizard.WizardButton.BackButton)
        back.setEnabled(self.worker is None and self.owner.validation is None)

    def _ended(self, text: str, error: bool = False) -> None:
        self.worker = None
        self.progress.detach()
        self.status.setStyleSheet(ERROR_STYLE if error else "")
        self.status.setText(text)
        self._busy_changed()
        self._show(self.status)

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


class RecordPage(WizardStep):
    """The stored record with this case's fit and every attempt of the case."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(wizard, "6 · The validation record")
        self.setFinalPage(True)
        self.view = ValidationRecordView(self)
        self.case_tabs = RecordCaseTabs(self.view)  # also in Validation Records
        self.fit, self.attempts = self.case_tabs.fit, self.case_tabs.attempts
        # the verdict lines above the tabs can take half of a small screen: the page scrolls,
        # and the tabs keep room for a dozen lines
        self.view.tabs.setMinimumHeight(self.fontMetrics().height() * 14)
        # a tab chosen while the verdict lines fill the page is scrolled into view
        self.view.tabs.currentChanged.connect(lambda _index: QTimer.singleShot(0, self._show_tabs))
        layout = self.scrolled()
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)

    def _show_tabs(self) -> None:
        """Scroll just enough to show the whole tab pane, its tab bar first when it is taller
        than the page (at 150 % on a laptop the verdict lines take half of it)."""
        bar, tabs, content = (
            self.scroll_area.verticalScrollBar(),
            self.view.tabs,
            self.scroll_area.widget(),
        )
        if content is None:
            return
        top = tabs.mapTo(content, QPoint(0, 0)).y()
        bottom, height = top + tabs.height(), self.scroll_area.viewport().height()
        if top < bar.value() or bottom > bar.value() + height:
            bar.setValue(min(top, bottom - height))

    def initializePage(self) -> None:
        done = self.owner.validation
        if done is None:
            return
        record = read_validation_record(done.result.record)
        self.setSubTitle(vt.record_subtitle(record, self.owner.case.number))
        self.view.show_record(record, done.model.name)
        store = self.owner.session.store
        if store is None:
            self.show_fit(None, fit_words.NO_PROFILE if record.population_fit is None else "")
            return
        case = self.owner.case
        population = self.owner.population.name if self.owner.population else ""
        self.case_tabs.show_case(store, case, record, population)

    def show_fit(self, check: fit_words.FitCheck | None, problem: str) -> None:
        """This case's fit check against the record's population, or why there is none."""
        self.case_tabs.show_fit(check, problem)
