"""What the two sign-off dialogs of a case share (Case ▸ Examiner Declaration… and Technical
Review…): the case's standing in words, the red line a refusal is shown on, the OK button that
keeps the entry as one job on the job runner's writer pool, the optional signed checkpoint, and
opening the dialog on the controller's selected case.

"Sign a checkpoint with my certificate" (as ``case declare``/``case review --sign``): the
examiner's PKCS#12 file is opened with its passphrase on OK, before anything is written (a wrong
passphrase, a file that is not PKCS#12, an expired certificate, a FIFO: shown in the red line,
nothing written); the entry and the checkpoint, the chain's head signed with the examiner's key
(``store/checkpoints.py``), commit in one transaction. The key stays in memory for that job
only; the project keeps the signature and the certificate, never the key.

A refusal by the store (``TaveerError``) is the job's answer, not a failure: it is shown in the
dialog in the store's own words and the dialog stays open; what the store kept is ``kept`` (and
its checkpoint ``checkpoint``) and the dialog closes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QLabel,
    QLayout,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.report.credentials import SigningError, open_examiner_key
from taveer_desktop.store import Case, ProjectStore
from taveer_desktop.store.declaration_repository import Standing
from taveer_desktop.ui.certificate_fields import CertificateFields
from taveer_desktop.ui.collapsing_group import CollapsingGroupBox
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.task_worker import Job, TaskWorker


def standing_text(standing: Standing) -> str:
    """What the dialogs say of the case's report: final possible, or what it lacks."""
    if standing.final:
        return "A report of this case can now be issued as final."
    return "A report of this case is a DRAFT until: " + "; ".join(standing.missing) + "."


class SignOffDialog(QDialog):
    """The shared part (see the module); a subclass builds its form and calls ``keep``."""

    def __init__(
        self, store: ProjectStore, case: Case, runner: JobRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.store, self.case, self.runner = store, case, runner
        self.worker: TaskWorker | None = None
        self.kept: Any = None
        self.checkpoint: Any = None  # the checkpoint's audit entry, when one was signed
        self.standing = store.declarations.standing(case.id)
        self.state_label = QLabel(standing_text(self.standing))
        self.state_label.setWordWrap(True)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #a3141b")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.rejected.connect(self.reject)
        self.certificate = CertificateFields()
        # no empty frame while no checkpoint is asked for (setFlat left one in Fusion)
        self.sign_group = CollapsingGroupBox(
            "Sign a chec&kpoint with my certificate", self.certificate
        )
        self.sign_group.setToolTip(
            "Signs the audit chain's head with your key as this entry is kept: anyone holding "
            "the project can then prove that nothing up to here was changed (taveer check)"
        )

    def lay_out(self, *parts: QWidget | QLayout) -> None:
        """The dialog's layout: the standing, ``parts`` and the checkpoint in a body that
        scrolls (down, never sideways) where the screen is short, as at 150 % on 1366 × 768;
        the refusal line and the buttons stay in view below it."""
        body = QWidget()
        column = QVBoxLayout(body)
        column.addWidget(self.state_label)
        for part in parts:
            if isinstance(part, QLayout):
                column.addLayout(part)
            else:
                column.addWidget(part)
        column.addWidget(self.sign_group)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(body)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # once asked for, the certificate's fields are scrolled into view
        self.sign_group.toggled.connect(
            lambda on: (
                on and QTimer.singleShot(0, lambda: scroll.ensureWidgetVisible(self.certificate))
            )
        )
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)

    def _examiner_key(self) -> Any:
        """The opened key when a checkpoint is asked for (None otherwise); a file that cannot
        sign raises ``SigningError`` with its sentence."""
        path = self.certificate.path()
        if not self.sign_group.isChecked() or path is None:
            return None
        return open_examiner_key(path, self.certificate.secret(), datetime.now(UTC))

    def keep(self, what: str, refused: str, write: Callable[[], Any]) -> TaskWorker | None:
        """Run ``write`` as the job ``what`` (with the checkpoint, when asked for, in the same
        transaction); a refusal is shown after ``refused``."""
        if self.worker is not None:
            return None
        if self.sign_group.isChecked() and self.certificate.path() is None:
            self.error_label.setText(f"{refused}: choose the certificate file to sign with.")
            return None
        try:
            key = self._examiner_key()
        except SigningError as error:
            self.error_label.setText(f"{refused}: {error.sentence.rstrip('.')}.")
            return None
        store, case_id = self.store, self.case.id

        def run(_progress) -> Any:
            try:
                if key is None:
                    return write(), None
                with store.transaction():  # the entry and its checkpoint commit together
                    return write(), store.audit.record_checkpoint(key, case_id)
            except TaveerError as error:  # a refusal is an answer, shown in the dialog
                return _Refusal(error.plain_message)

        def done(result: Any) -> None:
            self.worker = None
            self.buttons.setEnabled(True)
            if isinstance(result, _Refusal):
                self.error_label.setText(f"{refused}: {result.message}.")
                return
            self.kept, self.checkpoint = result
            self.accept()

        self.buttons.setEnabled(False)
        self.worker = self.runner.start(Job(what, run, cancellable=False), done)
        return self.worker


class _Refusal:
    """The store's refusal of an entry, carried back from the job as its answer."""

    def __init__(self, message: str) -> None:
        self.message = message


def open_on_selected_case(controller, dialog_class: type[SignOffDialog]) -> SignOffDialog | None:
    """The dialog on the controller's selected case; the audit view reloads once it keeps."""
    from taveer_desktop.ui.project_session import AUDIT

    case, store = controller.selected_case(), controller.session.store
    if case is None or store is None:
        return None
    dialog = dialog_class(store, case, controller.runner, controller.parent_widget)
    dialog.accepted.connect(lambda: controller.session.changed(AUDIT, case_id=case.id))
    dialog.open()
    return dialog
