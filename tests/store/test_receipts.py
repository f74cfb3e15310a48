"""Receipts kept outside the file: rolling back, trimming the chain and replacing the project
are invisible to ``taveer check`` alone (the chain's head lives in the same file) and are caught
by ``check --receipt``. Every report writes a receipt beside itself.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from taveer_desktop.store import ProjectStore
from taveer_desktop.store.receipts import check_receipt, read_receipt, write_receipt

CLI = [sys.executable, "-m", "taveer_desktop.cli"]


def taveer(*args) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, timeout=120)


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "p.taveer"
    with ProjectStore.create(path) as store:
        store.cases.create("C1")
    return path


def _add_cases(path: Path, *numbers: str) -> None:
    with ProjectStore.open(path) as store:
        for number in numbers:
            store.cases.create(number)


def test_receipt_of_an_untouched_store_passes(project, tmp_path):
    receipt = tmp_path / "r.json"
    done = taveer("--project", project, "receipt", "-o", receipt)
    assert done.returncode == 0, done.stderr
    data = json.loads(receipt.read_text())
    assert data["format"] == "taveer-receipt" and data["chain_length"] == 2
    _add_cases(project, "C2")  # later work continues the receipt
    done = taveer("--project", project, "check", "--receipt", receipt, "--quick")
    assert done.returncode == 0 and "Receipt check passed" in done.stdout, done.stdout


def test_rollback_to_an_older_copy_is_caught(project, tmp_path):
    older = tmp_path / "older.taveer"
    shutil.copyfile(project, older)
    _add_cases(project, "C2", "C3")
    receipt = tmp_path / "r.json"
    with ProjectStore.open(project) as store:
        write_receipt(store, receipt)
    shutil.copyfile(older, project)  # the forger puts the older copy back
    assert taveer("--project", project, "check", "--quick").returncode == 0  # invisible alone
    done = taveer("--project", project, "check", "--receipt", receipt, "--quick", "--json")
    assert done.returncode == 1
    problems = json.loads(done.stdout)["receipt"]["problems"]
    assert "rolled back" in problems[0]


def test_trimmed_chain_tail_is_caught(project, tmp_path):
    _add_cases(project, "C2", "C3")
    receipt = tmp_path / "r.json"
    with ProjectStore.open(project) as store:
        write_receipt(store, receipt)
        tail = store.audit.head().seq
    conn = sqlite3.connect(project)  # the forger: drop the guard, cut the tail, fix nothing else
    guards = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'"
    ).fetchall()
    for name, _sql in guards:
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("DELETE FROM audit_log WHERE seq = ?", (tail,))
    conn.execute("UPDATE cases SET number = number WHERE number = 'C3'")
    for _name, sql in guards:
        conn.execute(sql)
    conn.commit()
    conn.close()
    with ProjectStore.open(project, verify=False) as store:
        problems = check_receipt(store, read_receipt(receipt))
    assert problems and "trimmed" in problems[0]


def test_replaced_history_and_another_project_are_caught(project, tmp_path):
    older = tmp_path / "older.taveer"
    shutil.copyfile(project, older)
    _add_cases(project, "C2")
    receipt = tmp_path / "r.json"
    with ProjectStore.open(project) as store:
        write_receipt(store, receipt)
    shutil.copyfile(older, project)
    _add_cases(project, "OTHER", "MORE")  # a different history, longer than the receipt's
    with ProjectStore.open(project) as store:
        assert "rebuilt or replaced" in check_receipt(store, read_receipt(receipt))[0]
    other = tmp_path / "other.taveer"
    ProjectStore.create(other).close()
    with ProjectStore.open(other) as store:
        assert "not the project" in check_receipt(store, read_receipt(receipt))[0]


@pytest.mark.parametrize("content", [b"", b"{}", b"[", b'{"format": "taveer-receipt"}'])
def test_a_bad_receipt_file_is_one_line_and_exit_2(project, tmp_path, content):
    receipt = tmp_path / "bad.json"
    receipt.write_bytes(content)
    done = taveer("--project", project, "check", "--receipt", receipt)
    assert done.returncode == 2 and "bad.json" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_receipt_that_cannot_be_written_leaves_the_old_one(project, tmp_path, monkeypatch):
    from taveer_desktop.core.ground import atomic_file
    from taveer_desktop.store.receipts import ReceiptError

    receipt = tmp_path / "r.json"
    with ProjectStore.open(project) as store:
        write_receipt(store, receipt)
        before = receipt.read_bytes()

        def full_disk(*_args):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(atomic_file.os, "fsync", full_disk)
        with pytest.raises(ReceiptError, match=r"r\.json: cannot be written \(No space left"):
            write_receipt(store, receipt)
    assert receipt.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".r.json.")]
