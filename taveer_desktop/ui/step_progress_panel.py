"""Progress of a job made of steps whose number is not known in advance (a validation: reading
the population, cutting trials, cross-validating — per repeat —, the bootstrap, LambdaG's
scoring): the bar and the time left are the *current step's* and say so ("step 3: 40 %"), and a
step at its end says that more may follow, so the panel never reads "100 %, about 0:00 left"
while work remains.

A new step begins when the first two words of the job's message change ("cutting trials",
"cross-validating by author", "repeat 2 of 3: …"), not on every item a step reports.
"""

from __future__ import annotations

import time

from PySide6.QtWidgets import QWidget

from taveer_desktop.ui.progress_panel import ProgressPanel, format_duration
from taveer_desktop.ui.task_worker import TaskWorker


def step_key(message: str) -> str:
    return " ".join(message.split()[:2]).lower()


class StepProgressPanel(ProgressPanel):
    """A ``ProgressPanel`` whose percentage and time left are those of the current step."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.step = 0
        self._key = ""
        self._step_started = 0.0

    def attach(self, worker: TaskWorker) -> None:
        super().attach(worker)
        self.step, self._key, self._step_started = 0, "", time.monotonic()
        self.bar.setFormat("%p %")

    def show_progress(self, done: int, total: int, message: str) -> None:
        key = step_key(message) if message else self._key
        if key != self._key or self.step == 0:
            self.step += 1
            self._key, self._step_started = key, time.monotonic()
        self.bar.setFormat(f"step {self.step}: %p %")
        super().show_progress(done, total, message)

    def remaining_seconds(self) -> float | None:
        """The current step's time left (None before its first report and at its end)."""
        if self._total <= 0 or self._done <= 0 or self._done >= self._total:
            return None
        elapsed = time.monotonic() - self._step_started
        return elapsed * (self._total - self._done) / self._done

    def time_text(self) -> str:
        text = f"{format_duration(time.monotonic() - self._started)} elapsed"
        remaining = self.remaining_seconds()
        if remaining is not None:
            text += f"; this step about {format_duration(remaining)} left"
        elif self._total > 0 and self._done >= self._total:
            text += f"; step {self.step} done, more may follow"
        return text

    def _update_time(self) -> None:
        self.time_label.setText(self.time_text())
