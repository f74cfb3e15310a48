"""A file rewritten while it is read is refused, never stored torn.

Before, the file was read with one ``read()`` and nothing compared it afterwards: a file
rewritten meanwhile was stored as a mix of two versions (20 of 25 attempts in the issue).
"""

from __future__ import annotations

import os
import threading
import time

import pytest

from taveer_desktop.core.intake import file_reading
from taveer_desktop.store.errors import EvidenceRefused
from taveer_desktop.store.intake import prepare_document

SIZE = 4 * 1024 * 1024


def _version(letter: bytes) -> bytes:
    line = letter * 79 + b"\n"
    return line * (SIZE // len(line))


def test_rewritten_between_chunks_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "letter.txt"
    first, second = _version(b"a"), _version(b"b")
    path.write_bytes(first)
    real_read = os.read
    calls = {"n": 0}

    def read_then_rewrite(fd, n):
        data = real_read(fd, n)
        calls["n"] += 1
        if calls["n"] == 1:  # another program rewrites the file after the first chunk
            with open(path, "r+b") as other:
                other.write(second)
        return data

    monkeypatch.setattr(file_reading.os, "read", read_then_rewrite)
    with pytest.raises(EvidenceRefused, match="changed while being read"):
        prepare_document(path)


def test_a_file_rewritten_in_a_loop_is_never_stored_torn(tmp_path):
    path = tmp_path / "busy.txt"
    versions = [_version(b"a"), _version(b"b")]
    path.write_bytes(versions[0])
    stop = threading.Event()

    def writer():
        index = 0
        while not stop.is_set():
            index ^= 1
            with open(path, "r+b") as handle:  # rewritten in place, as an editor might
                for start in range(0, SIZE, 256 * 1024):
                    handle.write(versions[index][start : start + 256 * 1024])
                    time.sleep(0)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    refused = stored = 0
    try:
        for _attempt in range(25):
            try:
                document = prepare_document(path)
            except EvidenceRefused as error:
                assert "changed while being read" in error.plain_message
                refused += 1
            else:
                assert document.data in versions, "a torn mix of two versions was accepted"
                stored += 1
    finally:
        stop.set()
        thread.join()
    assert refused + stored == 25
    assert refused > 0  # the writer really interfered
