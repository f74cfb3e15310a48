"""Export a chart as PNG at print resolution or as SVG (vector), exactly as it is on screen.

A pyqtgraph chart is a ``QGraphicsView``: its scene is rendered 1:1 at the widget's size (text
items and legends ignore painter scaling, so the chart is never scaled) into a ``QImage`` with a
device pixel ratio of ``PRINT_SCALE`` for PNG, or into Qt's ``QSvgGenerator`` for SVG
(pyqtgraph's own SVG exporter fails with Qt 6.12). Plain widgets are rendered with
``QWidget.render``. ``export_button`` gives a chart an "Export" menu with both formats.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QImageWriter, QPainter, QRegion
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QFileDialog,
    QGraphicsView,
    QMenu,
    QMessageBox,
    QToolButton,
    QWidget,
)

from taveer_desktop.core.ground.atomic_file import replacing
from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.ui import app_settings

log = logging.getLogger(__name__)
PRINT_SCALE = 3.0  # 96 dpi on screen × 3 = 288 dpi in the PNG
SVG_RESOLUTION = 96


def _paint(widget: QWidget, painter: QPainter, size: QSize) -> None:
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    target = QRectF(0, 0, size.width(), size.height())
    if isinstance(widget, QGraphicsView):
        source = widget.mapToScene(widget.viewport().rect()).boundingRect()
        widget.scene().render(painter, target, source, Qt.AspectRatioMode.IgnoreAspectRatio)
    else:
        flags = QWidget.RenderFlag.DrawChildren | QWidget.RenderFlag.DrawWindowBackground
        widget.render(painter, QPoint(), QRegion(), flags)


def _size(widget: QWidget) -> QSize:
    if isinstance(widget, QGraphicsView):
        return widget.viewport().size()
    return widget.size()


def render_image(widget: QWidget, scale: float = PRINT_SCALE) -> QImage:
    """The widget drawn into a white image of ``scale`` × its size in pixels."""
    size = _size(widget)
    image = QImage(
        round(size.width() * scale), round(size.height() * scale), QImage.Format.Format_ARGB32
    )
    image.setDevicePixelRatio(scale)
    image.fill(QColor("white"))
    painter = QPainter(image)
    try:
        _paint(widget, painter, size)
    finally:
        painter.end()
    return image


def export_png(widget: QWidget, path: str | Path, scale: float = PRINT_SCALE) -> Path:
    """Write the widget as a PNG at ``scale`` × screen resolution; raises OSError on failure."""
    path = Path(path)
    image = render_image(widget, scale)
    dpm = round(96 * scale / 0.0254)
    image.setDotsPerMeterX(dpm)
    image.setDotsPerMeterY(dpm)
    with replacing(path) as temp:
        writer = QImageWriter(str(temp), b"PNG")
        if not writer.write(image):
            raise OSError(f"could not write the image {path} ({writer.errorString()})")
    return path


def export_svg(widget: QWidget, path: str | Path, title: str = "", description: str = "") -> Path:
    """Write the widget as an SVG drawing (vector shapes and text)."""
    path = Path(path)
    size = _size(widget)
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(size)
    generator.setViewBox(QRect(0, 0, size.width(), size.height()))
    generator.setResolution(SVG_RESOLUTION)
    generator.setTitle(title)
    generator.setDescription(description)
    painter = QPainter()
    if not painter.begin(generator):
        raise OSError(f"could not write the drawing {path}")
    try:
        painter.fillRect(QRectF(0, 0, size.width(), size.height()), QColor("white"))
        _paint(widget, painter, size)
    finally:
        painter.end()
    if not path.is_file() or path.stat().st_size == 0:
        raise OSError(f"could not write the drawing {path}")
    return path


def export_interactively(widget: QWidget, stem: str, title: str, kind: str) -> Path | None:
    """Ask for a file name and export as ``kind`` ("png" or "svg"); errors shown, not raised."""
    pattern = "PNG image (*.png)" if kind == "png" else "SVG drawing (*.svg)"
    suggestion = Path(app_settings.start_folder("exports")) / f"{stem}.{kind}"
    name, _ = QFileDialog.getSaveFileName(widget, f"Export {title}", str(suggestion), pattern)
    if not name:
        return None
    app_settings.remember_folder("exports", Path(name))
    if not name.lower().endswith(f".{kind}"):
        name += f".{kind}"
    try:
        if kind == "png":
            return export_png(widget, name)
        return export_svg(widget, name, title)
    except (OSError, TaveerError) as error:
        log.exception("chart export failed")
        QMessageBox.warning(widget, "Export failed", str(error))
        return None


def export_button(
    parent: QWidget, target: Callable[[], QWidget], stem: Callable[[], str], title: str
) -> QToolButton:
    """A tool button with "PNG…" and "SVG…" entries exporting ``target()``."""
    button = QToolButton(parent)
    button.setText("Export")
    button.setToolTip(f"Save {title} as a PNG image (print resolution) or an SVG drawing")
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    menu = QMenu(button)
    menu.addAction("PNG image…", lambda: export_interactively(target(), stem(), title, "png"))
    menu.addAction("SVG drawing…", lambda: export_interactively(target(), stem(), title, "svg"))
    button.setMenu(menu)
    return button
