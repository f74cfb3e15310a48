"""The examiner's certificate as a dialog asks for it: a PKCS#12 file (typed or chosen with
Browse…, which starts in the folder certificates were last chosen from) and its passphrase
(shown as dots, used for the one signature and never stored).

Used where the examiner signs: the sign-off dialogs' checkpoint (``sign_off_dialog.py``) and the
report export dialog's PAdES signature (which puts its time-stamping authority beside the
passphrase: ``beside_passphrase``).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QWidget,
)

from taveer_desktop.ui import app_settings


class CertificateFields(QWidget):
    """A file row and a passphrase row (see the module)."""

    def __init__(
        self, parent: QWidget | None = None, beside_passphrase: tuple[QWidget, ...] = ()
    ) -> None:
        super().__init__(parent)
        self.certificate = QLineEdit()
        self.certificate.setPlaceholderText("the examiner's PKCS#12 file (.p12 or .pfx)")
        browse = QPushButton("Bro&wse…")
        browse.clicked.connect(self.choose_certificate)
        row = QHBoxLayout()
        row.addWidget(self.certificate, 1)
        row.addWidget(browse)
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setToolTip("Used for this signature only; never stored")
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Certificate:", row)
        secrets = QHBoxLayout()
        secrets.addWidget(self.passphrase, 1)
        for widget in beside_passphrase:
            secrets.addWidget(widget, 2 if isinstance(widget, QLineEdit) else 0)
        form.addRow("Passphrase:", secrets)

    def choose_certificate(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self,
            "The examiner's certificate",
            app_settings.start_folder("certificates"),
            "PKCS#12 certificates (*.p12 *.pfx);;All files (*)",
        )
        if name:
            app_settings.remember_folder("certificates", Path(name))
            self.certificate.setText(name)

    def path(self) -> Path | None:
        """The file typed or chosen (None when the field is empty)."""
        text = self.certificate.text().strip()
        return Path(text) if text else None

    def secret(self) -> str | None:
        """The passphrase typed (None when empty: a file without one)."""
        return self.passphrase.text() or None
