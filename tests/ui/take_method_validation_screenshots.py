"""Screenshots of the validation wizard's method page and of a fused validation record for
docs/gui.md (not a test): run under Xvfb.

    xvfb-run -a -s "-screen 0 1600x1000x24" \
        .venv/bin/python tests/ui/take_method_validation_screenshots.py OUT
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1600x1000x24" \
        .venv/bin/python tests/ui/take_method_validation_screenshots.py OUT --suffix=-150

On a fresh project (the demo seeding of a first start stores the shipped public-domain
population and validates DEMO-001 on it with TAVeer), DEMO-001 is validated again through the
wizard with the fusion of TAVeer and LambdaG, on the same population, at the wizard's defaults
(3 folds: at most one per two of its 6 authors; LambdaG's order up to 10, 30 reference samples).
Taken: the method page (TAVeer chosen, then the fusion with the advanced options open), the run
page's plan, the record's figures, charts and methods compared, the model manager and the
validation records dialog naming the method.
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


def main(out: Path, suffix: str, size: tuple[int, int] | None = None) -> None:
    from PySide6.QtWidgets import QApplication, QWizard

    from taveer_desktop.app import create_application
    from taveer_desktop.ui import validation_wizard as vw

    app = create_application(["shots"])
    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    shots = ScreenshotSession(app, out, timeout=600, suffix=suffix, size=size)
    wait, shoot = shots.wait, shots.shoot

    window = shots.first_start_window(work / "examiner.taveer")
    store = window.session.store
    assert window.case_list.select_case_number("DEMO-001")
    window.window_actions.validate.trigger()
    wizard = window.cases.wizard
    wait(lambda: wizard.isVisible())
    assert wizard.population_page.isComplete()  # the demo's stored population
    wizard.next()
    wizard.next()
    assert wizard.currentId() == vw.METHOD
    page = wizard.method_page
    shoot(wizard, "validation-3-method.png")
    page.buttons["fusion"].setChecked(True)
    page.advanced_check.setChecked(True)
    shoot(wizard, "validation-3-method-fusion.png")
    wizard.next()
    wizard.criteria_page.max_cllr.setValue(0.5)
    wizard.criteria_page.max_misleading.setValue(10.0)
    wizard.next()
    shoot(wizard, "validation-5-run-fusion.png")
    wizard.run_page.start()
    wait(lambda: wizard.currentId() == vw.RECORD)
    view = wizard.record_page.view
    for widget, name in (
        (view.tabs.widget(0), "figures"),
        (view.charts, "charts"),
        (view.methods, "methods"),
    ):
        view.tabs.setCurrentWidget(widget)
        shoot(wizard, f"validation-6-{name}-fusion.png", settle=0.8)
    wizard.button(QWizard.WizardButton.FinishButton).click()
    shots.pump(0.5)

    model_id = store.cases.find("DEMO-001").model_id
    manager = window.models.open_manager()
    manager.select(store.models.get(model_id).name)
    shoot(manager, "validation-model-manager-fusion.png", settle=0.6)
    manager.validation_button.click()
    dialog = window.models.validations_dialog
    wait(lambda: dialog.isVisible())
    dialog.view.tabs.setCurrentWidget(dialog.view.methods)
    shoot(dialog, "validation-records-fusion.png", settle=0.8)
    dialog.close()
    manager.close()
    window.close()
    QApplication.processEvents()


if __name__ == "__main__":
    main(*options())
