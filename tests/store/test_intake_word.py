"""Intake of .docx evidence: paragraph text via zipfile + xml.etree, and every guard."""

from __future__ import annotations

import io
import zipfile

import pytest

from taveer_desktop.store import KNOWN, IntakeRejected, RejectionReason, docx_package, docx_text

from .evidence_builders import document_xml, docx_bytes, paragraph, write


def _import(store, case, tmp_path, data: bytes):
    (doc,) = store.documents.add(case.id, KNOWN, [write(tmp_path / "letter.docx", data)]).added
    return doc, store.documents.text(doc.id)


def _refusal(store, case, tmp_path, data: bytes):
    with pytest.raises(IntakeRejected) as caught:
        store.documents.add(case.id, KNOWN, [write(tmp_path / "bad.docx", data)])
    (rejection,) = caught.value.rejections
    return rejection


def test_paragraphs_runs_tabs_and_breaks(store, case, tmp_path):
    body = (
        paragraph("Dear ", "Sir,")
        + "<w:p></w:p>"
        + "<w:p><w:r><w:t>One</w:t><w:tab/><w:t>two</w:t><w:br/><w:t>three.</w:t></w:r></w:p>"
        + "<w:p><w:r><w:t>Kept </w:t></w:r><w:del><w:r><w:delText>deleted </w:delText></w:r>"
        + "</w:del><w:ins><w:r><w:t>inserted.</w:t></w:r></w:ins></w:p>"
        + "<w:tbl><w:tr><w:tc>"
        + paragraph("In a table.")
        + "</w:tc></w:tr></w:tbl>"
    )
    data = docx_bytes(document_xml(body))
    doc, text = _import(store, case, tmp_path, data)
    assert text == "Dear Sir,\n\nOne\ttwo\nthree.\n\nKept inserted.\n\nIn a table."
    assert store.documents.original_bytes(doc.id) == data
    assert doc.file_format == "docx"
    assert doc.metadata["author"] == "Jane Writer"
    assert doc.metadata["last_modified_by"] == "John Editor"
    assert doc.metadata["revision"] == "3"
    assert doc.metadata["created"] == "2024-03-01T10:00:00Z"


def test_text_box_fallback_is_not_read_twice(store, case, tmp_path):
    box = paragraph("Boxed text.")
    body = (
        '<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:txbxContent>'
        + box
        + "</w:txbxContent></mc:Choice><mc:Fallback><w:txbxContent>"
        + box
        + "</w:txbxContent></mc:Fallback></mc:AlternateContent></w:r></w:p>"
        + paragraph("After the box.")
    )
    _doc, text = _import(store, case, tmp_path, docx_bytes(document_xml(body)))
    assert text == "Boxed text.\n\nAfter the box."


def test_main_part_found_through_relationships(store, case, tmp_path):
    data = docx_bytes(document_xml(paragraph("Renamed part.")), part="word/document2.xml")
    doc, text = _import(store, case, tmp_path, data)
    assert text == "Renamed part."
    assert doc.metadata["main_part"] == "word/document2.xml"


def test_not_a_zip_package(store, case, tmp_path):
    rejection = _refusal(store, case, tmp_path, b"PK but not really a zip file" * 10)
    assert rejection.reason is RejectionReason.UNREADABLE
    assert "not a ZIP package" in rejection.message


def test_old_word_or_encrypted_file(store, case, tmp_path):
    rejection = _refusal(store, case, tmp_path, docx_text.OLE_SIGNATURE + b"\x00" * 600)
    assert rejection.reason is RejectionReason.UNREADABLE
    assert ".doc" in rejection.message and "password" in rejection.message


def test_missing_main_part(store, case, tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "no word document in here")
    rejection = _refusal(store, case, tmp_path, buffer.getvalue())
    assert rejection.reason is RejectionReason.UNREADABLE
    assert "word/document.xml" in rejection.message


def test_malformed_xml(store, case, tmp_path):
    broken = document_xml(paragraph("Unclosed")).replace("</w:body>", "")
    rejection = _refusal(store, case, tmp_path, docx_bytes(broken))
    assert rejection.reason is RejectionReason.UNREADABLE
    assert "not well-formed XML" in rejection.message


