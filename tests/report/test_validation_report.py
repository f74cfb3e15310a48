"""The validation report PDF (``report/validation_content.py``, ``validation_export.py``, the
x–y plots of ``plot_layout``/``plot_painter``) and its commands: written from a real validation
of the public-domain demo population, read back with pdf_check, pypdf and poppler; exported
from a project (audited, with a receipt) and right after ``taveer validate``; bad input refused
in one line with nothing written."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader

from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.core.validation.validation_curves import curves_of, score_distributions
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.presentation.validation_figures_text import FIGURE_NAMES, figure_lines
from taveer_desktop.report.inputs import ReportError
from taveer_desktop.report.pdf_check import check_written_pdf
from taveer_desktop.report.plot_layout import range_ticks, thin_polyline
from taveer_desktop.report.validation_content import (
    RecordSource,
    build_validation_report,
    now,
    record_sha256,
)
from taveer_desktop.report.validation_export import (
    export_stored_validation_report,
    export_validation_report,
    stored_record,
)
from taveer_desktop.report.validation_plots import ECE_CEILING, ece_plot, score_plot, tippett_plot
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_validation import validate_case
from taveer_desktop.store.errors import DamagedStore
from taveer_desktop.store.fingerprints import sha256_hex
from tests.cli.test_cli import assert_bad_input, run
from tests.core.validation_fixtures import make_demo_population
from tests.report.conftest import normalised, poppler

DESCRIPTION = "Brontë chapters and Federalist papers of undisputed authorship (demonstration)"


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory):
    return make_demo_population(tmp_path_factory.mktemp("report-population"))


@pytest.fixture(scope="module")
def project(tmp_path_factory, demo_folder):
    """A case (Madison papers) validated on the demo population with two criteria."""
    path = tmp_path_factory.mktemp("validation-project") / "p.taveer"
    madison = sorted((demo_folder / "Madison").glob("*.txt"))
    with ProjectStore.create(path) as store:
        case = store.cases.create("C-1")
        store.documents.add(case.id, KNOWN, madison[:2])
        store.documents.add(case.id, QUESTIONED, [madison[2]])
        store.populations.add_folder("demo", demo_folder, DESCRIPTION)
        criteria = AcceptanceCriteria.now(max_cllr=0.95, max_misleading=0.05)
        validate_case(
            store, case.id, "demo", ValidationSettings(folds=3, bootstrap=40, criteria=criteria)
        )
    return path


@pytest.fixture(scope="module")
def written(project, tmp_path_factory):
    """The stored record's report written by the command line."""
    pdf = tmp_path_factory.mktemp("validation-report") / "validation-1.pdf"
    result = run("--project", project, "validation", "report", "1", "-o", pdf, "--json")
    assert result.returncode == 0, result.stderr
    return pdf, json.loads(result.stdout)


def _record(project: Path) -> dict:
    with ProjectStore.open(project) as store:
        return store.validations.record(1)


def test_the_report_is_whole_and_holds_every_part_of_the_record(project, written):
    pdf, answer = written
    record = _record(project)
    assert check_written_pdf(pdf, answer["pages"]) == answer["pages"] >= 4
    assert answer["sha256"] == sha256_hex(pdf.read_bytes())
    text = normalised(poppler("pdftotext", "-layout", str(pdf), "-"))
    # identification
    assert "Validation report" in text and record_sha256(record) in text
    assert record["model"]["sha256"] in text and record["model"]["name"] in text
    # population
    assert record["population"]["sha256"] in text and DESCRIPTION in text
    # protocol, criteria, figures with intervals, plots, limits
    assert f"seed {record['protocol']['seed']}" in text and "Folds by author." in text
    assert "Cllr at most 0.95" in text and "at most 5.0 %" in text
    assert recorded_time(record["acceptance"]["criteria"]["set_utc"]) in text  # as elsewhere
    assert recorded_time(record["created_utc"]) in text
    for line in figure_lines(R(record)):
        assert " ".join(line.name.split()[:2]) in text  # table cells wrap the rest
        assert f"{line.value} {line.interval}" in text, line
    assert f"{record['figures']['cllr']:.3f}" in text
    for title in ("Tippett plot", "Empirical cross-entropy plot", "Score distributions"):
        assert title in text
    assert "LR = 1" in text and "prior odds 1" in text and "threshold 0.5" in text
    assert "Too small for casework." in text
    # the end marker comes last, after the sign-off section
    assert text.rfind("End of the validation report.") > text.rfind("Technical review") > 0
    assert "states nothing about who wrote any document" in text
    assert "Page 1 of" in text


def test_the_record_is_attached_and_its_hash_is_the_stored_one(project, written):
    pdf, answer = written
    record = _record(project)
    with ProjectStore.open(project) as store:
        stored = store.validations.get(1)
    assert answer["record_sha256"] == stored.record_sha256 == record_sha256(record)
    attachments = PdfReader(pdf).attachments
    data = attachments["taveer-validation-record.json"][0]
    assert sha256_hex(data) == stored.record_sha256 and json.loads(data) == record


