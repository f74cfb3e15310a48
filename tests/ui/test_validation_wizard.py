"""The validation wizard and the model view of validation, on real windows and project files.

The population is the public-domain one of the validation tests (Brontë chapters and Federalist
papers, one folder per author; skipped with a reason when the shared demo texts are absent); the
case takes two Madison papers as known and a third as questioned.
"""

from __future__ import annotations

import dataclasses
import re
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget, QWizard

from taveer_desktop.core.ground.errors import Cancelled
from taveer_desktop.core.ground.progress import Progress
from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_validation import case_lengths, validate_case
from taveer_desktop.ui import validation_wizard as vw
from taveer_desktop.ui.task_worker import Job
from tests.core.validation_fixtures import make_demo_population
from tests.ui.conftest import open_window

DESCRIPTION = "who: Brontës and Federalist authors; genre: prose; period: 1787-1848"


@pytest.fixture(scope="module")
def population_folder(tmp_path_factory):
    return make_demo_population(tmp_path_factory.mktemp("ui-population"))


def _project(path, folder, with_population: bool):
    madison = sorted((folder / "Madison").glob("*.txt"))
    with ProjectStore.create(path) as store:
        case = store.cases.create("C-1", title="Madison?")
        store.documents.add(case.id, KNOWN, madison[:2])
        store.documents.add(case.id, QUESTIONED, [madison[2]])
        if with_population:
            store.populations.add_folder("demo", folder, DESCRIPTION)
    return path


@pytest.fixture
def case_window(qtbot, tmp_path, population_folder):
    """A window on a project with case C-1 (documents in use) and no population yet."""
    window = open_window(qtbot, _project(tmp_path / "p.taveer", population_folder, False))
    assert window.case_list.select_case_number("C-1")
    return window


@pytest.fixture
def population_window(qtbot, tmp_path, population_folder):
    """The same, with the population 'demo' already stored."""
    window = open_window(qtbot, _project(tmp_path / "p.taveer", population_folder, True))
    assert window.case_list.select_case_number("C-1")
    return window


def _open_wizard(qtbot, window) -> vw.ValidationWizard:
    window.window_actions.validate.trigger()
    wizard = window.cases.wizard
    assert wizard is not None
    qtbot.waitExposed(wizard)
    return wizard


def _fill_import(page: vw.PopulationPage, folder, name: str = "demo") -> None:
    page.use_import.setChecked(True)
    page.set_folder(folder)
    page.name_edit.setText(name)
    page.who_edit.setText("the three Brontë sisters and three Federalist authors")
    page.genre_edit.setText("novels and political essays")
    page.period_edit.setText("1787–1848")
    page.selection_edit.setText("public-domain texts at hand; a demonstration only")


def _mnemonic(text: str) -> str | None:
    match = re.search(r"&([^&])", text.replace("&&", ""))
    return match.group(1).lower() if match else None


def _mnemonics_visible(widget: QWidget) -> dict[str, list[str]]:
    seen: dict[str, list[str]] = {}
    for button in widget.findChildren(QAbstractButton):
        if button.isVisible():
            seen.setdefault(_mnemonic(button.text()), []).append(button.text())
    for label in widget.findChildren(QLabel):
        if label.isVisible() and label.buddy() is not None:
            seen.setdefault(_mnemonic(label.text()), []).append(label.text())
    seen.pop(None, None)
    return {key: texts for key, texts in seen.items() if len(texts) > 1}


