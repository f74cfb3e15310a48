"""The forgery sweep of issue 22: a forger holding the project file, with this program's source.

Each construction works on a copy of a real project (the version 6 fixture store, made by the
program) after a report was exported with its receipt; it is forged with plain ``sqlite3`` —
guard triggers dropped and put back, audit entries appended with correct chain hashes, the head
moved and, where the construction calls for it, the seals the program would write — and then the
real ``taveer check``, ``check --receipt`` and ``check --report`` must find it, with the words
listed in docs/reliability.md.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from taveer_desktop.store.audit_chain import canonical_json, entry_hash
from taveer_desktop.store.fingerprints import run_record_sha256
from taveer_desktop.store.record_seal import seal_fields
from taveer_desktop.store.records import utc_now

FIXTURE = Path(__file__).parent / "fixtures" / "store_v6.taveer"
CLI = [sys.executable, "-m", "taveer_desktop.cli"]
QUESTIONED, MAIL, WORD, CP1252, RUN, MODEL = 6, 4, 5, 3, 1, 1


def taveer(*args) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def issued(tmp_path_factory) -> Path:
    """The fixture project after a report of its case was exported (PDF and receipt beside)."""
    folder = tmp_path_factory.mktemp("issued")
    shutil.copyfile(FIXTURE, folder / "p.taveer")
    done = taveer("--project", folder / "p.taveer", "report", "FIXTURE-1", "-o", folder / "r.pdf")
    assert done.returncode == 0, done.stderr
    assert json.loads((folder / "r.pdf.receipt.json").read_text())["version"] == 2
    return folder


@pytest.fixture
def project(issued, tmp_path) -> Path:
    for name in ("p.taveer", "r.pdf", "r.pdf.receipt.json"):
        shutil.copyfile(issued / name, tmp_path / name)
    return tmp_path / "p.taveer"


# -- the forger's tools ----------------------------------------------------------------------
def forge(path: Path, *statements: str | tuple[str, tuple]) -> None:
    """Run SQL with every guard trigger dropped (and put back afterwards), keys unchecked."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = OFF")
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _sql in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    for statement in statements:
        conn.execute(*((statement,) if isinstance(statement, str) else statement))
    for _name, sql in triggers:
        conn.execute(sql)
    conn.close()


def append(
    path: Path, action: str, case_id: int | None, details: dict, time_utc: str | None = None
) -> None:
    """Append an entry as the program would: the seals it would carry, a correct hash, the
    head moved, dated now (or ``time_utc``)."""
    conn = sqlite3.connect(path, isolation_level=None)
    details = {**details, **seal_fields(conn, action, case_id, details)}
    seq, prev = conn.execute("SELECT seq, entry_hash FROM audit_log ORDER BY seq DESC").fetchone()
    seq += 1
    time_utc = time_utc or utc_now()
    text, actor = canonical_json(details), "forger@host"
    digest = entry_hash(seq, time_utc, action, case_id, actor, text, prev)
    conn.execute(
        "INSERT INTO audit_log VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (seq, time_utc, action, case_id, actor, text, prev, digest),
    )
    conn.execute("UPDATE store_meta SET value = ? WHERE key = 'audit_head_seq'", (str(seq),))
    conn.execute("UPDATE store_meta SET value = ? WHERE key = 'audit_head_hash'", (digest,))
    conn.close()


def _one(path: Path, sql: str, params: tuple = ()):
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchone()
    finally:
        conn.close()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- the constructions -----------------------------------------------------------------------
def swap_questioned_text(path: Path) -> None:
    text = "I wrote none of this. The forged letter says what the forger wants it to say. " * 20
    data = text.encode()
    forge(
        path,
        (
            "UPDATE documents SET text = ?, text_sha256 = ?, original_bytes = ?, sha256 = ?,"
            " byte_count = ?, char_count = ? WHERE id = ?",
            (text, _sha(data), data, _sha(data), len(data), len(text), QUESTIONED),
        ),
    )
    append(path, "document_added", 1, {"document_id": QUESTIONED, "sha256": _sha(data)})


