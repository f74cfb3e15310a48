"""The fonts TAVeer Desktop renders with: DejaVu, shipped under ``resources/fonts/``.

They are registered with ``QFontDatabase.addApplicationFont`` at start-up, before any widget is
created. Without them a machine with no system fonts shows boxes in the window and Qt writes
PDF reports with no text at all.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtGui import QFont

from taveer_desktop import paths
from taveer_desktop.report.fonts import MONO, SANS, ReportFontError, ensure_fonts

log = logging.getLogger(__name__)

UI_FAMILY = SANS
MONO_FAMILY = MONO


class FontRegistrationError(RuntimeError):
    """A shipped font file is missing or Qt could not load it."""


def font_dir() -> Path:
    return paths.resource("fonts")


def register_fonts() -> list[str]:
    """Register every shipped font with Qt (the report's registration, done once); return the
    families they provide. Needs a ``QGuiApplication``; raises ``FontRegistrationError`` naming
    the file when one is missing or unreadable."""
    try:
        families = ensure_fonts(font_dir())
    except ReportFontError as error:
        raise FontRegistrationError(str(error)) from None
    log.info("registered fonts: %s", ", ".join(families))
    return families


def ui_font(point_size: float | None = None) -> QFont:
    """The application's default font (DejaVu Sans), at the platform's size unless given."""
    font = QFont(UI_FAMILY)
    if point_size is not None:
        font.setPointSizeF(point_size)
    return font


def mono_font() -> QFont:
    """A fixed-width font for hashes and document previews."""
    font = QFont(MONO_FAMILY)
    font.setStyleHint(QFont.StyleHint.Monospace)
    return font
