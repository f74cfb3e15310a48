"""Intake of .txt evidence: every common encoding detected and recorded, bytes kept exactly."""

from __future__ import annotations

import codecs

import pytest

from taveer_desktop.core.features.text import count_sentences
from taveer_desktop.store import KNOWN

from .evidence_builders import write

TEXT = "Naïve café owners don’t “quote” much. Still, they write letters! Do they?"


@pytest.mark.parametrize(
    ("data", "expected_encoding", "expected_text"),
    [
        (TEXT.encode("utf-8"), "UTF-8", TEXT),
        (codecs.BOM_UTF8 + TEXT.encode("utf-8"), "UTF-8 (BOM)", TEXT),
        (codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"), "UTF-16 LE (BOM)", TEXT),
        (codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"), "UTF-16 BE (BOM)", TEXT),
        (TEXT.encode("cp1252"), "Windows-1252", TEXT),
        ("Déjà vu. Ça va.".encode("latin-1"), "Windows-1252", "Déjà vu. Ça va."),
    ],
)
def test_text_file_in_any_common_encoding(
    store, case, tmp_path, data, expected_encoding, expected_text
):
    path = write(tmp_path / "letter.txt", data)
    result = store.documents.add(case.id, KNOWN, [path])
    assert result.rejected == ()
    (doc,) = result.added
    assert doc.encoding == expected_encoding
    assert store.documents.original_bytes(doc.id) == data
    assert store.documents.text(doc.id) == expected_text
    assert doc.byte_count == len(data)
    assert doc.char_count == len(expected_text)
    assert doc.sentence_count == count_sentences(expected_text)
    assert doc.file_format == "txt"
    assert doc.file_name == "letter.txt"
    assert doc.metadata["source_path"] == str(path.resolve())


def test_document_fields_survive_reopening(tmp_path):
    from taveer_desktop.store import ProjectStore

    data = b"Line one.\r\nLine two.\r\n"
    path = write(tmp_path / "crlf.TXT", data)
    with ProjectStore.create(tmp_path / "p.taveer") as store:
        case = store.cases.create("C")
        (doc,) = store.documents.add(case.id, KNOWN, [path]).added
    with ProjectStore.open(tmp_path / "p.taveer") as store:
        again = store.documents.get(doc.id)
        assert again == doc
        assert store.documents.original_bytes(doc.id) == data
        assert store.documents.text(doc.id) == "Line one.\r\nLine two.\r\n"


def test_documents_listed_by_role_in_import_order(store, case, tmp_path):
    paths = [write(tmp_path / f"k{i}.txt", f"Known text number {i}.") for i in range(3)]
    store.documents.add(case.id, KNOWN, paths)
    store.documents.add(case.id, "questioned", [write(tmp_path / "q.text", "Questioned.")])
    assert [d.file_name for d in store.documents.list_for_case(case.id, KNOWN)] == [
        "k0.txt",
        "k1.txt",
        "k2.txt",
    ]
    assert [d.file_name for d in store.documents.list_for_case(case.id, "questioned")] == ["q.text"]
    counts = store.cases.get(case.id)
    assert (counts.known_count, counts.questioned_count) == (3, 1)


def test_unknown_role_is_a_programming_error(store, case, tmp_path):
    with pytest.raises(ValueError):
        store.documents.add(case.id, "suspect", [write(tmp_path / "a.txt", "Text.")])