@pytest.mark.slow  # 2.5-5.5 s in a quiet quick-loop run (CONTRIBUTING's rule)
def test_the_wizard_walks_every_page_and_stores_a_linked_record(
    qtbot, case_window, population_folder
):
    window = case_window
    store = window.session.store
    case = store.cases.find("C-1")
    models_before = len(store.models.list_all())
    wizard = _open_wizard(qtbot, window)
    assert wizard.currentId() == vw.POPULATION
    page = wizard.population_page
    assert page.use_import.isChecked() and not page.use_stored.isEnabled()  # none stored yet
    assert not page.isComplete()
    _fill_import(page, population_folder)
    assert page.import_button.isEnabled()
    page.import_button.click()
    qtbot.waitUntil(lambda: page.worker is None, timeout=60_000)
    (stored,) = store.populations.list_all()
    assert stored.name == "demo" and stored.author_count == 6
    assert "who: the three Brontë sisters" in stored.description
    assert "how selected: public-domain" in stored.description
    assert page.use_stored.isChecked() and page.selected().name == "demo"
    assert "Stored the population “demo”" in page.message.text()
    assert _mnemonics_visible(wizard) == {}
    wizard.next()

    assert wizard.currentId() == vw.CONDITIONS
    conditions = wizard.conditions_page
    (q_low, q_high), (k_low, k_high) = conditions.ranges()
    q_case, k_case = case_lengths(store, case.id)
    assert q_low <= q_case <= q_high and k_low <= k_case <= k_high  # pre-filled around it
    assert "lies inside it" in conditions.range_note.text()
    assert "holds only for cases inside this range" in conditions.range_note.text()
    assert conditions.repeats.value() == 3
    conditions.folds.setValue(3)
    assert _mnemonics_visible(wizard) == {}
    wizard.next()

    assert wizard.currentId() == vw.METHOD
    assert wizard.method_page.method() == "taveer"  # the default
    assert _mnemonics_visible(wizard) == {}
    wizard.next()

    assert wizard.currentId() == vw.CRITERIA
    criteria = wizard.criteria_page
    criteria.max_cllr.setValue(3.0)
    criteria.misleading_check.setChecked(False)
    assert _mnemonics_visible(wizard) == {}
    wizard.next()
    assert wizard.criteria.max_cllr == 3.0 and wizard.criteria.max_misleading is None
    set_utc = wizard.criteria.set_utc
    assert set_utc

    assert wizard.currentId() == vw.RUN
    run = wizard.run_page
    assert "“demo”" in run.plan.text() and "Cllr at most 3" in run.plan.text()
    assert run.name_edit.text().startswith("Validated for case C-1 on demo")
    assert run.run_button.isEnabled() and not run.name_problem()
    assert _mnemonics_visible(wizard) == {}
    assert not store.validations.list_all()  # nothing before the run
    with qtbot.waitSignal(window.cases.validation_stored, timeout=120_000):
        run.run_button.click()
    qtbot.waitUntil(lambda: wizard.currentId() == vw.RECORD, timeout=10_000)

    (validation,) = store.validations.for_case(case.id)
    record = store.validations.record(validation.id)
    assert record["acceptance"]["criteria"]["set_utc"] == set_utc  # fixed before the run
    assert record["acceptance"]["criteria"]["set_utc"] <= record["created_utc"]
    assert record["acceptance"]["met"] is True and validation.criteria_met is True
    assert record["protocol"]["folds"] == 3
    assert record["protocol"]["method"] == "taveer" and set(record["methods"]) == {"taveer"}
    # the declared range, as the record states it
    assert record["conditions"] == {
        "questioned_chars": [q_low, q_high],
        "known_chars": [k_low, k_high],
    }
    assert record["repeats"]["count"] == 3
    assert len(store.models.list_all()) == models_before + 1
    assert store.cases.get(case.id).model_id == validation.model_id  # linked and chosen
    actions = [e.action for e in store.audit.entries()]
    assert "population_added" in actions and "validation_stored" in actions

    view = wizard.record_page.view
    assert view.headline.text().startswith("Acceptance criteria met")
    assert view.method_line.text() == "Method: TAVeer."
    assert not view.tabs.isTabVisible(view.tabs.indexOf(view.methods))  # one method
    assert view.figures.rowCount() == 9
    assert view.casework_line.text().startswith("Too small for casework")  # six authors
    assert "no evaluative conclusion can rest on it" in view.casework_line.text()
    attempts = wizard.record_page.attempts
    assert [a.validation_id for a in attempts.attempts] == [validation.id]
    assert attempts.attempts[0].chosen and attempts.table.rowCount() == 1
    fit = wizard.record_page.fit
    # the case's documents judged against the record's population profile, as a run would
    assert fit.check is not None and [p.label for p in fit.check.parts] == [
        "the questioned text",
        "the known texts",
    ]
    # a case that passes is never said to be of the population's kind: no sign of a
    # difference, and what the check was measured to catch
    assert fit.headline.text().startswith(
        "The check found no sign that the case's texts differ from those of the population"
    )
    assert "screen, not proof" in fit.consequence.text()
    assert view.figures.item(0, 2).text() != "not measured"  # Cllr with its interval
    assert view.charts.curves is not None and not view.charts.plots[0].isVisible()  # other tab
    view.tabs.setCurrentWidget(view.charts)
    assert all(chart.isVisible() for chart in view.charts.plots)
    assert len(view.charts.tippett_plot.listDataItems()) == 2  # same- and different-author
    assert view.charts.curves.trials.n_same == record["protocol"]["trials_same"]
    assert wizard.button(QWizard.WizardButton.FinishButton).isVisible()
    assert _mnemonics_visible(wizard) == {}

    # the case view names the validation of the case's model
    line = window.verification_tab.validation_label.text()
    assert line.startswith("Validated: cross-validated Cllr") and "criteria met" in line
    assert "population “demo”" in line
    wizard.button(QWizard.WizardButton.FinishButton).click()
    assert not wizard.isVisible()


