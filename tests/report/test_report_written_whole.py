"""A report is certified only when the file on disk is the whole PDF that was laid out.

Qt's PDF writer reports no write errors, so before this check a truncated PDF (a full disk)
was renamed into place and its SHA-256 recorded as ``report_exported``. Each attack here
leaves the writer's file damaged and expects: a ``ReportError`` naming the target, no file at
the target, no partial file beside it, and no new audit entry.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from taveer_desktop.report.export import export_report
from taveer_desktop.report.inputs import ReportError
from taveer_desktop.report.pdf import RenderedReport
from taveer_desktop.report.pdf_check import PdfCheckFailed, check_pdf_bytes, check_written_pdf
from taveer_desktop.store import ProjectStore

from .conftest import demo_store


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return demo_store(tmp_path_factory.mktemp("whole"))


def _audit_length(project: Path) -> int:
    with ProjectStore.open(project) as store:
        return len(store.audit.entries(None))


def _assert_nothing_certified(project: Path, target: Path, before: int) -> None:
    assert not target.exists()
    assert not [p for p in target.parent.iterdir() if p.name.startswith(f".{target.name}.")]
    assert _audit_length(project) == before


def _spoil_writer(monkeypatch, spoil) -> None:
    original = RenderedReport._paint_pdf

    def painted_then_spoiled(self, path, archival):
        original(self, path, archival)
        data = Path(path).read_bytes()
        Path(path).write_bytes(spoil(data))

    monkeypatch.setattr(RenderedReport, "_paint_pdf", painted_then_spoiled)


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda d: d[: len(d) // 2], id="cut-in-half"),
        pytest.param(lambda d: d[:-200], id="tail-lost"),
        pytest.param(lambda d: d[:4096] + bytes(len(d) - 8192) + d[-4096:], id="hole-of-zeros"),
    ],
)
def test_a_writer_that_silently_loses_data_certifies_nothing(
    project, tmp_path, qapp, monkeypatch, spoil
):
    before = _audit_length(project)
    target = tmp_path / "report.pdf"
    _spoil_writer(monkeypatch, spoil)
    with ProjectStore.open(project) as store, pytest.raises(ReportError) as info:
        export_report(store, "DEMO-001", target)
    assert "not whole" in str(info.value) and str(target) in str(info.value)
    _assert_nothing_certified(project, target, before)


def test_the_check_agrees_with_poppler_and_refuses_a_wrong_page_count(project, tmp_path, qapp):
    target = tmp_path / "good.pdf"
    with ProjectStore.open(project) as store:
        exported = export_report(store, "DEMO-001", target)
    assert check_written_pdf(target, exported.page_count) == exported.page_count
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(target)], capture_output=True, text=True).stdout
        assert f"Pages:           {exported.page_count}" in info
    data = target.read_bytes()
    with pytest.raises(PdfCheckFailed, match="where"):
        check_pdf_bytes(data, exported.page_count + 1)
    with pytest.raises(PdfCheckFailed, match="header"):
        check_pdf_bytes(b"GIF89a" + data[6:], exported.page_count)


def _can_mount_tmpfs() -> bool:
    return sys.platform.startswith("linux") and os.geteuid() == 0 and shutil.which("mount")


@pytest.mark.skipif(not _can_mount_tmpfs(), reason="a real full disk needs root to mount a tmpfs")
def test_report_onto_a_really_full_disk(project, tmp_path, qapp):
    """The target folder is a tmpfs too small for the PDF: the report fails, nothing recorded."""
    mount = tmp_path / f"full-{uuid.uuid4().hex[:6]}"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)])
    if done.returncode != 0:
        pytest.skip("mounting a tmpfs was refused here")
    try:
        before = _audit_length(project)
        target = mount / "report.pdf"
        with ProjectStore.open(project) as store, pytest.raises(ReportError) as info:
            export_report(store, "DEMO-001", target)
        assert str(target) in str(info.value)
        _assert_nothing_certified(project, target, before)
    finally:
        subprocess.run(["umount", str(mount)])


def test_every_report_writes_a_receipt_beside_itself(project, tmp_path, qapp):
    from taveer_desktop.store.receipts import check_receipt, read_receipt

    target = tmp_path / "with-receipt.pdf"
    with ProjectStore.open(project) as store:
        exported = export_report(store, "DEMO-001", target)
        receipt = read_receipt(exported.receipt_path)
        assert exported.receipt_path == target.with_name("with-receipt.pdf.receipt.json")
        assert receipt.head_hash == exported.audit_entry.entry_hash
        assert receipt.chain_length == exported.audit_entry.seq
        assert check_receipt(store, receipt) == []
