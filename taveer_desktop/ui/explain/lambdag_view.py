"""LambdaG's evidence in the questioned text: each token shaded by its share of λG, each
sentence listed with LambdaG's share beside TAVeer's lean, and the sentences where both methods
point the same way marked.

Shown by the result view for a run of a LambdaG or fused model (its "LambdaG in the text" tab);
the data and every word come from ``presentation/lambdag_shades.py`` and
``presentation/method_agreement.py``. In the text, green shades are tokens the known author's
model predicted better than the population's models did (positive shares, towards Hp),
vermillion ones worse (negative, towards Hd), darker for larger shares; the strongest level is
also underlined (straight for positive, wavy for negative, as in the TAVeer evidence view), and
a sentence where both methods point the same way is overlined, so that nothing rests on colour
alone. Hovering a token shows its exact share and its sentence's figures. The list beside the
text sorts by any column and can be narrowed to the sentences where both methods agree;
choosing a sentence scrolls the text to it and selects it.

The shades and the formatted document are ``lambdag_shading.py``; the sentence list's model is
``lambdag_sentence_table_model.py``.
"""

from __future__ import annotations

import html
from bisect import bisect_right
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer
from PySide6.QtGui import (
    QHelpEvent,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableView,
    QTextEdit,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.calibration.method_findings import LambdaGEvidence, TokenEvidence
from taveer_desktop.core.methods.taveer.sentence_agreement import SentenceLeaning
from taveer_desktop.presentation import glossary
from taveer_desktop.presentation import lambdag_shades as words
from taveer_desktop.presentation.evidence_data import QtPositions
from taveer_desktop.presentation.lambdag_evidence_text import evidence_summary
from taveer_desktop.presentation.method_agreement import (
    AGREEMENT_MEANING,
    SHARE_MEANING,
)
from taveer_desktop.ui.explain.evidence_view import read_only_text
from taveer_desktop.ui.explain.lambdag_sentence_table_model import SentenceTableModel
from taveer_desktop.ui.explain.lambdag_shading import legend_html, shaded_document
from taveer_desktop.ui.table_view import house_table


class LambdaGView(QWidget):
    """The questioned text shaded by LambdaG's shares beside its list of sentences."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel(self)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        self.summary.setToolTip(glossary.tooltip("λG"))
        self.legend = QLabel(self)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setWordWrap(True)
        self.legend.setToolTip(glossary.tooltip("share"))
        self.marks = QLabel(words.MARKS_LEGEND, self)
        self.marks.setWordWrap(True)
        self.meaning = QLabel(
            f"<small>{html.escape(SHARE_MEANING)} {html.escape(AGREEMENT_MEANING)}</small>", self
        )
        self.meaning.setWordWrap(True)
        self.editor = read_only_text(self)
        self.editor.setMinimumHeight(self.fontMetrics().lineSpacing() * 6)
        self.editor.viewport().installEventFilter(self)
        self.only_agreeing = QCheckBox("&Only where both methods agree")
        self.only_agreeing.setToolTip(
            "List only the sentences where both methods point the same way (the overlined ones)"
        )
        self.only_agreeing.toggled.connect(self._filter)
        self.model = SentenceTableModel(self)
        self.table = house_table(
            QTableView(self),
            self.model,
            single=True,
            sort_by=(SentenceTableModel.NUMBER, Qt.SortOrder.AscendingOrder),
        )
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        header.setResizeContentsPrecision(64)  # widths from 64 rows, not thousands
        self.table.selectionModel().selectionChanged.connect(self._sentence_chosen)
        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.only_agreeing)
        side_layout.addWidget(self.table, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.editor)
        self.splitter.addWidget(side)
        self.splitter.setStretchFactor(0, 11)
        self.splitter.setStretchFactor(1, 9)
        # the summary, the legend and what the shares mean scroll in a pane of their own above
        # the text and the list, so that at 150 % they never squeeze the text away
        info = QWidget(self)
        info_layout = self._info_layout = QVBoxLayout(info)
        info_layout.setContentsMargins(0, 0, 0, 0)
        for label in (self.summary, self.legend, self.marks, self.meaning):
            info_layout.addWidget(label)
        info_layout.addStretch(1)
        self.info_scroll = QScrollArea(self)
        self.info_scroll.setWidgetResizable(True)
        self.info_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.info_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.info_scroll.setWidget(info)
        self.vertical = QSplitter(Qt.Orientation.Vertical, self)
        self.vertical.addWidget(self.info_scroll)
        self.vertical.addWidget(self.splitter)
        self.vertical.setStretchFactor(0, 0)
        self.vertical.setStretchFactor(1, 1)
        self.vertical.setCollapsible(1, False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.vertical, 1)

        self.prepared = ""
        self.evidence: LambdaGEvidence | None = None
        self.rows: list[words.SentenceRow] = []
        self.unit = 0.0
        self._positions = QtPositions("")
        self._tokens: list[tuple[TokenEvidence, int]] = []  # (token, its sentence's index)
        self._starts: list[int] = []
        self._document: QTextDocument | None = None  # the shown document (this view's child)

    # --- showing ------------------------------------------------------------------------------

    def show_evidence(self, prepared: str, evidence: LambdaGEvidence) -> None:
        """Show ``evidence`` on ``prepared`` (the questioned document's prepared text): the
        shaded text at once, the sentence list once ``show_leanings`` gives TAVeer's leans."""
        self.prepared, self.evidence = prepared, evidence
        self.rows = []
        self.unit = words.shade_unit(evidence)
        self._positions = QtPositions(prepared)
        self._tokens = [
            (t, i) for i, s in enumerate(evidence.sentences) for t in s.tokens if t.end > t.start
        ]
        self._starts = [t.start for t, _ in self._tokens]
        # the overlines of the sentences (extra selections) hold cursors into the document
        # shown: they go before it does. Qt keeps them across setDocument, and the next
        # setExtraSelections measures the old ones: with their document deleted that read freed
        # memory (the segmentation fault of a new run arriving while this tab was open)
        self.editor.setExtraSelections([])
        old, self._document = self._document, shaded_document(prepared, evidence, self.unit, self)
        self.editor.setDocument(self._document)
        if old is not None:
            old.deleteLater()
        self.summary.setText(html.escape(words.evidence_pending(evidence)))
        self.legend.setText(legend_html(self.unit))
        self._filter()
        QTimer.singleShot(0, self._size_panes)

    def _size_panes(self) -> None:
        """The explanations get the height of the summary, the legend and the marks (their
        meaning is scrolled to) but at most 40 % of the view, the text and the list the rest;
        the text a little wider than the list. Called once laid out (the next turn of the
        event loop)."""
        width = self.info_scroll.viewport().width()
        spacing = self._info_layout.spacing()
        needed = sum(
            label.heightForWidth(width) + spacing
            for label in (self.summary, self.legend, self.marks)
        )
        total = self.vertical.height()
        if total <= 0:
            return
        top = min(needed, total * 2 // 5)
        self.vertical.setSizes([top, total - top])
        across = self.splitter.width()
        self.splitter.setSizes([across * 11 // 20, across - across * 11 // 20])

    def show_leanings(self, leanings: Sequence[SentenceLeaning]) -> None:
        """List the sentences with both methods' figures (``core/sentence_agreement
        .sentence_leanings`` of the evidence shown) and mark where both point the same way."""
        if self.evidence is None or len(leanings) != len(self.evidence.sentences):
            raise ValueError("the leanings are not those of the evidence shown")
        self.rows = words.sentence_rows(self.prepared, leanings)
        summary = (
            evidence_summary(self.evidence, leanings) + " " + words.ends_sentence(self.evidence)
        )
        self.summary.setText(html.escape(summary))
        self.editor.setExtraSelections(self.agreement_marks())
        self._filter()
        QTimer.singleShot(0, self._size_panes)  # the summary is longer now
        self.table.resizeColumnsToContents()  # the sentence, last, takes what is left

    def agreement_marks(self) -> list[QTextEdit.ExtraSelection]:
        """An overline over every sentence where both methods point the same way."""
        fmt = QTextCharFormat()
        fmt.setFontOverline(True)
        marks = []
        for row in self.rows:
            if not row.both_point_same_way:
                continue
            mark = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.editor.document())
            cursor.setPosition(self._positions(row.start))
            cursor.setPosition(self._positions(row.end), QTextCursor.MoveMode.KeepAnchor)
            mark.cursor = cursor
            mark.format = fmt
            marks.append(mark)
        return marks

    def _filter(self, *_args) -> None:
        only = self.only_agreeing.isChecked()
        self.model.set_records([r for r in self.rows if r.both_point_same_way or not only])

    # --- choosing a sentence ------------------------------------------------------------------

    def _sentence_chosen(self, *_args) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.table.scrollTo(self.model.index(rows[0].row(), 0))  # the numbers in view
            self.show_sentence(rows[0].row())

    def show_sentence(self, model_row: int) -> None:
        """Scroll the text to the sentence of the model's row ``model_row`` and select it."""
        row = self.model.record(model_row)
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(self._positions(row.end))
        self.editor.setTextCursor(cursor)
        self.editor.centerCursor()  # the end first, so a long sentence shows from its start
        cursor.setPosition(self._positions(row.start))
        self.editor.setTextCursor(cursor)
        self.editor.ensureCursorVisible()
        cursor.setPosition(self._positions(row.end), QTextCursor.MoveMode.KeepAnchor)
        self.editor.setTextCursor(cursor)

    def select_sentence(self, number: int) -> bool:
        """Choose the sentence numbered ``number`` in the list (False if it is not listed)."""
        source = self.model.find_row(lambda r: r.number == number)
        if source < 0:
            return False
        self.table.selectRow(source)
        return True

    # --- tooltips -----------------------------------------------------------------------------

    def token_at(self, offset: int) -> tuple[TokenEvidence, words.SentenceRow] | None:
        """The token covering code-point ``offset`` of the prepared text, with its sentence."""
        index = bisect_right(self._starts, offset) - 1
        if index < 0:
            return None
        token, sentence = self._tokens[index]
        if offset >= token.end:
            return None
        return token, self.rows[sentence]

    def tip_at(self, position: int) -> str | None:
        """The tooltip for Qt position ``position`` of the text (None off every token)."""
        found = self.token_at(self._positions.offset_of(position))
        if found is None:
            return None
        return words.token_tip(self.prepared, found[0], found[1])

    def position_under(self, x: int, y: int) -> int:
        """The Qt position of the character under viewport point (x, y): the cursor nearest
        the point lies before or after that character, whichever edge is nearer."""
        cursor = self.editor.cursorForPosition(QPoint(x, y))
        position = cursor.position()
        if position > 0 and x < self.editor.cursorRect(cursor).x():
            position -= 1
        return position

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.editor.viewport()
            and event.type() == QEvent.Type.ToolTip
            and isinstance(event, QHelpEvent)
        ):
            tip = self.tip_at(self.position_under(event.pos().x(), event.pos().y()))
            if tip:
                QToolTip.showText(event.globalPos(), tip, self.editor.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().eventFilter(watched, event)