def test_cancel_stores_nothing(qtbot, population_window):
    window = population_window
    store = window.session.store
    models, audit = len(store.models.list_all()), len(store.audit.entries())
    wizard = _open_wizard(qtbot, window)
    assert wizard.population_page.isComplete()  # the stored population is chosen
    for _ in range(4):
        wizard.next()
    assert wizard.currentId() == vw.RUN
    # hold the writer pool so the validation is queued when Cancel is pressed: the cancel is
    # then certain to come before any trial, whatever the machine's speed
    release = threading.Event()
    window.runner.start(Job("holding the writer pool", lambda p: release.wait(30)))
    worker = wizard.run_page.start()
    assert worker is not None and not wizard.button(QWizard.WizardButton.BackButton).isEnabled()
    wizard.run_page.progress.cancel_button.click()
    release.set()
    qtbot.waitUntil(lambda: wizard.run_page.worker is None, timeout=60_000)
    assert wizard.run_page.status.text() == "The validation was cancelled; nothing was stored."
    assert wizard.currentId() == vw.RUN and wizard.run_page.run_button.isEnabled()
    assert store.validations.list_all() == []
    assert len(store.models.list_all()) == models
    assert len(store.audit.entries()) == audit
    assert store.cases.find("C-1").model_id is None


def test_cancel_after_the_validation_but_before_storing_stores_nothing(population_window):
    store = population_window.session.store
    case = store.cases.find("C-1")

    def report(done, total, message):  # cancel at the bootstrap's last report: the last step
        if message.startswith("bootstrap") and done >= total - 20:
            progress.cancel()

    progress = Progress(report)

    with pytest.raises(Cancelled):
        validate_case(store, case.id, "demo", ValidationSettings(folds=3), None, progress)
    assert store.validations.list_all() == [] and store.cases.get(case.id).model_id is None


