"""Help ▸ The TAVeer Method and Help ▸ Glossary: what the program computes, in a few paragraphs
for examiners, and the symbols of the result views in plain words (``presentation/glossary``),
on one page."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.presentation.glossary import glossary_html
from taveer_desktop.ui.dialog_size import resize_to_fit

METHOD_HTML = """
<h2>The TAVeer method</h2>
<p>TAVeer (Halvani, Graner and Regev, <i>A Step Towards Interpretable Authorship
Verification</i>) asks one question: did the author of the <b>known</b> documents also write
the <b>questioned</b> document? It compares how often each author uses topic-independent
features of language, in eleven categories (F1–F11): punctuation, function words and phrases,
word and sentence shapes, and masked word n-grams in which the topic words are hidden.</p>
<p>For each category the program measures the distance between the two documents' feature
frequencies and turns it into a <b>similarity between 0 and 1</b> with a threshold learned from
a training corpus of cases with known answers: 0.5 sits exactly at the threshold. A
<b>model</b> stores these thresholds and the <b>ensemble</b> of categories that decided best
on its training corpus. The decision is the median similarity of the ensemble: above 0.5
<b>same author</b>, below <b>different authors</b>. A category abstains when a document has too
few of its features; when too little is left, there is <b>no decision</b>.</p>
<p>Every similarity can be traced to the single features that pushed it towards one side or
the other (the interpretation lists kept with every stored run).</p>
<h3>What a result does and does not mean</h3>
<p>A result is evidence, not proof. It is only as good as the model's fit to the documents:
use a model trained on texts of the same kind (genre, length, era) and check it with
<i>Model ▸ Evaluate</i> on a test corpus it has not seen. Short documents (under about 500
characters or 5 sentences) give unreliable results and are flagged.</p>
<h3>What the program keeps</h3>
<p>Every document is stored with the SHA-256 of its bytes; every run with the model, the
documents and their hashes; every change in a hash-chained audit log that makes tampering
evident.</p>
"""


class MethodDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"The TAVeer Method — {PROGRAM_NAME}")
        self.text = text = QTextBrowser()
        text.setHtml(METHOD_HTML + '<a name="glossary"></a>' + glossary_html())
        text.setToolTip("How TAVeer decides")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(buttons)
        resize_to_fit(self, 70, 34)

    def show_glossary(self) -> None:
        """Scroll to the glossary (Help ▸ Glossary)."""
        self.text.scrollToAnchor("glossary")
