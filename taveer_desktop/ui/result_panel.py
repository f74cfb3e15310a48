"""The result of one stored verification run: the decision in plain words and what it rests on.

``RunView`` is everything a result view may show (case, run record, the engine's full result
dict, the documents used); ``ResultPanel`` is the plain view of it built here: the decision,
the ensemble similarity on a 0–1 scale with the 0.5 boundary, the per-category scores, the
model and the documents' hashes. The Verification tab holds its result view behind
``VerificationTab.set_result_view`` so a richer view (charts, likelihood ratios) can replace or
wrap this one: any widget with ``show_run(RunView)`` and ``clear(message)`` will do.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.store import Case, Document, VerificationRun
from taveer_desktop.ui.category_table_model import CategoryTableModel, category_rows
from taveer_desktop.ui.record_table_model import short_hash, short_utc

DECISIONS = {
    "Y": (
        "Same author",
        "The questioned document was probably written by the author of the known documents.",
    ),
    "N": (
        "Different authors",
        "The questioned document was probably written by someone other than the known author.",
    ),
    "insufficient": (
        "No decision: insufficient evidence",
        "The documents give the method too little to compare; no decision is made.",
    ),
}


@dataclass(frozen=True)
class RunView:
    """One stored run with everything needed to show and explain it."""

    case: Case
    run: VerificationRun
    result: dict[str, Any]
    questioned: Document | None
    known: tuple[Document, ...]


def describe_decision(prediction: str) -> tuple[str, str]:
    return DECISIONS.get(prediction, (f"Decision: {prediction}", ""))


class SimilarityScale(QWidget):
    """A 0–1 scale, the 0.5 boundary and a marker at the ensemble similarity (with labels)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.value: float | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setToolTip(
            "Ensemble similarity: the median of the deciding categories' similarities. "
            "Above 0.5 points towards the same author, below towards different authors."
        )

    def set_value(self, value: float | None) -> None:
        self.value = value
        self.update()

    def sizeHint(self) -> QSize:
        height = self.fontMetrics().height()
        return QSize(height * 20, round(height * 5.4))

    def minimumSizeHint(self) -> QSize:
        height = self.fontMetrics().height()
        return QSize(height * 10, round(height * 5.4))

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        metrics = self.fontMetrics()
        line = metrics.height()
        margin = metrics.horizontalAdvance("0.00")
        bar = QRectF(margin, line * 1.3, self.width() - 2 * margin, line * 0.9)
        mid = bar.left() + bar.width() / 2
        text_color = self.palette().color(QPalette.ColorRole.WindowText)
        painter.fillRect(
            QRectF(bar.left(), bar.top(), bar.width() / 2, bar.height()), QColor(213, 94, 0, 70)
        )
        painter.fillRect(
            QRectF(mid, bar.top(), bar.width() / 2, bar.height()), QColor(0, 158, 115, 70)
        )
        painter.setPen(QPen(text_color, 1))
        painter.drawRect(bar)
        painter.setPen(QPen(text_color, 2, Qt.PenStyle.DashLine))
        painter.drawLine(
            QPointF(mid, bar.top() - line * 0.3), QPointF(mid, bar.bottom() + line * 0.3)
        )
        painter.setPen(text_color)
        baseline = bar.bottom() + line * 1.1
        for value, label in ((0.0, "0"), (0.5, "0.5"), (1.0, "1")):
            x = bar.left() + bar.width() * value
            painter.drawText(QPointF(x - metrics.horizontalAdvance(label) / 2, baseline), label)
        left = "◀ different authors"
        right = "same author ▶"
        painter.drawText(QPointF(bar.left(), line * 0.9), left)
        painter.drawText(QPointF(bar.right() - metrics.horizontalAdvance(right), line * 0.9), right)
        if self.value is not None:
            x = bar.left() + bar.width() * min(max(self.value, 0.0), 1.0)
            marker = QPolygonF(
                [
                    QPointF(x, bar.bottom()),
                    QPointF(x - line * 0.45, bar.bottom() + line * 0.7),
                    QPointF(x + line * 0.45, bar.bottom() + line * 0.7),
                ]
            )
            painter.setPen(QPen(text_color, 1))
            painter.setBrush(text_color)
            painter.drawPolygon(marker)
            painter.drawLine(QPointF(x, bar.top()), QPointF(x, bar.bottom()))
            label = f"{self.value:.3f}"
            width = metrics.horizontalAdvance(label)
            label_x = min(max(x - width / 2, 0), self.width() - width)
            painter.drawText(QPointF(label_x, bar.bottom() + line * 1.4 + metrics.ascent()), label)
        painter.end()


