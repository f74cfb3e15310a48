"""Dialog sizes in text widths and lines, never larger than the screen the dialog opens on.

A size in multiples of the font's metrics follows the font and the scale factor; bounded by
nine tenths of the screen's available area it still fits a 1366 × 768 laptop at 150 %, where
the dialog's own layout then wraps or scrolls what it holds.
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

SCREEN_SHARE = 0.9


def fit_size(dialog: QWidget, ems: float, lines: float | None = None) -> tuple[int, int]:
    """``ems`` widths of "m" by ``lines`` lines (default: the dialog's own height hint),
    each bounded by the share of the screen's available area."""
    metrics = dialog.fontMetrics()
    width = round(metrics.horizontalAdvance("m") * ems)
    height = round(metrics.height() * lines) if lines else dialog.sizeHint().height()
    parent = dialog.parentWidget()
    screen = (parent.screen() if parent else None) or QGuiApplication.primaryScreen()
    if screen is not None:
        area = screen.availableGeometry()
        width = min(width, round(area.width() * SCREEN_SHARE))
        height = min(height, round(area.height() * SCREEN_SHARE))
    return width, height


def resize_to_fit(dialog: QWidget, ems: float, lines: float | None = None) -> None:
    """Resize ``dialog`` to ``fit_size`` (its minimum size still wins)."""
    dialog.resize(*fit_size(dialog, ems, lines))


def keep_on_screen(dialog: QWidget) -> None:
    """Move a shown dialog that grew past its screen's available area back inside it."""
    screen = dialog.screen() or QGuiApplication.primaryScreen()
    if screen is None or not dialog.isVisible():
        return
    area, frame = screen.availableGeometry(), dialog.frameGeometry()
    x = max(area.left(), min(frame.left(), area.right() - frame.width() + 1))
    y = max(area.top(), min(frame.top(), area.bottom() - frame.height() + 1))
    if (x, y) != (frame.left(), frame.top()):
        dialog.move(x, y)
