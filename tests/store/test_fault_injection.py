"""Fault test: a writer killed with SIGKILL at random moments never corrupts the store.

A child process (``fault_child.py``) adds documents and stores runs in a loop and prints each
id after its commit. It is killed many times at random moments; afterwards the store must
pass SQLite's ``PRAGMA integrity_check`` and the store's own integrity check, and every
document the child reported is there byte for byte (every reported run too).
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taveer_desktop.store import QUESTIONED, ProjectStore

from .evidence_builders import demo_text_paths, model_bytes

CHILD = Path(__file__).resolve().parent / "fault_child.py"
KILLS = 40
MIN_KILLS = 30
TIME_BUDGET_S = 45.0


def _prepare(path: Path) -> None:
    _known, questioned = demo_text_paths()
    with ProjectStore.create(path) as store:
        case = store.cases.create("FAULT")
        store.documents.add(case.id, QUESTIONED, [questioned])
        store.models.add_bytes(model_bytes(), "default.json")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")
def test_store_survives_being_killed_at_random_moments(tmp_path):
    store_path = tmp_path / "fault.taveer"
    scratch = tmp_path / "evidence"
    scratch.mkdir()
    _prepare(store_path)
    rng = random.Random(4242)
    reported_docs: dict[int, tuple[str, str]] = {}
    reported_runs: dict[int, str] = {}
    kills = kills_after_work = 0
    started = time.monotonic()
    while kills < KILLS and time.monotonic() - started < TIME_BUDGET_S:
        child = subprocess.Popen(
            [sys.executable, str(CHILD), str(store_path), str(scratch), str(kills)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        first = child.stdout.readline().strip()
        if first != "ready":
            child.kill()
            _out, err = child.communicate()
            pytest.fail(f"child did not start after {kills} kills: {first} {err}")
        time.sleep(rng.uniform(0.0, 0.6))
        child.send_signal(signal.SIGKILL)
        out, err = child.communicate()
        assert child.returncode == -signal.SIGKILL, f"child ended by itself: {err}"
        kills += 1
        lines = out.splitlines()
        kills_after_work += bool(lines)
        for line in lines:
            kind, record_id, digest, *rest = line.split(" ", 3)
            if kind == "doc":
                reported_docs[int(record_id)] = (digest, rest[0])
            elif kind == "run":
                reported_runs[int(record_id)] = digest
    assert kills >= MIN_KILLS
    assert reported_docs and reported_runs

    conn = sqlite3.connect(store_path)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
    with ProjectStore.open(store_path) as store:
        assert store.last_integrity_report.ok, store.last_integrity_report.problems
        full = store.check_integrity(include_sqlite_check=True)
        assert full.ok, full.problems
        for doc_id, (digest, source) in reported_docs.items():
            assert store.documents.get(doc_id).sha256 == digest
            assert store.documents.original_bytes(doc_id) == Path(source).read_bytes()
        for run_id, digest in reported_runs.items():
            assert store.runs.get(run_id).record_sha256 == digest
        stored_docs = full.documents_checked
    print(
        f"\nfault test: {kills} SIGKILLs survived ({kills_after_work} after at least one commit), "
        f"{len(reported_docs)} documents and {len(reported_runs)} runs reported and found, "
        f"{stored_docs} documents in the store, {time.monotonic() - started:.1f} s"
    )
