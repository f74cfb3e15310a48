"""Pages 3 and 4 of the validation wizard.

3. **Method** — every registered method (``core/ground/registry.py``) in one grid: its name
   (the stated method is chosen with its radio button), a Compare box (validated beside the
   stated one on the same trials), its family, whether it is deterministic or seeded, and its
   measured cost per trial (``presentation/method_costs.py``); the reference on hover and, for
   the stated method, in the details beneath with what it does. An optional rule registered
   before the run — state the method with the lowest pessimistic Cllr —, a Fused box per method
   (the methods the fusion combines, ``ValidationSettings.fuse``: TAVeer and LambdaG unless
   the examiner chooses others; counted only while the fusion is stated or compared, at least
   two), and LambdaG's highest
   order and reference samples under "advanced" (``ValidationSettings.lambdag_order`` /
   ``lambdag_samples``, defaults 10 and 30). ``choice()`` returns what the run page passes to
   ``ValidationSettings`` (``method``, ``compare``, ``choose_by``, ``fuse``).
4. **Acceptance criteria** — the largest Cllr and the largest rate of misleading evidence that
   will be accepted, judged on the pessimistic end of each figure's interval; fixed and
   time-stamped when the examiner leaves the page: before the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
)

from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.trials.validation_settings import LOWEST_PESSIMISTIC_CLLR
from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.presentation import method_choice_text as ct
from taveer_desktop.presentation import validation_wizard_text as vt
from taveer_desktop.presentation.face_registry import face, fuses
from taveer_desktop.presentation.method_costs import cost_text
from taveer_desktop.presentation.method_names import stated_name
from taveer_desktop.ui.validation_wizard_step import WizardStep, form_label, wrapped

if TYPE_CHECKING:
    from taveer_desktop.ui.validation_wizard import ValidationWizard

DEFAULTS = ValidationSettings()  # LambdaG's default order and samples
DEFAULT_MAX_CLLR = 0.5
DEFAULT_MAX_MISLEADING = 0.10
GRID_HEADINGS = ("Stated method", "Compare", "Fused", "Family", "Randomness", "Cost per trial")
FAMILY_COLUMN = GRID_HEADINGS.index("Family")


@dataclass(frozen=True)
class MethodChoiceState:
    """What the method page asks of the validation (``ValidationSettings``' names)."""

    method: str
    compare: tuple[str, ...]
    choose_by: str | None
    fuse: tuple[str, ...] = DEFAULTS.fuse  # the methods the fusion combines


class MethodPage(WizardStep):
    """Every registered method: the stated one, those compared beside it, the rule that may
    choose among them, and LambdaG's options under "advanced"."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(
            wizard,
            "3 · The method",
            "Which method's likelihood ratio the model will state, and which others to validate "
            "beside it on the same trials. Hover over a method for its reference.",
        )
        self.buttons: dict[str, QRadioButton] = {}
        self.compare_boxes: dict[str, QCheckBox] = {}
        self.fuse_boxes: dict[str, QCheckBox] = {}
        self.cost_labels: dict[str, QLabel] = {}  # the Cost column (the fusion's follows its ticks)
        group = QButtonGroup(self)
        layout = self.scrolled()  # at a large scale the page scrolls (down, not sideways)
        self.content_layout = layout
        grid = QGridLayout()
        grid.setHorizontalSpacing(self.fontMetrics().horizontalAdvance("m"))
        grid.setVerticalSpacing(self.fontMetrics().height() // 6)
        self.family_labels: list[QLabel] = []  # the Family column, shown where it fits
        for column, heading in enumerate(GRID_HEADINGS):
            label = QLabel(f"<b>{heading}</b>")
            grid.addWidget(label, 0, column)
            if column == FAMILY_COLUMN:
                self.family_labels.append(label)
        for row, choice in enumerate(ct.method_choices(), start=1):
            tip = f"{choice.name} — {choice.family}. Reference: {choice.reference}"
            button = QRadioButton(choice.name)
            button.setToolTip(tip)
            group.addButton(button)
            self.buttons[choice.method] = button
            box = QCheckBox()
            box.setAccessibleName(f"Compare {choice.name}")
            box.setToolTip(f"Validate {choice.name} beside the stated method on the same trials")
            self.compare_boxes[choice.method] = box
            family = QLabel(choice.family)
            family.setToolTip(tip)
            self.family_labels.append(family)
            randomness = QLabel(choice.randomness)
            randomness.setToolTip(ct.RANDOMNESS_MEANING[choice.randomness])
            cost = QLabel(choice.cost_cell)
            cost.setToolTip(f"{choice.cost}. {ct.COST_NOTE}")
            self.cost_labels[choice.method] = cost
            fused = QCheckBox()
            if fuses(choice.method):  # the fusion cannot fuse itself
                fused.setVisible(False)
            else:
                fused.setAccessibleName(f"Fuse {choice.name}")
                fused.setToolTip(ct.FUSE_TIP.format(name=choice.name))
                fused.setChecked(choice.method in DEFAULTS.fuse)
                self.fuse_boxes[choice.method] = fused
            for column, widget in enumerate((button, box, fused, family, randomness, cost)):
                grid.addWidget(widget, row, column)
            grid.setAlignment(box, Qt.AlignmentFlag.AlignHCenter)
            grid.setAlignment(fused, Qt.AlignmentFlag.AlignHCenter)
            button.toggled.connect(self._method_changed)
            box.toggled.connect(self._method_changed)
            fused.toggled.connect(self._method_changed)
        grid.setColumnStretch(FAMILY_COLUMN, 1)
        self.method_grid = grid
        layout.addLayout(grid)
        self.rule_check = QCheckBox(ct.CHOOSE_BY_TEXT)
        self.rule_check.setToolTip(ct.CHOOSE_BY_TIP)
        self.rule_check.toggled.connect(self._method_changed)
        layout.addWidget(self.rule_check)
        layout.addWidget(wrapped(ct.COMPARE_NOTE))
        self.fuse_note = wrapped()
        layout.addWidget(self.fuse_note)
        self.details = wrapped()
        self.details.setFrameShape(QLabel.Shape.StyledPanel)
        self.details.setMargin(self.fontMetrics().height() // 3)
        layout.addWidget(self.details)

        self.advanced_check = QCheckBox("Show the &advanced options (LambdaG)")
        self.advanced_check.setToolTip("LambdaG's highest order and reference samples")
        self.advanced = QGroupBox("Advanced: LambdaG's options")
        self.order = QSpinBox()
        self.order.setRange(1, 16)
        self.order.setValue(DEFAULTS.lambdag_order)
        self.order.setToolTip(
            f"Each fold chooses LambdaG's n-gram order up to this one (default "
            f"{DEFAULTS.lambdag_order}, as published)"
        )
        self.samples = QSpinBox()
        self.samples.setRange(1, 1000)
        self.samples.setValue(DEFAULTS.lambdag_samples)
        self.samples.setToolTip(
            f"Samples of the population each comparison is made against (default "
            f"{DEFAULTS.lambdag_samples})"
        )
        self.defaults_button = QPushButton("Use the &Defaults")
        self.defaults_button.setToolTip(
            f"Highest order {DEFAULTS.lambdag_order}, {DEFAULTS.lambdag_samples} reference samples"
        )
        self.defaults_button.clicked.connect(self.use_defaults)
        box_layout = QVBoxLayout(self.advanced)
        box_layout.addWidget(wrapped(ct.ADVANCED_NOTE))
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        box_layout.addLayout(form)
        form.addRow(form_label("Highest o&rder:", self.order), self.order)
        form.addRow(form_label("Reference sam&ples:", self.samples), self.samples)
        defaults_row = QHBoxLayout()
        defaults_row.addWidget(self.defaults_button)
        defaults_row.addStretch(1)
        form.addRow("", defaults_row)
        self.advanced_note = wrapped()
        self.advanced_check.toggled.connect(self._method_changed)
        layout.addSpacing(self.fontMetrics().height() // 2)
        layout.addWidget(self.advanced_check)
        layout.addWidget(self.advanced)
        layout.addWidget(self.advanced_note)
        layout.addStretch(1)
        self.advanced_check.toggled.connect(self._show_advanced)
        self.buttons[MethodId.TAVEER].setChecked(True)

    def method(self) -> str:
        """The stated method (the one the model states unless the rule chooses another)."""
        return next(m for m, button in self.buttons.items() if button.isChecked())

    def compared(self) -> tuple[str, ...]:
        """The methods validated beside the stated one, in the registry's order."""
        stated = self.method()
        return tuple(m for m, box in self.compare_boxes.items() if box.isChecked() and m != stated)

    def fused(self) -> tuple[str, ...]:
        """The methods the fusion combines, in the registry's order."""
        return tuple(m for m, box in self.fuse_boxes.items() if box.isChecked())

    def fusing(self) -> bool:
        """Whether the fusion is stated or compared (its Fused boxes then count)."""
        return any(fuses(m) for m in (self.method(), *self.compared()))

    def choice(self) -> MethodChoiceState:
        """The stated method, the compared ones, the rule (None: no rule registered) and the
        methods the fusion combines."""
        compare = self.compared()
        rule = LOWEST_PESSIMISTIC_CLLR if compare and self.rule_check.isChecked() else None
        fuse = self.fused() if self.fusing() else DEFAULTS.fuse
        return MethodChoiceState(self.method(), compare, rule, fuse)

    def isComplete(self) -> bool:
        """Not while the fusion is asked for with fewer than two methods to combine."""
        return not self.fusing() or len(self.fused()) >= 2

    def _show_advanced(self, shown: bool) -> None:
        if shown:  # once laid out, scroll the options into view (a large scale hides them)
            QTimer.singleShot(0, lambda: self.scroll_area.ensureWidgetVisible(self.advanced))

    def use_defaults(self) -> None:
        self.order.setValue(DEFAULTS.lambdag_order)
        self.samples.setValue(DEFAULTS.lambdag_samples)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_family_column()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.fit_family_column()

    def fit_family_column(self) -> None:
        """The Family column where the grid fits with it (1366 pixels wide at 100 %), hidden
        where it does not: at 150 % it wrapped word by word and pushed the cost off the page.
        A method's family stays in its tooltip and in the description below the grid."""
        grid = self.method_grid
        widths = []
        for column in range(grid.columnCount()):
            cells = (grid.itemAtPosition(row, column) for row in range(grid.rowCount()))
            widgets = [c.widget() for c in cells if c is not None]
            widths.append(max((w.sizeHint().width() for w in widgets if w), default=0))
        margins = self.content_layout.contentsMargins()
        needed = (
            sum(widths)
            + grid.horizontalSpacing() * (len(widths) - 1)
            + margins.left()
            + margins.right()
        )
        # the page scrolls down at the scales where this matters: count its scroll bar as there
        room = self.scroll_area.width() - self.scroll_area.verticalScrollBar().sizeHint().width()
        shown = needed <= room
        for label in self.family_labels:
            label.setVisible(shown)

    def _method_changed(self, *_args) -> None:
        stated = self.method()
        for method, box in self.compare_boxes.items():  # the stated method is validated anyway
            box.setEnabled(method != stated)
        self.rule_check.setEnabled(bool(self.compared()))
        self.details.setText(ct.method_explanation(stated, self.fused()))
        fusing = self.fusing()
        for box in self.fuse_boxes.values():
            box.setEnabled(fusing)
        self.fuse_note.setText(ct.fuse_note(fusing, self.fused()))
        fused = self.fused()  # the fusion's row is named by the methods it combines
        name = stated_name(MethodId.FUSION, fused) if len(fused) >= 2 else ct.UNFUSED_NAME
        self.buttons[MethodId.FUSION].setText(name)
        fused_cost = ct.cost_cell(MethodId.FUSION, fused)  # the fusion costs what its parts do
        self.cost_labels[MethodId.FUSION].setText(fused_cost)
        self.cost_labels[MethodId.FUSION].setToolTip(
            f"{cost_text(MethodId.FUSION, fused)}. {ct.COST_NOTE}"
        )
        validated = (stated, *self.compared(), *(self.fused() if fusing else ()))
        uses_lambdag = any(face(m).plan_settings for m in validated)  # its settings apply
        self.completeChanged.emit()
        self.advanced.setVisible(self.advanced_check.isChecked())
        self.advanced.setEnabled(uses_lambdag)
        self.advanced_note.setText(
            "" if uses_lambdag or not self.advanced_check.isChecked() else ct.NO_LAMBDAG_OPTIONS
        )


class CriteriaPage(WizardStep):
    """The acceptance criteria, fixed (and time-stamped) when the examiner goes on."""

    def __init__(self, wizard: ValidationWizard) -> None:
        super().__init__(
            wizard,
            "4 · Acceptance criteria, set before the run",
            "Decide now what result you will accept. The criteria are fixed and time-stamped "
            "when you go on, recorded with the result, and the record says whether they were met.",
        )
        self.cllr_check = QCheckBox("C&llr at most")
        self.cllr_check.setChecked(True)
        self.cllr_check.setToolTip(
            "Log-likelihood-ratio cost of the cross-validated likelihood ratios: 0 is perfect, "
            "1 is no better than giving no evidence, above 1 worse"
        )
        self.max_cllr = QDoubleSpinBox()
        self.max_cllr.setRange(0.0, 5.0)
        self.max_cllr.setDecimals(2)
        self.max_cllr.setSingleStep(0.05)
        self.max_cllr.setValue(DEFAULT_MAX_CLLR)
        self.misleading_check = QCheckBox("&Misleading evidence at most")
        self.misleading_check.setChecked(True)
        self.misleading_check.setToolTip(
            "Both rates: same-author trials whose likelihood ratio favours Hd, and "
            "different-author trials whose likelihood ratio favours Hp"
        )
        self.max_misleading = QDoubleSpinBox()
        self.max_misleading.setRange(0.0, 100.0)
        self.max_misleading.setDecimals(1)
        self.max_misleading.setSingleStep(1.0)
        self.max_misleading.setSuffix(" % of trials, both ways")
        self.max_misleading.setValue(DEFAULT_MAX_MISLEADING * 100)
        self.cllr_check.toggled.connect(self.max_cllr.setEnabled)
        self.misleading_check.toggled.connect(self.max_misleading.setEnabled)
        grid = QGridLayout()
        grid.addWidget(self.cllr_check, 0, 0)
        grid.addWidget(self.max_cllr, 0, 1)
        grid.addWidget(self.misleading_check, 1, 0)
        grid.addWidget(self.max_misleading, 1, 1)
        grid.setColumnStretch(2, 1)
        self.note = wrapped(f"{vt.CRITERIA_NOTE} {vt.CRITERIA_PESSIMISTIC}")
        layout = self.scrolled()
        layout.addLayout(grid)
        layout.addWidget(self.note)
        layout.addStretch(1)

    def criteria(self) -> AcceptanceCriteria:
        """The criteria as they stand, time-stamped now."""
        return AcceptanceCriteria.now(
            self.max_cllr.value() if self.cllr_check.isChecked() else None,
            self.max_misleading.value() / 100 if self.misleading_check.isChecked() else None,
        )

    def validatePage(self) -> bool:
        self.owner.criteria = self.criteria()
        return True
