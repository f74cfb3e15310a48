"""The permanent part of the status bar: background work, the open project, the case's model.

The progress of the oldest running job is shown with its Cancel button; when it ends, the next
running job (if any) takes its place.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFrame, QStatusBar

from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.progress_panel import ElidedLabel, ProgressPanel


class StatusLine:
    """Puts its widgets into ``bar`` and follows the jobs of ``runner``."""

    def __init__(self, bar: QStatusBar, runner: JobRunner) -> None:
        self.runner = runner
        self.job_panel = ProgressPanel(compact=True)
        self.project_label = ElidedLabel()
        self.model_label = ElidedLabel(
            hint="The model the examiner chose for the selected case (Verification ▸ Choose Model…)"
        )
        separator = QFrame()
        separator.setFrameShape(QFrame.Shape.VLine)
        separator.setFrameShadow(QFrame.Shadow.Sunken)
        em = bar.fontMetrics().horizontalAdvance("m")
        for label in (self.project_label, self.model_label):  # may shrink on narrow windows
            label.setMinimumWidth(em * 8)
        for widget in (self.job_panel, self.project_label, separator, self.model_label):
            bar.addPermanentWidget(widget)
        runner.job_started.connect(self._job_started)
        runner.job_ended.connect(self._job_ended)

    def show_project(self, path: Path | None, has_case: bool, model: str | None) -> None:
        name = path.name if path else "no project"
        self.project_label.hint = str(path) if path else "No project is open"
        self.project_label.setText(f"Project: {name}")
        self.model_label.setText(
            f"Case model: {model or 'none chosen'}" if has_case else "Case model: no case selected"
        )

    def _job_started(self, worker) -> None:
        if self.job_panel.worker is None:
            self.job_panel.attach(worker)

    def _job_ended(self, worker, _outcome: str) -> None:
        if self.job_panel.worker is worker:
            self.job_panel.detach()
            if self.runner.running:
                self.job_panel.attach(self.runner.running[0])
