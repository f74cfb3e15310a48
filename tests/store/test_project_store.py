"""Cases, models, runs, copies and threads of an open project, each change audited."""

from __future__ import annotations

import dataclasses
import itertools
import json
import sqlite3
import threading

import pytest

from taveer_desktop import __version__
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.store import (
    KNOWN,
    QUESTIONED,
    Conflict,
    NotFound,
    ProjectStore,
    StoreError,
)
from taveer_desktop.store.case_verification import verify_case

from .evidence_builders import demo_text_paths, engine_result, model_bytes, write


def _actions(store) -> list[str]:
    return [e.action for e in store.audit.entries()]


def test_every_change_writes_one_audit_entry_in_order(store, tmp_path):
    case = store.cases.create("C-1")
    store.cases.update(case.id, title="New title")
    store.cases.update(case.id, title="New title")  # no change, no entry
    docs = store.documents.add(case.id, KNOWN, [write(tmp_path / "a.txt", "Alpha. Beta.")]).added
    store.documents.remove(docs[0].id, "wrong file")
    store.models.add_bytes(model_bytes(), "m.json")
    assert _actions(store) == [
        "project_created",
        "case_created",
        "case_updated",
        "document_added",
        "document_removed",
        "model_added",
    ]
    entries = store.audit.entries()
    assert [e.seq for e in entries] == list(range(1, 7))
    assert all(e.prev_hash == p.entry_hash for p, e in itertools.pairwise(entries))
    removed = entries[4]
    assert removed.details["reason"] == "wrong file" and removed.case_id == case.id
    assert removed.details["sha256"] == docs[0].sha256
    assert "@" in removed.actor and removed.time_utc.endswith("Z")
    assert [e.action for e in store.audit.entries(case.id)] == [
        "case_created",
        "case_updated",
        "document_added",
        "document_removed",
    ]


def test_cases_are_frozen_records_with_counts(store, tmp_path):
    first = store.cases.create(" 2025-017 ", title="Ransom note", agency="Police")
    assert first.number == "2025-017"
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.title = "changed"  # type: ignore[misc]
    store.cases.create("2024-003")
    assert [c.number for c in store.cases.list_all()] == ["2024-003", "2025-017"]
    updated = store.cases.update(first.id, examiner="Dr. X", description="Two letters.")
    assert (updated.examiner, updated.description, updated.title) == (
        "Dr. X",
        "Two letters.",
        "Ransom note",
    )
    assert updated.modified_utc > first.modified_utc
    assert store.cases.find("2025-017") == updated


def test_case_number_rules(store):
    store.cases.create("C-1")
    with pytest.raises(Conflict, match="already has a case numbered 'C-1'"):
        store.cases.create("C-1")
    with pytest.raises(StoreError, match="needs a case number"):
        store.cases.create("   ")
    other = store.cases.create("C-2")
    with pytest.raises(Conflict):
        store.cases.update(other.id, number="C-1")
    with pytest.raises(NotFound, match="no case numbered 'C-9'"):
        store.cases.find("C-9")


def test_case_fields_refuse_controls_and_bidi_overrides(store):
    # "C-1<RLO>live" would read as "C-1evil" reversed in a listing: refused, nothing stored
    with pytest.raises(StoreError, match=r"case number holds control or invisible .*\\u202e"):
        store.cases.create("C-1\u202elive")
    with pytest.raises(StoreError, match=r"case examiner holds .*\\x1b"):
        store.cases.create("C-3", examiner="A.\x1b[2J Examiner")
    assert store.cases.list_all() == []
    case = store.cases.create("C-3", description="first line\n\tsecond line")
    assert case.description == "first line\n\tsecond line"
    with pytest.raises(StoreError, match=r"case title holds .*\\u200b"):
        store.cases.update(case.id, title="In\u200bvoice")
    assert store.cases.get(case.id).title == ""


def test_models_are_kept_as_received(store, tmp_path):
    data = model_bytes()
    path = write(tmp_path / "default.json", data)
    stored = store.models.add_file(path)
    assert store.models.json_bytes(stored.id) == data
    assert stored.byte_count == len(data)
    assert stored.corpus_name == json.loads(data)["training"]["corpus_name"]
    assert store.models.load(stored.id).ensemble
    assert store.models.find(stored.name) == stored
    with pytest.raises(Conflict, match="same SHA-256"):
        store.models.add_file(path)
    reformatted = json.dumps(json.loads(data)).encode()  # other bytes, same name
    with pytest.raises(Conflict, match="different model named"):
        store.models.add_bytes(reformatted, "other.json")
    second = store.models.add_bytes(model_bytes("Second model"), "second.json")
    assert [m.name for m in store.models.list_all()] == [second.name, stored.name]


def test_invalid_model_is_refused_with_its_file_name(store, tmp_path):
    bad = write(tmp_path / "broken.json", '{"format": "taveer-model"')
    with pytest.raises(InputError) as caught:
        store.models.add_file(bad)
    assert str(bad) in str(caught.value)
    with pytest.raises(InputError, match="no such model file"):
        store.models.add_file(tmp_path / "missing.json")
    assert store.models.list_all() == []
    assert _actions(store) == ["project_created"]


