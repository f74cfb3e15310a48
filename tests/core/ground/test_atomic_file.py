"""Atomic writes: a file is wholly written or left as it was, and a failure leaves no temp file."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

import pytest

from taveer_desktop.core.ground import atomic_file
from taveer_desktop.core.ground.atomic_file import (
    FileWriteError,
    replacing,
    write_bytes_atomically,
    write_text_atomically,
)
from taveer_desktop.core.methods.taveer.model import save_model
from taveer_desktop.core.validation.validation import save_record


def _leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_a_file_is_written_whole_with_the_usual_permissions(tmp_path):
    target = tmp_path / "answers.txt"
    assert write_text_atomically(target, "EN001 0.75\n") == target
    assert target.read_text(encoding="utf-8") == "EN001 0.75\n"
    umask = os.umask(0)
    os.umask(umask)
    if os.name == "posix":
        assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    assert _leftovers(tmp_path) == []


def test_an_existing_file_is_replaced(tmp_path):
    target = tmp_path / "model.json"
    target.write_bytes(b"old")
    write_bytes_atomically(target, b"new")
    assert target.read_bytes() == b"new" and _leftovers(tmp_path) == []


def test_a_failure_while_writing_leaves_the_target_as_it_was(tmp_path):
    target = tmp_path / "record.json"
    target.write_text("the old record", encoding="utf-8")
    with pytest.raises(RuntimeError), replacing(target) as temp:
        temp.write_text("half of a new rec", encoding="utf-8")
        raise RuntimeError("stopped half-way")
    assert target.read_text(encoding="utf-8") == "the old record"
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_disk_error_is_one_plain_sentence_naming_the_file(tmp_path, monkeypatch, failing):
    target = tmp_path / "receipt.json"
    target.write_text("before", encoding="utf-8")

    def full_disk(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic_file.os, failing, full_disk)
    with pytest.raises(FileWriteError) as info:
        write_text_atomically(target, "after")
    assert str(info.value) == f"{target}: cannot be written (No space left on device)"
    assert info.value.source == str(target)
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "before"
    assert _leftovers(tmp_path) == []


def test_a_missing_folder_is_named(tmp_path):
    target = tmp_path / "missing" / "out.json"
    with pytest.raises(FileWriteError, match=r"missing/out\.json: cannot be written"):
        write_bytes_atomically(target, b"{}")
    assert list(tmp_path.iterdir()) == []


def test_model_and_record_files_use_it(tmp_path, monkeypatch):
    from taveer_desktop.core.methods.taveer.model import load_model
    from taveer_desktop.paths import resource

    model = load_model(resource("models", "default.json"))

    def broken_disk(*_args):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(atomic_file.os, "replace", broken_disk)
    with pytest.raises(FileWriteError, match=r"model\.json: cannot be written"):
        save_model(model, tmp_path / "model.json")
    with pytest.raises(FileWriteError, match=r"record\.json: cannot be written"):
        save_record({"kind": "test"}, tmp_path / "record.json")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_folder_fifo_or_device_under_the_name_is_never_replaced(tmp_path):
    """Before: the temporary file was renamed over whatever held the name, so `-o /dev/null`
    (as root) swapped the device for a regular file and a FIFO vanished."""
    fifo = tmp_path / "answers.jsonl"
    os.mkfifo(fifo)
    targets = [(fifo, "named pipe (FIFO)"), (tmp_path, "folder")]
    if os.path.exists("/dev/null"):
        targets.append((Path("/dev/null"), "device"))
    for target, kind in targets:
        before = os.lstat(target)
        with pytest.raises(FileWriteError, match=f"is a {re.escape(kind)}, not a regular file"):
            write_text_atomically(target, "x")
        after = os.lstat(target)
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert [p.name for p in tmp_path.iterdir()] == ["answers.jsonl"]  # no temporary file left
