"""Choosing a folder in the system's dialog, the house way, in one place.

``choose_folder(parent, title, purpose)`` opens the dialog where the last folder for
``purpose`` ("corpora", "populations", …) was chosen (``app_settings.start_folder``), remembers
the folder chosen for the next time and returns it; None when the examiner cancels. The train
and evaluate dialogs and the wizard's population page browse for their folders through it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from taveer_desktop.ui import app_settings


def choose_folder(parent: QWidget, title: str, purpose: str) -> Path | None:
    """The folder the examiner chose (remembered for ``purpose``), or None."""
    chosen = QFileDialog.getExistingDirectory(parent, title, app_settings.start_folder(purpose))
    if not chosen:
        return None
    folder = Path(chosen)
    app_settings.remember_folder(purpose, folder)
    return folder
