"""Screenshots of issue 23's honest screens on a laptop screen (not a test): the window
maximised on a 1366×768 Xvfb screen, at 100 % and 150 %. Run under Xvfb:

    xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python tests/ui/take_honest_screenshots.py OUT --suffix=-1366
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python tests/ui/take_honest_screenshots.py OUT --suffix=-1366-150

On a first start's project with case M-1 (validated and verified with the fusion): M-1's fused
run (each method's ratio with its weight in the stated one, the stability said to be TAVeer's
classification's), the Documents tab of DEMO-001 with K2 excluded (labels kept) and a long
status message, the model manager, the model picker and Help ▸ The TAVeer Method.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ["TAVEER_HOME"] = tempfile.mkdtemp(prefix="taveer-shots-")

from tests.ui.screenshot_session import ScreenshotSession, options  # noqa: E402 (after the path)
from tests.ui.take_verification_screenshots import maximise  # noqa: E402


def main(out: Path, suffix: str = "") -> None:
    from taveer_desktop.app import create_application
    from taveer_desktop.store import KNOWN
    from taveer_desktop.ui.project_session import CASES, DOCUMENTS
    from tests.method_fixtures import add_method_case

    app = create_application(["shots"])
    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    shots = ScreenshotSession(app, out, suffix=suffix)
    window = shots.first_start_window(work / "examiner.taveer")
    maximise(window)
    store = window.session.store
    add_method_case(store, "fusion", "M-1")
    window.session.changed(CASES)
    shots.pump(0.5)

    assert window.case_list.select_case_number("M-1")
    window.tabs.setCurrentWidget(window.verification_tab)
    shots.shoot(window, "honest-fused-run.png", settle=0.8)

    case = store.cases.find("DEMO-001")
    known = store.documents.list_for_case(case.id, KNOWN)
    store.documents.exclude(known[1].id, "belongs to another case")
    window.session.changed(DOCUMENTS, case_id=case.id)
    assert window.case_list.select_case_number("DEMO-001")
    window.tabs.setCurrentWidget(window.documents_tab)
    window.status_line.show_message(
        "Verification of DEMO-002 started with the model TAVeer formal prose "
        "(public-domain demo) on 4 known documents and 1 questioned document"
    )
    shots.shoot(window, "honest-documents-labels.png", settle=0.6)

    manager = window.models.open_manager()
    shots.shoot(manager, "honest-model-manager.png", settle=0.8)
    manager.close()

    assert window.case_list.select_case_number("M-1")
    picker = window.cases.choose_model()
    shots.shoot(picker, "honest-model-picker.png", settle=0.8)
    picker.close()

    method = window.show_method()
    shots.shoot(method, "honest-help.png", settle=0.5)
    method.close()
    window.close()


if __name__ == "__main__":
    out, suffix, _size = options()
    main(out, suffix)