def rewrite_run_result(path: Path) -> None:
    (blob,) = _one(path, "SELECT result_json_zlib FROM runs WHERE id = ?", (RUN,))
    result = json.loads(zlib.decompress(blob))
    result["prediction"], result["similarity"] = "N", 0.05
    forged = zlib.compress(json.dumps(result, sort_keys=True).encode())
    row = _one(
        path,
        "SELECT r.case_id, r.model_id, m.sha256, r.questioned_document_id, r.software_version,"
        " r.run_utc, r.conclusion FROM runs r JOIN models m ON m.id = r.model_id WHERE r.id = ?",
        (RUN,),
    )
    conn = sqlite3.connect(path)
    used = conn.execute(
        "SELECT document_id, role, document_sha256 FROM run_documents WHERE run_id = ?", (RUN,)
    ).fetchall()
    conn.close()
    record = run_record_sha256(*row[:4], used, "N", 0.05, row[4], row[5], forged, row[6])
    forge(
        path,
        (
            "UPDATE runs SET result_json_zlib = ?, prediction = 'N', similarity = 0.05,"
            " record_sha256 = ? WHERE id = ?",
            (forged, record, RUN),
        ),
    )
    append(path, "run_stored", 1, {"run_id": RUN, "record_sha256": record})


def triple_thresholds(path: Path) -> None:
    (blob,) = _one(path, "SELECT model_json FROM models WHERE id = ?", (MODEL,))
    model = json.loads(blob)
    model["thresholds"] = {k: 3 * v for k, v in model["thresholds"].items()}
    data = json.dumps(model).encode()
    forge(
        path,
        (
            "UPDATE models SET model_json = ?, sha256 = ?, byte_count = ? WHERE id = ?",
            (data, _sha(data), len(data), MODEL),
        ),
    )
    append(path, "model_added", None, {"model_id": MODEL, "sha256": _sha(data)})


def mark_validation_met(path: Path) -> None:
    (blob,) = _one(path, "SELECT record_json FROM validation_records WHERE id = 1")
    record = json.loads(blob)
    record["acceptance"]["met"], record["figures"]["cllr"] = True, 0.05
    data = json.dumps(record).encode()
    forge(
        path,
        (
            "UPDATE validation_records SET record_json = ?, record_sha256 = ?, criteria_met = 1,"
            " cllr = 0.05 WHERE id = 1",
            (data, _sha(data)),
        ),
    )
    append(path, "validation_stored", 1, {"validation_id": 1, "record_sha256": _sha(data)})


def replace_population_text(path: Path) -> None:
    text = "A text the forger put into the relevant population instead of the real one. " * 9
    forge(
        path,
        (
            "UPDATE population_documents SET text = ?, text_sha256 = ? WHERE id = 1",
            (text, _sha(text.encode())),
        ),
    )
    append(path, "population_added", None, {"population_id": 1})


def delete_sealed_run(path: Path) -> None:
    forge(
        path,
        "DELETE FROM stability_checks WHERE run_id = 1",
        "DELETE FROM run_documents WHERE run_id = 1",
        "DELETE FROM runs WHERE id = 1",
    )
    append(path, "run_deleted", 1, {"run_id": RUN, "reason": "stored by mistake"})


def remove_used_evidence(path: Path) -> None:
    forge(path, f"DELETE FROM documents WHERE id = {QUESTIONED}")
    append(path, "document_removed", 1, {"document_id": QUESTIONED, "reason": "duplicate"})


def remove_model_with_invented_entry(path: Path) -> None:
    forge(path, "DELETE FROM models WHERE id = 2")
    append(path, "model_removed", None, {"model_id": 2})


