"""The encoding step of adding documents: check the detected encodings before anything is stored.

Stored evidence is never changed, so an examiner's choice of encoding can only be made when a
file is added. When some text files of an import declare no encoding (no byte-order mark, not
valid UTF-8), the case controller opens this dialog after detecting theirs: each file with the
encoding the program would use and how sure it is (uncertain detections flagged), a preview of
the selected file's beginning as it would be read, and a choice — the detected encodings, or
one encoding for every text file of the import (like ``taveer case add --encoding``), which the
store records in the audit log. A choice under which the preview's bytes cannot be decoded says
so before anything is added.
"""

from __future__ import annotations

import codecs
import html
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.decoding import DETECTABLE, check_encoding_name, encoding_label
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.encoding_text import encoding_summary, is_uncertain
from taveer_desktop.ui.dialog_size import resize_to_fit
from taveer_desktop.ui.fonts import mono_font
from taveer_desktop.ui.jobs import TextFileCheck

DETECTED = "Detected encodings (each file its own)"
PREVIEW_CHARS = 3000
CHOICES = ("utf_8", "utf_16_le", "utf_16_be", *DETECTABLE)


def preview_text(check: TextFileCheck, codec: str | None) -> tuple[str, bool]:
    """(the sample's beginning as ``codec`` reads it, whether it decodes); None: as detected."""
    if check.problem:
        return f"This file will be refused: {check.path.name} {check.problem}", False
    name = codec or {v: k for k, v in DETECTABLE.items()}.get(check.encoding or "")
    if name is None:  # a label that is not a codec key (e.g. UTF-8 (BOM)): read as detected
        name = _codec_of_label(check.encoding or "utf-8")
    decoder = codecs.getincrementaldecoder(name)(errors="strict")
    sample = check.sample
    if sample.startswith(codecs.BOM_UTF8) and name.replace("-", "_") in ("utf_8", "utf8"):
        sample = sample[3:]
    try:
        text = decoder.decode(sample, final=False)  # a character cut at the end is no error
    except UnicodeDecodeError as error:
        return (
            f"Not valid {encoding_label(name)}: byte {numbers.integer(error.start)} cannot be "
            "decoded. "
            "With this choice the file would be refused.",
            False,
        )
    return text[:PREVIEW_CHARS].lstrip("\ufeff"), True


def intro_text(checks: Sequence[TextFileCheck], role_words: str) -> str:
    """What the step is about: how many files were guessed, how many uncertainly, what to do."""
    guessed = sum(1 for c in checks if c.guessed)
    uncertain = sum(1 for c in checks if is_uncertain(c.detection or {}))
    if len(checks) == 1:
        first = (
            f"Adding {checks[0].path.name} as {role_words}. It declares no encoding, so it was "
            "detected" + (", and the detection is uncertain" if uncertain else "") + "."
        )
    else:
        first = (
            f"Adding {numbers.count(len(checks), 'text file')} as {role_words}. "
            f"{numbers.integer(guessed)} of them declare no "
            "encoding, so it was detected"
            + (f"; for {uncertain} the detection is uncertain" if uncertain else "")
            + "."
        )
    return (
        first + " Check that the text below reads correctly before it becomes evidence: stored "
        "documents are never changed afterwards. If it does not, choose the encoding; it "
        "applies to every text file of this import and is recorded in the audit log. E-mails "
        "and Word documents declare their own encodings."
    )


def _codec_of_label(label: str) -> str:
    base = label.split(" (")[0].replace(" ", "-")
    try:
        return codecs.lookup(base).name
    except LookupError:
        return "utf-8"


