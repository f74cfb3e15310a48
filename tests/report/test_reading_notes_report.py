"""The case report lists every reading note: the evidence table's detail, a warning paragraph
after it, and the result's reliability warnings (a real project, a real PDF read back)."""

from __future__ import annotations

import re

from taveer_desktop import paths
from taveer_desktop.report.export import export_report
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_verification import verify_case

from .conftest import DEMO_MODEL, read_report


def test_the_report_says_where_the_analysed_text_differs_from_the_file(tmp_path, qapp):
    demo = paths.resource("demo", "federalist")
    text = (demo / "federalist_51_questioned.txt").read_text("utf-8")
    spoiled = re.sub(r"\bthe\b", "t\u200bhe", text, count=19)
    questioned = tmp_path / "questioned.txt"
    questioned.write_text(spoiled, "utf-8")
    project = tmp_path / "notes.taveer"
    with ProjectStore.create(project) as store:
        case = store.cases.create("N-1", "Hidden characters", "A. Examiner")
        store.documents.add(case.id, KNOWN, [demo / f"federalist_{n}.txt" for n in (10, 14)])
        store.documents.add(case.id, QUESTIONED, [questioned])
        model = store.models.add_file(DEMO_MODEL)
        verify_case(store, case.id, model.name, stability_resamples=None)
    pdf = tmp_path / "notes.pdf"
    with ProjectStore.open(project) as store:
        exported = export_report(store, "N-1", pdf)
    report = read_report(project, pdf, exported)
    evidence = report.text[report.text.index("4. Evidence") :]
    assert "Not analysed: 19 invisible characters removed (zero width space U+200B ×19)" in evidence
    warning = "The analysed text differs from the file's bytes for 1 document ( Q )"
    assert warning in evidence  # pypdf reads the bold label with spaces around it
    summary = report.text[: report.text.index("4. Evidence")]
    assert "the analysed text differs from the file's bytes for the questioned document" in summary
