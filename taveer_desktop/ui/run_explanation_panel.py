"""The Verification tab's result view: a stored run shown and explained.

Adapts a ``RunView`` (store records and the stored result) to the explanation views of
``ui/explain``: it loads the run's model and the texts of the documents used from the project
store, and passes their stored SHA-256 hashes so that every number on screen is tied to the
evidence as received. Offers ``show_run(RunView)`` and ``clear(message)`` as the tab expects.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QStackedWidget, QWidget

from taveer_desktop.core.model import Model
from taveer_desktop.ui import app_settings
from taveer_desktop.ui.explain import ResultView
from taveer_desktop.ui.project_session import ProjectSession
from taveer_desktop.ui.run_view import RunView


class RunExplanationPanel(QStackedWidget):
    """A message page, or the explained result of one stored run."""

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.message = QLabel()
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setWordWrap(True)
        self.result_view = ResultView()
        # scrolls only where the window is narrower than the views need (small screens, 150 %)
        self.result_scroll = QScrollArea()
        self.result_scroll.setWidgetResizable(True)
        self.result_scroll.setWidget(self.result_view)
        self.addWidget(self.message)
        self.addWidget(self.result_scroll)
        self.current: RunView | None = None
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
        self.current = view
        self.result_view.show_result(
            view.result,
            self._models[run.model_id],
            known_texts,
            unknown_text,
            hashes,
            scale_id=app_settings.verbal_scale_id(),
        )
        self.setCurrentWidget(self.result_scroll)

    def shutdown(self) -> None:
        """Wait for the stability job of the result view; call when the window closes."""
        self.result_view.shutdown()
