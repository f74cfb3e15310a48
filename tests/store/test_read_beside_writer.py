"""Commands that only read run beside a real writer (another process holding the project's lock,
as the open desktop does), read what it committed and change nothing; a command that writes is
refused in one line naming the holder and a readable time (issue 33 item 5)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap

import pytest
from number_scan import PATTERNS

from taveer_desktop.cli import main
from taveer_desktop.store import ProjectLocked, ProjectStore, StoreError

from .evidence_builders import demo_text_paths, model_bytes, write

# The holder: opens the project for writing (the writer's lock), commits a case, says so, then
# keeps the project open until its stdin closes, committing a second case when told.
HOLDER_SCRIPT = textwrap.dedent(
    """
    import sys
    from taveer_desktop.store import ProjectStore
    store = ProjectStore.open(sys.argv[1])
    store.cases.create("HELD-1", "Committed by the holder")
    print("open", flush=True)
    for line in sys.stdin:  # "add": commit one more case; end of input: close
        store.cases.create("HELD-2", "Committed later")
        print("added", flush=True)
    store.close()
    """
)

READERS = [
    ["case", "list"],
    ["case", "show", "HELD-1"],
    ["case", "attempts", "HELD-1"],
    ["audit"],
    ["audit", "HELD-1"],
    ["model", "list"],
    ["population", "list"],
    ["validation", "list"],
    ["check", "--quick"],
]


@pytest.fixture
def held(tmp_path):
    path = tmp_path / "held.taveer"
    ProjectStore.create(path).close()
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER_SCRIPT, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "open"
        yield path, child
    finally:
        if child.poll() is None:
            child.stdin.close()
            child.wait(timeout=60)


def _state(path):
    """The bytes of the project file and of every file beside it (what a reader must not change)."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(path.parent.iterdir())
        if p.is_file() and not p.name.endswith("-shm")  # SQLite's shared index of readers
    }


def test_read_only_commands_run_beside_the_writer_and_change_nothing(held, capsys):
    path, child = held
    before = _state(path)
    texts = []
    for command in READERS:
        code = main(["--project", str(path), *command])
        out, err = capsys.readouterr()
        assert code == 0, (command, out, err)
        assert err == "", (command, err)
        texts.append(out)
        assert main(["--project", str(path), *command, "--json"]) == 0, command
        json.loads(capsys.readouterr().out)
    receipt = path.parent / "out" / "receipt.json"
    receipt.parent.mkdir()
    assert main(["--project", str(path), "receipt", "-o", str(receipt)]) == 0
    texts.append(capsys.readouterr().out)
    assert json.loads(receipt.read_text())["chain_length"] >= 1
    assert "HELD-1" in texts[0]  # the holder's committed case is read
    assert "Committed by the holder" in texts[1]
    assert _state(path) == before  # nothing written: not the file, its log or the holder's info
    assert child.poll() is None  # the writer still holds the project
    raw_time = PATTERNS["raw time"]
    assert not [t for t in texts if raw_time.search(t)], "a raw ISO time in text output"
    with pytest.raises(ProjectLocked) as caught:  # the writer's lock is still its own
        ProjectStore.open(path)
    assert "only read" not in str(caught.value)  # the desktop's refusal speaks of no CLI command


def test_a_reader_sees_one_snapshot_and_refuses_every_change(held):
    path, child = held
    with ProjectStore.open_for_reading(path) as store:
        assert [c.number for c in store.cases.list_all()] == ["HELD-1"]
        child.stdin.write("add\n")  # the writer commits while the reader is open
        child.stdin.flush()
        assert child.stdout.readline().strip() == "added"
        assert [c.number for c in store.cases.list_all()] == ["HELD-1"]  # its snapshot
        assert store.check_integrity().ok  # the check reads the same snapshot
        assert "read beside process" in (store.read_only_reason or "")
        with pytest.raises(StoreError, match="read-only"):
            store.cases.create("NEW", "never written")
    with ProjectStore.open_for_reading(path) as store:  # the next reader sees the commit
        assert [c.number for c in store.cases.list_all()] == ["HELD-1", "HELD-2"]


