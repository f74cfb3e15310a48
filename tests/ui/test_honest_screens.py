"""Issue 23's smaller items on the desktop, each with its test: the status bar's passing
message never overlaps the project's name; the model picker shows every model's validation
figures; the model manager keeps names readable on a laptop screen; Evaluate shows Cllr."""

from __future__ import annotations

from PySide6.QtCore import QRect


def test_the_status_message_is_shortened_never_painted_under_the_project(demo_window, qtbot):
    window = demo_window
    window.resize(866, 600)  # the window's minimum width (1366 × 768 at 150 %)
    qtbot.wait(50)
    line = window.status_line
    long = "Verification of DEMO-002 started with the model " + "Bundled model " * 8
    line.show_message(long, 10_000)
    qtbot.wait(50)
    message, project = line.message_label, line.project_label
    assert message.text() == long  # the whole text on hover and for tests
    from PySide6.QtWidgets import QLabel

    shown = QLabel.text(message)  # what is painted
    assert shown.endswith("…") and long in message.toolTip()
    left = QRect(message.mapTo(window, message.rect().topLeft()), message.size())
    right = QRect(project.mapTo(window, project.rect().topLeft()), project.size())
    assert message.isVisible() and project.isVisible()
    assert left.right() < right.left(), (left, right)
    assert window.statusBar().currentMessage() == ""  # nothing painted under the widgets
    assert message.width() < message.fontMetrics().horizontalAdvance(long)


def test_a_long_case_model_name_is_shortened_before_the_project_and_the_message(demo_window, qtbot):
    """A validated model's name runs to a hundred characters; it once squeezed the status
    bar's message and project to "Verificatio…" and "Project: examiner.…"."""
    from pathlib import Path

    from PySide6.QtWidgets import QLabel

    window = demo_window
    window.resize(866, 600)  # the window's minimum width (1366 × 768 at 150 %)
    line = window.status_line
    model = (
        "Validated for case DEMO-001 on Public-domain demo population (far too small for "
        "casework) (12,146/61,751 chars, seed 0)"
    )
    line.show_project(Path("/tmp/examiner.taveer"), True, model)
    line.show_message("Verification of 2026-023-I stored")
    qtbot.wait(50)
    assert QLabel.text(line.project_label) == "Project: examiner.taveer"  # whole
    assert QLabel.text(line.message_label) == "Verification of 2026-023-I stored"
    shown = QLabel.text(line.model_label)
    assert shown.endswith("…") and model in line.model_label.toolTip()
    assert shown.startswith("Case model: Validated for case DEMO-001")


def test_help_describes_todays_workflow_and_every_rule_of_the_gate(qtbot):
    from taveer_desktop.core.calibration.outcome import GateRule
    from taveer_desktop.presentation.method_help import GATE_RULES
    from taveer_desktop.ui.method_dialog import MethodDialog

    dialog = MethodDialog()
    qtbot.addWidget(dialog)
    text = dialog.text.toPlainText()
    described = {rule for rule, _, _ in GATE_RULES}
    # every rule the gate has today, and those the validation work brings
    rules = {r.value for r in GateRule} - {"not_assessed"}
    assert rules <= described
    assert {"no_validation", "validation_too_small", "population_fit"} <= described
    for rule in described:
        assert rule in text
    for words in (
        "Hp",
        "Hd",
        "relevant population",
        "likelihood ratio",
        "verbal scale",
        "ELUB",
        "LambdaG",
        "The fusion",
        "weight 0.000",
        "Case ▸ Validate",
        "range",
        "pessimistic end",
        "fewer than 20 authors",
        "false-flag rate of 5 %",
        "taveer case use-validation",
        "For investigation only".lower(),
    ):
        assert words in text, words
    assert "same author, below different authors" not in text  # the old decision-only text


def test_the_model_picker_shows_the_figures_of_a_model_validated_on_a_population(
    demo_window, qtbot
):
    """A model made by a validation on a relevant population carries no held-out figures in
    its file: the picker reads the project's stored record (it said "not measured")."""
    from taveer_desktop.presentation import numbers
    from taveer_desktop.ui import model_choice_table_model as mct

    store = demo_window.session.store
    (validation, *_) = store.validations.list_all()
    record = store.validations.record(validation.id)
    model_name = store.models.get(validation.model_id).name
    dialog = demo_window.cases.choose_model()
    qtbot.addWidget(dialog)
    row = dialog.model.find_row(lambda c: c.name == model_name)
    choice = dialog.model.record(row)
    cllr = dialog.model.data(dialog.model.index(row, mct.CLLR))
    assert cllr != mct.NOT_MEASURED
    assert numbers.decimal(record["figures"]["cllr"], 2) in cllr and "validation on" in cllr
    assert dialog.model.data(dialog.model.index(row, mct.MISLEADING)) != mct.NOT_MEASURED
    assert choice.held_out[0].trials > 0
    dialog.close()


def test_a_long_choice_ends_in_an_ellipsis_never_cut_mid_word(qtbot):
    """The report's run and Evaluate's model were cut off at the box's edge without a mark
    ("… Public-domain demo populatic")."""
    from taveer_desktop.ui.elided_combo import ElidedComboBox

    box = ElidedComboBox()
    qtbot.addWidget(box)
    box.hint = "The stored run the report is written on"
    name = (
        "Run 3 · 2026-12-05 11:27:26 UTC · Validated for case DEMO-001 on Public-domain demo "
        "population (far too small for casework) (12,146/61,751 chars, seed 0)"
    )
    box.addItem(name)
    box.resize(box.fontMetrics().horizontalAdvance("m") * 24, box.sizeHint().height())
    box.show()
    qtbot.waitExposed(box)
    shown = box.shown_text()
    assert shown.endswith("…") and name.startswith(shown[:-1])
    assert name in box.toolTip() and box.hint in box.toolTip()
    assert box.sizeHint().width() < box.fontMetrics().horizontalAdvance(name)  # never widens
    box.resize(box.fontMetrics().horizontalAdvance(name) + 80, box.height())
    qtbot.wait(20)
    assert box.shown_text() == name


def test_the_report_and_evaluate_boxes_shorten_their_long_names(demo_window, qtbot):
    from taveer_desktop.ui.elided_combo import ElidedComboBox

    evaluate = demo_window.models.open_evaluate_dialog()
    assert isinstance(evaluate.model_combo, ElidedComboBox)
    evaluate.reject()


def test_an_unticked_signature_group_is_its_title_alone(qtbot):
    """The report dialog's "Sign with a certificate" drew an empty frame under its title until
    ticked (setFlat does not remove it in Fusion)."""
    from PySide6.QtWidgets import QLineEdit

    from taveer_desktop.ui.collapsing_group import CollapsingGroupBox

    fields = QLineEdit()
    group = CollapsingGroupBox("&Sign with a certificate (PAdES)", fields)
    qtbot.addWidget(group)
    group.show()
    qtbot.waitExposed(group)
    closed = group.sizeHint().height()
    assert not fields.isVisible() and group.layout().contentsMargins().top() == 0
    assert closed <= group.fontMetrics().height() * 2
    group.setChecked(True)
    assert fields.isVisible() and not group.isFlat()
    assert group.sizeHint().height() > closed + fields.sizeHint().height() // 2
    group.setChecked(False)
    assert not fields.isVisible() and group.sizeHint().height() == closed