def test_bad_folders_give_one_plain_message_and_store_nothing(
    qtbot, case_window, population_folder, tmp_path
):
    window = case_window
    store = window.session.store
    wizard = _open_wizard(qtbot, window)
    page = wizard.population_page
    few = tmp_path / "few"
    for author in ("a", "b"):
        (few / author).mkdir(parents=True)
        for n in (1, 2):
            text = f"One sentence by {author} here. Another one, number {n}, there.\n"
            (few / author / f"{n}.txt").write_text(text)  # distinct texts: one author each
    flat = tmp_path / "flat"
    flat.mkdir()
    (flat / "letter.txt").write_text("A letter.\n")
    cases = {
        tmp_path / "missing": "is not a folder",
        flat: "holds no author sub-folders",
        few: "validation needs at least 4",
    }
    for folder, words in cases.items():
        _fill_import(page, folder, name="bad")
        page.import_button.click()
        qtbot.waitUntil(lambda: page.worker is None, timeout=30_000)
        text = page.message.text()
        assert text.startswith("The population was not imported: ") and words in text, text
        assert "\n" not in text and "Traceback" not in text
        assert str(folder) in text  # the message names the folder
        assert not page.isComplete()
    assert store.populations.list_all() == []
    # a second population of the same name is refused the same way
    _fill_import(page, population_folder)
    page.import_button.click()
    qtbot.waitUntil(lambda: page.worker is None, timeout=60_000)
    _fill_import(page, population_folder)
    page.import_button.click()
    qtbot.waitUntil(lambda: page.worker is None, timeout=30_000)
    assert "already holds a population named 'demo'" in page.message.text()
    assert len(store.populations.list_all()) == 1
    # the import button says what is missing
    page.name_edit.clear()
    assert not page.import_button.isEnabled()
    assert "give the population a name" in page.import_button.toolTip()


def test_the_wizard_closes_with_close_and_with_escape(qtbot, population_window):
    window = population_window
    wizard = _open_wizard(qtbot, window)
    close = wizard.button(QWizard.WizardButton.CancelButton)
    assert close.text() == "Close"
    close.click()
    qtbot.waitUntil(lambda: not wizard.isVisible())
    wizard = _open_wizard(qtbot, window)
    wizard.next()
    qtbot.keyClick(wizard, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not wizard.isVisible())
    assert window.cases.wizard is None


def test_the_action_needs_a_case_with_documents(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path / "empty.taveer")
    assert not window.window_actions.validate.isEnabled()
    store = window.session.store
    store.cases.create("C-2")
    window.session.changed("cases")
    assert window.case_list.select_case_number("C-2")
    assert not window.window_actions.validate.isEnabled()
    assert "known and questioned documents" in window.window_actions.validate.toolTip()


def test_the_model_view_shows_the_validation_and_lists_records(qtbot, population_window, tmp_path):
    window = population_window
    store = window.session.store
    case = store.cases.find("C-1")
    settings = ValidationSettings(folds=3, criteria=AcceptanceCriteria.now(0.1, 0.05))
    done = validate_case(store, case.id, "demo", settings)
    window.session.changed("models", "cases", "validations", case_id=case.id)
    assert "criteria NOT met" in window.verification_tab.validation_label.text()

    manager = window.models.open_manager()
    qtbot.waitExposed(manager)
    assert manager.select(done.model.name)
    assert manager.validation_button.isEnabled()
    assert "Validated: cross-validated Cllr" in manager.details.text()
    assert "population “demo”" in manager.details.text()
    row = manager.model.find_row(lambda m: m.name == done.model.name)
    assert manager.model.record(row).validation["population"]["name"] == "demo"
    manager.validation_button.click()
    dialog = window.models.validations_dialog
    qtbot.waitExposed(dialog)
    assert dialog.model.rowCount() == 1
    assert dialog.selected().stored.id == done.validation.id
    view = dialog.view
    view.charts.show_record(view.record)  # drawn again: a share of 0.45 still reads 0.45
    for plot in (view.charts.tippett_plot, view.charts.score_plot):
        assert plot.getAxis("left").autoSIPrefixScale == 1.0
    assert view.headline.text().startswith("Acceptance criteria NOT met")
    assert "NOT met" in view.acceptance.text()
    assert view.charts.curves is not None
    view.tabs.setCurrentWidget(view.population_text)
    assert "demo" in view.population_text.toPlainText()

    # the selected record's PDF validation report, written by a job and audited
    assert dialog.export_button.isEnabled()
    target = tmp_path / "validation.pdf"
    assert dialog.export_report(target) is not None
    qtbot.waitUntil(lambda: dialog.export_worker is None, timeout=120_000)
    assert target.read_bytes().startswith(b"%PDF"), dialog.export_status.text()
    assert str(target) in dialog.export_status.text()
    assert "recorded in the audit log" in dialog.export_status.text()
    entry = store.audit.entries()[-1]
    assert entry.action == "validation_report_exported" and entry.case_id == case.id
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())

    # the link in the Verification tab opens the same view on the case's model
    window.verification_tab._validation_link("show")
    assert dialog.isVisible() and dialog.selected().stored.id == done.validation.id

    # a model validated elsewhere: its summary without charts
    copy = dataclasses.replace(done.result.model, name="Copied elsewhere")
    other = store.models.add_bytes(copy.to_json().encode(), "copied.json")
    window.session.changed("models")
    assert dialog.show_model(other.id)
    assert dialog.selected() is None and dialog.view.charts.curves is None
    assert "does not keep its trials" in dialog.view.charts.message.text()


