"""Painting the report: A4 pages with a running header and footer, to PDF or to images.

``RenderedReport`` paginates a ``ReportContent`` once; ``write_pdf`` then paints every page on
a ``QPdfWriter`` (72 dpi, so one unit is one point; fonts embedded; title, subject, creator set;
the machine-readable result attached unless PDF/A-1b is asked for, which forbids attachments)
into a temporary file beside the target, syncs it, reads it back and checks it
(``pdf_check``: it parses and holds the pages laid out) and only then lets the caller record it
and renames it into place, so a report is never seen half-written nor certified truncated.
``page_image`` paints one page into a QImage for the preview. Needs a QGuiApplication;
``ensure_application`` makes an offscreen one for the command line.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QByteArray, QLineF, QMarginsF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QGuiApplication,
    QImage,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPainter,
    QPainterPath,
    QPdfWriter,
    QPen,
)

from taveer_desktop import PROGRAM_NAME, __version__
from taveer_desktop.core.ground.atomic_file import FileWriteError, replacing, sync_file
from taveer_desktop.presentation import numbers
from taveer_desktop.report.content import ReportContent
from taveer_desktop.report.fonts import POINTS_PER_METRE, ensure_fonts, report_font
from taveer_desktop.report.pdf_check import PdfCheckFailed, check_written_pdf
from taveer_desktop.report.pdf_flow import Placed, paginate

PAGE_WIDTH, PAGE_HEIGHT = 595.276, 841.89  # A4 in points
MARGIN_LEFT = MARGIN_RIGHT = 56.7  # 20 mm
MARGIN_TOP = 62.0
MARGIN_BOTTOM = 70.0
TEXT_WIDTH = PAGE_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
TEXT_HEIGHT = PAGE_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
RULE = QColor("#8a8a8a")
DRAFT_BAND = QColor("#a3141b")
DRAFT_MARK = QColor("#f6dcdd")  # the band's red, faint and opaque: drawn under the text
_application: list[QGuiApplication] = []


def _disk_full_hint(folder: Path) -> str:
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return ""
    return (
        f"; the disk has only {numbers.count(free, 'byte')} free" if free < 16 * 1024 * 1024 else ""
    )


class ReportWriteError(OSError):
    """The PDF could not be written (folder missing, not writable, disk full)."""


def ensure_application() -> QGuiApplication:
    """The running Qt application, or a new offscreen one (command line, tests)."""
    running = QGuiApplication.instance()
    if isinstance(running, QGuiApplication):
        app = running
    elif running is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QGuiApplication([])
        _application.append(app)
    else:  # a QCoreApplication cannot paint, and a second application cannot be made
        raise RuntimeError("the running Qt application has no GUI; a PDF needs QGuiApplication")
    ensure_fonts()
    return app


@dataclass
class RenderedReport:
    """A report laid out on pages, ready to paint any number of times."""

    content: ReportContent
    pages: list[list[Placed]]

    @classmethod
    def layout(cls, content: ReportContent) -> RenderedReport:
        ensure_application()
        pages = paginate(list(content.blocks), TEXT_WIDTH, TEXT_HEIGHT, MARGIN_LEFT, MARGIN_TOP)
        return cls(content, pages)

    @property
    def page_count(self) -> int:
        return len(self.pages)

    def paint_page(self, painter: QPainter, index: int) -> None:
        """Draw page ``index`` (0-based) in points; the painter's transform scales it."""
        draft = getattr(self.content, "draft", None)  # report/declaration_block.MarkedContent
        if draft is not None:
            self._paint_watermark(painter)
        for placed in self.pages[index]:
            placed.draw(painter, placed.x, placed.y)
        self._paint_margins(painter, index)
        if draft is not None:
            self._paint_draft_band(painter, draft)

    def _paint_watermark(self, painter: QPainter) -> None:
        """ "DRAFT" across the page, behind the text, opaque (PDF/A-1b allows no transparency);
        drawn as outlines, not text, so that the page's extracted text reads in order (the band
        at the top says DRAFT in words)."""
        painter.save()
        painter.translate(PAGE_WIDTH / 2, PAGE_HEIGHT / 2)
        painter.rotate(-50)
        font = report_font(118, bold=True)
        path = QPainterPath()
        path.addText(0.0, 0.0, font, "DRAFT")
        box = path.boundingRect()
        path.translate(-box.center())
        wide = QFontMetricsF(font, painter.device()).horizontalAdvance("DRAFT")
        painter.scale(wide / box.width(), wide / box.width())  # the size drawText gave it
        painter.fillPath(path, DRAFT_MARK)
        painter.restore()

    def _paint_draft_band(self, painter: QPainter, reasons: tuple[str, ...]) -> None:
        """Above the header of every page: DRAFT and why (text drawn by the writer)."""
        painter.save()
        band = QRectF(MARGIN_LEFT, 14, TEXT_WIDTH, 15)
        painter.fillRect(band, DRAFT_BAND)
        painter.setFont(report_font(7.6, bold=True))
        painter.setPen(QColor("white"))
        short = [reason.split(":")[0] for reason in reasons]  # the section gives them whole
        words = "DRAFT, not final: " + "; ".join(short or ["it was not issued as final"])
        text = painter.fontMetrics().elidedText(
            words, Qt.TextElideMode.ElideRight, int(TEXT_WIDTH - 8)
        )
        painter.drawText(band.adjusted(4, 0, -4, 0), int(Qt.AlignmentFlag.AlignVCenter), text)
        painter.restore()

    def _paint_margins(self, painter: QPainter, index: int) -> None:
        painter.save()
        small = report_font(7.2)
        painter.setFont(small)
        grey = QColor("#444444")
        if index > 0:
            painter.setPen(grey)
            header = QRectF(MARGIN_LEFT, MARGIN_TOP - 30, TEXT_WIDTH, 12)
            painter.drawText(
                header,
                int(Qt.AlignmentFlag.AlignLeft),
                f"{PROGRAM_NAME} · {self.content.running_title}",
            )
            painter.setPen(QPen(RULE, 0.5))
            painter.drawLine(
                QLineF(MARGIN_LEFT, MARGIN_TOP - 14, PAGE_WIDTH - MARGIN_RIGHT, MARGIN_TOP - 14)
            )
        footer_y = PAGE_HEIGHT - MARGIN_BOTTOM + 26
        painter.setPen(QPen(RULE, 0.5))
        painter.drawLine(QLineF(MARGIN_LEFT, footer_y, PAGE_WIDTH - MARGIN_RIGHT, footer_y))
        painter.setPen(grey)
        text_rect = QRectF(MARGIN_LEFT, footer_y + 4, TEXT_WIDTH, 12)
        page_text = f"Page {index + 1} of {self.page_count}"
        page_width = painter.fontMetrics().horizontalAdvance(page_text) + 4
        left = painter.fontMetrics().elidedText(
            self.content.footer, Qt.TextElideMode.ElideMiddle, int(TEXT_WIDTH - page_width - 12)
        )
        painter.drawText(text_rect, int(Qt.AlignmentFlag.AlignLeft), left)
        painter.drawText(text_rect, int(Qt.AlignmentFlag.AlignRight), page_text)
        painter.restore()

    def page_image(self, index: int, scale: float = 1.0) -> QImage:
        """Page ``index`` as an image, ``scale`` pixels per point (white background)."""
        width, height = round(PAGE_WIDTH * scale), round(PAGE_HEIGHT * scale)
        image = QImage(width, height, QImage.Format.Format_RGB32)
        image.setDotsPerMeterX(POINTS_PER_METRE)
        image.setDotsPerMeterY(POINTS_PER_METRE)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        painter.scale(scale, scale)
        self.paint_page(painter, index)
        painter.end()
        return image

    def write_pdf(
        self,
        target: str | Path,
        archival: bool = False,
        before_rename: Callable[[Path], None] | None = None,
    ) -> Path:
        """Write the PDF atomically to ``target``; PDF/A-1b (no attachment) if ``archival``.

        ``before_rename(temp_path)`` runs on the finished file before it takes the target's
        name (to record its hash); if it raises, the file is removed and nothing is written.
        """
        target = Path(target).expanduser().absolute()
        folder = target.parent
        if not folder.is_dir():
            raise ReportWriteError(
                f"{target}: cannot be written: the folder {folder} does not exist"
            )
        try:
            with replacing(target) as temp:
                self._paint_pdf(str(temp), archival)
                # on the disk before anything certifies it (the helper syncs again, cheaply)
                sync_file(temp)
                # Qt reports no write errors: read the file back and check it before anything
                # certifies it (the audit entry) or gives it the target's name
                check_written_pdf(str(temp), self.page_count)
                if before_rename is not None:
                    before_rename(temp)
        except PdfCheckFailed as error:
            raise ReportWriteError(
                f"{target}: cannot be written: the PDF on disk is not whole ({error}"
                f"{_disk_full_hint(folder)}); nothing was recorded"
            ) from None
        except FileWriteError as error:
            raise ReportWriteError(str(error)) from None
        return target

    def _paint_pdf(self, path: str, archival: bool) -> None:
        writer = QPdfWriter(path)
        writer.setResolution(72)
        writer.setPageLayout(
            QPageLayout(
                QPageSize(QPageSize.PageSizeId.A4),
                QPageLayout.Orientation.Portrait,
                QMarginsF(0, 0, 0, 0),
            )
        )
        writer.setTitle(self.content.title)
        writer.setCreator(f"{PROGRAM_NAME} {__version__}")
        writer.setAuthor(PROGRAM_NAME)
        if archival:
            writer.setPdfVersion(QPagedPaintDevice.PdfVersion.PdfVersion_A1b)
        else:
            writer.setPdfVersion(QPagedPaintDevice.PdfVersion.PdfVersion_1_6)
            writer.addFileAttachment(
                self.content.attachment_name,
                QByteArray(self.content.attachment),
                "application/json",
            )
        painter = QPainter()
        if not painter.begin(writer):
            raise OSError(f"Qt could not start writing the PDF {path}")
        try:
            for index in range(self.page_count):
                if index:
                    writer.newPage()
                self.paint_page(painter, index)
        finally:
            painter.end()
        if os.path.getsize(path) == 0:
            raise OSError("Qt wrote an empty file")
