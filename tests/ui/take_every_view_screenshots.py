"""Screenshots of every view of the desktop on a laptop screen (not a test), issue 23.

The window maximised on a 1366×768 Xvfb screen (less a title bar and a task bar), at 100 % and
at 150 % (910×512 device-independent pixels); every dialog as it opens there. Run under Xvfb:

    xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_every_view_screenshots.py OUT --suffix=-1366
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_every_view_screenshots.py OUT --suffix=-1366-150

(``scripts/take_every_view.sh`` does both and shrinks the PNGs.) On a first start's project
with case M-1 added (validated and verified with the fusion,
``tests/method_fixtures.add_method_case``) and case 2026-023-I (No. 51 against Hamilton with
the Stack Exchange model: for investigation only, with several reasons): the main window's
three tabs, the Decision, Features and LambdaG tabs, the reasons of a limited conclusion, the
model manager, the model picker, the validation wizard's six pages, the validation records
with a record and the methods compared, the report's preview, Evaluate with its figures, Help,
the case dialog, Train and About. Each picture is named ``every-<view><suffix>.png``; the script
prints any window that does not fit the screen and fails if a conclusion is cut.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))  # (before this folder: its conftest imports tests')
os.environ["TAVEER_HOME"] = tempfile.mkdtemp(prefix="taveer-shots-")

from tests.ui.screenshot_session import ScreenshotSession, options  # noqa: E402 (after the path)
from tests.ui.take_verification_screenshots import maximise  # noqa: E402

STACK_EXCHANGE = "TAVeer default (Stack Exchange)"


def window_with_cases(app, out: Path, suffix: str):
    """The screenshot session, its work folder and the main window, maximised, on a first
    start's project with the fused cases M-1 (TAVeer + LambdaG) and F-3 (TAVeer, COAV and NNCD)
    and the limited case 2026-023-I (No. 51 against Hamilton, the Stack Exchange model)."""
    from taveer_desktop import paths
    from taveer_desktop.store import KNOWN, QUESTIONED
    from taveer_desktop.ui.project_session import CASES
    from tests.method_fixtures import add_method_case

    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    shots = ScreenshotSession(app, out, suffix=suffix)
    window = shots.first_start_window(work / "examiner.taveer")
    maximise(window)
    store = window.session.store
    add_method_case(store, "fusion", "M-1")
    add_method_case(store, "fusion", "F-3", fuse=("taveer", "coav", "nncd"))
    federalist = paths.resource("demo") / "federalist"
    case = store.cases.create("2026-023-I", title="No. 51 against Hamilton, Stack Exchange model")
    hamilton = [federalist / f"federalist_{n}.txt" for n in ("01", "06", "15", "23")]
    store.documents.add(case.id, KNOWN, hamilton)
    store.documents.add(case.id, QUESTIONED, [federalist / "federalist_51_questioned.txt"])
    store.cases.choose_model(case.id, store.models.find(STACK_EXCHANGE).id)
    window.session.changed(CASES)
    shots.pump(0.5)
    return shots, work, window


def verify_case(shots: ScreenshotSession, window, number: str, shot: str | None = None) -> None:
    """Verify case ``number`` from the window's action and wait for it (``shot``: the status
    bar grabbed while it runs, as ``every-<shot>.png``); fails if its conclusion is cut."""
    from tests.ui.fit_checks import conclusion_hidden

    assert window.case_list.select_case_number(number), number
    done: list = []
    window.verification_finished.connect(done.append)
    window.window_actions.verify.trigger()
    if shot is not None:
        shots.wait(lambda: window.status_line.job_panel.isVisible() or done)
        shots.shoot(window, f"every-{shot}.png", 0.02)
    shots.wait(lambda: done)
    window.verification_finished.disconnect()
    shots.pump(0.6)
    cut = conclusion_hidden(window)
    place = window.verification_tab.result_view.conclusion_scroll
    scroll = (place.widget().height(), place.viewport().height())
    assert not cut, (number, cut, *scroll, place.verticalScrollBar().maximum())


def main(out: Path, suffix: str = "", _size: tuple[int, int] | None = None) -> None:
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.app import create_application
    from taveer_desktop.ui.report_export_dialog import ReportExportDialog
    from taveer_desktop.ui.validation_wizard_step import RECORD

    app = create_application(["shots"])
    shots, work, window = window_with_cases(app, out, suffix)
    pump, wait = shots.pump, shots.wait
    store = window.session.store
    screen = window.screen().availableGeometry()
    print("window", window.width(), "x", window.height(), "screen", screen.size())
    misfits: list[str] = []

    def shoot(widget, view: str, settle: float = 0.6) -> None:
        shots.shoot(widget, f"every-{view}.png", settle)
        frame = widget.frameGeometry()
        if widget.isWindow() and not screen.contains(frame):
            misfits.append(f"{view}: {frame.width()}×{frame.height()} on {screen.size()}")

    # -- the main window, each tab ----------------------------------------------------------
    verify_case(shots, window, "DEMO-001")
    shoot(window, "verification")
    result = window.verification_tab.result_view.result_view
    result.tabs.setCurrentIndex(1)
    shoot(window, "features")
    result.tabs.setCurrentIndex(0)
    window.tabs.setCurrentWidget(window.documents_tab)
    window.documents_tab.view.selectRow(0)
    shoot(window, "documents")
    window.tabs.setCurrentWidget(window.case_view.audit_tab)
    shoot(window, "audit")

    # -- a limited conclusion: every reason reachable, the first ones in view -----------------
    verify_case(shots, window, "2026-023-I")
    shoot(window, "decision-reasons")
    panel = window.verification_tab.result_view  # scrolled to the end of the list of reasons
    reasons = result.summary.reasons_label
    panel.result_scroll.ensureWidgetVisible(reasons, 0, 0)
    bar = panel.result_scroll.verticalScrollBar()
    bottom = reasons.mapTo(panel.result_scroll.viewport(), reasons.rect().bottomLeft()).y()
    bar.setValue(bar.value() + max(0, bottom - panel.result_scroll.viewport().height()))
    shoot(window, "decision-reasons-scrolled")
    bar.setValue(0)

    # -- a fused run: the Decision tab and LambdaG in the text -------------------------------
    assert window.case_list.select_case_number("M-1")
    window.tabs.setCurrentWidget(window.verification_tab)
    pump(0.6)
    shoot(window, "fused-decision")
    result.tabs.setCurrentIndex(2)
    wait(lambda: result.lambdag_view.model.rowCount() > 0, 60)
    shoot(window, "lambdag", settle=1.0)
    result.tabs.setCurrentIndex(0)

    # -- a fusion of TAVeer, COAV and NNCD: named by its parts everywhere ---------------------
    assert window.case_list.select_case_number("F-3")
    window.tabs.setCurrentWidget(window.verification_tab)
    pump(0.6)
    shoot(window, "fused3-decision")
    panel.result_scroll.verticalScrollBar().setValue(0)
    result.tabs.setCurrentIndex(0)

    # -- the models ----------------------------------------------------------------------------
    manager = window.models.open_manager()
    shoot(manager, "model-manager")
    manager.reject()
    assert window.case_list.select_case_number("DEMO-001")
    picker = window.cases.choose_model()
    shoot(picker, "model-picker")
    picker.reject()

    # -- the validation records, a record and the methods compared ---------------------------
    records = window.models.show_validations()
    demo = next(r for r in records.model.records() if r.case_number == "DEMO-001")
    records.select_record(demo.stored.id)
    pump(0.6)
    shoot(records, "records")
    fused = next(r for r in records.model.records() if r.case_number == "M-1")
    records.select_record(fused.stored.id)
    pump(0.6)
    shoot(records, "record")
    records.view.tabs.setCurrentWidget(records.view.methods)
    shoot(records, "methods-compared")
    fused3 = next(r for r in records.model.records() if r.case_number == "F-3")
    records.select_record(fused3.stored.id)
    records.view.tabs.setCurrentIndex(0)
    pump(0.6)
    shoot(records, "record-fused3")
    records.reject()

    # -- the validation wizard, page by page (a TAVeer validation of DEMO-001) ----------------
    assert window.case_list.select_case_number("DEMO-001")
    window.window_actions.validate.trigger()
    wizard = window.cases.wizard
    wait(lambda: wizard.isVisible())
    shoot(wizard, "wizard-1-population")
    wizard.next()
    wizard.conditions_page.folds.setValue(3)
    shoot(wizard, "wizard-2-conditions")
    wizard.next()
    shoot(wizard, "wizard-3-method")
    method_page = wizard.method_page
    method_page.buttons["fusion"].setChecked(True)
    for part in ("lambdag",):
        method_page.fuse_boxes[part].setChecked(False)
    for part in ("taveer", "coav", "nncd"):
        method_page.fuse_boxes[part].setChecked(True)
    shoot(wizard, "wizard-3-method-fused3")
    method_page.buttons["taveer"].setChecked(True)
    wizard.next()
    wizard.criteria_page.max_cllr.setValue(1.0)
    shoot(wizard, "wizard-4-criteria")
    wizard.next()
    shoot(wizard, "wizard-5-run")
    wizard.run_page.start()
    wait(lambda: wizard.currentId() == RECORD, 300)
    shoot(wizard, "wizard-6-record", settle=1.0)
    wizard.reject()

    # -- the report's preview, Evaluate, Help and the smaller dialogs -------------------------
    report = ReportExportDialog(store, "DEMO-001", window, window.runner)
    report.show()
    wait(lambda: report.rendered is not None, 120)
    shoot(report, "report-export", settle=1.0)
    report.reject()
    from tests.ui.conftest import make_pan_corpus  # (after the application: it sets no platform)

    evaluate = window.models.open_evaluate_dialog()
    evaluate.set_corpus_folder(make_pan_corpus(work / "corpus", cases=6))
    shoot(evaluate, "evaluate")
    evaluate.start_evaluation()
    wait(lambda: evaluate.evaluation is not None, 300)
    shoot(evaluate, "evaluate-done", settle=1.0)
    evaluate.reject()
    method = window.show_method()
    shoot(method, "help")
    method.reject()
    case_dialog = window.cases.edit_case()
    shoot(case_dialog, "case-dialog")
    case_dialog.reject()
    train = window.models.open_train_dialog()
    shoot(train, "train")
    train.reject()
    about = window.show_about()
    shoot(about, "about")
    about.reject()

    for misfit in misfits:
        print("does not fit the screen:", misfit)
    window.close()
    QApplication.processEvents()


if __name__ == "__main__":
    main(*options())
