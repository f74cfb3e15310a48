"""The result view: one verification explained, from the decision down to the words.

Above the tabs, on every tab, the conclusion (``DecisionSummary.conclusion``): its kind and the
statement, the likelihood ratio first (or why there is none). **Decision**: across the top, the
methods' own ratios, the method's classification and its stability, the propositions; below
it the score on its 0–1 scale, the weight of evidence, warnings and hashes
(``DecisionSummary.details``) beside the per-category similarity bars (``SimilarityChart``). A
newly shown result starts scrolled to the top. **Features and evidence**: for one ensemble
category at a time, the paper's importance chart (``ImportanceChart``), the distance view Φ
(``DistanceView``) and both texts with the chosen feature highlighted (``EvidenceView``).
Choosing a feature in the chart or the table selects it everywhere. **LambdaG in the text**,
only for a run of a LambdaG or fused model that explained itself: the questioned text shaded by
LambdaG's token shares beside its sentences, with the sentences where both methods point the
same way marked (``LambdaGView``); TAVeer's lean of each sentence is computed as a job on the
summary's runner the first time the tab is shown for a result. The two fixed tabs are laid
out by ``result_layout.py``.

Entry point: ``ResultView(parent).show_result(result_dict, model, known_texts, unknown_text,
document_hashes, stability=None)``: the stored result is read once, typed
(``core/verification/result_reader.read_result``), and every part is drawn from that
reading. Call ``shutdown()`` before the window closes (waits for a running job).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.calibration.method_findings import LambdaGEvidence
from taveer_desktop.core.calibration.verbal_scales import DEFAULT_SCALE
from taveer_desktop.core.features.feature_stream import prepare_text
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.methods.taveer.sentence_agreement import SentenceLeaning, sentence_leanings
from taveer_desktop.core.methods.taveer.verify import VerificationResult
from taveer_desktop.core.verification.result_reader import read_result
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.evidence_data import EvidenceText, evidence_texts
from taveer_desktop.presentation.explanation_data import PhiRow, StabilityFigures, phi_rows
from taveer_desktop.report.chart_layout import DEFAULT_TOP_N
from taveer_desktop.ui.explain.distance_view import DistanceView
from taveer_desktop.ui.explain.evidence_view import EvidenceView
from taveer_desktop.ui.explain.importance_chart import ImportanceChart
from taveer_desktop.ui.explain.lambdag_view import LambdaGView
from taveer_desktop.ui.explain.result_layout import decision_tab, features_tab
from taveer_desktop.ui.explain.similarity_chart import SimilarityChart
from taveer_desktop.ui.explain.splitter_fit import fit_orientation
from taveer_desktop.ui.explain.summary_view import DecisionSummary
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.task_worker import Job, TaskWorker

DECISION_TAB, FEATURES_TAB, LAMBDAG_TAB = 0, 1, 2


def text_hashes(known_texts: Sequence[str], unknown_text: str) -> list[tuple[str, str]]:
    """(label, SHA-256 of the UTF-8 text) of each document, when the caller has no hashes."""

    def digest(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    rows = [("questioned text (SHA-256 of the text)", digest(unknown_text))]
    rows += [
        (f"known document {i} (SHA-256 of the text)", digest(t))
        for i, t in enumerate(known_texts, start=1)
    ]
    return rows


class ResultView(QWidget):
    """One verification result explained; ``feature_chosen(category, feature)`` on a choice."""

    feature_chosen = Signal(str, str)
    leanings_shown = Signal()  # LambdaG's tab now lists the sentences with both methods

    def __init__(
        self,
        parent: QWidget | None = None,
        runner: JobRunner | None = None,
        conclusion_above_tabs: bool = True,
    ) -> None:
        """``conclusion_above_tabs``: False when the owner places ``summary.conclusion``
        itself (the desktop keeps it above the scrolled result)."""
        super().__init__(parent)
        self.verification: VerificationResult | None = None  # the result shown, as read
        self.rows: dict[str, list[PhiRow]] = {}
        self._evidence: dict[str, tuple[EvidenceText, EvidenceText]] = {}
        self._texts: tuple[list[str], str] = ([], "")
        self._lexicon: Lexicon | None = None
        self.category = ""
        self.feature: str | None = None

        self.summary = DecisionSummary(self, runner)
        self.similarity_chart = SimilarityChart(self)
        self.importance_chart = ImportanceChart(self)
        self.distance_view = DistanceView(self)
        self.evidence_view = EvidenceView(self)
        self.category_box = QComboBox(self)
        self.top_n_box = QSpinBox(self)
        self.top_n_box.setRange(1, 40)
        self.top_n_box.setValue(DEFAULT_TOP_N)
        self.top_n_box.setToolTip("How many features of each list get their own labelled rectangle")
        self.no_interpretation = QLabel(self)
        self.no_interpretation.setWordWrap(True)
        self.tabs = QTabWidget(self)
        decision = decision_tab(self, self.summary, self.similarity_chart)
        self.decision_splitter, self.details_scroll = decision.page, decision.details_scroll
        self.decision_lower = decision.lower
        features = features_tab(
            self,
            self.category_box,
            self.top_n_box,
            self.no_interpretation,
            self.importance_chart,
            self.distance_view,
            self.evidence_view,
            lambda: f"taveer-importance-{self.category}",
        )
        self.features_top, self.features_splitter = features.top, features.splitter
        self.importance_caption = features.importance_caption
        self.tabs.addTab(decision.page, "Decision")
        self.tabs.addTab(features.page, "Features and evidence")
        self.lambdag_view = LambdaGView(self)
        self.tabs.addTab(self.lambdag_view, "LambdaG in the text")
        self.tabs.setTabToolTip(
            LAMBDAG_TAB,
            "Where in the questioned text LambdaG's score comes from, sentence by sentence, "
            "beside TAVeer's features",
        )
        self.tabs.setTabVisible(LAMBDAG_TAB, False)
        self._lambdag: LambdaGEvidence | None = None  # the evidence not yet shown in its tab
        self._leanings_job: TaskWorker | None = None
        self.tabs.currentChanged.connect(self._tab_shown)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if conclusion_above_tabs:
            layout.addWidget(self.summary.conclusion)
        layout.addWidget(self.tabs)

        self.category_box.currentIndexChanged.connect(self._category_chosen)
        self.top_n_box.valueChanged.connect(self._top_n_changed)
        self.importance_chart.feature_chosen.connect(self.choose_feature)
        self.distance_view.feature_chosen.connect(self.choose_feature)

    # --- entry point ----------------------------------------------------------------------

    def show_result(
        self,
        result: Mapping,
        model: Model | None,
        known_texts: Sequence[str],
        unknown_text: str,
        document_hashes: Sequence[tuple[str, str]] | Mapping[str, str] | None = None,
        lexicon: Lexicon | None = None,
        scale_id: str = DEFAULT_SCALE,
        stability: StabilityFigures | None = None,
    ) -> None:
        """Show ``result`` (``VerificationResult.to_dict()``, verified with ``explain=True``).

        ``document_hashes``: (label, SHA-256) pairs or a label → SHA-256 mapping, e.g. the
        store's evidence hashes; without them the SHA-256 of each text is shown.
        ``stability``: the stability stored with the run, if there is one.
        """
        if isinstance(document_hashes, Mapping):
            document_hashes = list(document_hashes.items())
        hashes = list(document_hashes or text_hashes(known_texts, unknown_text))
        verification = read_result(result)
        self.verification = verification
        self._texts = (list(known_texts), unknown_text)
        self._lexicon = lexicon
        self._evidence = {}
        interpretation = verification.interpretation
        self.rows = {c: phi_rows(i) for c, i in interpretation.items()}
        self.summary.show_result(
            verification, model, known_texts, unknown_text, hashes, scale_id, stability
        )
        self._show_lambdag_tab()
        self.details_scroll.verticalScrollBar().setValue(0)
        self.similarity_chart.show_result(verification)
        blocked = self.category_box.blockSignals(True)
        self.category_box.clear()
        for category in verification.ensemble:
            if category in interpretation:
                entry = verification.categories[category]
                similarity = entry.similarity
                shown = (
                    "abstains"
                    if similarity is None
                    else f"similarity {numbers.decimal(similarity)}"
                )
                self.category_box.addItem(f"{category} {entry.name} — {shown}", category)
        self.category_box.blockSignals(blocked)
        self.no_interpretation.setVisible(not interpretation)
        self.no_interpretation.setText(
            "This result was stored without its interpretation lists; verify the case again "
            "to see which features decided it."
        )
        self.features_splitter.setVisible(bool(interpretation))
        if self.category_box.count():
            self.category_box.setCurrentIndex(self._first_measured_index())
            self._category_chosen(self.category_box.currentIndex())

    # --- LambdaG in the text ---------------------------------------------------------------

    def _show_lambdag_tab(self) -> None:
        """Offer LambdaG's tab when the result has LambdaG's evidence (filled when shown)."""
        self._cancel_leanings()
        verification = self.verification
        findings = verification.methods if verification is not None else None
        self._lambdag = findings.evidence if findings is not None else None
        shown = self._lambdag is not None
        if not shown and self.tabs.currentIndex() == LAMBDAG_TAB:
            self.tabs.setCurrentIndex(DECISION_TAB)
        self.tabs.setTabVisible(LAMBDAG_TAB, shown)
        if shown and self.tabs.currentIndex() == LAMBDAG_TAB:
            self._tab_shown(LAMBDAG_TAB)

    def _tab_shown(self, index: int) -> None:
        if index != LAMBDAG_TAB or self._lambdag is None:
            return
        evidence, self._lambdag = self._lambdag, None
        verification = self.verification
        assert verification is not None
        _known, unknown = self._texts
        lexicon = self._lexicon or default_lexicon()
        self.lambdag_view.show_evidence(prepare_text(unknown), evidence)
        job = Job(
            "TAVeer's features in the questioned sentences",
            lambda _progress: sentence_leanings(
                unknown, verification.interpretation, verification.ensemble, lexicon, evidence
            ),
            writes_store=False,
        )
        started: list[TaskWorker] = []
        self._leanings_job = self.summary.runner.start(
            job,
            lambda leanings: self._leanings_found(started[0], leanings),
            lambda message, _details: self._leanings_failed(started[0], message),
        )
        started.append(self._leanings_job)

    def _leanings_found(self, worker: TaskWorker, leanings: list[SentenceLeaning]) -> None:
        if worker is not self._leanings_job:
            return  # a result shown since
        self._leanings_job = None
        self.lambdag_view.show_leanings(leanings)
        self.leanings_shown.emit()

    def _leanings_failed(self, worker: TaskWorker, message: str) -> None:
        if worker is self._leanings_job:
            self._leanings_job = None
            self.lambdag_view.summary.setText(
                f"TAVeer's features could not be placed in the sentences: {message}"
            )

    def _cancel_leanings(self) -> None:
        if self._leanings_job is not None:
            self._leanings_job.cancel()
            self._leanings_job = None

    def _first_measured_index(self) -> int:
        for i in range(self.category_box.count()):
            category = self.category_box.itemData(i)
            if self.verification and not self.verification.interpretation[category].abstained:
                return i
        return 0

    def show_category(self, category: str) -> None:
        index = self.category_box.findData(category)
        if index >= 0:
            self.category_box.setCurrentIndex(index)

    def evidence_for(self, category: str) -> tuple[EvidenceText, EvidenceText]:
        """Occurrences of ``category`` in both texts (computed once per category)."""
        if category not in self._evidence:
            known, unknown = self._texts
            lexicon = self._lexicon or default_lexicon()
            self._evidence[category] = evidence_texts(unknown, known, lexicon, category)
        return self._evidence[category]

    def _category_chosen(self, index: int) -> None:
        category = self.category_box.itemData(index)
        if not category:
            return
        self.category = category
        self.feature = None
        assert self.verification is not None
        interpretation = self.verification.interpretation[category]
        rows = self.rows[category]
        self.importance_chart.show_category(category, interpretation, rows)
        self.distance_view.show_rows(category, rows)
        self.evidence_view.set_texts(category, *self.evidence_for(category))

    def _top_n_changed(self, value: int) -> None:
        self.importance_chart.top_n = value
        self.importance_chart.select_feature(self.feature)

    def choose_feature(self, feature: str) -> None:
        """Select ``feature`` of the current category in the chart, the table and the texts."""
        if feature == self.feature:
            return
        row = next((r for r in self.rows.get(self.category, []) if r.feature == feature), None)
        if row is None:
            return
        self.feature = feature
        self.importance_chart.select_feature(feature)
        self.distance_view.select_feature(feature)
        self.evidence_view.show_feature(feature, row.side)
        self.feature_chosen.emit(self.category, feature)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_features()

    def _fit_features(self) -> None:
        """The Features tab's chart beside the feature table, and the Decision tab's score
        beside its chart, where both fit; one above the other otherwise (a narrow window or
        150 %: the score's scale and words were cut, scrolled sideways)."""
        fit_orientation(self.features_top, self.width(), self.features_splitter, self)
        fit_orientation(self.decision_lower, self.width(), self.decision_splitter, self)

    def shutdown(self) -> None:
        """Cancel and wait for background work; call from the window's ``closeEvent``."""
        self._cancel_leanings()
        self.summary.wait()
