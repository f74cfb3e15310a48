"""Every refusal reason of evidence intake, and that a refusal never leaves anything behind."""

from __future__ import annotations

import pytest

from taveer_desktop.store import (
    KNOWN,
    IntakeRejected,
    RejectionReason,
    StoreError,
    audit_chain,
    intake,
)

from .evidence_builders import write

GOOD = "A perfectly ordinary letter. It has sentences. "


def _refusal(store, case, path) -> tuple[RejectionReason, str]:
    with pytest.raises(IntakeRejected) as caught:
        store.documents.add(case.id, KNOWN, [path])
    (rejection,) = caught.value.rejections
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    assert str(path) in message
    return rejection.reason, rejection.message


def _nothing_stored(store, case, audit_before: int) -> None:
    assert store.documents.list_for_case(case.id) == []
    assert len(store.audit.entries()) == audit_before


def test_empty_file(store, case, tmp_path):
    reason, message = _refusal(store, case, write(tmp_path / "empty.txt", b""))
    assert reason is RejectionReason.EMPTY
    assert "empty" in message


def test_white_space_only_file(store, case, tmp_path):
    reason, _ = _refusal(store, case, write(tmp_path / "blank.txt", b" \r\n\t \n"))
    assert reason is RejectionReason.EMPTY


def test_binary_file(store, case, tmp_path):
    data = bytes(range(256)) * 40
    reason, message = _refusal(store, case, write(tmp_path / "image.txt", data))
    assert reason is RejectionReason.BINARY
    assert "binary" in message


def test_binary_file_named_eml(store, case, tmp_path):
    reason, _ = _refusal(store, case, write(tmp_path / "mail.eml", b"\x00\x01\x02garbage" * 50))
    assert reason is RejectionReason.BINARY


def test_missing_file(store, case, tmp_path):
    reason, message = _refusal(store, case, tmp_path / "nowhere.txt")
    assert reason is RejectionReason.UNREADABLE
    assert message == "no such file"


def test_folder_instead_of_file(store, case, tmp_path):
    folder = tmp_path / "folder.txt"
    folder.mkdir()
    reason, message = _refusal(store, case, folder)
    assert reason is RejectionReason.UNREADABLE
    assert "folder" in message


def test_file_over_the_size_limit_states_the_limit(store, case, tmp_path):
    big = tmp_path / "huge.txt"
    with open(big, "wb") as handle:  # sparse: costs no disk space, refused before reading
        handle.truncate(intake.MAX_FILE_BYTES + 1)
    reason, message = _refusal(store, case, big)
    assert reason is RejectionReason.TOO_LARGE
    assert f"{intake.MAX_FILE_BYTES:,} bytes" in message
    assert "32.0 MiB" in message


def test_text_over_the_character_limit(store, case, tmp_path, monkeypatch):
    monkeypatch.setattr(intake, "MAX_TEXT_CHARS", 100)
    reason, message = _refusal(store, case, write(tmp_path / "long.txt", "word " * 50))
    assert reason is RejectionReason.TOO_LARGE
    assert "100" in message


def test_unsupported_file_type(store, case, tmp_path):
    reason, message = _refusal(store, case, write(tmp_path / "scan.pdf", b"%PDF-1.4 ..."))
    assert reason is RejectionReason.UNSUPPORTED
    assert ".pdf" in message and ".docx" in message


def test_duplicate_of_a_document_already_in_the_case(store, case, tmp_path):
    first = write(tmp_path / "a.txt", GOOD)
    (doc,) = store.documents.add(case.id, KNOWN, [first]).added
    copy = write(tmp_path / "renamed copy.txt", GOOD)
    with pytest.raises(IntakeRejected) as caught:
        store.documents.add(case.id, "questioned", [copy])
    (rejection,) = caught.value.rejections
    assert rejection.reason is RejectionReason.DUPLICATE
    assert f"document {doc.id}" in rejection.message and "SHA-256" in rejection.message
    assert len(store.documents.list_for_case(case.id)) == 1


def test_same_file_in_another_case_is_not_a_duplicate(store, case, tmp_path):
    other = store.cases.create("2025-002")
    path = write(tmp_path / "a.txt", GOOD)
    store.documents.add(case.id, KNOWN, [path])
    assert len(store.documents.add(other.id, KNOWN, [path]).added) == 1


def test_duplicate_within_one_import(store, case, tmp_path):
    a = write(tmp_path / "a.txt", GOOD)
    b = write(tmp_path / "b.txt", GOOD)
    result = store.documents.add(case.id, KNOWN, [a, b], skip_rejected=True)
    assert [d.file_name for d in result.added] == ["a.txt"]
    assert [r.reason for r in result.rejected] == [RejectionReason.DUPLICATE]
    assert "same import" in result.rejected[0].message


