"""The Audit log tab: the hash-chained audit trail of the case (or of the whole project)."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.store import Case
from taveer_desktop.ui import audit_table_model as atm
from taveer_desktop.ui.project_session import ALL_KINDS, ProjectSession
from taveer_desktop.ui.record_table_model import SORT_ROLE
from taveer_desktop.ui.table_view import house_table


class AuditTab(QWidget):
    reloads_on = ALL_KINDS  # every write is audited

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.case: Case | None = None
        self.whole_project = QCheckBox("Show the &whole project's entries")
        self.whole_project.setToolTip(
            "Also list entries that belong to no case (models added, copies saved) and other cases"
        )
        self.whole_project.toggled.connect(lambda _on: self.reload())
        self.head_label = QLabel()
        self.head_label.setWordWrap(True)
        self.head_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.head_label.setToolTip(
            "The hash of the latest entry seals every entry before it; note it outside the project"
        )
        self.model = atm.AuditTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.view = house_table(
            QTableView(), self.proxy, sort_by=(atm.SEQ, Qt.SortOrder.DescendingOrder)
        )
        self.view.setToolTip("Every change, in order; hover over Details for everything recorded")
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(atm.DETAILS, QHeaderView.ResizeMode.Stretch)
        top = QHBoxLayout()
        top.addWidget(self.whole_project)
        top.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.view, stretch=1)
        layout.addWidget(self.head_label)

    def show_case(self, case: Case | None, _documents=()) -> None:
        self.case = case
        self.reload()

    def reload(self) -> None:
        if self.whole_project.isChecked():
            entries = self.session.audit(None)
        elif self.case is not None:
            entries = self.session.audit(self.case.id)
        else:
            entries = []
        self.model.set_records(entries)
        head = self.session.store.audit.head() if self.session.store else None
        self.head_label.setText(
            f"Audit chain head: entry {head.seq}, hash<br><code>{head.entry_hash}</code>"
            if head
            else ""
        )
