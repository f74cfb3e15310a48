"""Every table model on its own, without a window: columns, text, tooltips, roles, sorting."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt

from taveer_desktop.core.calibration.outcome import (
    Classification,
    Conclusion,
    ConclusionKind,
    GateFinding,
    GateRule,
)
from taveer_desktop.store import AuditEntry, Case, Document, StoredModel, VerificationRun
from taveer_desktop.ui import audit_table_model as atm
from taveer_desktop.ui import case_table_model as ctm
from taveer_desktop.ui import document_table_model as dtm
from taveer_desktop.ui import model_table_model as mtm
from taveer_desktop.ui import run_table_model as rtm
from taveer_desktop.ui.record_table_model import RECORD_ROLE, SORT_ROLE, short_utc

DISPLAY, TOOLTIP = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole
SHA = "ab" * 32


def case(id_: int, number: str, title: str = "", description: str = "", runs: int = 0) -> Case:
    return Case(
        id_,
        number,
        title,
        "A. Examiner",
        "Police",
        description,
        "2025-01-01T10:00:00.000000Z",
        "2025-01-02T11:00:00.000000Z",
        2,
        1,
        runs,
    )


def document(id_: int, role: str, name: str, chars: int) -> Document:
    return Document(
        id_,
        1,
        role,
        name,
        "txt",
        chars,
        SHA,
        "UTF-8",
        "cd" * 32,
        chars,
        chars // 50,
        "2025-01-03T12:00:00.123456Z",
        metadata={"source_path": f"/evidence/{name}"},
    )


def text(model, row: int, column: int, role=DISPLAY):
    return model.data(model.index(row, column), role)


def test_case_model_columns_roles_and_search(qapp):
    model = ctm.CaseTableModel()
    cases = [
        case(1, "2025-017", "Letters", "threats by e-mail"),
        case(2, "2025-003", "Diary", runs=4),
    ]
    model.set_records(cases)
    assert model.rowCount() == 2 and model.columnCount() == 5
    assert text(model, 0, ctm.NUMBER) == "2025-017"
    assert text(model, 0, ctm.DOCUMENTS) == "2 + 1"
    assert text(model, 0, ctm.DOCUMENTS, TOOLTIP) == "2 known, 1 questioned"
    assert text(model, 1, ctm.RUNS, SORT_ROLE) == 4
    assert text(model, 1, 0, RECORD_ROLE) is cases[1]
    assert model.headerData(ctm.TITLE, Qt.Orientation.Horizontal) == "Title"
    proxy = ctm.CaseFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_search("E-MAIL letters")
    assert proxy.rowCount() == 1
    assert proxy.data(proxy.index(0, 0), RECORD_ROLE).number == "2025-017"
    proxy.set_search("examiner police")  # examiner and agency are searched too
    assert proxy.rowCount() == 2
    proxy.set_search("")
    proxy.sort(ctm.NUMBER)
    assert proxy.data(proxy.index(0, 0)) == "2025-003"


def test_document_model_shows_short_hash_with_the_full_one_in_the_tooltip(qapp):
    model = dtm.DocumentTableModel()
    docs = [document(1, "questioned", "q.txt", 900), document(2, "known", "k.txt", 12_345)]
    model.set_records(docs)
    assert text(model, 1, dtm.ROLE) == "Known K1"
    assert text(model, 1, dtm.CHARACTERS) == "12,345"
    assert text(model, 1, dtm.CHARACTERS, SORT_ROLE) == 12_345
    short = text(model, 0, dtm.SHA256)
    assert short.startswith(SHA[:12]) and len(short) < 20
    assert SHA in text(model, 0, dtm.SHA256, TOOLTIP)
    assert "/evidence/q.txt" in text(model, 0, dtm.FILE_NAME, TOOLTIP)
    assert text(model, 0, dtm.IMPORTED) == "2025-01-03 12:00:00 UTC"
    assert text(model, 0, dtm.SHA256, Qt.ItemDataRole.FontRole).family() == "DejaVu Sans Mono"
    assert model.data(model.index(0, dtm.CHARACTERS), Qt.ItemDataRole.TextAlignmentRole)
    assert model.find_row(lambda d: d.file_name == "k.txt") == 1


def test_exhibit_labels_stay_with_their_documents_after_an_exclusion(qapp):
    """K4's file stays "K4" after K2 is excluded: every document of the case is counted, in
    use or not, in the order it was added (issue 23)."""
    from dataclasses import replace

    from taveer_desktop.presentation.exhibit_labels import exhibit_labels

    docs = [document(i, "known", f"k{i}.txt", 1000) for i in (3, 5, 8, 9)]
    docs.insert(1, document(4, "questioned", "q.txt", 900))
    before = exhibit_labels(docs)
    assert [before[d.id] for d in docs] == ["K1", "Q1", "K2", "K3", "K4"]
    docs[2] = replace(docs[2], excluded_reason="belongs to another case", excluded_utc="x")
    after = exhibit_labels(docs)
    assert after == before and after[9] == "K4"
    model = dtm.DocumentTableModel()
    model.set_records(list(reversed(docs)))
    assert text(model, 0, dtm.ROLE) == "Known K4"
    assert text(model, 2, dtm.ROLE) == "Known K2"  # the excluded one keeps its label too


def test_model_table_shows_the_training_facts(qapp):
    stored = StoredModel(
        3,
        "Letters model",
        "ef" * 32,
        2000,
        "letters/train",
        "01" * 32,
        "letters.json",
        "2025-02-01T08:00:00.000000Z",
    )
    summary = mtm.ModelSummary(
        stored, 40, 20, 20, 0.825, ("F1", "F4"), "median", "2025-01-31T07:00:00+00:00"
    )
    model = mtm.ModelTableModel()
    model.set_records([summary])
    assert [text(model, 0, c) for c in range(model.columnCount())] == [
        "Letters model",
        "letters/train",
        "40",
        "82.5 %",
        "F1 F4",
        "TAVeer",  # the method whose likelihood ratio it states
        "—",  # not validated on a population
        "2025-01-31 07:00:00 UTC",
    ]
    assert text(model, 0, mtm.METHOD, TOOLTIP) == "Method: TAVeer."
    assert "20 same author, 20 different" in text(model, 0, mtm.CASES, TOOLTIP)
    assert text(model, 0, mtm.NAME, RECORD_ROLE) is summary
    validated = dataclasses.replace(
        summary,
        validation={"population": {"name": "staff e-mail"}, "acceptance": {"met": False}},
    )
    model.set_records([validated])
    assert (
        text(model, 0, mtm.VALIDATION)
        == "staff e-mail — criteria NOT met (stated by the model file)"
    )
    assert "population “staff e-mail”" in text(model, 0, mtm.VALIDATION, TOOLTIP)


def _run(id_, when, prediction, similarity, kind=None):
    return VerificationRun(
        id_,
        1,
        3,
        "M",
        SHA,
        7,
        (5, 6),
        Classification(prediction),
        similarity,
        "0.1.0",
        when,
        "99" * 32,
        kind,
    )


def test_run_rows_are_newest_first_with_document_names(qapp):
    short = GateFinding(GateRule.ENOUGH_TEXT, "the questioned document has 2 words", 2, 50)
    runs = [
        _run(1, "2025-01-01T00:00:00Z", "N", 0.2, ConclusionKind.EVALUATIVE),
        _run(2, "2025-01-02T00:00:00Z", "insufficient", None, ConclusionKind.NONE),
    ]
    conclusions = {
        1: Conclusion(ConclusionKind.EVALUATIVE, (), -1.0, "letter writers"),
        2: Conclusion(ConclusionKind.NONE, (short,), None, "letter writers"),
    }
    rows = rtm.run_rows(runs, {7: "letter.txt"}, conclusions)
    model = rtm.RunTableModel()
    model.set_records(rows)
    assert [r.run.id for r in model.records()] == [2, 1]
    assert text(model, 0, rtm.QUESTIONED) == "letter.txt"
    assert text(model, 0, rtm.CONCLUSION) == "No conclusion"
    assert "the questioned document has 2 words" in text(model, 0, rtm.CONCLUSION, TOOLTIP)
    assert text(model, 0, rtm.LIKELIHOOD_RATIO) == "—"
    assert text(model, 0, rtm.CLASSIFICATION) == "not reported"  # no conclusion, no score
    assert text(model, 0, rtm.SIMILARITY) == "—"
    assert text(model, 1, rtm.CONCLUSION) == "Evaluative conclusion"
    assert text(model, 1, rtm.LIKELIHOOD_RATIO) == "0.1 (= 1/10)"
    assert text(model, 1, rtm.LIKELIHOOD_RATIO, SORT_ROLE) == -1.0
    assert text(model, 1, rtm.CLASSIFICATION) == "different-author side"
    assert text(model, 1, rtm.SIMILARITY, SORT_ROLE) == 0.2
    assert "record SHA-256 " + "99" * 32 in text(model, 1, rtm.TIME, TOOLTIP)
    # the conclusion and the likelihood ratio come before the classification
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert titles.index("Conclusion") < titles.index("Likelihood ratio")
    assert titles.index("Likelihood ratio") < titles.index("Classification")


def test_run_table_marks_investigative_and_unassessed_runs_and_shows_no_raw_codes(qapp):
    outside = GateFinding(GateRule.VALIDATED_CONDITIONS, "the questioned document is long")
    runs = [
        _run(1, "2025-01-01T00:00:00Z", "Y", 0.7, ConclusionKind.INVESTIGATIVE),
        _run(2, "2025-01-02T00:00:00Z", "inconclusive", 0.5, ConclusionKind.EVALUATIVE),
        _run(3, "2025-01-03T00:00:00Z", "Y", 0.6, None),  # its stored result is unreadable
    ]
    conclusions = {
        1: Conclusion(ConclusionKind.INVESTIGATIVE, (outside,), 0.5, "p"),
        2: Conclusion(ConclusionKind.EVALUATIVE, (), 0.0, "p"),
    }
    model = rtm.RunTableModel()
    model.set_records(rtm.run_rows(runs, {}, conclusions))
    by_id = {model.record(r).run.id: r for r in range(model.rowCount())}
    assert text(model, by_id[1], rtm.CONCLUSION) == "For investigation only"
    assert text(model, by_id[1], rtm.LIKELIHOOD_RATIO) == "3.16 (investigation only)"
    assert text(model, by_id[2], rtm.CLASSIFICATION) == "inconclusive"
    assert text(model, by_id[3], rtm.CONCLUSION) == "Not readable"
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            assert text(model, row, column) not in ("Y", "N", "insufficient")


def test_document_model_marks_excluded_evidence_with_its_reason(qapp):
    import dataclasses

    kept = document(1, "known", "k.txt", 900)
    dropped = dataclasses.replace(
        document(2, "known", "wrong.txt", 900),
        excluded_reason="added to the wrong case",
        excluded_utc="2025-01-04T09:00:00.000000Z",
    )
    model = dtm.DocumentTableModel()
    model.set_records([kept, dropped])
    assert text(model, 0, dtm.USE) == "In use"
    assert text(model, 1, dtm.USE) == "Excluded"
    tip = text(model, 1, dtm.USE, TOOLTIP)
    assert "added to the wrong case" in tip and "2025-01-04 09:00:00 UTC" in tip
    assert text(model, 1, dtm.FILE_NAME, Qt.ItemDataRole.FontRole).italic()
    assert text(model, 1, dtm.ROLE, Qt.ItemDataRole.ForegroundRole) == dtm.EXCLUDED_COLOUR
    assert text(model, 0, dtm.ROLE, Qt.ItemDataRole.ForegroundRole) is None
    assert text(model, 1, dtm.USE, SORT_ROLE) is True


def _stored_model(id_: int, name: str) -> StoredModel:
    return StoredModel(
        id_, name, "ef" * 32, 2000, f"{name}/train", "01" * 32, "m.json", "2025-02-01T08:00:00Z"
    )


def test_model_choice_table_shows_population_lengths_and_held_out_figures(qapp):
    from taveer_desktop import paths
    from taveer_desktop.core.methods.taveer.model import load_model
    from taveer_desktop.ui import model_choice_table_model as mct

    bundled = load_model(paths.resource("models", "default.json"))
    choice = mct.model_choice(_stored_model(1, "default"), bundled)
    conditions = bundled.conditions
    model = mct.ModelChoiceTableModel()
    model.set_records([choice])
    assert text(model, 0, mct.GENRE) == conditions.genre
    assert conditions.population in text(model, 0, mct.GENRE, TOOLTIP)
    low, high = conditions.questioned_chars.low, conditions.questioned_chars.high
    assert text(model, 0, mct.QUESTIONED_LENGTH) == f"{low:,}–{high:,} characters"
    figures = bundled.extra["evaluations"]
    for corpus, measured in figures.items():
        assert f"{measured['cllr']:.2f} ({corpus})" in text(model, 0, mct.CLLR)
        shares = (round(100 * measured[k]) for k in ("misleading_y", "misleading_n"))
        assert "{} % / {} %".format(*shares) in text(model, 0, mct.MISLEADING)
        assert f"{corpus}: {measured['n']} trials" in text(model, 0, mct.CLLR, TOOLTIP)
    assert text(model, 0, mct.CONDITIONS) == "recorded"


def test_model_choice_of_an_old_model_says_not_measured_and_conditions_unknown(qapp):
    import dataclasses

    from taveer_desktop import paths
    from taveer_desktop.core.methods.taveer.model import load_model
    from taveer_desktop.ui import model_choice_table_model as mct

    old = dataclasses.replace(
        load_model(paths.resource("models", "default.json")), conditions=None, extra={}
    )
    choice = mct.model_choice(_stored_model(2, "old"), old)
    model = mct.ModelChoiceTableModel()
    model.set_records([choice])
    assert text(model, 0, mct.CLLR) == "not measured"
    assert text(model, 0, mct.MISLEADING) == "not measured"
    assert text(model, 0, mct.QUESTIONED_LENGTH) == "not recorded"
    assert text(model, 0, mct.CONDITIONS).startswith("unknown")


def test_audit_model_words_and_details(qapp):
    entry = AuditEntry(
        4,
        "2025-01-01T00:00:00.5Z",
        "document_added",
        1,
        "ann@ws1",
        "0" * 64,
        "1" * 64,
        {"file_name": "k.txt", "role": "known", "sha256": SHA},
    )
    model = atm.AuditTableModel()
    model.set_records([entry])
    assert text(model, 0, atm.ACTION) == "Document added"
    assert text(model, 0, atm.DETAILS) == "file name: k.txt; role: known"
    assert SHA in text(model, 0, atm.DETAILS, TOOLTIP)
    assert text(model, 0, atm.SEQ, SORT_ROLE) == 4
    assert short_utc(entry.time_utc) == "2025-01-01 00:00:00 UTC"
    stability = AuditEntry(
        5,
        "2025-01-01T00:00:01Z",
        "stability_stored",
        1,
        "ann@ws1",
        "1" * 64,
        "2" * 64,
        {"run_id": 3, "resamples": 200, "agreeing": 199, "seed": 7, "keep_fraction": 0.9},
    )
    model.set_records([stability])
    assert text(model, 0, atm.ACTION) == "Stability stored"
    assert text(model, 0, atm.DETAILS) == "run 3: 199 of 200 (99.5 %) resamples agree; seed 7"


def test_audit_details_show_no_raw_floats_or_codes(qapp):
    run = AuditEntry(
        6,
        "2025-01-01T00:00:02Z",
        "run_stored",
        1,
        "ann@ws1",
        "2" * 64,
        "3" * 64,
        {"prediction": "Y", "similarity": 0.5389709414624158},
    )
    model = atm.AuditTableModel()
    model.set_records([run])
    shown = text(model, 0, atm.DETAILS)
    assert "similarity: 0.539" in shown
    assert "0.53897" not in shown and "prediction: Y" not in shown
    hover = text(model, 0, atm.DETAILS, TOOLTIP)  # every recorded detail, in words
    assert hover.splitlines() == ["classification: same-author side", "similarity: 0.539"]
