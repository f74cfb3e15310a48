"""The status bar: a passing message, background work, the open project, the case's model.

The progress of the oldest running job is shown with its Cancel button; when it ends, the next
running job (if any) takes its place. A passing message ("Verification of DEMO-002 started") is
a label of its own that shortens itself with "…" (whole on hover) to the room the permanent part
leaves it — ``QStatusBar.showMessage`` painted it under the project's name, where the two
overlapped ("Verification of DEMO-002 sProject: …").
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFrame, QStatusBar

from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.progress_panel import ElidedLabel, ProgressPanel

MODEL_EMS = 24  # the widest the case model's name is shown, in widths of "m"
PROJECT_EMS = 16  # the project's name is shortened only beyond this


class StatusLine:
    """Puts its widgets into ``bar`` and follows the jobs of ``runner``."""

    def __init__(self, bar: QStatusBar, runner: JobRunner) -> None:
        self.runner = runner
        self.message_label = ElidedLabel(hint="The last thing the program did")
        self.message_label.setObjectName("status_message")
        self._message_timer = QTimer(bar)
        self._message_timer.setSingleShot(True)
        self._message_timer.timeout.connect(lambda: self.message_label.setText(""))
        self.job_panel = ProgressPanel(compact=True)
        self.project_label = ElidedLabel()
        self.model_label = ElidedLabel(
            hint="The model the examiner chose for the selected case (Verification ▸ Choose Model…)"
        )
        separator = QFrame()
        separator.setFrameShape(QFrame.Shape.VLine)
        separator.setFrameShadow(QFrame.Shadow.Sunken)
        em = self._em = bar.fontMetrics().horizontalAdvance("m")
        # A validated model's name runs to a hundred characters: it asks for no more than
        # MODEL_EMS, so that the message ("Verification of 2026-023-I stored") and the
        # project's name (whole up to PROJECT_EMS, show_project) keep their room.
        for label in (self.project_label, self.model_label):  # may shrink on narrow windows
            label.setMinimumWidth(em * 8)
        self.model_label.setMaximumWidth(em * MODEL_EMS)
        self.message_label.setMinimumWidth(em * 6)
        bar.addWidget(self.message_label, 1)  # takes the room the permanent part leaves
        for widget in (self.job_panel, self.project_label, separator, self.model_label):
            bar.addPermanentWidget(widget)
        runner.job_started.connect(self._job_started)
        runner.job_ended.connect(self._job_ended)

    def show_message(self, text: str, timeout: int = 0) -> None:
        """Show a passing message for ``timeout`` milliseconds (0: until the next one)."""
        self.message_label.setText(text)
        self._message_timer.stop()
        if timeout > 0:
            self._message_timer.start(timeout)

    def show_project(self, path: Path | None, has_case: bool, model: str | None) -> None:
        name = path.name if path else "no project"
        self.project_label.hint = str(path) if path else "No project is open"
        self.project_label.setText(f"Project: {name}")
        whole = self.project_label.sizeHint().width()
        self.project_label.setMinimumWidth(max(self._em * 8, min(whole, self._em * PROJECT_EMS)))
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
