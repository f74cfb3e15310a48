"""The examiner's workflow through the window: case, documents, verification, reopening."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore, RejectionReason
from taveer_desktop.ui import error_dialog
from taveer_desktop.ui.error_dialog import RejectionDialog
from tests.basis_fixtures import stand_in_record

from .conftest import open_window


def _create_case(qtbot, window, number="2025-017", title="Threatening letters"):
    dialog = window.cases.new_case()
    qtbot.waitExposed(dialog)
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    dialog.number.setText(number)
    dialog.title.setText(title)
    dialog.examiner.setText("A. Examiner")
    dialog.description.setPlainText("Did the suspect write the letter?")
    dialog.accept()
    qtbot.waitUntil(lambda: window.selected_case() is not None)
    return window.selected_case()


def _add(qtbot, window, role, files):
    with qtbot.waitSignal(window.documents_added, timeout=30_000) as blocker:
        window.cases.add_documents(role, files)
    return blocker.args[0]


@pytest.mark.slow
def test_case_documents_rejections_verify_and_reopen(qtbot, window, evidence, tmp_path):
    case = _create_case(qtbot, window)
    assert case.number == "2025-017"
    assert "2025-017 — Threatening letters" in window.case_header.heading.text()
    assert not window.window_actions.verify.isEnabled()

    # known documents, with every kind of refusal among them
    result = _add(
        qtbot,
        window,
        KNOWN,
        [
            evidence["known1"],
            evidence["known2"],
            evidence["empty"],
            evidence["binary"],
            evidence["pdf"],
        ],
    )
    assert len(result.added) == 2
    reasons = {Path(r.path).name: r.reason for r in result.rejected}
    assert reasons == {
        "empty.txt": RejectionReason.EMPTY,
        "photo.txt": RejectionReason.BINARY,
        "scan.pdf": RejectionReason.UNSUPPORTED,
    }
    dialogs = [d for d in error_dialog.open_dialogs() if isinstance(d, RejectionDialog)]
    assert len(dialogs) == 1
    listing = dialogs[0].as_text()
    for name in ("empty.txt", "photo.txt", "scan.pdf"):
        assert name in listing
    assert "Empty: the file holds no text" in listing
    assert "Unsupported type" in listing

    # the documents table, hashes and preview
    tab = window.documents_tab
    assert tab.model.rowCount() == 2
    tab.view.selectRow(0)
    doc = tab.selected_documents()[0]
    assert doc.sha256 in tab.preview_heading.text()
    assert tab.preview.isReadOnly()
    stored_text = window.session.store.documents.text(doc.id)
    assert tab.preview.toPlainText().split()[:50] == stored_text.split()[:50]  # CR LF shown as LF
    copied = tab.copy_hashes()
    assert copied == f"{doc.sha256}  {doc.file_name}"
    assert QGuiApplication.clipboard().text() == copied

    # a duplicate is refused in plain words too
    again = _add(qtbot, window, KNOWN, [evidence["known1"]])
    assert [r.reason for r in again.rejected] == [RejectionReason.DUPLICATE]

    # the questioned document arrives by drag and drop
    window.cases.ask_role_for_drop = lambda files: QUESTIONED
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(evidence["questioned"]))])
    drop = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    with qtbot.waitSignal(window.documents_added, timeout=30_000):
        window.dropEvent(drop)
    assert window.selected_case().questioned_count == 1

    # no model in this project yet: import the bundled one, then verify
    from taveer_desktop import paths

    assert not window.window_actions.verify.isEnabled()
    assert "no model" in window.window_actions.verify.toolTip()
    assert window.models.import_model(paths.resource("models", "default.json"))
    assert window.window_actions.verify.isEnabled()
    # the new case has no model: Verify opens the picker instead of choosing one silently
    assert window.verification_tab.chosen_model() is None
    assert "none chosen" in window.verification_tab.model_label.text()
    window.window_actions.verify.trigger()
    picker = window.cases.picker
    assert picker is not None and picker.chosen() is None
    assert not picker.ok_button.isEnabled()
    assert window.cases.verify_worker is None and not window.session.store.runs.list_for_case(
        case.id
    )
    assert picker.select_name("TAVeer default (Stack Exchange)")
    assert "Population (Hd)" in picker.details.text()
    with qtbot.waitSignal(window.verification_finished, timeout=60_000) as blocker:
        picker.accept()
    assert window.session.store.cases.get(case.id).model_id is not None
    assert window.verification_tab.chosen_model() == "TAVeer default (Stack Exchange)"
    view = blocker.args[0]
    assert view.run.prediction in ("Y", "N", "inconclusive", "insufficient")
    panel = window.verification_tab.result_view
    assert panel.currentWidget() is panel.result_page
    explained = panel.result_view
    assert explained.verification is not None
    assert explained.verification.prediction == view.run.prediction
    assert set(explained.rows) == set(view.result["ensemble"])  # one Φ table per category
    assert explained.summary.scale.score == view.run.similarity
    assert window.tabs.currentWidget() is window.verification_tab
    assert window.verification_tab.run_model.rowCount() == 1
    stored_runs = window.session.store.runs.list_for_case(case.id)
    assert [r.id for r in stored_runs] == [view.run.id]

    # the audit tab lists what happened to the case
    window.audit_tab.reload()
    actions = [e.action for e in window.audit_tab.model.records()]
    assert actions.count("document_added") == 3 and "run_stored" in actions
    assert "Audit chain head" in window.audit_tab.head_label.text()

    # edit the case
    dialog = window.cases.edit_case()
    dialog.title.setText("Letters, edited")
    dialog.accept()
    qtbot.waitUntil(lambda: "Letters, edited" in window.case_header.heading.text())

    # close and reopen: everything is there
    project = window.session.path
    window.close()
    assert not window.session.is_open
    with ProjectStore.open(project) as store:
        assert store.last_integrity_report.ok
    again = open_window(qtbot, project)
    assert again.case_list.select_case_number("2025-017")
    assert again.documents_tab.model.rowCount() == 3
    assert again.verification_tab.run_model.rowCount() == 1
    assert again.verification_tab.result_view.current.run.id == view.run.id
    assert "Letters, edited" in again.case_header.heading.text()


def test_search_filters_the_case_list(qtbot, window):
    _create_case(qtbot, window, "2025-001", "Letters")
    _create_case(qtbot, window, "2025-002", "Diary")
    window.case_list.search.setText("diary")
    assert window.case_list.proxy.rowCount() == 1
    assert "1 of 2" in window.case_list.count_label.text()
    window.case_list.search.clear()
    assert window.case_list.proxy.rowCount() == 2


def test_a_duplicate_case_number_is_refused_plainly(qtbot, window):
    _create_case(qtbot, window, "2025-001")
    before = len(error_dialog.open_dialogs())
    assert window.cases._store_case(None, {"number": "2025-001"}) is None
    boxes = error_dialog.open_dialogs()[before:]
    assert boxes and "already has a case numbered '2025-001'" in boxes[0].text()
    assert window.isVisible()


@pytest.mark.slow
def test_first_start_seeds_the_demo_and_verify_works_at_once(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path / "first-start.taveer", seed_demo=True)
    numbers = [c.number for c in window.case_list.model.records()]
    assert numbers == ["DEMO-001", "DEMO-002"]
    assert window.selected_case().number == "DEMO-001"
    case = window.selected_case()
    assert (case.known_count, case.questioned_count) == (4, 1)
    assert "Federalist Papers" in case.description
    names = {m.name for m in window.session.models()}
    assert {"TAVeer default (Stack Exchange)", "TAVeer formal prose (public-domain demo)"} < names
    # DEMO-001 was validated on the demo population at first start: its model is that one
    (validated,) = names - {
        "TAVeer default (Stack Exchange)",
        "TAVeer formal prose (public-domain demo)",
    }
    assert validated.startswith("Validated for case DEMO-001 on Public-domain demo population")
    assert window.verification_tab.chosen_model() == validated
    assert "Case model: Validated for case DEMO-001" in window.status_line.model_label.text()
    assert window.window_actions.verify.isEnabled()
    with qtbot.waitSignal(window.verification_finished, timeout=60_000) as blocker:
        window.window_actions.verify.trigger()
    assert blocker.args[0].case.number == "DEMO-001"
    summary = window.verification_tab.result_view.result_view.summary
    assert summary.scale.score == blocker.args[0].run.similarity


def test_a_failing_job_shows_a_dialog_and_the_window_keeps_running(qtbot, window, monkeypatch):
    from taveer_desktop.ui import jobs

    _create_case(qtbot, window)

    def broken(*_args):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(jobs, "import_documents", broken)
    with qtbot.waitSignal(window.runner.job_failed, timeout=10_000):
        window.cases.add_documents(KNOWN, [Path("whatever.txt")])
    boxes = [d for d in error_dialog.open_dialogs() if hasattr(d, "detailedText")]
    assert boxes and "disk on fire" in boxes[-1].text()
    assert "RuntimeError" in boxes[-1].detailedText()
    assert window.isVisible() and window.session.is_open


def test_the_verbal_scale_setting_reaches_the_result(qtbot, demo_window):
    """File ▸ Verbal Scale changes the wording of the shown likelihood ratio, and persists."""
    from taveer_desktop.ui import app_settings

    window = demo_window
    # DEMO-001's model has no validation record: a stand-in record of it, stored for the case,
    # gives it the evaluative conclusion whose verbal equivalent the scale words (DEMO-002's
    # texts fail the population-fit check since its two parts are judged together: p = 0.008)
    store = window.session.store
    case = store.cases.find("DEMO-001")
    model = store.models.get(case.model_id)
    (population,) = store.populations.list_all()
    store.validations.store(
        case.id, population.id, model.id, stand_in_record(store.models.load(model.id))
    )
    assert window.case_list.select_case_number("DEMO-001")  # an evaluative conclusion
    with qtbot.waitSignal(window.verification_finished, timeout=60_000):
        window.window_actions.verify.trigger()
    nordgaard = next(
        a for a in window.window_actions.scale_group.actions() if a.data() == "nordgaard2012"
    )
    nordgaard.trigger()
    assert app_settings.verbal_scale_id() == "nordgaard2012"
    summary = window.verification_tab.result_view.result_view.summary
    assert "Nordgaard" in summary.verbal_label.text()


def test_a_refused_case_keeps_its_dialog_open_with_what_was_typed(qtbot, window):
    """A case number already in use is refused: the reason is shown and the dialog stays open
    with everything typed, so the examiner changes the number instead of typing it all again."""
    _create_case(qtbot, window, "2025-001", "Letters")
    dialog = window.cases.new_case()
    qtbot.waitExposed(dialog)
    dialog.number.setText("2025-001")
    dialog.title.setText("A second title")
    dialog.description.setPlainText("Typed with care")
    dialog.accept()
    boxes = [
        w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()
    ]
    assert len(boxes) == 1 and "The case was not saved" in boxes[0].text()
    boxes[0].close()
    assert dialog.isVisible() and dialog.result() != dialog.DialogCode.Accepted
    assert dialog.title.text() == "A second title"
    assert dialog.description.toPlainText() == "Typed with care"
    dialog.number.setText("2025-002")
    dialog.accept()
    assert not dialog.isVisible()
    assert window.selected_case().number == "2025-002"
    assert window.selected_case().title == "A second title"