def test_one_refusal_imports_nothing_of_the_batch(store, case, tmp_path):
    before = len(store.audit.entries())
    good = [write(tmp_path / f"good{i}.txt", GOOD + str(i)) for i in range(3)]
    bad = write(tmp_path / "bad.txt", b"")
    with pytest.raises(IntakeRejected) as caught:
        store.documents.add(case.id, KNOWN, [*good, bad])
    assert "nothing was imported" in str(caught.value)
    _nothing_stored(store, case, before)


def test_several_refusals_are_all_named_in_one_line(store, case, tmp_path):
    paths = [write(tmp_path / "e.txt", b""), write(tmp_path / "x.pdf", b"x"), tmp_path / "n.txt"]
    with pytest.raises(IntakeRejected) as caught:
        store.documents.add(case.id, KNOWN, paths)
    message = str(caught.value)
    assert message.startswith("3 of 3 files were refused")
    assert "(empty)" in message and "(unsupported)" in message and "(unreadable)" in message
    assert "\n" not in message


def test_skip_rejected_imports_the_acceptable_files(store, case, tmp_path):
    good = write(tmp_path / "good.txt", GOOD)
    bad = write(tmp_path / "bad.txt", b"")
    result = store.documents.add(case.id, KNOWN, [good, bad], skip_rejected=True)
    assert [d.file_name for d in result.added] == ["good.txt"]
    assert [(r.path, r.reason) for r in result.rejected] == [(str(bad), RejectionReason.EMPTY)]


def test_failure_inside_the_transaction_rolls_everything_back(store, case, tmp_path, monkeypatch):
    before = len(store.audit.entries())
    paths = [write(tmp_path / f"d{i}.txt", GOOD + str(i)) for i in range(3)]
    real_append = audit_chain.append_entry
    calls = []

    def failing_append(conn, action, *args):
        calls.append(action)
        if len(calls) == 3:
            raise OSError("simulated failure while writing the third audit entry")
        return real_append(conn, action, *args)

    monkeypatch.setattr(audit_chain, "append_entry", failing_append)
    with pytest.raises(OSError):
        store.documents.add(case.id, KNOWN, paths)
    monkeypatch.setattr(audit_chain, "append_entry", real_append)
    _nothing_stored(store, case, before)
    assert store.check_integrity().ok


def test_unknown_case_is_refused(store, tmp_path):
    with pytest.raises(StoreError, match="no case with id 999"):
        store.documents.add(999, KNOWN, [write(tmp_path / "a.txt", GOOD)])


def test_import_reports_progress_and_a_cancel_stores_nothing(store, case, tmp_path):
    from taveer_desktop.core.ground.errors import Cancelled
    from taveer_desktop.core.ground.progress import Progress

    files = [
        write(tmp_path / f"doc{i}.txt", f"{GOOD}Letter number {i}.".encode()) for i in range(4)
    ]
    calls = []
    result = store.documents.add(
        case.id, KNOWN, files[:2], progress=Progress(lambda *a: calls.append(a))
    )
    assert len(result.added) == 2
    assert [c[:2] for c in calls] == [(0, 3), (1, 3), (2, 3)]
    audit_before = len(store.audit.entries())

    def cancel_after_the_first_file(done, total, message):
        if done == 1:
            progress.cancel()

    progress = Progress(cancel_after_the_first_file)
    with pytest.raises(Cancelled):
        store.documents.add(case.id, KNOWN, files[2:], progress=progress)
    assert len(store.documents.list_for_case(case.id)) == 2  # nothing of the cancelled import
    assert len(store.audit.entries()) == audit_before


def test_docx_whose_zip_version_python_cannot_read(store, case, tmp_path):
    """A central directory entry claiming ZIP version 6.4 (found by the CLI fuzz test): zipfile
    raises NotImplementedError while opening it, which must be a refusal, not an internal error."""
    entry = b"PK\x01\x02\x00\x00@" + b"\x00" * 241  # 248 bytes: "made by" 0, "needs" 6.4
    end = b"PK\x05\x06" + b"\x00" * 8 + b"\xf8\x00\x00\x00" + b"\x00" * 6
    audit_before = len(store.audit.entries())
    _reason, message = _refusal(store, case, write(tmp_path / "odd.docx", entry + end))
    assert "ZIP feature that cannot be read" in message
    _nothing_stored(store, case, audit_before)
