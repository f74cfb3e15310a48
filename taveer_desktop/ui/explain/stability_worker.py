"""Decision stability computed off the GUI thread (a ``QRunnable`` on a ``QThreadPool``).

The project's one worker shape: a signals object created in the GUI thread with
``progress(int, int, str)``, ``finished(object)``, ``failed(str)`` and ``cancelled()``.
Cancelling sets the engine's cancel token, which ``decision_stability`` checks after every
document and category; ``cancelled`` is emitted instead of a result. The result reaches the
GUI as plain data (``Stability.to_dict()``).
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Sequence

from PySide6.QtCore import QObject, QRunnable, Signal

from taveer_desktop.core.errors import Cancelled, CancelToken
from taveer_desktop.core.model import Model
from taveer_desktop.core.stability import DEFAULT_RESAMPLES, decision_stability

log = logging.getLogger(__name__)


class WorkerSignals(QObject):
    progress = Signal(int, int, str)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()


class StabilityJob(QRunnable):
    """Resample the case ``resamples`` times and report ``Stability.to_dict()``."""

    def __init__(
        self,
        model: Model,
        known_texts: Sequence[str],
        unknown_text: str,
        answer: str,
        resamples: int = DEFAULT_RESAMPLES,
    ) -> None:
        super().__init__()
        self.signals = WorkerSignals()
        self._args = (model, list(known_texts), unknown_text, answer)
        self.resamples = resamples
        self._cancel = CancelToken()

    def cancel(self) -> None:
        self._cancel.cancel()

    def run(self) -> None:
        model, known, unknown, answer = self._args
        self.signals.progress.emit(0, 1, f"resampling the sentences {self.resamples} times")
        try:
            stability = decision_stability(
                model, known, unknown, answer, self.resamples, cancel=self._cancel
            )
        except Cancelled:
            self.signals.cancelled.emit()
            return
        except Exception as error:  # reported to the user; the application keeps running
            log.error("stability failed:\n%s", traceback.format_exc())
            self.signals.failed.emit(f"{type(error).__name__}: {error}")
            return
        if self._cancel.cancelled:
            self.signals.cancelled.emit()
            return
        self.signals.progress.emit(1, 1, "done")
        self.signals.finished.emit(stability.to_dict())
