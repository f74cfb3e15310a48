"""The Documents tab: the case's evidence as a table, the hashes, and a read-only preview.

Evidence added by mistake is excluded, never deleted: "Exclude…" on the selected documents
asks the window (``exclude_requested``) to leave them out of later runs with the examiner's
reason; "Include…" (``include_requested``) puts them back. Excluded documents stay listed,
marked in the "Use" column with the reason on hover.

The full SHA-256 of a document is in its tooltip and copied by Ctrl+C (or "Copy SHA-256"), one
line per selected document, ``<hash>  <file name>`` as ``sha256sum`` writes it. The preview
shows the text the store extracted (the text the method reads), never editable, and under its
heading every reading note: how that text differs from the file's bytes.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.encoding_text import UNCERTAIN_ADVICE, encoding_preview_line
from taveer_desktop.store import Document
from taveer_desktop.ui import document_table_model as dtm
from taveer_desktop.ui.fonts import mono_font
from taveer_desktop.ui.project_session import DOCUMENTS, ProjectSession
from taveer_desktop.ui.record_table_model import RECORD_ROLE, SORT_ROLE, short_utc
from taveer_desktop.ui.table_view import house_table

PREVIEW_MAX_CHARS = 300_000
EMPTY_HINT = (
    "No documents yet. Add known and questioned documents with the buttons above, or drop "
    ".txt, .eml and .docx files on the window."
)


SHORT_ADD_LABELS = ("Add Known…", "Add Questioned…")  # the row fits a 150 % laptop screen


def short_button(action: QAction, text: str) -> QToolButton:
    """A button for ``action`` with a shorter label (the full name in its tooltip) that follows
    the action's availability and the reason in its tooltip."""
    button = QToolButton()
    button.setText(text)

    def follow() -> None:
        button.setEnabled(action.isEnabled())
        button.setToolTip(f"{action.text().replace('&', '')}: {action.toolTip()}")

    action.changed.connect(follow)
    follow()
    button.clicked.connect(action.trigger)
    return button


def hash_lines(documents: Sequence[Document]) -> str:
    return "\n".join(f"{doc.sha256}  {doc.file_name}" for doc in documents)


