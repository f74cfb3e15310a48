"""The Verification tab's result view: a stored run shown and explained.

Adapts a ``RunView`` (store records and the stored result) to the explanation views of
``ui/explain``: it loads the run's model and the texts of the documents used from the project
store, passes their stored SHA-256 hashes so that every number on screen is tied to the
evidence as received, and shows the stability stored with the run. A stability the examiner
computes runs as a job on the window's job runner (the store's writer pool) and is stored with
the run before it is shown. Offers ``show_run(RunView)`` and ``clear(message)`` as the tab
expects; every newly shown run starts scrolled to the top. The conclusion (its kind and
statement) sits above the scrolled result, so scrolling the result never hides it; it takes
at most half of the panel's height (``fit_conclusion``), a longer one scrolling in its own
place, so the result's tabs always get at least half (at 150 % on a 1366 × 768 screen a long
conclusion left them about 80 px).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QStackedWidget, QVBoxLayout, QWidget

from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.stability.stated_stability import stated_log10_lr
from taveer_desktop.presentation.explanation_data import StabilityFigures
from taveer_desktop.ui import app_settings, jobs
from taveer_desktop.ui.explain import ResultView
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.project_session import AUDIT, ProjectSession
from taveer_desktop.ui.run_view import RunView
from taveer_desktop.ui.task_worker import Job, TaskWorker


class RunExplanationPanel(QStackedWidget):
    """A message page, or the explained result of one stored run."""

    def __init__(
        self,
        session: ProjectSession,
        parent: QWidget | None = None,
        runner: JobRunner | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.runner = runner
        self.message = QLabel()
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setWordWrap(True)
        self.result_view = ResultView(conclusion_above_tabs=False)
        if runner is not None:
            self.result_view.summary.stability_handler = self.compute_stability
        # scrolls only where the window is smaller than the views need (small screens, 150 %);
        # the conclusion stays above it, never scrolled away
        self.result_scroll = QScrollArea()
        self.result_scroll.setWidgetResizable(True)
        self.result_scroll.setWidget(self.result_view)
        # as short as the bar of the result's tabs: the height goes to the conclusion first
        self.result_scroll.setMinimumHeight(self.result_view.tabs.tabBar().sizeHint().height())
        self.result_page = QWidget()
        page = QVBoxLayout(self.result_page)
        page.setContentsMargins(0, 0, 0, 0)
        page.setSpacing(2)
        self.page_spacing = page.spacing()  # between the conclusion and the result
        # the conclusion in a place of its own, at most half of the panel high (it scrolls
        # there beyond that, its first line, the kind, at the top)
        self.conclusion_scroll = QScrollArea()
        self.conclusion_scroll.setWidgetResizable(True)
        self.conclusion_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.conclusion_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conclusion_scroll.setWidget(self.result_view.summary.conclusion)
        page.addWidget(self.conclusion_scroll)
        page.addWidget(self.result_scroll, 1)
        self.addWidget(self.message)
        self.addWidget(self.result_page)
        self.current: RunView | None = None
        self.stability_worker: TaskWorker | None = None
        self._texts: tuple[list[str], str] = ([], "")
        self._models: dict[int, Model] = {}
        self.clear()

    def clear(self, message: str = "No verification yet. Choose a model and press Verify.") -> None:
        self.current = None
        self.message.setText(message)
        self.setCurrentWidget(self.message)

    def show_run(self, view: RunView) -> None:
        store = self.session.store
        if store is None or view.questioned is None:
            self.clear("The documents of this run are no longer in the case.")
            return
        run = view.run
        if run.model_id not in self._models:
            self._models[run.model_id] = store.models.load(run.model_id)
        known_texts = [store.documents.text(doc.id) for doc in view.known]
        unknown_text = store.documents.text(view.questioned.id)
        hashes = [(f"questioned: {view.questioned.file_name}", view.questioned.sha256)]
        hashes += [(f"known: {doc.file_name}", doc.sha256) for doc in view.known]
        checks = store.runs.stability_checks(run.id)
        self.current = view
        self._texts = (known_texts, unknown_text)
        self.result_view.show_result(
            view.result,
            self._models[run.model_id],
            known_texts,
            unknown_text,
            hashes,
            scale_id=app_settings.verbal_scale_id(),
            stability=StabilityFigures.from_check(checks[-1]) if checks else None,
        )
        self.setCurrentWidget(self.result_page)
        self.fit_conclusion()
        self.conclusion_scroll.verticalScrollBar().setValue(0)
        self.result_scroll.verticalScrollBar().setValue(0)
        self.result_scroll.horizontalScrollBar().setValue(0)

    def conclusion_height(self, width: int) -> int:
        """The height the conclusion's wrapped lines need at ``width``."""
        conclusion = self.result_view.summary.conclusion
        if conclusion.hasHeightForWidth():
            needed = conclusion.heightForWidth(width)
            if needed >= 0:
                return needed
        return conclusion.sizeHint().height()  # (a wrapped label's hint: for a narrow width)

    def fit_conclusion(self) -> None:
        """The conclusion as tall as its lines need but at most half of the panel, so the
        result's tabs below it get at least the other half; beyond that it scrolls."""
        width = self.width()
        half = max(0, self.height() - self.page_spacing) // 2
        needed = self.conclusion_height(width)
        if needed > half:  # its scroll bar takes some width: the lines wrap again
            bar = self.conclusion_scroll.verticalScrollBar().sizeHint().width()
            needed = self.conclusion_height(width - bar)
        kind = self.result_view.summary.kind_label.sizeHint().height()  # at least its kind
        shown = max(min(needed, half), kind)
        if (
            self.conclusion_scroll.height() != shown
            or self.conclusion_scroll.maximumHeight() != shown
        ):
            self.conclusion_scroll.setFixedHeight(shown)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit_conclusion()

    # ---- stability ----------------------------------------------------------------------------

    def compute_stability(self) -> bool:
        """Compute the shown run's stability in the background and store it with the run
        (False if that cannot start now)."""
        store, view = self.session.store, self.current
        if store is None or view is None or self.runner is None or self.stability_worker:
            return False
        run_id, case_id = view.run.id, view.case.id
        model = self._models[view.run.model_id]
        known, unknown = self._texts
        prediction = view.run.prediction.value
        shown = self.result_view.verification  # the run shown, as its result was read
        findings = shown.methods if shown is not None else None
        stated = stated_log10_lr(findings)  # a LambdaG or fused run's stated ratio
        job = Job(
            f"Stability of run {run_id}",
            lambda p: jobs.compute_stability(
                store, run_id, model, known, unknown, prediction, p, stated
            ),
        )
        self.stability_worker = self.runner.start(
            job,
            lambda check: self._stability_stored(run_id, case_id, check),
            lambda message, _details: self._stability_ended(run_id, message),
            lambda: self._stability_ended(run_id, "cancelled"),
        )
        return True

    def _stability_ended(self, run_id: int, message: str) -> None:
        self.stability_worker = None
        if self.current is not None and self.current.run.id == run_id:
            self.result_view.summary.stability_failed(message)

    def _stability_stored(self, run_id: int, case_id: int, check) -> None:
        self.stability_worker = None
        summary = self.result_view.summary
        if self.current is not None and self.current.run.id == run_id:
            summary.show_stability(StabilityFigures.from_check(check))
        summary.stability_finished.emit(check)
        self.session.changed(AUDIT, case_id=case_id)  # the audit log has a new entry

    def shutdown(self) -> None:
        """Wait for the stability job of the result view; call when the window closes."""
        self.result_view.shutdown()