class EncodingChoiceDialog(QDialog):
    """Shows the detected encodings of an import's text files and lets the examiner choose."""

    def __init__(
        self, checks: Sequence[TextFileCheck], role_words: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.checks = list(checks)
        self.setWindowTitle(f"Encoding of the text files — {PROGRAM_NAME}")
        self.intro = QLabel(intro_text(self.checks, role_words))
        self.intro.setWordWrap(True)

        self.files = QTreeWidget()
        self.files.setColumnCount(2)
        self.files.setHeaderLabels(["File", "Encoding as detected"])
        self.files.setRootIsDecorated(False)
        self.files.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        warning = QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        for check in self.checks:
            if check.problem:
                shown = "cannot be read: will be refused"
            else:
                shown = encoding_summary(
                    check.encoding or "", {"encoding_detection": check.detection}
                )
            item = QTreeWidgetItem([check.path.name, shown])
            item.setToolTip(0, str(check.path))
            item.setToolTip(1, check.problem or shown)
            if check.problem or is_uncertain(check.detection or {}):
                item.setIcon(1, warning)
                item.setForeground(1, QColor("#a04000"))
            self.files.addTopLevelItem(item)
        self.files.resizeColumnToContents(0)
        rows = min(
            len(self.checks), 8
        )  # the list no larger than it needs; the preview gets the room
        self.files.setMaximumHeight(self.fontMetrics().height() * (2 * rows + 3))
        self.files.currentItemChanged.connect(lambda *_: self.update_preview())

        self.choice = QComboBox()
        self.choice.setEditable(True)
        self.choice.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.choice.addItem(DETECTED, None)
        for codec in CHOICES:
            self.choice.addItem(encoding_label(codec), codec)
        self.choice.setToolTip(
            "Read every text file of this import with this encoding (detection skipped); any "
            "encoding name Python knows can be typed, e.g. koi8-u or cp437"
        )
        self.choice.currentTextChanged.connect(lambda *_: self.update_preview())

        self.preview_label = QLabel()
        self.preview_label.setWordWrap(True)
        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setFont(mono_font())
        self.preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.add_button = self.buttons.addButton(
            "&Add Documents", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.add_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow("&Read the text files as:", self.choice)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.files)
        layout.addLayout(form)
        layout.addWidget(self.preview_label)
        layout.addWidget(self.preview, stretch=2)
        layout.addWidget(self.buttons)
        resize_to_fit(self, 70, 34)
        first = next((i for i, c in enumerate(self.checks) if is_uncertain(c.detection or {})), 0)
        first_item = self.files.topLevelItem(first)
        if first_item is not None:
            self.files.setCurrentItem(first_item)
        self.update_preview()

    # ---- the choice ---------------------------------------------------------------------------

    def chosen_encoding(self) -> str | None:
        """The codec the examiner chose (None: the detected ones); InputError if unknown."""
        text = self.choice.currentText().strip()
        index = self.choice.findText(text, Qt.MatchFlag.MatchFixedString)
        if index >= 0:
            return self.choice.itemData(index)
        return check_encoding_name(text)

    def choose(self, codec: str | None) -> None:
        """Select ``codec`` (a Python codec name) or, with None, the detected encodings."""
        index = self.choice.findData(codec)
        if index >= 0:
            self.choice.setCurrentIndex(index)
        else:
            self.choice.setEditText(codec or DETECTED)

    def current_check(self) -> TextFileCheck | None:
        item = self.files.currentItem()
        return self.checks[self.files.indexOfTopLevelItem(item)] if item else None

    def update_preview(self) -> None:
        check = self.current_check()
        try:
            codec = self.chosen_encoding()
        except InputError:
            typed = html.escape(self.choice.currentText().strip())
            self.preview_label.setText(f"<b>{typed}</b> is not a text encoding this program knows.")
            self.preview.clear()
            self.add_button.setEnabled(False)
            return
        self.add_button.setEnabled(True)
        if check is None:
            return
        text, readable = preview_text(check, codec)
        how = "as detected" if codec is None else f"as {encoding_label(codec)}"
        self.preview_label.setText(
            f"The beginning of <b>{check.path.name}</b> read {how}:"
            if readable
            else f"<b>{check.path.name}</b>:"
        )
        self.preview.setPlainText(text)
