"""The right side of the window: the selected case's heading and its three tabs.

``show_case`` shows a newly selected case in every tab; ``store_changed`` reloads only the tabs
whose ``reloads_on`` names a kind of record that changed in this case (or project-wide).
"""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from taveer_desktop.store import Case
from taveer_desktop.ui.audit_tab import AuditTab
from taveer_desktop.ui.case_header import CaseHeader
from taveer_desktop.ui.documents_tab import DocumentsTab
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.project_session import ProjectSession, StoreChange
from taveer_desktop.ui.verification_tab import VerificationTab
from taveer_desktop.ui.window_actions import WindowActions


class CaseView(QWidget):
    def __init__(
        self,
        session: ProjectSession,
        actions: WindowActions,
        runner: JobRunner,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.header = CaseHeader()
        self.documents_tab = DocumentsTab(session, (actions.add_known, actions.add_questioned))
        self.verification_tab = VerificationTab(
            session, actions.verify, runner=runner, validate_action=actions.validate
        )
        self.audit_tab = AuditTab(session)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.documents_tab, "&Documents")
        self.tabs.addTab(self.verification_tab, "&Verification")
        self.tabs.addTab(self.audit_tab, "&Audit Log")
        self.tabs.setTabToolTip(0, "The case's evidence and a preview of its text")
        self.tabs.setTabToolTip(1, "Verify the case and see the stored runs and their results")
        self.tabs.setTabToolTip(2, "Every change to the case, in a tamper-evident chain")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.tabs, stretch=1)

    def _tabs(self) -> tuple:
        return (self.documents_tab, self.verification_tab, self.audit_tab)

    def show_case(self, case: Case | None) -> None:
        documents = self.session.documents(case.id) if case else []
        self.header.show_case(case, self.session.is_open)
        for tab in self._tabs():
            tab.show_case(case, documents)

    def store_changed(self, change: StoreChange, case: Case) -> list[QWidget]:
        """Reload the tabs ``change`` concerns in ``case`` (still selected); return them."""
        self.header.show_case(case, self.session.is_open)
        reloaded = [tab for tab in self._tabs() if change.touches(tab.reloads_on, case.id)]
        documents = self.session.documents(case.id) if reloaded else []
        for tab in reloaded:
            tab.show_case(case, documents)
        return reloaded
