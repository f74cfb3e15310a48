"""Help ▸ The TAVeer Method and Help ▸ Glossary: today's workflow in an examiner's words
(``presentation/method_help``: propositions and population, likelihood ratio, methods,
validation, the gate's rules) and the symbols of the result views in plain words
(``presentation/glossary``), on one page."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.presentation.glossary import glossary_html
from taveer_desktop.presentation.method_help import METHOD_HTML
from taveer_desktop.ui.dialog_size import resize_to_fit


class MethodDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"The TAVeer Method — {PROGRAM_NAME}")
        self.text = text = QTextBrowser()
        text.setHtml(METHOD_HTML + '<a name="glossary"></a>' + glossary_html())
        text.setToolTip(
            "From the question to a conclusion: propositions, methods, validation, gate"
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(buttons)
        resize_to_fit(self, 70, 34)

    def show_glossary(self) -> None:
        """Scroll to the glossary (Help ▸ Glossary)."""
        self.text.scrollToAnchor("glossary")
