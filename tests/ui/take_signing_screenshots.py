"""Screenshots of the declaration, review and signing dialogs for docs/report.md (not a test).

    QT_SCALE_FACTOR=1 xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_signing_screenshots.py docs/images --suffix=-1366 \
        --size=1366x768
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_signing_screenshots.py docs/images --suffix=-1366-150 \
        --size=910x512

On a fresh project (the demo seeded as at a first start) DEMO-001 is verified, then: the
Examiner Declaration dialog filled in, the Technical Review dialog filled in (after the
declaration was kept), and the report export dialog with "Final report" and "Sign with a
certificate" chosen. Each dialog is grabbed as the user sees it.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ["TAVEER_HOME"] = tempfile.mkdtemp(prefix="taveer-shots-")

from tests.ui.screenshot_session import ScreenshotSession, options  # noqa: E402 (after the path)


def main(out: Path, suffix: str = "", size: tuple[int, int] | None = None) -> None:
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.app import create_application
    from taveer_desktop.ui.declaration_dialog import open_declaration
    from taveer_desktop.ui.project_session import CASES
    from taveer_desktop.ui.report_export_dialog import ReportExportDialog
    from taveer_desktop.ui.review_dialog import open_review

    app = create_application(["shots"])
    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    shots = ScreenshotSession(app, out, suffix=suffix, size=size)
    wait, shoot = shots.wait, shots.shoot
    window = shots.first_start_window(work / "lab.taveer")
    store = window.session.store
    case = store.cases.find("DEMO-001")
    store.cases.update(case.id, examiner="A. Examiner", agency="Example Forensic Lab")
    window.session.changed(CASES, case_id=case.id)
    window.case_list.select_case_number("DEMO-001")
    done: list[object] = []
    window.verification_finished.connect(done.append)
    window.window_actions.verify.trigger()
    wait(lambda: done)

    declaration = open_declaration(window.cases)
    declaration.examiner.setText("A. Examiner")
    declaration.role.setText("forensic linguist, Example Forensic Lab")
    shoot(declaration, "declaration-dialog.png")
    declaration.declare()
    wait(lambda: declaration.declared is not None)

    review = open_review(window.cases)
    review.reviewer.setText("C. Reviewer")
    review.comments.setPlainText(
        "Checked the evidence hashes against the submission form, the run's model and its "
        "validation record, and the wording of sections 2 and 7."
    )
    shoot(review, "review-dialog.png")
    review.record()
    wait(lambda: review.reviewed is not None)

    dialog = ReportExportDialog(store, "DEMO-001", window, window.runner)
    dialog.show()
    wait(lambda: dialog.rendered is not None)
    dialog.final_box.setChecked(True)
    wait(lambda: dialog.preview_worker is None and dialog.rendered is not None)
    dialog.sign_group.setChecked(True)
    dialog.certificate.setText("/home/examiner/certificates/a-examiner.p12")
    dialog.passphrase.setText("not a real passphrase")
    dialog.tsa_url.setText("http://tsa.lab.example/rfc3161")
    shoot(dialog, "export-final-signed.png")
    dialog.close()
    window.close()
    QApplication.processEvents()
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(*options())
