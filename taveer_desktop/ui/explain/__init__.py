"""Explaining a decision: result view, importance charts, distances, evidence, model view.

Entry points for the main window:

- ``ResultView(parent).show_result(result_dict, model, known_texts, unknown_text,
  document_hashes)`` — one verification (verified with ``explain=True``); call
  ``result_view.shutdown()`` in the window's ``closeEvent``.
- ``ModelView(parent).show_evaluation(model, evaluation, corpus_name)`` — one evaluation.

``python -m taveer_desktop.ui.explain MODEL --known K... --unknown Q`` opens them standalone.

The data behind the views (decision texts, Φ rows, occurrences) lives in ``presentation/``
(``explanation_data``, ``evidence_data``), importable without Qt; the views are imported only
when asked for, so importing this package alone loads neither PySide6 nor pyqtgraph.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from taveer_desktop.ui.explain.model_view import ModelView
    from taveer_desktop.ui.explain.result_view import ResultView

__all__ = ["ModelView", "ResultView"]


def __getattr__(name: str):
    if name == "ModelView":
        from taveer_desktop.ui.explain.model_view import ModelView

        return ModelView
    if name == "ResultView":
        from taveer_desktop.ui.explain.result_view import ResultView

        return ResultView
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
