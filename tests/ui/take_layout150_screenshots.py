"""Screenshots of the main window's result views on a laptop screen (not a test), issue 33.

The part of ``take_every_view_screenshots.py`` that shows the room under the conclusion at
150 %, retaken without the wizard, the report and Evaluate (minutes of work each): the window
maximised on a 1366×768 Xvfb screen, DEMO-001 verified (the status bar's progress grabbed while
the verification runs), the limited conclusion of 2026-023-I, the fused runs of M-1 (its
Decision tab and LambdaG in the text) and F-3. Run under Xvfb, at 100 % and at 150 %:

    xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_layout150_screenshots.py OUT --suffix=-1366
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_layout150_screenshots.py OUT --suffix=-1366-150

Each picture is named ``every-<view><suffix>.png`` as in the full set, which it replaces; the
script prints the heights of the conclusion and of the result's tabs and fails if the tabs get
less than half of the result's height or a conclusion is cut.
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

from tests.ui.screenshot_session import options  # noqa: E402 (after the path)
from tests.ui.take_every_view_screenshots import (  # noqa: E402
    verify_case,
    window_with_cases,
)


def main(out: Path, suffix: str = "", _size: tuple[int, int] | None = None) -> None:
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.app import create_application

    app = create_application(["shots"])
    shots, _, window = window_with_cases(app, out, suffix)
    pump, wait = shots.pump, shots.wait
    panel = window.verification_tab.result_view
    result = panel.result_view
    short: list[str] = []

    def shoot(view: str, settle: float = 0.6) -> None:
        shots.shoot(window, f"every-{view}.png", settle)
        room, tabs = panel.height(), panel.result_scroll.height()
        print(
            f"  {view}: result {room} px, conclusion {panel.conclusion_scroll.height()} px, "
            f"tabs {tabs} px (device-independent)"
        )
        if 2 * tabs < room - 2 * panel.page_spacing:
            short.append(f"{view}: tabs {tabs} of {room} px")

    verify_case(shots, window, "DEMO-001", shot="status-progress")
    shoot("verification")
    # the Decision tab's lower half: the method's score on its scale, beside the chart
    bar = panel.result_scroll.verticalScrollBar()
    bar.setValue(bar.maximum())
    result.decision_splitter.setSizes([0, 10_000])  # (a split the examiner may drag)
    shots.shoot(window, "every-decision-score.png", 0.6)
    result.decision_splitter.setSizes([5_000, 5_000])
    bar.setValue(0)
    verify_case(shots, window, "2026-023-I")
    shoot("decision-reasons")
    assert window.case_list.select_case_number("M-1")
    pump(0.6)
    shoot("fused-decision")
    result.tabs.setCurrentIndex(2)
    wait(lambda: result.lambdag_view.model.rowCount() > 0, 60)
    shoot("lambdag", settle=1.0)
    page = result.lambdag_view  # the result scrolled to the tab's text and sentence list
    bar = panel.result_scroll.verticalScrollBar()
    bar.setValue(page.mapTo(panel.result_scroll.widget(), page.rect().topLeft()).y())
    shots.shoot(window, "every-lambdag-scrolled.png", 0.6)
    bar.setValue(0)
    result.tabs.setCurrentIndex(0)
    assert window.case_list.select_case_number("F-3")
    pump(0.6)
    shoot("fused3-decision")
    window.close()
    QApplication.processEvents()
    assert not short, short


if __name__ == "__main__":
    main(*options())