# --- issue 21: the declared range, the model's name, the fit on a small screen, the attempts --


def _to_page(wizard, page_id: int) -> None:
    while wizard.currentId() != page_id:
        wizard.next()


def test_the_range_must_hold_the_case_and_run_forwards(qtbot, population_window):
    store = population_window.session.store
    q_case, k_case = case_lengths(store, store.cases.find("C-1").id)
    wizard = _open_wizard(qtbot, population_window)
    _to_page(wizard, vw.CONDITIONS)
    page = wizard.conditions_page
    assert page.isComplete() and page.range_note.styleSheet() == ""
    authors = wizard.population.author_count
    assert authors < 20  # the demo population is below casework size: the repeats as set
    assert page.repeats_note.text() == (
        f"This population ({authors} authors) is validated with 3 repeats, as set."
    )
    page.q_high.setValue(q_case - 1)  # the case's questioned text no longer inside
    assert not page.isComplete()
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    note = page.range_note.text()
    assert note.startswith("Cannot go on:") and f"{q_case:,} characters, is outside" in note
    assert "b00020" in page.range_note.styleSheet()
    wizard.next()
    assert wizard.currentId() == vw.CONDITIONS  # refused
    page.use_case_range()
    page.k_low.setValue(page.k_high.value() + 1)  # backwards
    assert "known range runs backwards" in page.range_note.text() and not page.isComplete()
    page.set_ranges(((q_case, q_case), (k_case, k_case)))  # a single length is a range too
    assert page.isComplete()
    wizard.next()
    assert wizard.currentId() == vw.METHOD
    assert wizard.ranges == ((q_case, q_case), (k_case, k_case))


@pytest.mark.slow
def test_a_used_or_empty_model_name_is_refused_before_any_work(qtbot, population_window):
    window = population_window
    store = window.session.store
    case = store.cases.find("C-1")
    earlier = validate_case(store, case.id, "demo", ValidationSettings(folds=3), "Taken")
    window.session.changed("models", "cases", "validations", case_id=case.id)
    models, audit = len(store.models.list_all()), len(store.audit.entries())
    wizard = _open_wizard(qtbot, window)
    assert "already has 1 validation" in wizard.population_page.attempts_line.text()
    _to_page(wizard, vw.RUN)
    run = wizard.run_page
    assert run.name_edit.text() and not run.name_problem()  # suggested, unique
    for name, words in (("Taken", "already in this project"), ("   ", "Give the model a name")):
        run.name_edit.setText(name)
        assert words in run.name_note.text() and "b00020" in run.name_note.styleSheet()
        assert not run.run_button.isEnabled()
        assert run.start() is None and run.worker is None  # no job, nothing read or built
    assert len(store.models.list_all()) == models and len(store.audit.entries()) == audit
    run.name_edit.setText("  A   new name ")
    assert run.run_button.isEnabled() and run.model_name() == "A new name"
    assert earlier.model.name == "Taken"


