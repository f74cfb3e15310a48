"""The case report and validation report pages of docs/images (issue 21; not a test), from real
runs: a case validated three times on the public-domain demo population over the declared range
around its lengths (three repeats each; first seeds 0, 3, 6, the last two with stricter
criteria) and verified; the case report and the last attempt's validation report exported.

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
from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.presentation.validation_range_text import suggested_range
from taveer_desktop.report.export import export_report
from taveer_desktop.report.validation_export import export_validation_report
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_validation import case_lengths, validate_case
from taveer_desktop.store.case_verification import verify_case
from tests.core.validation_fixtures import make_demo_population

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
    questioned, known = case_lengths(store, case.id)
    ranges = {
        "questioned_chars": suggested_range(questioned),
        "known_chars": suggested_range(known),
    }
    for seed, crit in ((0, 3.0), (3, 0.5), (6, 0.5)):
        validate_case(
            store,
            case.id,
            "Public-domain prose (demo)",
            ValidationSettings(
                folds=3, seed=seed, repeats=3, criteria=AcceptanceCriteria.now(crit, 0.3), **ranges
            ),
        )
    verify_case(store, case.id, stability_resamples=None)
    export_report(store, "C-1", out / "case-report.pdf")
    last = store.validations.for_case(case.id)[-1]
    record = store.validations.record(last.id)
    assert record.get("bands") and record.get("repeats") and record.get("population_fit")
    export_validation_report(record, out / "validation-report.pdf", f"validation record {last.id}")
