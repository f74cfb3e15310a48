"""The case report and validation report pages of docs/images (issue 21; not a test): a case
validated three times (seeds 0-2) and verified, and a record with the issue-21 keys added by
hand (values invented, see take_validation_range_screenshots.py).

    .venv/bin/python tests/report/make_validation21_pages.py OUT
    pdftoppm -r 60 -f 3 -l 3 -png OUT/case-report.pdf OUT/case
    pdftoppm -r 60 -f 2 -l 3 -png OUT/validation-report.pdf OUT/val
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
os.environ["QT_QPA_PLATFORM"] = "offscreen"
# ruff: noqa: E402 (imports after the path and the platform are set)
from taveer_desktop.core.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.report.export import export_report
from taveer_desktop.report.validation_export import export_validation_report
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_validation import validate_case
from taveer_desktop.store.case_verification import verify_case
from tests.core.validation_fixtures import make_demo_population
from tests.ui.take_validation_range_screenshots import illustrative_record

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
work = Path(tempfile.mkdtemp())
folder = make_demo_population(work)
madison = sorted((folder / "Madison").glob("*.txt"))
with ProjectStore.create(work / "p.taveer") as store:
    case = store.cases.create("C-1", "Madison?")
    store.documents.add(case.id, KNOWN, madison[:2])
    store.documents.add(case.id, QUESTIONED, [madison[2]])
    store.populations.add_folder(
        "Public-domain prose (demo)",
        folder,
        "who: Brontës and Federalist authors; genre: prose; period: 1787-1848; "
        "how selected: demo texts",
    )
    for seed, crit in ((0, 3.0), (1, 0.5), (2, 0.5)):
        validate_case(
            store,
            case.id,
            "Public-domain prose (demo)",
            ValidationSettings(folds=3, seed=seed, criteria=AcceptanceCriteria.now(crit, 0.3)),
        )
    verify_case(store, case.id, stability_resamples=None)
    export_report(store, "C-1", out / "case-report.pdf")
    record = store.validations.record(store.validations.for_case(case.id)[0].id)
export_validation_report(
    illustrative_record(record),
    out / "validation-report.pdf",
    "validation record 1 (issue-21 keys added by hand)",
)
