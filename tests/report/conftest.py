"""Fixtures of the report tests: real projects with verified cases, and their written reports.

Projects are built once per test session in a temporary folder: the demo case (Federalist
papers, the demo formal-prose model with its held-out evaluation record) and a hostile case
whose documents are full of HTML, control characters, right-to-left overrides and a
50,000-character line. Reports are read with pypdf (text normalised with NFKC, white space
collapsed) and with poppler's pdftotext/pdfinfo/pdffonts.
"""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from taveer_desktop import paths
from taveer_desktop.report.export import ExportedReport, export_report, load_evaluations
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_verification import verify_case

DEMO_MODEL = paths.resource("models", "demo-formal-prose.json")
DEMO_RECORD = paths.resource("models", "demo-formal-prose.training.json")
RTL_OVERRIDE = "\u202e"
HEADINGS_CHECK = [
    "Authorship verification report",
    "2. Summary",
    "3. Validation and population fit",
    "4. Evidence",
    "5. Method",
    "6. Result",
    "7. Interpretation",
    "8. Limitations",
    "9. Audit trail and reproducibility",
]


@dataclass
class WrittenReport:
    project: Path
    pdf: Path
    exported: ExportedReport
    document_hashes: list[str]
    text: str  # pypdf, NFKC, white space collapsed
    page_texts: list[str]
    reader: PdfReader


def normalised(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def read_report(project: Path, pdf: Path, exported: ExportedReport) -> WrittenReport:
    reader = PdfReader(pdf)
    pages = [normalised(page.extract_text()) for page in reader.pages]
    with ProjectStore.open(project) as store:
        case = store.cases.find(exported.case_number)
        hashes = []
        for doc in store.documents.list_for_case(case.id):
            hashes += [doc.sha256, doc.text_sha256]
    return WrittenReport(project, pdf, exported, hashes, " ".join(pages), pages, reader)


def demo_store(folder: Path) -> Path:
    """A project with the demo case DEMO-001 verified with the demo model."""
    demo = paths.resource("demo")
    manifest = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))
    entry = manifest["cases"][0]
    project = folder / "demo.taveer"
    with ProjectStore.create(project) as store:
        case = store.cases.create(
            entry["case_number"], entry["title"], "A. Examiner", "Example Lab", entry["description"]
        )
        store.documents.add(case.id, KNOWN, [demo / name for name in entry["known"]])
        store.documents.add(case.id, QUESTIONED, [demo / entry["questioned"]])
        model = store.models.add_file(DEMO_MODEL)
        verify_case(store, case.id, model.name)
    return project


def hostile_text(seed: str) -> str:
    demo = paths.resource("demo", "federalist", "federalist_10.txt").read_text(encoding="utf-8")
    parts = [
        "<b>bold?</b> <script>alert('x')</script> &amp; &lt;tag&gt; <table><tr><td>cell",
        f"An {RTL_OVERRIDE}override{RTL_OVERRIDE} and an isolate \u2067inside\u2069 mark.",
        "Control characters: \x07bell\x1b[31mred\x1b[0m and a zero-width\u200bspace.",
        "Hebrew: שלום עולם, Arabic: مرحبا بالعالم, and mixed text.",
        "x" * 50_000,
        ",".join(["however"] * 5000),
        seed,
        demo,
    ]
    return "\n\n".join(parts)


def hostile_store(folder: Path) -> Path:
    """A case whose file names and texts try to break the report's layout."""
    evidence = folder / "evidence"
    evidence.mkdir()
    known = []
    for i in range(2):
        path = evidence / f"<b>known {i} & <i>{RTL_OVERRIDE}txt.exe.txt"
        path.write_text(hostile_text(f"Known text {i}."), encoding="utf-8")
        known.append(path)
    questioned = evidence / "<script>questioned.txt"
    questioned.write_text(hostile_text("The questioned one."), encoding="utf-8")
    project = folder / "hostile.taveer"
    with ProjectStore.create(project) as store:
        # a case's own fields refuse control and bidi characters at the door (the file names
        # below still carry the override); markup and huge values are what they can hold
        case = store.cases.create(
            "<i>H-1</i>", "<h1>Big</h1>" + "y" * 5000, "<b>E</b>", "<u>&amp;</u>", "z" * 9000
        )
        store.documents.add(case.id, KNOWN, known)
        store.documents.add(case.id, QUESTIONED, [questioned])
        model = store.models.add_file(DEMO_MODEL)
        verify_case(store, case.id, model.name)
    return project


@pytest.fixture(scope="session")
def demo_report(tmp_path_factory, qapp) -> WrittenReport:
    folder = tmp_path_factory.mktemp("demo-report")
    project = demo_store(folder)
    pdf = folder / "DEMO-001.pdf"
    with ProjectStore.open(project) as store:
        run = store.runs.list_for_case(store.cases.find("DEMO-001").id)[-1]
        evaluations, source = load_evaluations(DEMO_RECORD, run.model_sha256)
        exported = export_report(
            store, "DEMO-001", pdf, evaluations=evaluations, evaluation_source=source
        )
    return read_report(project, pdf, exported)


@pytest.fixture(scope="session")
def hostile_report(tmp_path_factory, qapp) -> WrittenReport:
    folder = tmp_path_factory.mktemp("hostile-report")
    project = hostile_store(folder)
    pdf = folder / "hostile.pdf"
    with ProjectStore.open(project) as store:
        number = store.cases.list_all()[0].number
        exported = export_report(store, number, pdf)
    return read_report(project, pdf, exported)


def poppler(*command: str) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


# the signing tests' certificates and loopback TSA, shared with test_final_reports.py
from tests.report.test_signing import loopback_allowed, loopback_tsa, pki  # noqa: E402, F401
