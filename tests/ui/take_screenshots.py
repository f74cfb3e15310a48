"""Screenshots of the desktop for docs/gui.md (not a test): run under Xvfb.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python tests/ui/take_screenshots.py OUT_DIR

Uses a temporary TAVEER_HOME and project (the demo seeding of a first start), a small Brontë
corpus for training and evaluation, and grabs each window as the user would see it.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
os.environ["TAVEER_HOME"] = tempfile.mkdtemp(prefix="taveer-shots-")

from tests.ui.screenshot_session import ScreenshotSession, options  # noqa: E402 (after the path)


def main(out: Path, suffix: str = "", size: tuple[int, int] | None = None) -> None:
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.app import create_application
    from taveer_desktop.core.methods.taveer import training
    from taveer_desktop.store import KNOWN

    app = create_application(["shots"])
    from ui.conftest import make_pan_corpus  # after the app: the test conftest sets offscreen

    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    corpus = make_pan_corpus(work / "brontes-training", cases=24)

    shots = ScreenshotSession(app, out, timeout=60, suffix=suffix, size=size)
    pump, wait, shoot = shots.pump, shots.wait, shots.shoot

    window = shots.first_start_window(work / "examiner.taveer")
    window.case_list.select_case_number("DEMO-001")
    window.documents_tab.view.selectRow(0)
    shoot(window, "main-window-documents.png")

    done = []
    window.verification_finished.connect(done.append)
    window.window_actions.verify.trigger()
    wait(lambda: done)
    shoot(window, "verification-result.png")

    window.tabs.setCurrentWidget(window.audit_tab)
    shoot(window, "audit-log.png")

    # the dialogs of the Case and Help menus
    case_dialog = window.cases.edit_case()
    shoot(case_dialog, "case-dialog.png")
    case_dialog.reject()
    method = window.show_method()
    shoot(method, "method-dialog.png")
    method.show_glossary()
    shoot(method, "glossary.png")
    method.close()
    about = window.show_about()
    shoot(about, "about-box.png")
    about.close()

    from taveer_desktop.ui.report_export_dialog import ReportExportDialog

    report = ReportExportDialog(window.session.store, "DEMO-001", window, window.runner)
    report.show()
    wait(lambda: report.rendered is not None)
    shoot(report, "report-export-dialog.png", settle=0.8)
    report.close()

    # a rejected import
    bad = work / "evidence"
    bad.mkdir()
    (bad / "empty.txt").write_bytes(b"")
    (bad / "scan.pdf").write_bytes(b"%PDF-1.4")
    (bad / "photo.txt").write_bytes(bytes(range(256)) * 4)
    added = []
    window.documents_added.connect(added.append)
    window.cases.add_documents(KNOWN, sorted(bad.iterdir()))
    wait(lambda: added)
    from taveer_desktop.ui.error_dialog import RejectionDialog, open_dialogs

    rejection = next(d for d in open_dialogs() if isinstance(d, RejectionDialog))
    shoot(rejection, "rejected-files.png")
    rejection.close()

    manager = window.models.open_manager()
    shoot(manager, "model-manager.png")
    manager.close()

    real = training.distances_of_texts  # slow the cases so the dialog is caught mid-training

    def slowed(*args, **kwargs):
        time.sleep(0.15)
        return real(*args, **kwargs)

    training.distances_of_texts = slowed
    dialog = window.models.open_train_dialog()
    dialog.set_corpus_folder(corpus)
    dialog.start_training()
    wait(lambda: dialog.progress.bar.value() >= 8)
    pump(0.6)
    shoot(dialog, "train-dialog-in-progress.png")
    shoot(window, "main-window-while-training.png")
    trained = []
    dialog.model_trained.connect(trained.append)
    wait(lambda: trained)
    training.distances_of_texts = real
    shoot(dialog, "train-dialog-finished.png")
    dialog.close()

    evaluation = window.models.open_evaluate_dialog()
    evaluation.choose_model("TAVeer formal prose (public-domain demo)")
    evaluation.set_corpus_folder(corpus)
    finished = []
    evaluation.evaluation_finished.connect(finished.append)
    evaluation.start_evaluation()
    wait(lambda: finished)
    shoot(evaluation, "evaluate-dialog.png")
    charts = evaluation.show_charts()
    shoot(charts, "model-view.png", settle=1.0)
    charts.close()
    evaluation.close()
    window.close()
    QApplication.processEvents()


if __name__ == "__main__":
    main(*options())
