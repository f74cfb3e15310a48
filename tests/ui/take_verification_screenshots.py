"""Screenshots of the Verification and Documents tabs on a laptop screen (not a test): the
window maximised on a 1366×768 Xvfb screen (less a title bar and a task bar), at 100 % and at
150 % (910×512 device-independent pixels). Run under Xvfb:

    xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_verification_screenshots.py OUT --suffix=-1366
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_verification_screenshots.py OUT --suffix=-1366-150

On a first start's project, with case M-1 added (validated and verified with the fusion,
``tests/method_fixtures.add_method_case``): DEMO-002 verified (an evaluative conclusion of a
TAVeer model), M-1's fused run (the stated ratio with each method's own), and DEMO-002's
Documents tab. Before each picture the script checks that the conclusion's kind and statement
lie wholly inside the window (``conclusion_in_view``), and fails if not.
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

DESKTOP_CHROME_PX = 70  # a title bar and a task bar, in device pixels, off the 768


def maximise(window) -> None:
    """The window as maximised on its screen, less a title bar and a task bar (Xvfb has no
    window manager to do it): 1366 × 698 device pixels, 910 × 465 at 150 %."""
    screen = window.screen().availableGeometry()
    chrome = round(DESKTOP_CHROME_PX / window.devicePixelRatioF())
    window.setGeometry(screen.adjusted(0, 0, 0, -chrome))


def main(out: Path, suffix: str = "", _size: tuple[int, int] | None = None) -> None:
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.app import create_application
    from taveer_desktop.ui.project_session import CASES
    from tests.method_fixtures import add_method_case
    from tests.ui.fit_checks import conclusion_hidden

    app = create_application(["shots"])
    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    shots = ScreenshotSession(app, out, suffix=suffix)
    window = shots.first_start_window(work / "examiner.taveer")
    maximise(window)
    add_method_case(window.session.store, "fusion", "M-1")
    window.session.changed(CASES)
    shots.pump(0.5)
    print("window", window.width(), "x", window.height(), "screen", app.primaryScreen().size())

    assert window.case_list.select_case_number("DEMO-002")
    done: list = []
    window.verification_finished.connect(done.append)
    window.window_actions.verify.trigger()
    shots.wait(lambda: done)
    shots.pump(0.6)
    cut = conclusion_hidden(window)
    print("DEMO-002's conclusion is cut" if cut else "in view", cut)
    shots.shoot(window, "verification-tab.png", settle=0.3)

    assert window.case_list.select_case_number("M-1")
    window.tabs.setCurrentWidget(window.verification_tab)
    shots.pump(0.6)
    cut = conclusion_hidden(window)
    print("M-1's conclusion is cut" if cut else "in view", cut)
    shots.shoot(window, "verification-tab-fused.png", settle=0.3)

    assert window.case_list.select_case_number("DEMO-002")
    window.tabs.setCurrentWidget(window.documents_tab)
    window.documents_tab.view.selectRow(0)
    shots.shoot(window, "documents-tab.png", settle=0.6)
    window.close()
    QApplication.processEvents()


if __name__ == "__main__":
    main(*options())
