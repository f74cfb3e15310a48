"""What the About box says: program and library versions, and the application icon."""

from __future__ import annotations

import platform

from PySide6 import __version__ as PYSIDE6_VERSION
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QMessageBox, QWidget

from taveer_desktop import PROGRAM_NAME, __version__, paths


def app_icon() -> QIcon:
    """The application icon, with every shipped PNG size."""
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        png = paths.resource("icons", f"taveer-{size}.png")
        if png.is_file():
            icon.addFile(str(png))
    return icon


def version_lines() -> list[tuple[str, str]]:
    """(component, version) for the About box and bug reports."""
    import numpy
    import pyqtgraph

    from taveer_desktop.core.methods.systems import native

    return [
        (PROGRAM_NAME, __version__),
        ("Python", platform.python_version()),
        ("Qt", qVersion()),
        ("PySide6", PYSIDE6_VERSION),
        ("pyqtgraph", pyqtgraph.__version__),
        ("numpy", numpy.__version__),
        ("Unmasking curves", "compiled (C)" if native.engine() == "compiled" else "numpy"),
    ]


def about_text() -> str:
    rows = "".join(
        f"<tr><td>{name}</td><td>&nbsp;&nbsp;{version}</td></tr>"
        for name, version in version_lines()
    )
    return (
        f"<h3>{PROGRAM_NAME} {__version__}</h3>"
        "<p>Offline forensic authorship verification with the TAVeer method "
        "(Halvani, Graner, Regev: <i>A Step Towards Interpretable Authorship "
        "Verification</i>). Nothing in this program uses the network.</p>"
        f"<p><b>Versions</b></p><table>{rows}</table>"
        f"<p>Settings: {paths.config_dir()}<br>Log files: {paths.log_dir()}</p>"
    )


def about_box(parent: QWidget) -> QMessageBox:
    """The About box (deleted when closed), not yet shown."""
    box = QMessageBox(parent)
    box.setWindowTitle(f"About {PROGRAM_NAME}")
    box.setIconPixmap(parent.windowIcon().pixmap(64, 64))
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(about_text())
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    return box