def _inside(widget: QWidget, wizard: QWidget) -> bool:
    top_left = widget.mapTo(wizard, widget.rect().topLeft())
    bottom_right = widget.mapTo(wizard, widget.rect().bottomRight())
    return wizard.rect().contains(top_left) and wizard.rect().contains(bottom_right)


BUTTONS = (
    QWizard.WizardButton.BackButton,
    QWizard.WizardButton.NextButton,
    QWizard.WizardButton.CancelButton,
    QWizard.WizardButton.FinishButton,
)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(910, 512), (1366, 768)])
def test_every_page_fits_with_its_buttons_reachable(qtbot, population_window, size):
    """910 × 512 logical pixels is a 1366 × 768 screen at 150 %: every page of the wizard fits
    it and Back, Next, Close and Finish lie inside the dialog (each page scrolls instead)."""
    store = population_window.session.store
    case = store.cases.find("C-1")
    wizard = _open_wizard(qtbot, population_window)
    wizard.resize(*size)
    seen = []
    for page_id in (vw.POPULATION, vw.CONDITIONS, vw.METHOD, vw.CRITERIA, vw.RUN, vw.RECORD):
        if page_id == vw.RECORD:
            wizard.validation = validate_case(store, case.id, "demo", ValidationSettings(folds=3))
            wizard.run_page.completeChanged.emit()
        _to_page(wizard, page_id)
        qtbot.wait(10)
        assert wizard.width() <= size[0] and wizard.height() <= size[1], (page_id, wizard.size())
        shown = [b for b in BUTTONS if wizard.button(b).isVisible()]
        assert shown, page_id
        for which in shown:
            assert _inside(wizard.button(which), wizard), (page_id, which)
        if page_id == vw.METHOD:  # scrolls down, never sideways; the Family column where it fits
            page = wizard.method_page
            assert page.scroll_area.horizontalScrollBar().maximum() == 0, size
            assert page.family_labels[0].isVisible() == (size[0] == 1366), size
        seen.append(page_id)
    assert seen[-1] == vw.RECORD
    assert _inside(wizard.record_page.view.headline, wizard)


def test_progress_per_step_never_claims_the_end_while_work_remains(qtbot):
    from taveer_desktop.ui.step_progress_panel import StepProgressPanel

    panel = StepProgressPanel()
    qtbot.addWidget(panel)
    worker = _FakeWorker()
    panel.attach(worker)  # type: ignore[arg-type]
    panel.show_progress(0, 0, "reading the population 'demo'")
    panel.show_progress(10, 10, "features of a/1.txt")
    panel.show_progress(60, 60, "features of f/9.txt")  # the same step, at its end
    assert panel.step == 2
    assert "100 %" in panel.bar.text() and panel.bar.text().startswith("step 2")
    assert panel.remaining_seconds() is None
    text = panel.time_text()
    assert "0:00 left" not in text and "step 2 done, more may follow" in text
    panel.show_progress(5, 100, "cutting trials")
    assert panel.step == 3 and "this step about" in panel.time_text()
    panel.detach()


class _FakeWorker:
    """Enough of a TaskWorker for the panel: a title, a job, progress signals."""

    def __init__(self) -> None:
        from PySide6.QtCore import QObject, Signal

        class Signals(QObject):
            progress = Signal(int, int, str)

        self.signals = Signals()
        self.title = "Validating"
        self.job = Job("Validating", lambda p: None)