FORGERIES: dict[str, tuple[Callable[[Path], None], str, str]] = {
    # name: (construction, words `check` prints, words `check --receipt` prints)
    "questioned text swapped via an appended entry": (
        swap_questioned_text,
        "document_added creates document 6 again",
        "document 6 was changed since the receipt by no audited entry",
    ),
    "a run's result rewritten": (
        rewrite_run_result,
        "run_stored creates run 1 again",
        "run 1 was changed since the receipt by no audited entry",
    ),
    "model thresholds tripled": (
        triple_thresholds,
        "model_added creates model 1 again",
        "model 1 was changed since the receipt by no audited entry",
    ),
    "a validation marked met": (
        mark_validation_met,
        "validation_stored creates validation record 1 again",
        "validation record 1 was changed since the receipt by no audited entry",
    ),
    "a population text replaced": (
        replace_population_text,
        "population_added creates population 1 again",
        "the set of documents of population 1 was changed since the receipt by no audited entry",
    ),
    "a sealed run deleted": (
        delete_sealed_run,
        "its action 'run_deleted' is not one the program writes",
        "run 1 was removed since the receipt by no audited entry",
    ),
    "used evidence removed with the program's removal entry": (
        remove_used_evidence,
        "removes document 6, which stored run 1 used",
        "run 1: used document 6, which is no longer stored",
    ),
    "a removal entry the program never writes": (
        remove_model_with_invented_entry,
        "its action 'model_removed' is not one the program writes",
        "model 2 was removed since the receipt by no audited entry",
    ),
}

# the twelve kinds of fields no hash covered before version 6: a plain UPDATE, no entry at all
DISPLAY_FIELDS: dict[str, tuple[str, str]] = {
    "document encoding": (
        f"UPDATE documents SET encoding = 'UTF-8' WHERE id = {CP1252}",
        "document 3",
    ),
    "document counts": (
        "UPDATE documents SET char_count = 99999, sentence_count = 999 WHERE id = 1",
        "document 1",
    ),
    "document import time": (
        "UPDATE documents SET imported_utc = '2020-01-01T00:00:00Z' WHERE id = 1",
        "document 1",
    ),
    "document format": (
        f"UPDATE documents SET file_format = 'txt' WHERE id = {MAIL}",
        "document 4",
    ),
    "e-mail metadata": (
        f"UPDATE documents SET metadata_json = replace(metadata_json, 'writer@example.org',"
        f" 'someone.else@example.org') WHERE id = {MAIL}",
        "document 4",
    ),
    "Word metadata": (
        f"UPDATE documents SET metadata_json = replace(metadata_json, 'Jane Writer', 'Mallory')"
        f" WHERE id = {WORD}",
        "document 5",
    ),
    "stability interval": (
        "UPDATE stability_checks SET interval_low = 0.9, interval_high = 0.95",
        "stability check 1",
    ),
    "stability date": (
        "UPDATE stability_checks SET computed_utc = '2030-01-01T00:00:00Z'",
        "stability check 1",
    ),
    "validation criteria met": (
        "UPDATE validation_records SET criteria_met = 0",
        "validation record 1",
    ),
    "validation Cllr": ("UPDATE validation_records SET cllr = 0.01", "validation record 1"),
    "model corpus": ("UPDATE models SET corpus_name = 'court letters' WHERE id = 1", "model 1"),
    "model source name": (
        "UPDATE models SET source_file_name = 'lab-approved.json' WHERE id = 1",
        "model 1",
    ),
    "model date": ("UPDATE models SET added_utc = '2020-01-01T00:00:00Z' WHERE id = 1", "model 1"),
    "population counts": (
        "UPDATE populations SET author_count = 500, document_count = 5000",
        "population 1",
    ),
    "population source": (
        "UPDATE populations SET source_path = '/lab/reference/letters'",
        "population 1",
    ),
}


def _checks(project: Path) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    receipt = project.parent / "r.pdf.receipt.json"
    return (
        taveer("--project", project, "check", "--quick"),
        taveer("--project", project, "check", "--quick", "--receipt", receipt),
    )


