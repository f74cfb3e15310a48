"""The fonts TAVeer Desktop renders with: DejaVu, shipped under ``resources/fonts/``.

They are registered with ``QFontDatabase.addApplicationFont`` at start-up, before any widget is
created. Without them a machine with no system fonts shows boxes in the window and Qt writes
PDF reports with no text at all.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase

from taveer_desktop import paths

log = logging.getLogger(__name__)

FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf")
UI_FAMILY = "DejaVu Sans"
MONO_FAMILY = "DejaVu Sans Mono"


class FontRegistrationError(RuntimeError):
    """A shipped font file is missing or Qt could not load it."""


def font_dir() -> Path:
    return paths.resource("fonts")


def register_fonts() -> list[str]:
    """Register every shipped font with Qt; return the families they provide.

    Needs a ``QGuiApplication``. Raises ``FontRegistrationError`` naming the file when one is
    missing or unreadable: the bundle is broken then and text would silently disappear.
    """
    families: list[str] = []
    for name in FONT_FILES:
        path = font_dir() / name
        if not path.is_file():
            raise FontRegistrationError(f"shipped font is missing: {path}")
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            raise FontRegistrationError(f"Qt could not load the shipped font {path}")
        for family in QFontDatabase.applicationFontFamilies(font_id):
            if family not in families:
                families.append(family)
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
