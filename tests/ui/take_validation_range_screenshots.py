"""Screenshots of the validation wizard's issue-21 steps for docs/gui.md (not a test): run under
Xvfb on a 1366 × 768 screen at 100 % and at 150 % (910 × 512 logical pixels).

    xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python tests/ui/take_validation_range_screenshots.py OUT --suffix=-1366
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python tests/ui/take_validation_range_screenshots.py OUT --suffix=-1366-150

On a fresh project (the demo seeded as at a first start: DEMO-001 validated once) DEMO-001 is
validated again with seed 1 and a strict criterion, so the case has two attempts; then the
wizard is walked: the population page (the earlier attempts counted), the conditions page with
the casework range (and refused when the case lies outside it), the run page with the model's
name (and refused when the name is taken), the run queued, and the record page's verdict,
Coverage, Case Fit and Attempts tabs.

Everything in them is real: the record page shows the record the run stored (its declared range,
three repeats, the figures per length band, the size for casework), the Case Fit tab the engine's
check of DEMO-001's documents against that record's population profile, the Attempts tab every
validation of the case. Each picture's content is checked before it is saved.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
os.environ["TAVEER_HOME"] = tempfile.mkdtemp(prefix="taveer-shots-")

from tests.ui.screenshot_session import ScreenshotSession, options  # noqa: E402


def main(out: Path, suffix: str) -> None:
    from PySide6.QtWidgets import QApplication, QWizard

    from taveer_desktop.app import create_application
    from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
    from taveer_desktop.store.case_validation import validate_case
    from taveer_desktop.ui import validation_wizard as vw
    from taveer_desktop.ui.task_worker import Job

    app = create_application(["shots"])
    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    shots = ScreenshotSession(app, out, suffix=suffix)
    pump, wait, shoot = shots.pump, shots.wait, shots.shoot
    window = shots.first_start_window(work / "examiner.taveer")
    window.showMaximized()
    store = window.session.store
    case = store.cases.find("DEMO-001")
    population = store.populations.list_all()[0].name
    strict = ValidationSettings(folds=3, seed=1, criteria=AcceptanceCriteria.now(0.1, 0.05))
    validate_case(store, case.id, population, strict)
    window.session.changed("models", "cases", "validations", "audit", case_id=case.id)
    assert window.case_list.select_case_number("DEMO-001")

    window.window_actions.validate.trigger()
    wizard = window.cases.wizard
    wait(lambda: wizard.isVisible())
    shoot(wizard, "validation21-1-population.png")
    wizard.next()
    conditions = wizard.conditions_page
    conditions.folds.setValue(3)
    shoot(wizard, "validation21-2-range.png")
    q_case = conditions.case_lengths[0]
    conditions.q_high.setValue(q_case - 500)
    shoot(wizard, "validation21-2-range-refused.png")
    conditions.use_case_range()
    wizard.next()
    wizard.next()
    wizard.criteria_page.max_cllr.setValue(0.9)
    wizard.criteria_page.max_misleading.setValue(25.0)
    wizard.next()
    run = wizard.run_page
    suggested = run.name_edit.text()
    shoot(wizard, "validation21-5-name.png")
    run.name_edit.setText(store.models.get(case.model_id).name)
    shoot(wizard, "validation21-5-name-refused.png")
    run.name_edit.setText(suggested)

    release = threading.Event()
    window.runner.start(Job("holding the writer pool", lambda p: release.wait(60)))
    run.start()
    pump(0.8)
    shoot(wizard, "validation21-5-running.png", settle=0.2)
    release.set()
    wait(lambda: wizard.currentId() == vw.RECORD)
    page = wizard.record_page
    view = page.view
    shoot(wizard, "validation21-6-record.png", settle=0.8)
    record = view.record or {}
    assert record.get("repeats") and record.get("bands") and record.get("conditions"), record.keys()
    view.tabs.setCurrentWidget(view.coverage_text)
    shoot(wizard, "validation21-6-coverage.png", settle=0.8)
    assert page.fit.check is not None, page.fit.consequence.text()
    view.tabs.setCurrentWidget(page.fit)
    shoot(wizard, "validation21-6-fit.png", settle=0.8)
    view.tabs.setCurrentWidget(page.attempts)
    shoot(wizard, "validation21-6-attempts.png", settle=0.8)
    wizard.button(QWizard.WizardButton.FinishButton).click()
    window.close()
    QApplication.processEvents()


if __name__ == "__main__":
    folder, suffix, _size = options()
    main(folder, suffix)