@pytest.mark.slow
def test_the_record_page_lists_every_attempt_and_shows_the_fit(qtbot, population_window):
    from taveer_desktop.presentation.population_fit_text import FitCheck, FitPart
    from taveer_desktop.report.validation_attempts import case_attempts

    window = population_window
    store = window.session.store
    case = store.cases.find("C-1")
    met = AcceptanceCriteria.now(3.0)
    first = validate_case(store, case.id, "demo", ValidationSettings(folds=3, criteria=met))
    failed = AcceptanceCriteria.now(0.01)
    second = validate_case(
        store, case.id, "demo", ValidationSettings(folds=3, seed=1, criteria=failed)
    )
    wizard = _open_wizard(qtbot, window)
    page = wizard.record_page
    attempts = case_attempts(store, store.cases.get(case.id))
    page.attempts.show_attempts(attempts, "C-1")
    assert [a.validation_id for a in attempts] == [first.validation.id, second.validation.id]
    assert [a.met for a in attempts] == [True, False]
    assert [a.seed for a in attempts] == ["0–2", "1–3"]  # three repeats each
    # the failed second attempt does not replace the model of the first, which met its criteria
    assert [a.chosen for a in attempts] == [True, False]
    summary = page.attempts.summary.text()
    assert "2 validations were run for case C-1: 1 met its criteria, 1 did not" in summary
    table = page.attempts.table
    assert table.rowCount() == 2 and table.item(1, 6).text().startswith("NOT met")
    assert table.item(0, 5).text() == "Cllr ≤ 3"
    assert not page.attempts.failed.isVisibleTo(page.attempts)  # none failed
    # a validation that gave no model is listed under the table with its reason (issue 30)
    line = "2026-12-04 20:59:00 UTC: failed, no model — NNCD on population “demo”, seed 4: why"
    page.attempts.show_attempts(attempts, "C-1", [line])
    assert page.attempts.failed.isVisibleTo(page.attempts)
    assert page.attempts.failed.text() == (
        "1 validation of this case failed and gave no model (it is kept in the audit trail with "
        "the reason):\n" + line
    )

    check = FitCheck(
        "demo",
        0.05,
        (FitPart("the questioned text Q", 0.004, True), FitPart("the known texts", 0.41, False)),
    )
    page.view.show_record(R(store.validations.record(second.validation.id)), second.model.name)
    page.show_fit(check, "")
    assert page.fit.headline.text() == (
        "The questioned text Q is unlike the texts of the population “demo”: p = 0.004."
    )
    assert "investigation only" in page.fit.consequence.text()
    assert "false-flag rate is 5\u00a0%" in page.fit.meaning.text()
    assert page.fit.table.rowCount() == 2
    assert page.view.fit_line.isVisibleTo(page.view) and "unlike" in page.view.fit_line.text()
    page.show_fit(None, "")
    assert page.fit.headline.text() == "No population-fit check for this case."
    assert not page.view.fit_line.isVisibleTo(page.view)


def test_the_engines_case_fit_is_worded_as_the_wizard_and_report_show_it():
    from taveer_desktop.core.gate.population_fit import FIT_ALPHA, CaseFit, PartFit
    from taveer_desktop.presentation.population_fit_text import fit_check_of, fit_headline

    fit = CaseFit(
        (
            PartFit("questioned", 1800, 300, 0.004, 0.002, ()),
            PartFit("known", 5000, 900, 0.41, 0.002, ()),
        ),
        120,
    )
    check = fit_check_of(fit, "staff e-mail")
    assert check.fits is fit.fits is False and check.alpha == FIT_ALPHA
    assert [(p.label, p.flagged) for p in check.parts] == [
        ("the questioned text", True),
        ("the known texts", False),
    ]
    # the parts judged together (Fisher's method): words first, the figures after
    assert fit_headline(check) == (
        "The case's texts are unlike those of the population “staff e-mail”: together p = 0.012 "
        "(the questioned text: p = 0.004; the known texts: p = 0.41)."
    )
    unjudged = CaseFit((PartFit("questioned", 90, 12, None, 0.002, (), "too short"),), 120)
    assert "p not measured" in fit_headline(fit_check_of(unjudged, "staff e-mail"))
