"""How the result view's two fixed tabs are laid out: the Decision tab and the Features and
evidence tab (``result_view.py`` fills them).

**Decision**: the conclusion's details across the whole width, then the details (scrolled) and
the per-category similarity chart side by side; a remembered vertical split gives each half of
the tab its room, so the details never shrink to a sliver at 150 %. **Features and evidence**:
the category and labelled-per-list choosers above the importance chart beside the distance
view Φ, with both texts below, as much room for the texts as for the charts. The builders make
widgets only; they return the splitters the view fits to its width (``splitter_fit.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.presentation import glossary
from taveer_desktop.ui.explain.chart_export import export_button
from taveer_desktop.ui.explain.distance_view import DistanceView
from taveer_desktop.ui.explain.evidence_view import EvidenceView
from taveer_desktop.ui.explain.importance_chart import ImportanceChart
from taveer_desktop.ui.explain.similarity_chart import SimilarityChart
from taveer_desktop.ui.explain.summary_view import DecisionSummary
from taveer_desktop.ui.remembered_split import remembered_split


@dataclass(frozen=True)
class DecisionTab:
    """The Decision tab and the parts the view scrolls and fits to its width."""

    page: QSplitter  # the remembered split: the conclusion's details above, the rest below
    details_scroll: QScrollArea  # the details, scrolled to the top for each new result
    lower: QSplitter  # the details beside the chart, or above it where they do not fit


@dataclass(frozen=True)
class FeaturesTab:
    """The Features and evidence tab and the parts the view fits to its width."""

    page: QWidget
    top: QSplitter  # the importance chart beside the distance view, or above it
    splitter: QSplitter  # the charts above both texts
    importance_caption: QLabel


def decision_tab(
    owner: QWidget, summary: DecisionSummary, similarity_chart: SimilarityChart
) -> DecisionTab:
    """The Decision tab: ``summary`` above, its details beside ``similarity_chart`` below."""
    chart_box = QWidget(owner)
    chart_layout = QVBoxLayout(chart_box)
    chart_layout.setContentsMargins(0, 0, 0, 0)
    bar = QHBoxLayout()
    bar.addStretch(1)
    bar.addWidget(
        export_button(owner, lambda: similarity_chart, lambda: "taveer-similarity", "the chart")
    )
    chart_layout.addLayout(bar)
    chart_layout.addWidget(similarity_chart, 1)
    scroll = QScrollArea(owner)
    scroll.setWidgetResizable(True)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)  # never cut text
    scroll.setWidget(summary.details)
    splitter = QSplitter(Qt.Orientation.Horizontal, owner)
    splitter.addWidget(scroll)
    splitter.addWidget(chart_box)
    # the chart needs room for its category names, bars and values; the text wraps
    splitter.setStretchFactor(0, 2)
    splitter.setStretchFactor(1, 3)
    splitter.setSizes([400, 600])
    # the conclusion's details first, across the whole width, then the details and the
    # chart: a splitter gives each half of the tab (the split is remembered), the upper
    # part scrolls where it needs more, so the details never shrink to a sliver at 150 %
    upper = QScrollArea(owner)
    upper.setWidgetResizable(True)
    upper.setFrameShape(QScrollArea.Shape.NoFrame)
    upper.setWidget(summary)
    page = remembered_split(Qt.Orientation.Vertical, "decision_split", owner)
    page.addWidget(upper)
    page.addWidget(splitter)
    return DecisionTab(page, scroll, splitter)


def features_tab(
    owner: QWidget,
    category_box: QComboBox,
    top_n_box: QSpinBox,
    no_interpretation: QLabel,
    importance_chart: ImportanceChart,
    distance_view: DistanceView,
    evidence_view: EvidenceView,
    importance_file_stem: Callable[[], str],
) -> FeaturesTab:
    """The Features and evidence tab: the choosers, the importance chart beside the distance
    view, both texts below; ``importance_file_stem`` names an exported importance chart."""
    page = QWidget(owner)
    bar = QHBoxLayout()
    category_label = QLabel("Categor&y:", page)  # short: the bar fits a narrow window
    category_label.setBuddy(category_box)
    category_label.setToolTip("The categories of the model's ensemble, with their similarity")
    bar.addWidget(category_label)
    # the box shrinks with the window (its full text is in the list it opens)
    category_box.setSizeAdjustPolicy(
        QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
    )
    category_box.setMinimumContentsLength(14)
    bar.addWidget(category_box, 1)
    labelled = QLabel("La&belled per list:", page)
    labelled.setBuddy(top_n_box)
    labelled.setToolTip("How many features of L_Y and of L_N get a labelled rectangle")
    bar.addWidget(labelled)
    bar.addWidget(top_n_box)
    bar.addWidget(
        export_button(page, lambda: importance_chart, importance_file_stem, "the importance chart")
    )
    chart_box = QWidget(page)
    chart_layout = QVBoxLayout(chart_box)
    chart_layout.setContentsMargins(0, 0, 0, 0)
    caption = QLabel(page)
    caption.setWordWrap(True)
    caption.setToolTip(glossary.tooltip("L_Y", "L_N", "λ", "θ′"))
    importance_chart.getPlotItem().getAxis("left").setToolTip(glossary.tooltip("λ"))
    importance_chart.caption_changed.connect(caption.setText)
    chart_layout.addWidget(importance_chart, 1)
    chart_layout.addWidget(caption)
    top = QSplitter(Qt.Orientation.Horizontal, page)
    top.addWidget(chart_box)
    top.addWidget(distance_view)
    top.setStretchFactor(0, 1)
    top.setStretchFactor(1, 1)
    top.setSizes([700, 800])
    splitter = QSplitter(Qt.Orientation.Vertical, page)
    splitter.addWidget(top)
    splitter.addWidget(evidence_view)
    # the texts get as much room as the charts: they are where the features are read
    splitter.setStretchFactor(0, 1)
    splitter.setStretchFactor(1, 1)
    splitter.setSizes([500, 500])
    layout = QVBoxLayout(page)
    layout.addLayout(bar)
    layout.addWidget(no_interpretation)
    layout.addWidget(splitter, 1)
    return FeaturesTab(page, top, splitter, caption)
