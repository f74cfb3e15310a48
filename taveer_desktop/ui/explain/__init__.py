"""Explaining a decision: result view, importance charts, distances, evidence, model view.

Entry points for the main window:

- ``ResultView(parent).show_result(result_dict, model, known_texts, unknown_text,
  document_hashes)`` — one verification (verified with ``explain=True``); call
  ``result_view.shutdown()`` in the window's ``closeEvent``.
- ``ModelView(parent).show_evaluation(model, evaluation, corpus_name)`` — one evaluation.

``python -m taveer_desktop.ui.explain MODEL --known K... --unknown Q`` opens them standalone.
"""

from taveer_desktop.ui.explain.model_view import ModelView
from taveer_desktop.ui.explain.result_view import ResultView

__all__ = ["ModelView", "ResultView"]