class DocumentsTab(QWidget):
    reloads_on = frozenset({DOCUMENTS})  # the kinds of store change this tab shows
    exclude_requested = Signal(list)  # [Document] to take out of later runs
    include_requested = Signal(list)  # [Document] to use again

    def __init__(
        self, session: ProjectSession, add_actions: Sequence[QAction], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.model = dtm.DocumentTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)

        buttons = QHBoxLayout()
        for action, short in zip(add_actions, SHORT_ADD_LABELS, strict=False):
            buttons.addWidget(short_button(action, short))
        self.copy_action = QAction("Copy SHA-256", self)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.copy_action.setToolTip("Copy the full SHA-256 of the selected documents")
        self.copy_action.triggered.connect(self.copy_hashes)
        copy_button = QToolButton()
        copy_button.setDefaultAction(self.copy_action)
        buttons.addWidget(copy_button)
        self.exclude_action = QAction("E&xclude…", self)
        self.exclude_action.setToolTip(
            "Leave the selected documents out of later verifications (with a reason; they stay "
            "stored and earlier runs keep their record)"
        )
        self.exclude_action.triggered.connect(
            lambda: self.exclude_requested.emit(
                [d for d in self.selected_documents() if not d.excluded]
            )
        )
        self.include_action = QAction("&Include…", self)
        self.include_action.setToolTip("Use the selected excluded documents again (with a reason)")
        self.include_action.triggered.connect(
            lambda: self.include_requested.emit(
                [d for d in self.selected_documents() if d.excluded]
            )
        )
        for action in (self.exclude_action, self.include_action):
            button = QToolButton()
            button.setDefaultAction(action)
            buttons.addWidget(button)
        buttons.addStretch(1)

        self.view = house_table(
            QTableView(), self.proxy, sort_by=(dtm.ROLE, Qt.SortOrder.AscendingOrder)
        )
        self.view.setToolTip("The case's documents; select one to preview its text")
        self.view.addAction(self.copy_action)
        self.view.addAction(self.exclude_action)
        self.view.addAction(self.include_action)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        header = self.view.horizontalHeader()
        # every column as wide as its contents, the file name too (a stretched name was
        # squeezed to "f…" at 150 %): the table scrolls sideways instead, the last column fills
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.view.setColumnHidden(dtm.IMPORTED, True)  # in the file name's tooltip and preview
        self.view.selectionModel().selectionChanged.connect(self._show_preview)
        self.view.selectionModel().selectionChanged.connect(self._update_actions)

        self.empty_label = QLabel(EMPTY_HINT)
        self.empty_label.setWordWrap(True)
        self.preview_heading = QLabel("Select a document to see its text.")
        self.preview_heading.setWordWrap(True)
        self.preview_heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setFont(mono_font())
        self.preview.setToolTip("The text extracted from the document (read-only)")
        self.preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        # the heading (hashes, encoding, reading notes) scrolls on its own when a short screen
        # leaves it less room than its lines need, instead of being cut mid-line
        heading_scroll = QScrollArea()
        heading_scroll.setObjectName("preview_heading_scroll")
        heading_scroll.setWidget(self.preview_heading)
        heading_scroll.setWidgetResizable(True)
        heading_scroll.setFrameShape(QFrame.Shape.NoFrame)
        heading_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("documents_splitter")
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(heading_scroll)
        self.splitter.addWidget(self.preview)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(0, 2)  # the table shows several rows at 150 % too
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.splitter, stretch=1)

    # ---- content ------------------------------------------------------------------------------

    def show_case(self, _case, documents: Sequence[Document] = ()) -> None:
        """Show the documents of the selected case (the window reads them once for all tabs)."""
        self.set_documents(documents)

    def set_documents(self, documents: Sequence[Document]) -> None:
        selected = {doc.id for doc in self.selected_documents()}
        self.model.set_records(documents)
        self.empty_label.setVisible(not documents)
        for row in range(self.proxy.rowCount()):
            if self.proxy.data(self.proxy.index(row, 0), RECORD_ROLE).id in selected:
                self.view.selectRow(row)
        if not self.selected_documents():
            self._clear_preview()
        self._update_actions()

    def _update_actions(self, *_args) -> None:
        documents = self.selected_documents()
        writable = self.session.store is not None and not self.session.read_only_reason
        self.exclude_action.setEnabled(writable and any(not d.excluded for d in documents))
        self.include_action.setEnabled(writable and any(d.excluded for d in documents))

    def selected_documents(self) -> list[Document]:
        return [
            self.proxy.data(index, RECORD_ROLE)
            for index in self.view.selectionModel().selectedRows()
        ]

    def copy_hashes(self) -> str:
        documents = self.selected_documents() or self.model.records()
        text = hash_lines(documents)
        if text:
            QGuiApplication.clipboard().setText(text)
        return text

    def _clear_preview(self) -> None:
        self.preview_heading.setText("Select a document to see its text.")
        self.preview.clear()

    def _show_preview(self, *_args) -> None:
        documents = self.selected_documents()
        if len(documents) != 1 or self.session.store is None:
            self._clear_preview()
            return
        doc = documents[0]
        text = self.session.store.documents.text(doc.id)
        shown = text[:PREVIEW_MAX_CHARS]
        heading = (
            f"<b>{dtm.role_word(doc)}: {doc.file_name}</b> — "
            f"{numbers.count(doc.char_count, 'character')}, "
            f"{numbers.count(doc.sentence_count, 'sentence')}, "
            f"imported {short_utc(doc.imported_utc)}"
            f"<br>SHA-256 <code>{doc.sha256}</code>"
        )
        heading += "<br>" + html.escape(
            encoding_preview_line(doc.encoding, doc.metadata, doc.file_format)
        )
        if dtm.encoding_uncertain(doc):
            colour = dtm.UNCERTAIN_COLOUR.name()
            heading += f'<br><b style="color:{colour}">{html.escape(UNCERTAIN_ADVICE)}</b>'
        notes = doc.reading_notes.lines()
        if notes:
            colour = dtm.UNCERTAIN_COLOUR.name()
            items = "".join(f"<br>• {html.escape(line)}" for line in notes)
            heading += (
                f'<br><b style="color:{colour}">{html.escape(dtm.READING_HEADING)}</b>{items}'
            )

        if doc.excluded:
            heading += (
                f"<br><b>Excluded</b> {short_utc(doc.excluded_utc or '')}: "
                f"{html.escape(doc.excluded_reason or '')} — left out of later verifications."
            )
        if len(text) > len(shown):
            heading += f"<br>Showing the first {numbers.count(PREVIEW_MAX_CHARS, 'character')}."
        self.preview_heading.setText(heading)
        self.preview.setPlainText(shown)
