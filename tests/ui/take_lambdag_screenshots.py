"""Screenshots of a run of a fused model for docs/gui.md (not a test): run under Xvfb.

    xvfb-run -a -s "-screen 0 1600x1000x24" \
        .venv/bin/python tests/ui/take_lambdag_screenshots.py OUT
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1600x1000x24" \
        .venv/bin/python tests/ui/take_lambdag_screenshots.py OUT --suffix=-150

The project is ``tests/method_fixtures.method_project`` (the demo case's texts as case M-1, the
demo population, a quick fused validation, one explained run). The window opens on it with M-1
selected and its run shown: the Decision tab with the fused ratio, each method's own and their
agreement (``lambdag-decision``), then the "LambdaG in the text" tab once TAVeer's leans are
listed (``lambdag-text``), and with the sentences narrowed to those where both methods point
the same way, sorted by LambdaG's share, the first chosen (``lambdag-sentence``; where the
result scrolls, at 150 %, scrolled to the text and the list).
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


def main(out: Path, suffix: str = "", size: tuple[int, int] | None = None) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.app import create_application
    from taveer_desktop.ui.explain.lambdag_sentence_table_model import SentenceTableModel
    from taveer_desktop.ui.explain.result_view import LAMBDAG_TAB
    from taveer_desktop.ui.main_window import MainWindow
    from tests.method_fixtures import method_project

    app = create_application(["shots"])
    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    project = method_project(work, "fusion")
    shots = ScreenshotSession(app, out, suffix=suffix, size=size)
    window = MainWindow(project_path=project, seed_demo=False, persist_settings=False)
    ready = []
    window.project_ready.connect(lambda: ready.append(1))
    if size is not None:
        window.resize(*size)
    window.show()
    shots.wait(lambda: ready)
    assert window.case_list.select_case_number("M-1")
    window.tabs.setCurrentWidget(window.verification_tab)
    panel = window.verification_tab.result_view
    shots.wait(lambda: panel.current is not None)
    shots.shoot(window, "lambdag-decision.png", settle=0.8)

    result = panel.result_view
    listed = []
    result.leanings_shown.connect(lambda: listed.append(1))
    result.tabs.setCurrentIndex(LAMBDAG_TAB)
    shots.wait(lambda: listed)
    shots.shoot(window, "lambdag-text.png", settle=0.8)

    view = result.lambdag_view
    view.only_agreeing.setChecked(True)
    view.table.sortByColumn(SentenceTableModel.LAMBDAG, Qt.SortOrder.DescendingOrder)
    view.table.selectRow(0)
    # where the result scrolls (150 %), the text and the list at the top of the view
    top = view.splitter.mapTo(panel.result_scroll.widget(), QPoint(0, 0)).y()
    if top > panel.result_scroll.viewport().height() // 2:
        panel.result_scroll.verticalScrollBar().setValue(top)
    shots.shoot(window, "lambdag-sentence.png", settle=0.8)

    window.close()
    QApplication.processEvents()


if __name__ == "__main__":
    main(*options())
