"""The case report's validation section (what the conclusion rests on, every validation attempt
of the case, the population-fit check) and the validation report's coverage section (declared
range, repeats, size for casework, bands, criteria on the pessimistic end), read from real PDFs
with pdftotext.

The population is the public-domain demo one (six authors: too small for casework); the case
takes two Madison papers as known and a third as questioned. It is validated twice — criteria
met with seed 0, then NOT met with seed 1 — and verified with the second (the case's model).
"""

from __future__ import annotations

import copy
import re

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.presentation.population_fit_text import NO_PROFILE
from taveer_desktop.report.export import export_report
from taveer_desktop.report.validation_export import export_validation_report
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore, case_validation
from taveer_desktop.store.case_validation import validate_case
from taveer_desktop.store.case_verification import verify_case
from tests.core.validation_fixtures import make_demo_population
from tests.report.conftest import demo_store, normalised, poppler

DESCRIPTION = "Brontë chapters and Federalist papers of undisputed authorship (demonstration)"


@pytest.fixture(scope="module")
def validated(tmp_path_factory):
    folder = make_demo_population(tmp_path_factory.mktemp("attempts-population"))
    path = tmp_path_factory.mktemp("attempts-project") / "p.taveer"
    madison = sorted((folder / "Madison").glob("*.txt"))
    with ProjectStore.create(path) as store:
        case = store.cases.create("C-1")
        store.documents.add(case.id, KNOWN, madison[:2])
        store.documents.add(case.id, QUESTIONED, [madison[2]])
        store.populations.add_folder("demo", folder, DESCRIPTION)
        for seed, max_cllr in ((0, 3.0), (1, 0.01)):
            settings = ValidationSettings(
                folds=3, seed=seed, bootstrap=40, criteria=AcceptanceCriteria.now(max_cllr)
            )
            validate_case(store, case.id, "demo", settings)
        # a third attempt the engine refuses: kept as a failed attempt with its reason
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(case_validation, "validate", _refuse)
            with pytest.raises(InputError):
                validate_case(store, case.id, "demo", ValidationSettings(folds=3, seed=7))
        verify_case(store, case.id, stability_resamples=None)
    return path


REFUSAL = "too few trials of one class to calibrate"


def _refuse(population, settings, **_):
    raise InputError(REFUSAL, population.source)


def _pdf_text(pdf) -> str:
    return normalised(poppler("pdftotext", "-layout", str(pdf), "-"))


def test_the_case_report_lists_every_attempt_and_the_basis(validated, tmp_path):
    pdf = tmp_path / "c1.pdf"
    with ProjectStore.open(validated) as store:
        export_report(store, "C-1", pdf)
        first, second = store.validations.for_case(store.cases.find("C-1").id)
    text = _pdf_text(pdf)
    section = text[text.index("3. Validation and population fit") : text.index("4. Evidence")]
    assert "What the conclusion rests on" in section
    assert (
        f"The conclusion rests on validation record {first.id} of this project (population "
        f"“demo”), SHA-256 {first.record_sha256}." in section
    )
    assert "2 validations were run for case C-1: 1 met its criteria, 1 did not." in section
    # the failed second attempt did not replace the model of the first, which met its criteria
    assert f"The case's model comes from validation {first.id} (TAVeer on “demo”, met)" in section
    # both attempts, in the order they ran, with seed, criteria, verdict and Cllr interval
    row_1 = section.index(f"{first.id} {first.created_utc[:10]}")
    row_2 = section.index(f"{second.id} {second.created_utc[:10]}")
    assert row_1 < row_2
    assert "Cllr ≤ 3" in section and "Cllr ≤ 0.01" in section
    # a cell may wrap onto the row's next line in the layout
    assert "met · too" in section[row_1:row_2] and "NOT" not in section[row_1:row_2]
    assert "NOT met ·" in section[row_2:] and "too small" in section[row_2:]
    for row in (section[row_1:row_2], section[row_2:]):  # Cllr with its interval
        assert re.search(r"\d\.\d{3} \(\d\.\d{3} – \d\.\d{3}\)", row)
    assert "chosen" in section[row_1:row_2] and "chosen" not in section[row_2:]
    assert f"record SHA-256 {first.record_sha256[:16]}" in section
    # the attempt that gave no model, after the table, with its reason
    assert (
        "1 validation of this case failed and gave no model (it is kept in the audit trail "
        "with the reason):" in section
    )
    assert f"failed, no model — TAVeer on population “demo”, seed 7: {REFUSAL}" in section
    # the fit check: the run checked the case against the record's population profile
    assert "Population fit of the case" in section
    assert normalised(NO_PROFILE) not in section
    assert "the questioned text" in section and "p = " in section