class ResultPanel(QWidget):
    """The plain result view; see the module docstring for how to replace it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.verdict = QLabel()
        font = self.verdict.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        self.verdict.setFont(font)
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.meaning = QLabel()
        self.meaning.setWordWrap(True)
        self.meaning.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.scale = SimilarityScale()
        self.warnings = QLabel()
        self.warnings.setWordWrap(True)
        self.warnings.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.category_model = CategoryTableModel(self)
        self.categories = QTableView()
        self.categories.setModel(self.category_model)
        self.categories.setToolTip("Each feature category's similarity; bold rows decide")
        self.categories.verticalHeader().setVisible(False)
        self.categories.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.categories.setWordWrap(False)
        header = self.categories.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.facts = QLabel()
        self.facts.setWordWrap(True)
        self.facts.setTextFormat(Qt.TextFormat.RichText)
        self.facts.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.facts.setToolTip("The model and the exact documents this run used")
        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict)
        layout.addWidget(self.meaning)
        layout.addWidget(self.scale)
        layout.addWidget(self.warnings)
        layout.addWidget(self.categories, stretch=1)
        layout.addWidget(self.facts)
        self.current: RunView | None = None
        self.clear()

    def clear(self, message: str = "No verification yet. Choose a model and press Verify.") -> None:
        self.current = None
        self.verdict.setText(message)
        self.meaning.setText("")
        self.scale.set_value(None)
        self.scale.setVisible(False)
        self.warnings.setVisible(False)
        self.category_model.set_records([])
        self.categories.setVisible(False)
        self.facts.setText("")

    def show_run(self, view: RunView) -> None:
        self.current = view
        run, result = view.run, view.result
        title, meaning = describe_decision(run.prediction)
        self.verdict.setText(title)
        similarity = run.similarity
        if similarity is not None:
            meaning += (
                f" Ensemble similarity {similarity:.3f} "
                f"(categories {', '.join(result.get('ensemble', []))}); 0.5 is the boundary."
            )
        self.meaning.setText(meaning)
        self.scale.set_value(similarity)
        self.scale.setVisible(True)
        warnings = result.get("warnings") or []
        self.warnings.setText("Warnings: " + "; ".join(warnings) if warnings else "")
        self.warnings.setVisible(bool(warnings))
        self.category_model.set_records(category_rows(result))
        self.categories.setVisible(True)
        self._fit_table_height()
        self.facts.setText(self._facts_html(view))

    def _fit_table_height(self) -> None:
        """Tall enough for every category: the panel scrolls as a whole, not the table."""
        view = self.categories
        rows = self.category_model.rowCount()
        row_height = view.verticalHeader().defaultSectionSize()
        frame = 2 * view.frameWidth()
        height = view.horizontalHeader().sizeHint().height() + rows * row_height + frame
        scroll = view.horizontalScrollBar().sizeHint().height()
        view.setMinimumHeight(height + scroll)

    @staticmethod
    def _facts_html(view: RunView) -> str:
        run = view.run
        esc = html.escape
        documents = []
        if view.questioned is not None:
            documents.append(("questioned", view.questioned))
        documents += [("known", doc) for doc in view.known]
        rows = "".join(
            f"<tr><td>{role}</td><td>{esc(doc.file_name)}</td>"
            f"<td><code title='{doc.sha256}'>{short_hash(doc.sha256)}</code></td></tr>"
            for role, doc in documents
        )
        return (
            f"<p><b>Model</b> {esc(run.model_name)} (SHA-256 <code>{short_hash(run.model_sha256)}"
            f"</code>) · <b>run</b> {run.id} at {short_utc(run.run_utc)} · TAVeer Desktop "
            f"{esc(run.software_version)}<br><b>Run fingerprint</b> <code>{run.record_sha256}"
            f"</code></p><table cellspacing='6'>{rows}</table>"
        )