def test_the_issued_project_passes_every_check(project):
    plain, with_receipt = _checks(project)
    assert plain.returncode == 0 and "state root: " in plain.stdout, plain.stdout
    assert with_receipt.returncode == 0, with_receipt.stdout
    assert "Receipt check passed" in with_receipt.stdout
    done = taveer("--project", project, "check", "--quick", "--report", project.parent / "r.pdf")
    assert done.returncode == 0 and "was issued by this project" in done.stdout, done.stdout


@pytest.mark.parametrize("name", list(FORGERIES))
def test_forgery_is_found(project, name):
    construction, words, receipt_words = FORGERIES[name]
    construction(project)
    plain, with_receipt = _checks(project)
    assert plain.returncode == 1 and words in plain.stdout, plain.stdout
    assert with_receipt.returncode == 1 and receipt_words in with_receipt.stdout, (
        with_receipt.stdout
    )


@pytest.mark.parametrize("name", list(DISPLAY_FIELDS))
def test_a_display_field_changed_without_an_entry_is_found(project, name):
    statement, subject = DISPLAY_FIELDS[name]
    forge(project, statement)
    plain, with_receipt = _checks(project)
    assert plain.returncode == 1, plain.stdout
    assert f"{subject}: differs from its seal in audit entry" in plain.stdout, plain.stdout
    assert with_receipt.returncode == 1
    assert f"{subject} was changed since the receipt by no audited entry" in with_receipt.stdout


def test_a_pdf_edited_after_export_is_not_the_one_issued(project):
    pdf = project.parent / "r.pdf"
    data = pdf.read_bytes()
    pdf.write_bytes(
        data.replace(b"/Producer", b"/Producex", 1) if b"/Producer" in data else data + b"%"
    )
    done = taveer("--project", project, "check", "--quick", "--report", pdf)
    assert done.returncode == 1, done.stdout
    assert "was NOT issued by this project" in done.stdout
    as_json = json.loads(taveer("--project", project, "check", "--report", pdf, "--json").stdout)
    assert as_json["report"]["ok"] is False and as_json["report"]["issued"] is None


def test_an_audited_case_edit_is_listed_as_a_change_since_the_receipt(project):
    """The limit, honestly: cases are the records the program changes in place, so an appended
    ``case_updated`` with the right seal passes ``check``; against a receipt it is listed as a
    change, naming the entry (an examiner sees who and when)."""
    forge(project, "UPDATE cases SET examiner = 'Mallory' WHERE id = 1")
    append(project, "case_updated", 1, {"case_id": 1, "examiner": "Mallory"})
    plain, with_receipt = _checks(project)
    assert plain.returncode == 0, plain.stdout
    assert with_receipt.returncode == 0, with_receipt.stdout
    assert re.search(r"case 1 changed: by audit entry \d+ \(case_updated", with_receipt.stdout)
    data = json.loads(
        taveer(
            "--project",
            project,
            "check",
            "--receipt",
            project.parent / "r.pdf.receipt.json",
            "--json",
        ).stdout
    )
    (change,) = data["receipt"]["changes_since_receipt"]
    assert change["record"] == "case 1" and change["audited"] is True


def test_check_leaves_the_file_unchanged(project):
    before = _sha(project.read_bytes())
    for extra in ((), ("--receipt", project.parent / "r.pdf.receipt.json")):
        assert taveer("--project", project, "check", *extra).returncode == 0
    assert _sha(project.read_bytes()) == before


@pytest.mark.parametrize("option", ["--receipt", "--report"])
def test_a_fifo_is_refused_in_one_line(project, option):
    fifo = project.parent / "pipe"
    import os

    os.mkfifo(fifo)
    done = taveer("--project", project, "check", option, fifo)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"taveer: {fifo}: is a named pipe (FIFO), not a regular file; it was not opened"
    ]