def test_without_a_stored_validation_the_report_says_investigative(tmp_path):
    project = demo_store(tmp_path)  # the demo model: no validation record in the project
    pdf = tmp_path / "demo.pdf"
    with ProjectStore.open(project) as store:
        case = store.cases.list_all()[0]
        export_report(store, case.number, pdf)
    text = _pdf_text(pdf)
    section = text[text.index("3. Validation and population fit") : text.index("4. Evidence")]
    assert "was recorded, so its conclusion is for investigation only" in section
    assert f"No validation has been run for case {case.number} in this project." in section
    assert "no validation population to check the case against" in section


def _with_issue_21_keys(record: dict) -> dict:
    """The stored record with the keys issue 21's engine adds, as agreed in the design."""
    record = copy.deepcopy(record)
    record["conditions"] = {"questioned_chars": [900, 3600], "known_chars": [2000, 9000]}
    record["repeats"] = {
        "count": 3,
        "seeds": [0, 1, 2],
        "cllr": [0.61, 0.74, 0.68],
        "auc": [0.81, 0.77, 0.79],
    }
    figures, intervals = record["figures"], record["intervals"]
    record["bands"] = [
        {
            "questioned_chars": [900, 1800],
            "trials_same": 20,
            "trials_different": 20,
            "figures": figures,
            "intervals": intervals,
            "bound": {"min_log10_lr": -0.8, "max_log10_lr": 0.9},
        },
        {
            "questioned_chars": [1801, 3600],
            "trials_same": 30,
            "trials_different": 30,
            "figures": {**figures, "cllr": 0.5},
            "intervals": {**intervals, "cllr": [0.41, 0.62]},
            "bound": {"min_log10_lr": -1.1, "max_log10_lr": 1.2},
        },
    ]
    record["casework"] = {
        "authors": 6,
        "trials_same": 50,
        "trials_different": 50,
        "too_small": True,
        "reasons": ["6 authors (fewer than 20)"],
    }
    record["acceptance"]["judged_on"] = "pessimistic"
    return record


def test_the_validation_report_states_range_repeats_bands_and_casework(validated, tmp_path):
    with ProjectStore.open(validated) as store:
        stored = store.validations.for_case(store.cases.find("C-1").id)[0]
        record = _with_issue_21_keys(store.validations.record(stored.id))
    pdf = tmp_path / "validation.pdf"
    export_validation_report(record, pdf, "a test record")
    text = _pdf_text(pdf)
    coverage = text[text.index("5. What the validation covers") : text.index("6. Acceptance")]
    assert (
        "The declared casework range: questioned texts of 900–3,600 characters, known texts "
        "of 2,000–9,000 characters." in coverage
    )
    # (the page's DRAFT mark can put a stray letter or two inside a line of pdftotext's output)
    assert re.search(r"holds only for cases (?:[DRAFT]{1,5} )?inside this range", coverage)
    assert "repeated 3 times (seeds 0, 1, 2)" in coverage
    assert "Cllr per repeat: 0.610, 0.740, 0.680 (spread 0.130)" in coverage
    assert (
        "Too small for casework (6 authors, 50 distinct same-author and 50 distinct "
        "different-author " in coverage
    )
    assert "no evaluative conclusion can rest on it" in coverage
    acceptance = text[text.index("6. Acceptance") : text.index("7. Figures")]
    assert "Judged on the pessimistic end of each figure's 95 % interval" in acceptance
    upper = record["intervals"]["cllr"][1]
    assert f"upper end {upper:.3f}" in acceptance
    bands = text[text.index("Figures per length band") : text.index("8. Plots")]
    assert "900–1,800 characters 20 + 20" in bands
    assert "1,801–3,600 characters 30 + 30 0.500 (0.410 – 0.620)" in bands
    assert "1/6.31 to 7.94" in bands


def test_an_older_record_is_worded_from_what_it_holds(validated, tmp_path):
    with ProjectStore.open(validated) as store:
        stored = store.validations.for_case(store.cases.find("C-1").id)[0]
        record = store.validations.record(stored.id)
    # a record as the program wrote it before issue 21: one length each, run once, no bands,
    # criteria judged on the point figures
    for key in ("conditions", "repeats", "bands", "casework", "population_fit"):
        record.pop(key, None)
    protocol = record["protocol"]
    protocol["questioned_chars"] = protocol["questioned_chars"][0]
    protocol["known_chars"] = protocol["known_chars"][0]
    for key in ("repeats", "seeds"):
        protocol.pop(key, None)
    record["acceptance"].pop("judged_on", None)
    record["acceptance"].pop("judged_values", None)
    pdf = tmp_path / "older.pdf"
    export_validation_report(record, pdf, "an older record")
    text = _pdf_text(pdf)
    assert "The conditions: questioned texts of about" in text
    assert "The cross-validation ran once, with seed 0" in text
    assert "The record holds no figures per length band" in text
    assert "Judged on the cross-validated point figures: met." in text
