"""A progress bar for one background job: message, elapsed and remaining time, Cancel.

Used in the status bar for jobs started from the main window (verification, document import)
and inside the train and evaluate dialogs. The remaining time is the elapsed time scaled by the
work left, shown once some progress has been reported.
"""

from __future__ import annotations

import contextlib
import time

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from taveer_desktop.ui.task_worker import TaskWorker


def format_duration(seconds: float) -> str:
    """``0:07``, ``12:30`` or ``1:02:03``."""
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ElidedLabel(QLabel):
    """One line that shortens itself with "…" to the room it is given (the whole text on
    hover), so a long progress message never widens its dialog or the status bar."""

    def __init__(self, parent: QWidget | None = None, hint: str = "") -> None:
        super().__init__(parent)
        self._full = ""
        self.hint = hint  # what the label is, on hover (the whole text joins it when shortened)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        self._full = text
        self._elide()

    def text(self) -> str:
        return self._full

    def sizeHint(self) -> QSize:
        """Room for the whole text where there is room."""
        width = self.fontMetrics().horizontalAdvance(self._full) + 2 * self.margin() + 4
        return QSize(width, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        """As narrow as its minimum width (or four "m"s): the text is shortened, not cut."""
        narrowest = self.minimumWidth() or 4 * self.fontMetrics().horizontalAdvance("m")
        return QSize(narrowest, super().minimumSizeHint().height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, self.width())
        super().setText(shown)
        whole = self._full if shown != self._full or not self.hint else ""
        self.setToolTip("\n".join(t for t in (whole, self.hint) if t))


class ProgressPanel(QWidget):
    """Shows the progress of one ``TaskWorker`` and lets the user cancel it."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None, compact: bool = False) -> None:
        super().__init__(parent)
        self.message_label = ElidedLabel(hint="What the background job is doing now")
        self.bar = QProgressBar()
        self.bar.setFormat("%p %")  # percentages as everywhere else: "58 %"
        self.bar.setToolTip("Progress of the background job")
        self.bar.setTextVisible(not compact)
        self.time_label = QLabel()
        self.time_label.setToolTip("Time since the job started, and an estimate of the time left")
        self.cancel_button = QPushButton("&Cancel" if not compact else "Cancel")
        self.cancel_button.setToolTip("Stop the job; nothing half-done is kept")
        self.cancel_button.clicked.connect(self._cancel_clicked)
        em = self.fontMetrics().horizontalAdvance("m")
        self.message_label.setMinimumWidth(em * (6 if compact else 12))
        if compact:  # in the status bar: sizes in text widths, so 150 % scaling keeps them;
            # small minimums, so that the status bar of a 1366 × 768 window at 150 % can give
            # the panel its minimum (below it the bar was drawn over the message)
            self.bar.setMaximumWidth(em * 10)
            self.bar.setMinimumWidth(em * 4)
            self.time_label.setMinimumWidth(
                self.fontMetrics().horizontalAdvance("0:00, ~0:00 left")
            )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.message_label, stretch=2)
        layout.addWidget(self.bar, stretch=2)
        layout.addWidget(self.time_label)
        layout.addWidget(self.cancel_button)
        self._worker: TaskWorker | None = None
        self._started = 0.0
        self._done = 0
        self._total = 0
        self._timer = QTimer(self)
        self._timer.setInterval(500)
        self._timer.timeout.connect(self._update_time)
        self._compact = compact
        self.setVisible(False)

    @property
    def worker(self) -> TaskWorker | None:
        return self._worker

    def attach(self, worker: TaskWorker) -> None:
        """Follow ``worker`` from now until ``detach``."""
        self._worker = worker
        self._started = time.monotonic()
        self._done = self._total = 0
        self.message_label.setText(worker.title + "…")
        self.bar.setRange(0, 0)  # busy until the first progress report
        self.time_label.setText("0:00 elapsed")
        self.cancel_button.setEnabled(worker.job.cancellable)
        if not worker.job.cancellable:
            self.cancel_button.setToolTip("This step is one short store transaction")
        worker.signals.progress.connect(self.show_progress)
        self._timer.start()
        self.setVisible(True)

    def detach(self) -> None:
        if self._worker is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self._worker.signals.progress.disconnect(self.show_progress)
        self._worker = None
        self._timer.stop()
        self.setVisible(False)

    def show_progress(self, done: int, total: int, message: str) -> None:
        self._done, self._total = done, total
        if total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))
        else:
            self.bar.setRange(0, 0)
        if message:
            title = self._worker.title if self._worker else ""
            self.message_label.setText(f"{title}: {message}" if title else message)
        self._update_time()

    def remaining_seconds(self) -> float | None:
        if self._total <= 0 or self._done <= 0:
            return None
        elapsed = time.monotonic() - self._started
        return elapsed * (self._total - self._done) / self._done

    def _update_time(self) -> None:
        elapsed = format_duration(time.monotonic() - self._started)
        remaining = self.remaining_seconds()
        if self._compact:
            text = elapsed
            if remaining is not None:
                text += f", ~{format_duration(remaining)} left"
        else:
            text = f"{elapsed} elapsed"
            if remaining is not None:
                text += f", about {format_duration(remaining)} left"
        self.time_label.setText(text)

    def _cancel_clicked(self) -> None:
        if self._worker is None:
            return
        self._worker.cancel()
        self.cancel_button.setEnabled(False)
        self.message_label.setText(f"Cancelling {self._worker.title.lower()}…")
        self.cancel_requested.emit()
