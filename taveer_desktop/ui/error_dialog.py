"""Telling the user that something failed: a plain message, the details one click away.

``show_failure`` is used for every failed background job and every refused action; the window
keeps running. ``show_rejections`` lists each evidence file the store refused, with the reason
in plain words and the store's own sentence about that file.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME, paths
from taveer_desktop.presentation import numbers
from taveer_desktop.store import IntakeRejection, RejectionReason
from taveer_desktop.ui.dialog_size import resize_to_fit

REASON_WORDS = {
    RejectionReason.EMPTY: "Empty: the file holds no text",
    RejectionReason.BINARY: "Not text: the file looks like a program, image or other binary data",
    RejectionReason.UNREADABLE: "Unreadable: the file could not be opened or its text decoded",
    RejectionReason.TOO_LARGE: "Too large: the file is over the size limit for one document",
    RejectionReason.DUPLICATE: "Duplicate: the same file is already in this case",
    RejectionReason.UNSUPPORTED: "Unsupported type: only .txt, .text, .eml and .docx files",
}

_open_dialogs: list[QDialog] = []  # keeps non-modal dialogs alive until they are closed


def open_dialogs() -> list[QDialog]:
    """Message boxes and dialogs opened here that are still open (for tests)."""
    return list(_open_dialogs)


def _keep_until_closed(dialog: QDialog) -> None:
    _open_dialogs.append(dialog)
    dialog.finished.connect(lambda _r, d=dialog: _open_dialogs.remove(d))


def show_failure(
    parent: QWidget | None, message: str, details: str = "", title: str = "Something failed"
) -> QMessageBox:
    """A window-modal error box with ``message`` and, under "Show Details…", ``details``."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(f"{title} — {PROGRAM_NAME}")
    box.setText(message)
    box.setInformativeText(
        "Nothing was changed by the part that failed. The program keeps running; "
        f"the log file in {paths.log_dir()} has the details."
    )
    if details:
        box.setDetailedText(details)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _keep_until_closed(box)
    box.open()
    return box


def reason_in_words(rejection: IntakeRejection) -> str:
    return REASON_WORDS.get(rejection.reason, str(rejection.reason))


class RejectionDialog(QDialog):
    """Lists every refused file: name, the reason in plain words, and the store's sentence."""

    def __init__(
        self, rejections: Sequence[IntakeRejection], added: int, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Files not added — {PROGRAM_NAME}")
        count = len(rejections)
        files = "file was" if count == 1 else "files were"
        summary = QLabel(
            f"{count} {files} not added to the case. "
            + (
                f"{numbers.count(added, 'other file')} {'was' if added == 1 else 'were'} added. "
                if added
                else "No file was added. "
            )
            + "Each refused file is listed below with the reason."
        )
        summary.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels(["File", "Reason", "Explanation"])
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setToolTip("The refused files; select rows and press Ctrl+C to copy them")
        for rejection in rejections:
            item = QTreeWidgetItem(
                [
                    _file_name(rejection.path),
                    reason_in_words(rejection),
                    f"{_file_name(rejection.path)} {rejection.message}",
                ]
            )
            item.setToolTip(0, rejection.path)
            item.setToolTip(1, reason_in_words(rejection))
            item.setToolTip(2, rejection.describe())
            self.tree.addTopLevelItem(item)
        for column in range(3):
            self.tree.resizeColumnToContents(column)
        # in a dialog narrower than its texts (a small screen) the texts end in "…" and are
        # whole on hover and in the copied rows
        self.tree.header().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(summary)
        layout.addWidget(self.tree, stretch=1)
        layout.addWidget(buttons)
        resize_to_fit(self, 90, 12 + min(count, 10))

    def as_text(self) -> str:
        lines = []
        for row in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(row)
            assert item is not None  # row < topLevelItemCount()
            lines.append("\t".join(item.text(c) for c in range(3)))
        return "\n".join(lines)


def _file_name(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1] or path


def show_rejections(
    parent: QWidget | None, rejections: Sequence[IntakeRejection], added: int
) -> RejectionDialog:
    dialog = RejectionDialog(rejections, added, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _keep_until_closed(dialog)
    dialog.open()
    return dialog
