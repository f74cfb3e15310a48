"""The written PDF of a real case: sections in order, hashes, page count, fonts, metadata,
the attached result, the audit entry, atomic writing."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from taveer_desktop.report.content import SECTION_TITLES
from taveer_desktop.report.export import export_report, prepare_report
from taveer_desktop.report.pdf import RenderedReport
from taveer_desktop.store import ProjectStore

from .conftest import normalised, poppler

HEADINGS = ["Authorship verification report"] + [
    f"{i}. {title}" for i, title in enumerate(SECTION_TITLES, start=1) if i > 1
]


def test_every_section_is_present_in_order(demo_report):
    positions = [demo_report.text.find(h) for h in HEADINGS]
    assert all(p >= 0 for p in positions), dict(zip(HEADINGS, positions, strict=True))
    assert positions == sorted(positions)


def test_sections_in_order_with_pdftotext_too(demo_report):
    text = normalised(poppler("pdftotext", "-layout", str(demo_report.pdf), "-"))
    positions = [text.find(h) for h in HEADINGS]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)
    for digest in demo_report.document_hashes:
        assert digest in text


def test_every_document_sha256_appears_in_full(demo_report):
    assert len(demo_report.document_hashes) == 10  # 5 documents, file and text hash each
    for digest in demo_report.document_hashes:
        assert digest in demo_report.text


def test_page_count_matches_the_footer(demo_report):
    info = poppler("pdfinfo", str(demo_report.pdf))
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    assert pages == demo_report.exported.page_count == len(demo_report.page_texts)
    for number, text in enumerate(demo_report.page_texts, start=1):
        assert f"Page {number} of {pages}" in text
        assert "Case DEMO-001" in text and demo_report.exported.report_id in text


def test_fonts_are_embedded(demo_report):
    rows = poppler("pdffonts", str(demo_report.pdf)).splitlines()[2:]
    assert rows, "the PDF uses no font: Qt found none and wrote no text"
    for row in rows:
        assert "DejaVu" in row
        assert row.split()[-5] == "yes", row  # the "emb" column


def test_metadata_and_attached_result(demo_report):
    info = poppler("pdfinfo", str(demo_report.pdf))
    assert "Authorship verification report, case DEMO-001" in info
    assert "TAVeer Desktop" in info
    attachments = demo_report.reader.attachments
    assert list(attachments) == ["taveer-result.json"]
    data = json.loads(attachments["taveer-result.json"][0])
    with ProjectStore.open(demo_report.project) as store:
        run = store.runs.get(demo_report.exported.run_id)
        assert data["result"] == store.runs.result(run.id)
    assert data["report_id"] == demo_report.exported.report_id
    assert data["run"]["record_sha256"] == run.record_sha256


def test_content_states_the_case_facts(demo_report):
    text = demo_report.text
    assert "stylistically consistent with the known texts" in text
    assert "Examiner A. Examiner" in text and "Agency Example Lab" in text
    assert "UTC" in text and "local time" in text
    assert "TAVeer Desktop 0.1.0" in text
    assert "No topic word is used" in text
    assert "74 %" in text and "8 (13 %) consistent" in text  # held-out error rates
    assert "The check passed" in text
    for category in ("F1", "F2", "F4", "F6", "F9"):  # the demo model's ensemble
        assert f"{category} — " in text
    assert "Where the top 3 features of each list occur in the questioned text" in text
    assert "Reproducibility" in text and "no random element" in text


def test_report_sha256_is_recorded_in_the_audit_log(demo_report):
    digest = hashlib.sha256(demo_report.pdf.read_bytes()).hexdigest()
    assert digest == demo_report.exported.sha256
    with ProjectStore.open(demo_report.project) as store:
        entries = [e for e in store.audit.entries() if e.action == "report_exported"]
        assert entries and entries[-1].details["sha256"] == digest
        assert entries[-1].details["run_ids"] == [demo_report.exported.run_id]
        assert store.check_integrity().ok


def test_nothing_is_left_when_recording_fails(demo_report, tmp_path, monkeypatch):
    target = tmp_path / "never.pdf"

    def refuse(*args, **kwargs):
        raise RuntimeError("audit log unavailable")

    with ProjectStore.open(demo_report.project) as store:
        monkeypatch.setattr(store.audit, "record_report_exported", refuse)
        with pytest.raises(RuntimeError):
            export_report(store, "DEMO-001", target)
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_replaced_whole(demo_report, tmp_path):
    target = tmp_path / "report.pdf"
    target.write_bytes(b"old content")
    with ProjectStore.open(demo_report.project) as store:
        exported = export_report(store, "DEMO-001", target)
    assert target.read_bytes().startswith(b"%PDF")
    assert hashlib.sha256(target.read_bytes()).hexdigest() == exported.sha256
    # no partial file is left; the receipt of the store is written beside the report
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.pdf", "report.pdf.receipt.json"]


def test_archival_copy_is_pdf_a_without_attachment(demo_report, tmp_path):
    target = tmp_path / "archival.pdf"
    with ProjectStore.open(demo_report.project) as store:
        export_report(store, "DEMO-001", target, archival=True)
    data = target.read_bytes()
    assert b"pdfaid:part" in data or b"pdfaid" in data
    assert b"taveer-result.json" not in data
    text = " ".join(normalised(p) for p in poppler("pdftotext", str(target), "-").split("\f"))
    assert "carries no attachment" in text


def test_summary_gives_the_lr_on_the_chosen_scale_with_its_table_and_the_stability(
    demo_report, qapp
):
    text = demo_report.text
    # the conclusion leads: its kind, the LR statement or why there is none, the propositions
    summary = text[text.index("The question.") :]
    kinds = ("Evaluative conclusion.", "For investigation only.", "No conclusion.")
    first_kind = min((summary.index(k), k) for k in kinds if k in summary)
    assert first_kind[0] < summary.index("The method's classification")
    assert "Hp: the author of the known documents wrote the questioned document" in text
    assert "Hd: someone else wrote the questioned document" in text
    assert "Stability of the classification." in text and "gave the same classification" in text
    with ProjectStore.open(demo_report.project) as store:
        inputs, content = prepare_report(store, "DEMO-001", scale_id="marquis2016")
        (stored,) = store.runs.stability_checks(inputs.run.id)
    # the report quotes the stability stored with the run, exactly
    assert inputs.stability == stored and inputs.stability.resamples == 200
    # the scale's table is printed with an evaluative conclusion only
    evaluative = inputs.verification.conclusion.kind.value == "evaluative"
    assert ("extremely strong support" in text) == evaluative  # a row of the ENFSI table
    if inputs.verification.conclusion.log10_lr is not None:
        assert "likelihood ratio" in text.lower()
    exact = f"{stored.agreeing} of {stored.resamples} ("
    assert exact in text
    if stored.agreeing < stored.resamples:
        assert "(100 %)" not in text[text.index(exact) :][:40]
    with ProjectStore.open(demo_report.project) as store:
        again, _ = prepare_report(store, "DEMO-001", scale_id="marquis2016")
    assert again.stability == inputs.stability
    rendered_text = " ".join(block.html for block in content.blocks if hasattr(block, "html"))
    assert ("Marquis et al. 2016" in rendered_text) == evaluative  # the chosen scale
    assert RenderedReport.layout(content).page_count >= 10


def test_every_section_reference_names_the_section_it_means(demo_report):
    """The limitations, the audit trail and the reproducibility paragraph point to where the
    model's corpus, the documents' SHA-256 and the integrity check really are (a section
    added before them once left them pointing one section short)."""
    text = demo_report.text
    evidence, method = SECTION_TITLES.index("Evidence") + 1, SECTION_TITLES.index("Method") + 1
    assert f"{evidence}. Evidence" in text and "Integrity check" in text
    assert f"the corpus named in section {method};" in text  # the model's table: 5. Method
    assert f"the text extracted from each file (section {evidence})" in text
    assert f"(SHA-256 of each in section {evidence})" in text
    assert f"found by the integrity check (section {evidence})" in text


def test_section_numbers_are_never_written_out_in_the_report_code():
    """Every "section N" the report prints is counted from ``SECTION_TITLES``
    (``wording.section``), so adding or moving a section cannot leave a stale reference."""
    import io
    import tokenize
    from pathlib import Path

    import taveer_desktop.report as report_package

    stale = []
    for module in sorted(Path(report_package.__file__).parent.glob("*.py")):
        source = module.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING and re.search(r"\bsection \d", token.string):
                stale.append(f"{module.name}:{token.start[0]}")
    assert not stale


def test_the_report_ends_with_its_end_marker_after_the_sign_off(demo_report):
    text = demo_report.text
    end = text.rfind("End of the authorship verification report.")
    assert end > text.rfind("Technical review") > text.rfind("9. Audit trail")
    assert "End of the authorship verification report." in demo_report.page_texts[-1]


def test_the_draft_watermark_is_not_text(demo_report):
    """The DRAFT across each page is drawn as outlines: the extracted text of a page says
    DRAFT once, in the band at its top (and where the sign-off says it is a draft)."""
    for page in demo_report.page_texts:
        assert "DRAFT, not final" in page
        assert page.count("DRAFT") == 1 + page.count("is a DRAFT"), page[:200]


def test_no_tick_label_under_the_similarity_charts_score_mark():
    from taveer_desktop.report.chart_painter import SCORE_MARK_ROOM, labelled_ticks

    ticks = (0.0, 0.25, 0.5, 0.75, 1.0)
    width = 220.0  # points, about the chart's plot in the report
    assert labelled_ticks(ticks, 0.769, width) == (0.0, 0.25, 0.5, 1.0)  # not "0.7▲"
    assert labelled_ticks(ticks, 0.62, width) == ticks
    assert labelled_ticks(ticks, None, width) == ticks
    for score in (0.0, 0.3, 0.5, 0.769, 0.99):
        for tick in labelled_ticks(ticks, score, width):
            assert abs(tick - score) * width >= SCORE_MARK_ROOM


def test_the_result_table_keeps_its_note_column_only_where_a_kind_has_a_note(demo_report):
    from taveer_desktop.report.blocks import Column, Row
    from taveer_desktop.report.content_findings import without_empty_last_column

    columns = (Column("", 0.1), Column("Distance", 0.5), Column("Note", 0.4))
    quiet = (Row(("F1", "0.3", "")), Row(("F2", "0.4", ""), shade=True))
    kept_columns, kept_rows = without_empty_last_column(columns, quiet)
    assert [c.title for c in kept_columns] == ["", "Distance"]
    assert [r.cells for r in kept_rows] == [("F1", "0.3"), ("F2", "0.4")]
    assert [r.shade for r in kept_rows] == [False, True]  # the ensemble's shading kept
    noted = (Row(("F1", "0.3", "")), Row(("F2", "0.4", "only 2 features")))
    assert without_empty_last_column(columns, noted) == (columns, noted)
    # the demo case's feature kinds carry no note: its result table has no empty Note column
    result = demo_report.text[demo_report.text.find("6. Result") :]
    header = result[result.find("Threshold Similarity Features Q / K") :][:60]
    assert header.startswith("Threshold Similarity Features Q / K F1 ")  # no "Note" between
