"""A 0–1 scale with the case's score, the 0.5 decision boundary and optional bands.

Painted with QPainter: the left half is labelled "different authors", the right half "same
author", the boundary is a solid line at 0.5, the score a triangle marker with its value, an
inconclusive band (if the model has one) a hatched region and the stability interval (once
computed) a bracket under the scale. Position, words and shape all carry the meaning, not
colour alone.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from taveer_desktop.presentation import numbers

SAME_COLOUR = QColor("#009E73")
DIFFERENT_COLOUR = QColor("#D55E00")
TEXT = QColor("#1a1a1a")
MARGIN = 28


class ScoreScale(QWidget):
    """The ensemble similarity of one result on a 0–1 scale."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.score: float | None = None
        self.band: tuple[float, float] | None = None
        self.interval: tuple[float, float] | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(240)

    def sizeHint(self) -> QSize:
        return QSize(560, 108)

    def minimumSizeHint(self) -> QSize:
        return QSize(360, 108)

    def set_values(
        self,
        score: float | None,
        band: tuple[float, float] | None = None,
        interval: tuple[float, float] | None = None,
    ) -> None:
        self.score, self.band, self.interval = score, band, interval
        self.update()

    def _x(self, value: float) -> float:
        return MARGIN + (self.width() - 2 * MARGIN) * min(max(value, 0.0), 1.0)

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont(self.font())
        font.setPointSizeF(8.5)
        painter.setFont(font)
        track = QRectF(self._x(0), 32, self._x(1) - self._x(0), 22)
        half = track.width() / 2
        left = QRectF(track.left(), track.top(), half, track.height())
        right = QRectF(track.center().x(), track.top(), half, track.height())
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#fbe0cf"))
        painter.drawRect(left)
        painter.setBrush(QColor("#d5f0e6"))
        painter.drawRect(right)
        if self.band:
            band = QRectF(
                self._x(self.band[0]),
                track.top(),
                self._x(self.band[1]) - self._x(self.band[0]),
                track.height(),
            )
            painter.setBrush(QBrush(QColor("#555555"), Qt.BrushStyle.BDiagPattern))
            painter.drawRect(band)
        painter.setPen(TEXT)
        inner = track.adjusted(8, 0, -8, 0)
        centre = Qt.AlignmentFlag.AlignVCenter
        painter.drawText(
            QRectF(inner.left(), inner.top(), half - 16, inner.height()),
            int(Qt.AlignmentFlag.AlignLeft | centre),
            "← different authors",
        )
        painter.drawText(
            QRectF(track.center().x() + 8, inner.top(), half - 16, inner.height()),
            int(Qt.AlignmentFlag.AlignRight | centre),
            "same author →",
        )
        painter.setPen(QPen(QColor("#555555"), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(track)
        for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
            x = self._x(tick)
            painter.drawLine(QPointF(x, track.bottom()), QPointF(x, track.bottom() + 4))
            painter.drawText(
                QRectF(x - 20, track.bottom() + 5, 40, 14),
                int(Qt.AlignmentFlag.AlignHCenter),
                numbers.short(tick),
            )
        painter.setPen(QPen(QColor("#000000"), 2.5))
        mid = self._x(0.5)
        painter.drawLine(QPointF(mid, track.top() - 4), QPointF(mid, track.bottom() + 4))
        if self.interval:
            lo, hi = self._x(self.interval[0]), self._x(self.interval[1])
            y = track.bottom() + 28
            painter.setPen(QPen(QColor("#0072B2"), 2))
            painter.drawLine(QPointF(lo, y), QPointF(hi, y))
            painter.drawLine(QPointF(lo, y - 4), QPointF(lo, y + 4))
            painter.drawLine(QPointF(hi, y - 4), QPointF(hi, y + 4))
            painter.setPen(TEXT)
            legend = "middle 95 % of resampled scores"
            width = painter.fontMetrics().horizontalAdvance(legend) + 4
            if hi + 6 + width <= self.width():  # right of the bracket, else left, else below
                box, align = QRectF(hi + 6, y - 8, width, 16), Qt.AlignmentFlag.AlignLeft
            elif lo - 6 - width >= 0:
                box, align = QRectF(lo - 6 - width, y - 8, width, 16), Qt.AlignmentFlag.AlignRight
            else:
                start = min(max((lo + hi - width) / 2, 0.0), max(self.width() - width, 0.0))
                box, align = QRectF(start, y + 6, width, 16), Qt.AlignmentFlag.AlignLeft
            painter.drawText(box, int(align | centre), legend)
        if self.score is not None:
            x = self._x(self.score)
            path = QPainterPath(QPointF(x, track.top() + 3))
            path.lineTo(x - 7, track.top() - 10)
            path.lineTo(x + 7, track.top() - 10)
            path.closeSubpath()
            painter.setPen(QPen(QColor("white"), 1))
            painter.setBrush(QColor("#1a1a1a"))
            painter.drawPath(path)
            bold = QFont(font)
            bold.setBold(True)
            painter.setFont(bold)
            painter.setPen(TEXT)
            painter.drawText(
                QRectF(min(max(x - 60, 0.0), self.width() - 120.0), 0, 120, 20),
                int(Qt.AlignmentFlag.AlignHCenter | centre),
                f"score {numbers.decimal(self.score)}",
            )
        painter.end()