def test_a_writing_command_is_refused_in_one_line_naming_the_holder(held, capsys):
    path, child = held
    code = main(["--project", str(path), "case", "create", "NEW", "--title", "x"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert f"process {child.pid}" in lines[0]
    assert "only read" in lines[0] and "case list" in lines[0]  # which commands can run beside
    assert "open since" in lines[0] and not PATTERNS["raw time"].search(lines[0])
    pdf = path.with_name("draft.pdf")  # a draft report records report_exported: a writer
    code = main(["--project", str(path), "report", "HELD-1", "-o", str(pdf)])
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and f"process {child.pid}" in lines[0]
    assert "a report, even a draft, writes" in lines[0] and "audit trail" in lines[0]
    assert not pdf.exists()
    # save-copy writes a copy_saved audit entry into the project: a writer
    code = main(["--project", str(path), "save-copy", str(path.with_name("copy.taveer"))])
    err = capsys.readouterr().err
    assert code == 2 and f"process {child.pid}" in err
    assert not path.with_name("copy.taveer").exists()  # nothing half-written


def test_the_desktop_itself_is_still_refused_a_second_opening(tmp_path):
    path = tmp_path / "own.taveer"
    store = ProjectStore.create(path)
    try:
        with pytest.raises(ProjectLocked, match="in this program"):
            ProjectStore.open_for_reading(path)
    finally:
        store.close()


def test_alone_a_reader_writes_nothing_beside_the_file(tmp_path, capsys):
    path = tmp_path / "alone.taveer"
    with ProjectStore.create(path) as store:
        store.cases.create("A-1", "Alone")
    before = _state(path)
    assert main(["--project", str(path), "case", "list"]) == 0
    assert "A-1" in capsys.readouterr().out
    assert _state(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alone.taveer"]


def test_names_of_the_held_file_a_reader_may_use(held, tmp_path, capsys):
    """A symbolic link reaches the writer's log and reads; a hard link in another folder does
    not (SQLite names the log after the name it was given), so it is refused, not read stale."""
    path, child = held
    soft = tmp_path / "shortcut.taveer"
    soft.symlink_to(path)
    assert main(["--project", str(soft), "case", "list"]) == 0
    assert "HELD-1" in capsys.readouterr().out
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    hard = elsewhere / "alias.taveer"
    os.link(path, hard)
    assert main(["--project", str(hard), "case", "list"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "hard link" in err[0] and f"process {child.pid}" in err[0]
    assert sorted(p.name for p in elsewhere.iterdir()) == ["alias.taveer"]  # nothing beside it


def test_text_output_of_the_main_commands_shows_no_raw_iso_time(tmp_path, capsys):
    """Every stored time in text output is read as `YYYY-MM-DD HH:MM:SS UTC` (JSON keeps ISO)."""
    path = tmp_path / "times.taveer"
    model_file = write(tmp_path / "m.json", model_bytes("Time model"))
    known, questioned = demo_text_paths()
    commands = [
        ["case", "create", "T-1", "--title", "Times"],
        ["model", "add", str(model_file)],
        ["case", "add", "T-1", "--known", *map(str, known)],
        ["case", "add", "T-1", "--questioned", str(questioned)],
        ["case", "model", "T-1", "Time model"],
        ["case", "edit", "T-1", "--examiner", "E. Xaminer"],
        ["case", "list"],
        ["case", "show", "T-1"],
        ["case", "attempts", "T-1"],
        ["model", "list"],
        ["population", "list"],
        ["validation", "list"],
        ["audit"],
        ["check", "--quick"],
    ]
    texts = []
    for command in commands:
        assert main(["--project", str(path), *command]) == 0, command
        texts.append(capsys.readouterr().out)
    assert "added " in texts[9] and " UTC" in texts[9]  # the model's stored time, read
    found = [t for t in texts if PATTERNS["raw time"].search(t)]
    assert not found, found
    assert main(["--project", str(path), "audit", "--json"]) == 0  # JSON keeps the ISO time
    assert PATTERNS["raw time"].search(capsys.readouterr().out)


def test_a_holder_known_only_from_the_kernel_is_open_since_an_unknown_time():
    from taveer_desktop.store.lock_holders import UNKNOWN_SINCE
    from taveer_desktop.store.records import LockHolder

    holder = LockHolder(7, "host", "user", UNKNOWN_SINCE, "python3")
    assert holder.describe().endswith("open since an unknown time")
    known = LockHolder(7, "host", "user", "2026-12-04T20:59:00.941889Z", "python3")
    assert known.describe().endswith("open since 2026-12-04 20:59:00 UTC")


def test_a_signing_time_is_kept_in_utc_and_read_as_a_person_reads_it():
    import datetime as dt

    from taveer_desktop.cli.report_signature_check import _utc_iso
    from taveer_desktop.core.ground.time_text import recorded_time

    east = dt.timezone(dt.timedelta(hours=2))
    iso = _utc_iso(dt.datetime(2026, 12, 4, 23, 0, 5, 123, tzinfo=east))
    assert iso == "2026-12-04T21:00:05.000123+00:00"  # JSON: ISO, in UTC as its key says
    assert recorded_time(iso) == "2026-12-04 21:00:05 UTC"  # text
