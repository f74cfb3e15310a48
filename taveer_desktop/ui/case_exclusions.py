"""Evidence taken out of a case's later runs and put back, always with the examiner's reason.

``DocumentExclusions`` is the part of ``CaseController`` (``case_controller.py``) that excludes
and includes documents: it asks for the reason (``ask_reason``, which tests replace), refuses an
empty one aloud in one reused box (``refusal``) and changes nothing then, writes each change with
its reason through the store (one audited transaction each) and announces it with
``session.changed(DOCUMENTS, …)`` and a status message. ``CaseController`` is one: it gives it
the session and the parent widget for its dialogs, and shares its ``status_message`` signal.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox, QWidget

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.presentation.numbers import count
from taveer_desktop.store import Document
from taveer_desktop.ui.error_dialog import show_failure
from taveer_desktop.ui.project_session import DOCUMENTS, ProjectSession


class DocumentExclusions(QObject):
    """Case ▸ Exclude / Include: the reason asked, refused when empty, the change audited."""

    status_message = Signal(str, int)  # text, milliseconds to show it (any of the case's work)

    session: ProjectSession
    parent_widget: QWidget
    refusal: QMessageBox | None  # an exclusion refused for want of a reason

    def ask_reason(self, title: str, prompt: str) -> str | None:
        """Ask for the reason of an exclusion or inclusion (tests replace this)."""
        text, ok = QInputDialog.getText(
            self.parent_widget, title, prompt, QLineEdit.EchoMode.Normal
        )
        return text.strip() if ok else None  # "" (OK with no reason) is refused by the caller

    def exclude_documents(self, documents: list[Document]) -> list[Document]:
        """Take documents out of the case's later runs, with the examiner's reason (audited)."""
        return self._set_excluded([d for d in documents if not d.excluded], exclude=True)

    def include_documents(self, documents: list[Document]) -> list[Document]:
        """Put excluded documents back into the case's later runs, with a reason (audited)."""
        return self._set_excluded([d for d in documents if d.excluded], exclude=False)

    def _set_excluded(self, documents: list[Document], exclude: bool) -> list[Document]:
        store = self.session.store
        if store is None or not documents:
            return []
        names = ", ".join(d.file_name for d in documents)
        if exclude:
            title = "Exclude evidence"
            prompt = (
                f"Exclude {names} from later verifications of this case? The document stays "
                "stored with its hash, and earlier runs keep their record.\n\nReason (kept in "
                "the audit log):"
            )
        else:
            title = "Include evidence again"
            prompt = f"Use {names} in later verifications again?\n\nReason (kept in the audit log):"
        reason = self.ask_reason(title, prompt)
        if reason is None:  # cancelled
            return []
        if not reason.strip():  # refused aloud, never silently ignored
            if self.refusal is None:  # one box, reused
                self.refusal = QMessageBox(self.parent_widget)
                self.refusal.setIcon(QMessageBox.Icon.Warning)
                self.refusal.setStandardButtons(QMessageBox.StandardButton.Ok)
            self.refusal.setWindowTitle(f"{title} — {PROGRAM_NAME}")
            self.refusal.setText(
                ("Not excluded" if exclude else "Not included")
                + ": a reason is needed. It is kept in the audit log with the change; nothing "
                "was changed."
            )
            self.refusal.open()
            self.status_message.emit("Nothing changed: a reason is needed", 10_000)
            return []
        reason = reason.strip()
        changed = []
        try:
            for doc in documents:
                if exclude:
                    changed.append(store.documents.exclude(doc.id, reason))
                else:
                    changed.append(store.documents.include(doc.id, reason))
        except TaveerError as error:
            show_failure(self.parent_widget, f"Not changed: {error}", title=title)
        self.session.changed(DOCUMENTS, case_id=documents[0].case_id)
        word = "excluded" if exclude else "included again"
        self.status_message.emit(f"{count(len(changed), 'document')} {word}", 10_000)
        return changed