def test_verify_case_with_the_engine_stores_full_runs(store, tmp_path):
    known, questioned = demo_text_paths()
    case = store.cases.create("FED-51", title="Federalist No. 51")
    store.documents.add(case.id, KNOWN, known)
    (q,) = store.documents.add(case.id, QUESTIONED, [questioned]).added
    model = store.models.add_bytes(model_bytes(), "default.json")
    (run,) = verify_case(store, case.id, model.name)
    assert run.prediction in ("Y", "N", "insufficient")
    assert run.questioned_document_id == q.id
    assert len(run.known_document_ids) == len(known)
    assert run.software_version == __version__ and run.model_sha256 == model.sha256
    result = store.runs.result(run.id)
    assert set(result["categories"]) == {f"F{i}" for i in range(1, 12)}
    assert "interpretation" in result
    assert run.similarity == pytest.approx(result["similarity"])
    assert store.runs.list_for_case(case.id) == [run]
    assert store.cases.get(case.id).run_count == 1
    actions = [e.action for e in store.audit.entries(case.id)]
    # naming the model records it as the case's choice; the run's stability is stored after it
    assert actions[-3:] == ["case_model_chosen", "run_stored", "stability_stored"]
    entry = store.audit.entries(case.id)[-2]
    assert entry.details["record_sha256"] == run.record_sha256
    assert entry.details["conclusion"] == run.conclusion.value
    (check,) = store.runs.stability_checks(run.id)
    assert check.resamples == 200 and 0 <= check.agreeing <= 200
    assert store.check_integrity().ok
    with pytest.raises(Conflict, match="stored verification run used it"):
        store.documents.remove(q.id, "should not be possible")


def test_verify_case_needs_known_and_questioned_documents(store, tmp_path):
    case = store.cases.create("EMPTY")
    model = store.models.add_bytes(model_bytes(), "default.json")
    with pytest.raises(StoreError, match="no known documents"):
        verify_case(store, case.id, model.name)
    store.documents.add(case.id, KNOWN, [write(tmp_path / "k.txt", "Known text.")])
    with pytest.raises(StoreError, match="no questioned document"):
        verify_case(store, case.id, model.name)
    with pytest.raises(NotFound, match="no model named 'nope'"):
        verify_case(store, case.id, "nope")


def test_store_run_checks_its_inputs(store, filled_case):
    model = store.models.add_bytes(model_bytes(), "default.json")
    known = store.documents.list_for_case(filled_case.id, KNOWN)
    (questioned,) = store.documents.list_for_case(filled_case.id, QUESTIONED)
    with pytest.raises(ValueError):
        store.runs.store(
            filled_case.id, model.id, questioned.id, [known[0].id], {"prediction": "?"}
        )
    with pytest.raises(StoreError, match="no questioned document"):
        store.runs.store(filled_case.id, model.id, known[0].id, [known[1].id], engine_result())
    before = len(store.audit.entries())
    with pytest.raises(NotFound):
        store.runs.store(filled_case.id, 999, questioned.id, [known[0].id], engine_result())
    assert len(store.audit.entries()) == before


def test_save_a_copy(store, filled_case, tmp_path):
    (tmp_path / "copies").mkdir()
    target = store.save_copy(tmp_path / "copies" / "copy.taveer")
    assert sorted(p.name for p in target.parent.iterdir()) == ["copy.taveer"]
    last = store.audit.head()
    assert last.action == "project_copy_saved" and last.details["target"] == str(target)
    with pytest.raises(Conflict, match="already exists"):
        store.save_copy(target)
    with pytest.raises(StoreError, match="onto itself"):
        store.save_copy(store.path)
    with ProjectStore.open(target) as copy:
        assert copy.last_integrity_report.ok
        assert [c.number for c in copy.cases.list_all()] == [filled_case.number]
        assert len(copy.audit.entries()) == len(store.audit.entries()) - 1
    store.save_copy(target, overwrite=True)


def test_a_copy_that_cannot_be_renamed_leaves_nothing(store, filled_case, tmp_path, monkeypatch):
    from taveer_desktop.core.ground import atomic_file

    def full_disk(*_args):
        raise OSError(28, "No space left on device")

    (tmp_path / "copies").mkdir()
    monkeypatch.setattr(atomic_file.os, "replace", full_disk)
    with pytest.raises(StoreError, match=r"could not be written as a copy \("):
        store.save_copy(tmp_path / "copies" / "copy.taveer")
    assert list((tmp_path / "copies").iterdir()) == []


def test_each_thread_uses_its_own_connection(store, filled_case):
    results, errors = [], []

    def worker(index):
        try:
            results.append([c.number for c in store.cases.list_all()])
            store.cases.create(f"T-{index}")
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(results) == 4
    assert len(store.cases.list_all()) == 5
    assert store.check_integrity().ok


def test_foreign_keys_and_wal_are_on(store):
    conn = store._db.connection()
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO documents (case_id, role, file_name, file_format, byte_count, sha256,"
            " encoding, text_sha256, char_count, sentence_count, imported_utc, text,"
            " original_bytes) VALUES (42, 'known', 'x', 'txt', 1, ?, 'UTF-8', ?, 1, 1, 't',"
            " 'x', x'78')",
            ("a" * 64, "b" * 64),
        )


def test_closed_store_refuses_use(tmp_path):
    store = ProjectStore.create(tmp_path / "p.taveer")
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        store.cases.list_all()


def test_writes_inside_one_transaction_are_stored_together_or_not_at_all(store):
    with pytest.raises(RuntimeError), store.transaction():
        store.cases.create("A")
        store.cases.create("B")
        raise RuntimeError("a failure after two writes")
    assert store.cases.list_all() == []
    with store.transaction():
        store.cases.create("A")
        store.cases.create("B")
    created = [e for e in store.audit.entries(None) if e.action == "case_created"]
    assert [c.number for c in store.cases.list_all()] == ["A", "B"]
    assert len({e.time_utc for e in created}) == 1  # one commit, one time of change