def test_doctype_and_entities_are_refused(store, case, tmp_path):
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
        f'<w:document xmlns:w="{docx_text._W[1:-1]}"><w:body><w:p><w:r><w:t>&lol2;</w:t>'
        "</w:r></w:p></w:body></w:document>"
    )
    rejection = _refusal(store, case, tmp_path, docx_bytes(bomb))
    assert rejection.reason is RejectionReason.UNREADABLE
    assert "document type declaration" in rejection.message


def test_zip_bomb_over_the_unpacked_limit(store, case, tmp_path, monkeypatch):
    monkeypatch.setattr(docx_package, "MAX_XML_BYTES", 4 * 1024 * 1024)
    monkeypatch.setattr(docx_package, "MAX_COMPRESSION_RATIO", 10**9)  # only the size guard here
    huge = document_xml(paragraph("x" * (5 * 1024 * 1024)))
    rejection = _refusal(store, case, tmp_path, docx_bytes(huge))
    assert rejection.reason is RejectionReason.TOO_LARGE
    assert "4 MiB" in rejection.message


def test_zip_bomb_by_compression_ratio(store, case, tmp_path):
    packed = docx_bytes(document_xml(paragraph("a" * (3 * 1024 * 1024))))
    assert len(packed) < 30_000  # about a thousand times smaller than unpacked
    rejection = _refusal(store, case, tmp_path, packed)
    assert rejection.reason is RejectionReason.TOO_LARGE
    assert "zip bomb" in rejection.message


def test_too_many_package_members(store, case, tmp_path, monkeypatch):
    monkeypatch.setattr(docx_package, "MAX_ZIP_ENTRIES", 20)
    extra = {f"customXml/item{i}.xml": b"<a/>" for i in range(30)}
    rejection = _refusal(
        store, case, tmp_path, docx_bytes(document_xml(paragraph("Hi.")), extra=extra)
    )
    assert rejection.reason is RejectionReason.TOO_LARGE


def test_document_without_text(store, case, tmp_path):
    rejection = _refusal(store, case, tmp_path, docx_bytes(document_xml("<w:p></w:p>")))
    assert rejection.reason is RejectionReason.EMPTY


def test_damaged_member_data(store, case, tmp_path):
    data = bytearray(docx_bytes(document_xml(paragraph("Some words here. " * 200))))
    start = data.find(b"word/document.xml") + len("word/document.xml") + 40
    data[start : start + 30] = b"\xff" * 30  # corrupt the deflated stream
    rejection = _refusal(store, case, tmp_path, bytes(data))
    assert rejection.reason is RejectionReason.UNREADABLE


def test_member_header_before_the_start_of_the_file(store, case, tmp_path):
    """Found by the CLI fuzz test: a central directory whose entry for word/document.xml
    points before the start of the file made zipfile raise ValueError (negative seek)."""
    data = bytes.fromhex(
        "504b010200000000000000000000000000000000000000000000000013000000000000000000000000000000"
        "000000000000000000000000000000000000000000504b010200000000000000000000000000000000000000"
        "00000000000b00000000000000000000000000000000000000000000000000000000504b0102000000000000"
        "000000000000000000000000000000000000110000000001000000000000000000000000776f72642f646f63"
        "756d656e742e786d6c0000000000000000000000000000000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000780000000094a1b0d8ff504b05060000000000000000f8000000"
        "000001010106"
    )
    with zipfile.ZipFile(io.BytesIO(data)) as archive, pytest.raises(ValueError):
        archive.open("word/document.xml")  # what zipfile itself does with it
    rejection = _refusal(store, case, tmp_path, data)
    assert rejection.reason is RejectionReason.UNREADABLE


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA], ids=["bzip2", "lzma"])
def test_damaged_bzip2_or_lzma_member(method, store, case, tmp_path):
    """Found by the soak's probes: a member packed with bzip2 or LZMA whose data is damaged made
    bz2 raise OSError (reported as the *project* that "cannot be written") and lzma raise
    LZMAError (an internal error); both are a damaged Word document."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", document_xml(paragraph("Some words here. " * 200)))
    data = bytearray(buffer.getvalue())
    start = data.find(b"word/document.xml") + len("word/document.xml") + 12
    data[start : start + 4] = bytes(b ^ 0x5A for b in data[start : start + 4])
    rejection = _refusal(store, case, tmp_path, bytes(data))
    assert rejection.reason is RejectionReason.UNREADABLE
    assert "damaged Word document" in rejection.message
    assert store.documents.list_for_case(case.id) == []
