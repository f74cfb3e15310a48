"""Screenshots of the decision view for docs/gui.md (not a test): run under Xvfb.

    xvfb-run -a -s "-screen 0 1600x1000x24" \
        .venv/bin/python tests/ui/take_decision_screenshots.py OUT
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1600x1000x24" \
        .venv/bin/python tests/ui/take_decision_screenshots.py OUT --suffix=-150
    xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_decision_screenshots.py OUT --suffix=-1366 --size=1366x768

Three runs on a fresh project (the demo seeding of a first start), each shown in the window at
its first-start size, then scrolled to the bottom of the result (``-below``): an evaluative
conclusion (DEMO-002, Federalist No. 51 against Hamilton's
papers, with the formal-prose model the demo chose), one for investigation only (the same texts
with the Stack Exchange model, whose validated text lengths they exceed) and no conclusion (an
11-character questioned text). Each run's kind is checked before its picture is saved. Also
the model picker as Verify opens it on a case without a model, and the Documents tab with an
excluded document.
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

FORMAL = "TAVeer formal prose (public-domain demo)"
DEFAULT = "TAVeer default (Stack Exchange)"


def main(out: Path, suffix: str = "", size: tuple[int, int] | None = None) -> None:
    from PySide6.QtWidgets import QApplication

    from taveer_desktop import paths
    from taveer_desktop.app import create_application
    from taveer_desktop.core.calibration.outcome import ConclusionKind
    from taveer_desktop.store import KNOWN, QUESTIONED
    from taveer_desktop.ui.project_session import CASES, DOCUMENTS

    app = create_application(["shots"])
    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))

    shots = ScreenshotSession(app, out, suffix=suffix, size=size)
    pump, wait, shoot = shots.pump, shots.wait, shots.shoot

    window = shots.first_start_window(work / "examiner.taveer")
    store = window.session.store
    federalist = paths.resource("demo") / "federalist"
    hamilton = [federalist / f"federalist_{n}.txt" for n in ("01", "06", "15", "23")]

    def new_case(number: str, title: str, questioned: Path, model: str) -> None:
        case = store.cases.create(number, title=title)
        store.documents.add(case.id, KNOWN, hamilton)
        store.documents.add(case.id, QUESTIONED, [questioned])
        store.cases.choose_model(case.id, store.models.find(model).id)

    new_case(
        "2026-011-I",
        "No. 51 against Hamilton, Stack Exchange model",
        federalist / "federalist_51_questioned.txt",
        DEFAULT,
    )
    short = work / "note.txt"
    short.write_text("Hello there", encoding="utf-8")  # 11 characters
    new_case("2026-011-N", "An 11-character note against Hamilton", short, FORMAL)
    window.session.changed(CASES)

    # the model picker, as Verify opens it on a case without a model
    picker_case = store.cases.create("2026-011-P", title="A case without a model yet")
    window.session.changed(CASES)
    assert window.case_list.select_case_number(picker_case.number)
    picker = window.cases.choose_model()
    picker.select_name(DEFAULT)
    shoot(picker, "model-picker.png", settle=0.6)
    picker.reject()

    for number, kind, name in (
        ("DEMO-002", ConclusionKind.EVALUATIVE, "decision-evaluative"),
        ("2026-011-I", ConclusionKind.INVESTIGATIVE, "decision-investigative"),
        ("2026-011-N", ConclusionKind.NONE, "decision-no-conclusion"),
    ):
        assert window.case_list.select_case_number(number), number
        done = []
        window.verification_finished.connect(done.append)
        window.window_actions.verify.trigger()
        wait(lambda done=done: done)
        window.verification_finished.disconnect()
        view = done[0]
        shown = store.runs.verification(view.run.id).conclusion.kind
        assert shown is kind, (number, shown)
        shoot(window, f"{name}.png", settle=0.6)
        panel = window.verification_tab.result_view  # below the fold: the chart and the details
        bar = panel.result_scroll.verticalScrollBar()
        bar.setValue(bar.maximum())
        shoot(window, f"{name}-below.png", settle=0.6)
        bar.setValue(0)
        if kind is ConclusionKind.EVALUATIVE:  # the features tab, before and after a choice
            result = window.verification_tab.result_view.result_view
            result.tabs.setCurrentIndex(1)
            shoot(window, "features.png", settle=0.6)
            width = window.width()
            row = result.rows[result.category][0]
            result.choose_feature(row.feature)
            pump(0.6)
            assert window.width() == width, "choosing a feature widened the window"
            shoot(window, "features-chosen.png", settle=0)
            result.tabs.setCurrentIndex(0)

    # an excluded document, marked in the Documents tab with its reason on hover
    assert window.case_list.select_case_number("2026-011-I")
    tab = window.documents_tab
    doc = next(d for d in tab.model.records() if d.file_name == "federalist_23.txt")
    store.documents.exclude(doc.id, "example: added to this case by mistake")
    window.session.changed(DOCUMENTS, case_id=doc.case_id)
    window.tabs.setCurrentWidget(tab)
    row = tab.model.find_row(lambda d: d.id == doc.id)
    tab.view.selectRow(tab.proxy.mapFromSource(tab.model.index(row, 0)).row())
    shoot(window, "documents-excluded.png", settle=0.6)

    window.close()
    QApplication.processEvents()


if __name__ == "__main__":
    main(*options())
