"""Screenshots of the validation wizard and the model view of validation for docs/gui.md (not a
test): run under Xvfb.

    xvfb-run -a -s "-screen 0 1600x1000x24" \
        .venv/bin/python tests/ui/take_validation_screenshots.py OUT
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1600x1000x24" \
        .venv/bin/python tests/ui/take_validation_screenshots.py OUT --suffix=-150
    xvfb-run -a -s "-screen 0 1366x768x24" \
        .venv/bin/python tests/ui/take_validation_screenshots.py OUT --suffix=-1366 --size=1366x768

On a fresh project (the demo seeding of a first start, which validates DEMO-001 on the shipped
public-domain population): that validation in the case view and the model view; then DEMO-001
is validated again through the wizard on a larger public-domain population built from the
shared demo texts (Brontë chapters and Federalist
papers, one folder per author), imported through the wizard's first page. Every page of the
wizard is taken (the run page while the job waits for the writer pool, so its progress and
Cancel are visible), then the record's four tabs, the Verification tab naming the validation,
the model manager and the validation records dialog (after writing the record's PDF report).
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

from tests.ui.screenshot_session import ScreenshotSession  # noqa: E402 (after the path)


def main(out: Path, suffix: str, size: tuple[int, int] | None = None) -> None:
    from PySide6.QtWidgets import QApplication, QWizard

    from taveer_desktop.app import create_application
    from taveer_desktop.ui import validation_wizard as vw
    from taveer_desktop.ui.task_worker import Job

    app = create_application(["shots"])
    # after the application exists: the test fixtures' conftest would choose offscreen Qt
    from tests.core.validation_fixtures import make_demo_population

    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    folder = make_demo_population(work)
    shots = ScreenshotSession(app, out, size=size)  # names below carry the suffix
    pump, wait, shoot = shots.pump, shots.wait, shots.shoot

    window = shots.first_start_window(work / "examiner.taveer")
    store = window.session.store
    assert window.case_list.select_case_number("DEMO-001")

    # the demo's own validation of DEMO-001 (first start), in the case view and the model view
    demo_model = store.cases.find("DEMO-001").model_id
    assert store.validations.for_model(demo_model) is not None, "the demo has no validation"
    window.tabs.setCurrentWidget(window.verification_tab)
    shoot(window, f"validation-demo-case-view{suffix}.png", settle=0.8)
    records = window.models.show_validations(demo_model)
    wait(lambda: records.isVisible())
    shoot(records, f"validation-demo-record{suffix}.png", settle=0.8)
    records.close()

    window.window_actions.validate.trigger()
    wizard = window.cases.wizard
    wait(lambda: wizard.isVisible())

    page = wizard.population_page
    page.use_import.setChecked(True)
    page.set_folder(folder)
    page.name_edit.setText("Public-domain prose (demo)")
    page.who_edit.setText("the three Brontë sisters; Hamilton, Madison and Jay")
    page.genre_edit.setText("novels (chapters) and political essays")
    page.period_edit.setText("1787–1848")
    page.selection_edit.setText("the texts shipped as demo material; too small for casework")
    shoot(wizard, f"validation-1-import{suffix}.png")
    page.import_button.click()
    wait(lambda: page.worker is None)
    assert store.populations.list_all(), page.message.text()
    shoot(wizard, f"validation-1-population{suffix}.png")

    wizard.next()
    wizard.conditions_page.folds.setValue(3)
    shoot(wizard, f"validation-2-conditions{suffix}.png")
    wizard.next()
    shoot(wizard, f"validation-3-method{suffix}.png")  # TAVeer alone, the default
    wizard.next()
    wizard.criteria_page.max_cllr.setValue(0.9)
    wizard.criteria_page.max_misleading.setValue(25.0)
    shoot(wizard, f"validation-4-criteria{suffix}.png")
    wizard.next()
    shoot(wizard, f"validation-5-run{suffix}.png")

    # the run as the examiner sees it while it waits: hold the writer pool for a moment
    release = threading.Event()
    window.runner.start(Job("holding the writer pool", lambda p: release.wait(60)))
    wizard.run_page.start()
    pump(0.8)
    shoot(wizard, f"validation-5-running{suffix}.png", settle=0.2)
    release.set()
    wait(lambda: wizard.currentId() == vw.RECORD)
    view = wizard.record_page.view
    for widget, name in (
        (view.tabs.widget(0), "figures"),
        (view.charts, "charts"),
        (view.population_text, "population"),
        (view.limits_text, "limits"),
    ):
        view.tabs.setCurrentWidget(widget)
        shoot(wizard, f"validation-6-{name}{suffix}.png", settle=0.8)
    wizard.button(QWizard.WizardButton.FinishButton).click()
    pump(0.5)

    window.tabs.setCurrentWidget(window.verification_tab)
    shoot(window, f"validation-case-view{suffix}.png", settle=0.8)

    model_id = store.cases.find("DEMO-001").model_id
    manager = window.models.open_manager()
    manager.select(store.models.get(model_id).name)
    shoot(manager, f"validation-model-manager{suffix}.png", settle=0.6)
    manager.validation_button.click()
    dialog = window.models.validations_dialog
    wait(lambda: dialog.isVisible())
    dialog.export_report(work / "validation-DEMO-001.pdf")  # the record's PDF, audited
    wait(lambda: dialog.export_worker is None)
    shoot(dialog, f"validation-records{suffix}.png", settle=0.8)
    dialog.view.tabs.setCurrentWidget(dialog.view.charts)
    shoot(dialog, f"validation-records-charts{suffix}.png", settle=0.8)
    dialog.close()
    manager.close()
    window.close()
    QApplication.processEvents()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    options = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--"))
    size = tuple(int(v) for v in options["size"].split("x")) if "size" in options else None
    main(Path(args[0] if args else "screenshots"), options.get("suffix", ""), size)
