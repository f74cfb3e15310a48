"""Screenshots of the validation wizard's method page and of a record that compares methods,
and the validation report's comparison page, for docs/gui.md (not a test): run under Xvfb by
``scripts/take_method_comparison.sh`` at 1366 × 768, 100 % and 150 %.

    xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_method_comparison_screenshots.py OUT --suffix=-100
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_method_comparison_screenshots.py OUT --suffix=-150

On a fresh project (the demo seeded as at a first start), DEMO-001's validation wizard is taken
to its method page, the fusion stated, LambdaG, COAV, IM and Unmasking ticked to compare and the
rule registered (``method-page``). The compared record is a real validation of the demo case
(``tests/method_fixtures.py``'s quick settings: one repeat, 3 folds — far too small for
casework, as the record says) comparing the fusion, TAVeer, LambdaG, COAV, IM and Unmasking on
the same trials under the rule "lowest pessimistic Cllr", shown in the record view as the
records dialog shows it (``compared-record``); its validation report is written beside
(``compared-record.pdf``) for ``pdftoppm``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
os.environ["TAVEER_HOME"] = tempfile.mkdtemp(prefix="taveer-shots-")

from tests.ui.screenshot_session import ScreenshotSession, options  # noqa: E402

COMPARED = ("lambdag", "coav", "im", "unmasking")


def main(out: Path, suffix: str, size: tuple[int, int] | None = None) -> None:
    from dataclasses import replace

    from PySide6.QtWidgets import QApplication

    from taveer_desktop.app import create_application
    from taveer_desktop.core.trials.validation_settings import LOWEST_PESSIMISTIC_CLLR
    from taveer_desktop.core.validation.record_reader import read_validation_record
    from taveer_desktop.report.validation_export import export_validation_report
    from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
    from taveer_desktop.store.case_validation import validate_case
    from taveer_desktop.ui import validation_wizard as vw
    from taveer_desktop.ui.validation_record_view import ValidationRecordView
    from tests.method_fixtures import POPULATION, POPULATION_DESCRIPTION, quick_settings

    app = create_application(["shots"])
    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    shots = ScreenshotSession(app, out, timeout=600, suffix=suffix, size=size)

    window = shots.first_start_window(work / "examiner.taveer")
    assert window.case_list.select_case_number("DEMO-001")
    window.window_actions.validate.trigger()
    wizard = window.cases.wizard
    shots.wait(lambda: wizard.isVisible())
    wizard.next()
    wizard.next()
    assert wizard.currentId() == vw.METHOD
    page = wizard.method_page
    page.buttons["fusion"].setChecked(True)
    for method in COMPARED:
        page.compare_boxes[method].setChecked(True)
    page.rule_check.setChecked(True)
    shots.shoot(wizard, "method-page.png")
    wizard.reject()
    window.close()
    shots.pump(0.3)

    import json

    from taveer_desktop import paths

    demo = paths.resource("demo")
    entry = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][0]
    settings = replace(
        quick_settings("fusion"),
        compare=("taveer", *COMPARED),
        choose_by=LOWEST_PESSIMISTIC_CLLR,
    )
    with ProjectStore.create(work / "compared.taveer") as store:
        case = store.cases.create("M-1", entry["title"], "A. Examiner", "Example Lab")
        store.documents.add(case.id, KNOWN, [demo / name for name in entry["known"]])
        store.documents.add(case.id, QUESTIONED, [demo / entry["questioned"]])
        store.populations.add_folder("demo", POPULATION, POPULATION_DESCRIPTION)
        validate_case(store, case.id, "demo", settings, genre="formal prose")
        (stored,) = store.validations.list_all()
        record = store.validations.record(stored.id)
    view = ValidationRecordView()
    screen = app.primaryScreen().availableGeometry()
    view.resize(screen.width() * 92 // 100, screen.height() * 90 // 100)
    view.setWindowTitle("Validation record — methods compared")
    view.show()
    view.show_record(read_validation_record(record), "compared")
    view.tabs.setCurrentWidget(view.methods)
    shots.wait(lambda: view.methods.chart.isVisible())
    shots.shoot(view, "compared-record.png", settle=0.8)
    export_validation_report(record, out / f"compared-record{suffix}.pdf", "screenshot record")
    view.close()
    QApplication.processEvents()


if __name__ == "__main__":
    main(*options())
