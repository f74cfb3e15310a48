"""Page 2 of the validation wizard: the lab's casework range and how the trials are dealt.

The examiner declares the range of questioned and known lengths (characters, LO–HI) the lab's
casework has — pre-filled around this case's own lengths, which must lie inside, and worded with
what the range means: the validation and its conclusions hold only for cases inside it — then
how the case's known and questioned texts relate in topic (the trials are built in that
relation; unknown by default, the harder trials of each kind), then the repeats of the
cross-validation (seeds seed, seed + 1, …), the folds by author, the cap on
trials and the seed. Next stays disabled, with the reason in red, while the case's lengths lie
outside the range.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
)

from taveer_desktop.core.trials.validation_settings import repeats_used
from taveer_desktop.core.validation.validation import (
    DEFAULT_FOLDS,
    DEFAULT_MAX_TRIALS,
    MIN_TRIALS_PER_CLASS,
)
from taveer_desktop.presentation import validation_range_text as rt
from taveer_desktop.presentation import validation_wizard_text as vt
from taveer_desktop.presentation.trial_construction_text import TOPIC_CHOICES, TOPIC_HELP
from taveer_desktop.store import KNOWN, QUESTIONED
from taveer_desktop.ui.validation_wizard_step import (
    ERROR_STYLE,
    WizardStep,
    form_label,
    wrapped,
)

if TYPE_CHECKING:
    from taveer_desktop.ui.validation_wizard import ValidationWizard

MAX_CHARS = 10_000_000
DEFAULT_REPEATS = 3  # ENGINE's ValidationSettings.repeats default (issue 21)
Ranges = tuple[tuple[int, int], tuple[int, int]]


def _length_spin(tip: str) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(1, MAX_CHARS)
    spin.setGroupSeparatorShown(True)
    spin.setToolTip(tip)
    return spin


class ConditionsPage(WizardStep):
    """The declared range (see the module), repeats, folds, cap and seed."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(
            wizard,
            "2 · The conditions of your casework",
            "Trials are built across the range of lengths your casework has, cut at sentence "
            "boundaries; the validation then holds for cases inside that range, and only there.",
        )
        self.case_text = wrapped()
        self.q_low = _length_spin("Shortest questioned text of your casework (characters)")
        self.q_high = _length_spin("Longest questioned text of your casework (characters)")
        self.k_low = _length_spin("Fewest characters of known text (its documents together)")
        self.k_high = _length_spin("Most characters of known text (its documents together)")
        for spin in (self.q_low, self.q_high, self.k_low, self.k_high):
            spin.valueChanged.connect(self._range_changed)
        grid = QGridLayout()
        grid.addWidget(form_label("&Questioned text:", self.q_low), 0, 0)
        grid.addWidget(self.q_low, 0, 1)
        grid.addWidget(QLabel("to"), 0, 2)
        grid.addWidget(self.q_high, 0, 3)
        grid.addWidget(QLabel("characters"), 0, 4)
        grid.addWidget(form_label("&Known texts together:", self.k_low), 1, 0)
        grid.addWidget(self.k_low, 1, 1)
        grid.addWidget(QLabel("to"), 1, 2)
        grid.addWidget(self.k_high, 1, 3)
        grid.addWidget(QLabel("characters"), 1, 4)
        grid.setColumnStretch(5, 1)
        self.reset_button = QPushButton("&Use a Range Around the Case's Lengths")
        self.reset_button.setToolTip(
            "From half to twice each of this case's lengths, in round hundreds"
        )
        self.reset_button.clicked.connect(self.use_case_range)
        self.range_note = wrapped()
        self.topic = QComboBox()
        for relation, label in TOPIC_CHOICES:
            self.topic.addItem(label, relation)
        self.topic.setToolTip(TOPIC_HELP)
        topic_row = QHBoxLayout()
        topic_row.addWidget(form_label("&Topic of known and questioned texts:", self.topic))
        topic_row.addWidget(self.topic)
        topic_row.addStretch(1)

        self.repeats = QSpinBox()
        self.repeats.setRange(1, 20)
        self.repeats.setValue(DEFAULT_REPEATS)
        self.repeats.setToolTip(rt.REPEATS_HELP)
        self.folds = QSpinBox()
        self.folds.setRange(2, 20)
        self.folds.setValue(DEFAULT_FOLDS)
        self.folds.setToolTip(
            "Authors are dealt into this many groups; each group is scored by what was learned "
            "on the others (at most one fold per two authors)"
        )
        self.max_trials = QSpinBox()
        self.max_trials.setRange(2 * MIN_TRIALS_PER_CLASS, 1_000_000)
        self.max_trials.setGroupSeparatorShown(True)
        self.max_trials.setValue(DEFAULT_MAX_TRIALS)
        self.max_trials.setToolTip(
            "At most this many trials over all repeats (half same-author, half different-author)"
        )
        self.repeats_note = wrapped("")
        self.repeats.valueChanged.connect(self._repeats_changed)
        self.max_trials.valueChanged.connect(self._repeats_changed)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_147_483_647)
        self.seed.setToolTip("The first repeat's seed; the others take the next ones")
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        form.addRow(form_label("&Repeats:", self.repeats), self.repeats)
        form.addRow(form_label("F&olds (by author):", self.folds), self.folds)
        form.addRow(form_label("&Maximum trials:", self.max_trials), self.max_trials)
        form.addRow(form_label("&Seed:", self.seed), self.seed)

        layout = self.scrolled()
        layout.addWidget(self.case_text)
        layout.addWidget(wrapped(rt.RANGE_HELP))
        layout.addLayout(grid)
        reset_row = QHBoxLayout()
        reset_row.addWidget(self.reset_button)
        reset_row.addStretch(1)
        layout.addLayout(reset_row)
        layout.addWidget(self.range_note)
        layout.addLayout(topic_row)
        layout.addWidget(wrapped(TOPIC_HELP))
        layout.addWidget(wrapped(rt.REPEATS_HELP))
        layout.addLayout(form)
        layout.addWidget(self.repeats_note)
        layout.addStretch(1)
        self.case_lengths: tuple[int, int] | None = None

    def initializePage(self) -> None:
        store, case = self.owner.session.store, self.owner.case
        questioned = store.documents.in_use(case.id, QUESTIONED) if store else []
        known = store.documents.in_use(case.id, KNOWN) if store else []
        if questioned and known:
            self.case_lengths = (
                max(d.char_count for d in questioned),
                sum(d.char_count for d in known),
            )
        self.case_text.setText(vt.case_conditions_text(case.number, questioned, known))
        if self.case_lengths and self.owner.ranges is None:
            self.use_case_range()
        self._range_changed()
        self._repeats_changed()

    def repeats_used(self) -> int:
        """The repeats the chosen population will be validated with (the record states them)."""
        population = self.owner.population
        if population is None:
            return self.repeats.value()
        return repeats_used(self.repeats.value(), self.max_trials.value(), population.author_count)

    def _repeats_changed(self, *_args) -> None:
        population = self.owner.population
        authors = population.author_count if population is not None else None
        self.repeats_note.setText(
            rt.repeats_note(self.repeats.value(), self.repeats_used(), authors)
        )

    def use_case_range(self) -> None:
        if self.case_lengths:
            self.set_ranges(
                (
                    rt.suggested_range(self.case_lengths[0]),
                    rt.suggested_range(self.case_lengths[1]),
                )
            )

    def set_ranges(self, ranges: Ranges) -> None:
        (q_low, q_high), (k_low, k_high) = ranges
        for spin, value in (
            (self.q_low, q_low),
            (self.q_high, q_high),
            (self.k_low, k_low),
            (self.k_high, k_high),
        ):
            spin.setValue(value)

    def ranges(self) -> Ranges:
        return (self.q_low.value(), self.q_high.value()), (self.k_low.value(), self.k_high.value())

    def problem(self) -> str:
        """Why the range cannot be used ("" when it can)."""
        return rt.range_problem(self.case_lengths, self.ranges())

    def _range_changed(self, *_args) -> None:
        problem = self.problem()
        self.range_note.setStyleSheet(ERROR_STYLE if problem else "")
        self.range_note.setText(vt.range_note(self.case_lengths, self.ranges(), problem))
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        return not self.problem()

    def validatePage(self) -> bool:
        if self.problem():
            return False
        self.owner.ranges = self.ranges()
        self.owner.lengths = self.case_lengths
        return True
