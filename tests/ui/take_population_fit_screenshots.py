"""Screenshots of the decision view with a population-fit finding for docs/gui.md (not a test):
run under Xvfb on a 1366 × 768 screen at 100 % and at 150 %.

    xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python tests/ui/take_population_fit_screenshots.py OUT --suffix=-1366
    QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python tests/ui/take_population_fit_screenshots.py OUT --suffix=-1366-150

A real run, public-domain texts only (``../shared/demo-texts``, or the folder in
``TAVEER_DEMO_TEXTS``): a population of Federalist papers only — every paper with one named
author or the three Hamilton and Madison wrote together, the header line that names the author
removed (74 papers, four authors) — and a case of another kind, a Brontë case (Wuthering
Heights ch. 2 questioned, ch. 1 and 7 known). The case is validated on that population over a
range holding its lengths (three repeats) and verified in the window; the conclusion must be
investigative with a ``population_fit`` finding for the questioned text, checked before the
pictures are saved. Then the Decision tab scrolled to the list of every reason
(``-reasons``) and the wizard's Case Fit tab for the same case and population.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ["TAVEER_HOME"] = tempfile.mkdtemp(prefix="taveer-shots-")

from tests.ui.screenshot_session import ScreenshotSession, options  # noqa: E402 (after the path)

DEMO_TEXTS = Path(os.environ.get("TAVEER_DEMO_TEXTS", REPO.parent / "shared" / "demo-texts"))
POPULATION = "Federalist papers (1787-1788)"
AUTHOR_LINE = re.compile(r"(HAMILTON|MADISON|JAY)( AND MADISON)?\s*")


def federalist_population(folder: Path) -> Path:
    """One sub-folder per author (the joint papers as their own), the author's line removed;
    the disputed papers ("HAMILTON OR MADISON") left out."""
    for paper in sorted((DEMO_TEXTS / "federalist").glob("federalist_*.txt")):
        lines = paper.read_text(encoding="utf-8").splitlines()
        for index, line in enumerate(lines):
            if AUTHOR_LINE.fullmatch(line):
                author = folder / line.strip().title().replace(" ", "_")
                author.mkdir(parents=True, exist_ok=True)
                text = "\n".join(lines[:index] + lines[index + 1 :])
                (author / paper.name).write_text(text, encoding="utf-8")
                break
            if " OR " in line and line.startswith("HAMILTON"):
                break
    return folder


def main(out: Path, suffix: str = "", size: tuple[int, int] | None = None) -> None:
    from PySide6.QtWidgets import QApplication, QScrollArea, QSplitter, QWizard

    from taveer_desktop.app import create_application
    from taveer_desktop.core.calibration.outcome import ConclusionKind
    from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
    from taveer_desktop.store import KNOWN, QUESTIONED
    from taveer_desktop.store.case_validation import validate_case
    from taveer_desktop.ui import validation_wizard as vw
    from taveer_desktop.ui.explain.summary_view import DecisionSummary
    from taveer_desktop.ui.project_session import CASES, MODELS, VALIDATIONS

    app = create_application(["shots"])
    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))
    shots = ScreenshotSession(app, out, suffix=suffix, size=size)
    pump, wait, shoot = shots.pump, shots.wait, shots.shoot
    window = shots.first_start_window(work / "examiner.taveer")
    window.showMaximized()
    store = window.session.store

    store.populations.add_folder(
        POPULATION,
        federalist_population(work / "federalist"),
        "who: Hamilton, Madison, Jay, and Hamilton and Madison together; genre: political "
        "essays in newspapers; period: 1787-1788; how selected: every Federalist paper with a "
        "named author (the disputed ones left out)",
    )
    brontes = DEMO_TEXTS / "brontes"
    case = store.cases.create(
        "2026-021-F", title="A Brontë chapter; validated on Federalist papers"
    )
    store.documents.add(
        case.id,
        KNOWN,
        [brontes / f"Emily_Bronte_Wuthering_Heights_ch0{n}.txt" for n in (1, 7)],
    )
    store.documents.add(case.id, QUESTIONED, [brontes / "Emily_Bronte_Wuthering_Heights_ch02.txt"])
    settings = ValidationSettings(
        folds=3,
        seed=0,
        repeats=3,
        questioned_chars=(4000, 16000),
        known_chars=(10000, 40000),
        criteria=AcceptanceCriteria.now(0.9, 0.3),
    )
    validate_case(store, case.id, POPULATION, settings)
    window.session.changed(MODELS, CASES, VALIDATIONS, case_id=case.id)

    assert window.case_list.select_case_number(case.number)
    done = []
    window.verification_finished.connect(done.append)
    window.window_actions.verify.trigger()
    wait(lambda: done)
    window.verification_finished.disconnect()
    run_id = done[0].run.id
    run = store.runs.verification(run_id)
    assert run.conclusion.kind is ConclusionKind.INVESTIGATIVE, run.conclusion.kind
    rules = [f["rule"] for f in store.runs.result(run_id)["conclusion"]["findings"]]
    assert "population_fit" in rules, rules
    shoot(window, "decision-population-fit.png", settle=0.6)
    # the Decision tab scrolled to the list of every reason (the fit finding among them)
    summary = next(w for w in window.findChildren(DecisionSummary) if w.isVisible())
    reasons = summary.reasons_label
    assert "unlike the texts of the population" in reasons.text(), reasons.text()
    pump(2.0)  # the stability check finishes and the view settles before scrolling
    splitter = reasons.parent()  # the examiner widens the text beside the chart
    while splitter is not None and not isinstance(splitter, QSplitter):
        splitter = splitter.parent()
    if splitter is not None:
        whole = sum(splitter.sizes())
        splitter.setSizes([whole * 17 // 20, whole - whole * 17 // 20])
        pump(0.3)
    areas, parent = [], reasons.parent()
    while parent is not None:  # every scroll area around the reasons, innermost first
        if isinstance(parent, QScrollArea):
            areas.append(parent)
        parent = parent.parent()
    assert areas
    for index in reversed(range(len(areas))):  # outermost first: the inner area up, then
        area = areas[index]  # the reasons to the top of the innermost
        target = reasons if index == 0 else areas[index - 1]
        top = target.mapTo(area.widget(), target.rect().topLeft()).y()
        if index == 0:  # the fit finding at the top: about where its text starts in the list
            plain = reasons.text()
            share = plain.index("unlike the texts of the population") / len(plain)
            top += int(reasons.height() * share) - 3 * reasons.fontMetrics().height()
        area.verticalScrollBar().setValue(top)
        pump(0.2)
    assert areas[0].verticalScrollBar().value() > 0, "the reasons are not scrolled into view"
    shoot(window, "decision-population-fit-reasons.png", settle=0.1)
    for area in areas:
        area.verticalScrollBar().setValue(0)

    # the wizard on the same case and population: a second real run, its Case Fit tab
    window.window_actions.validate.trigger()
    wizard = window.cases.wizard
    wait(lambda: wizard.isVisible())
    wizard.population_page.reload(select=POPULATION)
    assert wizard.population_page.selected().name == POPULATION
    wizard.next()
    wizard.conditions_page.seed.setValue(3)
    wizard.next()
    wizard.next()
    wizard.criteria_page.max_cllr.setValue(0.9)
    wizard.criteria_page.max_misleading.setValue(30.0)
    wizard.next()
    wizard.run_page.start()
    wait(lambda: wizard.currentId() == vw.RECORD, 120)
    page = wizard.record_page
    assert page.fit.check is not None and not page.fit.check.fits, page.fit.headline_text()
    page.view.tabs.setCurrentWidget(page.fit)
    shoot(wizard, "validation21-6-fit-flagged.png", settle=0.8)
    wizard.button(QWizard.WizardButton.FinishButton).click()
    window.close()
    QApplication.processEvents()


if __name__ == "__main__":
    main(*options())