def test_the_export_is_audited_with_a_receipt_and_the_project_still_checks(project, written):
    pdf, answer = written
    with ProjectStore.open(project) as store:
        entry = [e for e in store.audit.entries() if e.action == "validation_report_exported"][-1]
        case = store.cases.find("C-1")
        assert store.check_integrity().ok
    assert entry.seq == answer["audit_seq"] and entry.case_id == case.id
    assert entry.details["sha256"] == answer["sha256"]
    assert entry.details["validation_id"] == 1 and entry.details["file_name"] == str(pdf)
    assert Path(answer["receipt"]).is_file()
    listed = run("--project", project, "validation", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    (row,) = json.loads(listed.stdout)["validations"]
    assert row["id"] == 1 and row["case"] == "C-1" and row["population"] == "demo"
    assert row["criteria_met"] is False
    text = run("--project", project, "validation", "list")
    assert "criteria NOT met" in text.stdout and "population demo" in text.stdout


def test_every_page_renders_with_ink_inside_the_margins(project, qapp):
    from taveer_desktop.report.pdf import PAGE_WIDTH, RenderedReport

    content = build_validation_report(R(_record(project)), RecordSource("a test", now()))
    rendered = RenderedReport.layout(content)
    for index in range(rendered.page_count):
        image = rendered.page_image(index, scale=0.5)
        # no ink in the outer 8 mm strips left and right (nothing runs off the page)
        strip = int(8 / 25.4 * 72 * 0.5)
        for x in list(range(strip)) + list(range(int(PAGE_WIDTH * 0.5) - strip, image.width())):
            for y in range(0, image.height(), 3):
                assert image.pixelColor(x, y).lightness() > 250, (index, x, y)


@pytest.mark.slow
def test_bad_input_is_refused_in_one_line_and_nothing_is_written(project, tmp_path):
    target = tmp_path / "x.pdf"
    missing = run("--project", project, "validation", "report", "9", "-o", target)
    assert "no validation record with id 9" in assert_bad_input(missing, project)
    nowhere = tmp_path / "no-such-folder" / "x.pdf"
    unwritable = run("--project", project, "validation", "report", "1", "-o", nowhere)
    assert "does not exist" in assert_bad_input(unwritable, nowhere)
    a_folder = run("--project", project, "validation", "report", "1", "-o", tmp_path)
    assert "is a folder" in assert_bad_input(a_folder, tmp_path)
    # a record whose bytes no longer match their SHA-256, then one that is no JSON at all
    copy_path = tmp_path / "damaged.taveer"
    copy_path.write_bytes(project.read_bytes())
    with sqlite3.connect(copy_path) as db:
        db.execute("DROP TRIGGER validation_records_immutable")
        (data,) = db.execute("SELECT record_json FROM validation_records WHERE id = 1").fetchone()
        db.execute(
            "UPDATE validation_records SET record_json = ? WHERE id = 1",
            (data.replace(b'"cllr":', b'"cllr" :', 1),),
        )
    changed = run("--project", copy_path, "validation", "report", "1", "-o", target)
    assert "failed its integrity check" in assert_bad_input(changed, copy_path)
    with (
        ProjectStore.open(copy_path, verify=False) as store,  # and the record read alone
        pytest.raises(DamagedStore, match="no longer matches its SHA-256"),
    ):
        stored_record(store, 1)
    with sqlite3.connect(copy_path) as db:
        garbage = b"{not json"
        db.execute(
            "UPDATE validation_records SET record_json = ?, record_sha256 = ? WHERE id = 1",
            (garbage, sha256_hex(garbage)),
        )
    with ProjectStore.open(copy_path, verify=False) as store:
        with pytest.raises(DamagedStore, match="cannot be read"):
            stored_record(store, 1)
        with pytest.raises(ReportError, match="failed its integrity check"):
            export_stored_validation_report(store, 1, target)
    assert not target.exists()
    left = {p.name for p in tmp_path.iterdir()} - {"damaged.taveer-wal", "damaged.taveer-shm"}
    assert left == {"damaged.taveer"}  # no report, no temporary file


@pytest.mark.slow
def test_validate_writes_the_report_and_refuses_a_bad_target_before_the_run(demo_folder, tmp_path):
    model, record, pdf = tmp_path / "m.json", tmp_path / "r.json", tmp_path / "v.pdf"
    options = ["--questioned-chars", "3000", "--known-chars", "9000", "--folds", "3"]
    done = run(
        "validate", "--population", demo_folder, "-o", model, "--record", record,
        "--report", pdf, "--json", *options,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["report"] == str(pdf)
    pages = int(poppler("pdfinfo", str(pdf)).split("Pages:")[1].split()[0])
    assert check_written_pdf(pdf, pages) == pages
    text = normalised(poppler("pdftotext", str(pdf), "-"))
    # a long path wraps after a slash (under pytest-xdist tmp_path is one folder deeper)
    assert "the record " + str(record) in text.replace("/ ", "/") and "(not stored)" in text
    assert record_sha256(json.loads(record.read_text())) in text
    bad = tmp_path / "missing" / "v.pdf"
    other = tmp_path / "m2.json"
    refused = run("validate", "--population", demo_folder, "-o", other, "--report", bad, *options)
    assert_bad_input(refused, bad)
    assert not other.exists()  # refused before the run: no model either


def test_a_record_without_usable_trials_is_refused_before_any_page(project, tmp_path, qapp):
    from taveer_desktop.core.ground.errors import InputError

    record = _record(project)
    for trials in ([], [{"same": True}], None):
        broken = {**record, "trials": trials}
        with pytest.raises(InputError):
            export_validation_report(broken, tmp_path / "x.pdf", "a test")
    assert not (tmp_path / "x.pdf").exists()


def test_hostile_population_text_is_shown_literally(project, tmp_path, qapp):
    record = copy.deepcopy(_record(project))
    record["population"]["name"] = "<b>staff</b> & co"
    record["population"]["description"] = "<script>x</script> \u202eevil\u202e " + "w " * 3000
    record["warnings"] = [f"<i>file {i}</i> refused" for i in range(45)]
    exported = export_validation_report(record, tmp_path / "h.pdf", "<hostile> source")
    text = normalised(poppler("pdftotext", str(exported.path), "-"))
    assert "<b>staff</b> & co" in text and "<script>x</script>" in text
    assert "<hostile> source" in text and "<i>file 19</i> refused" in text
    assert "and 25 more (in the attached record)" in text
    assert check_written_pdf(exported.path, exported.page_count) == exported.page_count


def test_plot_layouts_follow_the_curves(project):
    record = _record(project)
    curves = curves_of(record)
    n = (curves.trials.n_same, curves.trials.n_different)
    tippett = tippett_plot(curves.tippett, R(record), n)
    low, high = tippett.x_range
    bound = record["bound"]
    assert low < bound["min_log10_lr"] < 0 < bound["max_log10_lr"] < high
    assert tippett.marks[0].x == 0.0 and len(tippett.marks) == 3
    for series in tippett.series:
        assert series.ys[0] == 1.0 and series.ys[-1] == 0.0
        assert series.xs[0] == low and series.xs[-1] == high
    ece = ece_plot(curves.ece)
    assert ece.y_range[1] <= ECE_CEILING + 0.2 and ece.x_range == (-2.5, 2.5)
    assert [s.style for s in ece.series] == ["validated", "calibrated", "neutral"]
    scores = score_plot(curves.scores, n)
    assert scores.x_range[0] <= curves.trials.scores.min()
    assert scores.x_range[1] >= curves.trials.scores.max()
    assert scores.x_range[0] <= 0.5 <= scores.x_range[1]
    assert scores.x_range[0] >= 0.0 and scores.x_range[1] <= 1.0
    edge = score_distributions(np.array([0.0, 0.01, 0.99, 1.0]), np.array([True, False] * 2))
    assert score_plot(edge, (2, 2)).x_range == (0.0, 1.0)
    assert max(scores.bars[0].heights) <= scores.y_range[1]
    assert {name for _, name, _ in scores.legend} == {
        "same-author trials (Hp true)",
        "different-author trials (Hd true)",
    }
    assert FIGURE_NAMES["ece"] == "Expected calibration error"


def test_thinning_keeps_the_corners_and_ends_and_ticks_are_round():
    xs = [0, 1, 1, 2, 2, 2.0001, 3]
    ys = [1, 1, 0.5, 0.5, 0.25, 0.25, 0]
    kept_x, kept_y = thin_polyline(xs, ys, (0.01, 0.01))
    assert kept_x[0] == 0 and kept_x[-1] == 3 and kept_y[-1] == 0
    assert (1.0, 0.5) in zip(kept_x, kept_y, strict=True)
    assert len(kept_x) < len(xs)
    assert range_ticks(-1.83, 1.83, 8) == (-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5)
    assert range_ticks(0.0, 1.0, 5) == (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


def test_export_reports_its_steps_and_a_cancel_leaves_nothing(project, tmp_path, qapp):
    from taveer_desktop.core.ground.errors import Cancelled
    from taveer_desktop.core.ground.progress import Progress

    steps = []
    exported = export_validation_report(
        _record(project), tmp_path / "ok.pdf", "a test", Progress(lambda *s: steps.append(s))
    )
    assert [s[0] for s in steps] == [1, 2, 3] and exported.path.is_file()
    cancelled = Progress()
    cancelled.cancel()
    with pytest.raises(Cancelled):
        export_validation_report(_record(project), tmp_path / "c.pdf", "a test", cancelled)
    assert {p.name for p in tmp_path.iterdir()} == {"ok.pdf"}
