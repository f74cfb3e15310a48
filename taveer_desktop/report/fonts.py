"""The shipped DejaVu fonts registered with Qt, with or without the GUI; the report's fonts.

Qt writes a PDF with no text at all when it finds no font, and a report must never depend on
the fonts of the machine it is made on. ``ensure_fonts`` registers the three DejaVu files from
``resources/fonts`` once per process; it is the application's one font registration (the GUI's
``ui/fonts.register_fonts`` calls it at start-up). ``report_font`` builds a font by point size;
text is measured on ``layout_device``, a 72-dpi image, so one unit is one point in layout, PDF
and preview alike.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase, QImage

from taveer_desktop import paths

FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf")
SANS = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
_registered: dict[str, list[str]] = {}  # font folder -> families registered from it
POINTS_PER_METRE = round(72 / 0.0254)  # 72 dpi: one unit is one point


class ReportFontError(RuntimeError):
    """A shipped font is missing or unreadable: the report would have no text."""


def ensure_fonts(folder: Path | None = None) -> list[str]:
    """Register the shipped fonts once (needs a QGuiApplication); return their families.

    Raises ``ReportFontError`` naming the file when one is missing or unreadable: the
    installation is broken then, and text would silently disappear.
    """
    folder = folder or paths.resource("fonts")
    if str(folder) in _registered:
        return list(_registered[str(folder)])
    families: list[str] = []
    for name in FONT_FILES:
        path = folder / name
        if not path.is_file():
            raise ReportFontError(f"shipped font is missing: {path}")
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            raise ReportFontError(f"Qt could not load the shipped font {path}")
        for family in QFontDatabase.applicationFontFamilies(font_id):
            if family not in families:
                families.append(family)
    _registered[str(folder)] = families
    return list(families)


def report_font(size: float, bold: bool = False, mono: bool = False, italic: bool = False) -> QFont:
    """DejaVu Sans (or Sans Mono) at ``size`` points, unhinted (layout and PDF agree)."""
    font = QFont(MONO if mono else SANS)
    font.setPointSizeF(size)
    font.setBold(bold)
    font.setItalic(italic)
    font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    if mono:
        font.setStyleHint(QFont.StyleHint.Monospace)
    return font


_layout_device: list[QImage] = []


def layout_device() -> QImage:
    """A 72-dpi paint device: text measured on it is in points, as in the report's PDF."""
    if not _layout_device:
        image = QImage(8, 8, QImage.Format.Format_ARGB32)
        image.setDotsPerMeterX(POINTS_PER_METRE)
        image.setDotsPerMeterY(POINTS_PER_METRE)
        _layout_device.append(image)
    return _layout_device[0]
