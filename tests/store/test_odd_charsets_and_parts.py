"""Issue 31 item 5: an e-mail declaring a codec that is no charset (punycode, idna, 'undefined')
is read like any other odd charset, and a .docx holding one part twice is refused in one line."""

from __future__ import annotations

import io
import warnings
import zipfile

import pytest

from taveer_desktop.store import KNOWN, IntakeRejected

from .evidence_builders import document_xml, docx_bytes, write

BODY = "A letter with sentences enough to read. It says more than one thing. It ends here."


@pytest.mark.parametrize("charset", ["punycode", "idna", "undefined"])
def test_an_email_declaring_a_codec_that_is_no_charset_is_read(store, case, tmp_path, charset):
    mail = (
        (
            f"From: =?{charset}?q?abc=FF?= <a@example.org>\r\nSubject: =?{charset}?b?/w==?=\r\n"
            f'Content-Type: multipart/mixed; boundary="s"\r\n\r\n--s\r\n'
            f"Content-Type: text/plain; charset={charset}\r\n\r\n"
        ).encode()
        + BODY.encode()
        + b" \xff\r\n--s--\r\n"
    )
    (document,) = store.documents.add(case.id, KNOWN, [write(tmp_path / "m.eml", mail)]).added
    assert "It says more than one thing" in store.documents.text(document.id)


def test_a_docx_holding_its_main_part_twice_is_refused_in_one_line(store, case, tmp_path):
    shown = document_xml("What Word shows. " * 20)
    data = docx_bytes(shown)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name it writes
        with zipfile.ZipFile(path := tmp_path / "twice.docx", "w") as archive:
            with zipfile.ZipFile(io.BytesIO(data)) as source:
                for info in source.infolist():
                    archive.writestr(info, source.read(info))
            archive.writestr("word/document.xml", document_xml("What is analysed. " * 20))
    with pytest.raises(IntakeRejected) as caught:
        store.documents.add(case.id, KNOWN, [path])
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    assert "holds the part word/document.xml twice (a duplicated ZIP member)" in message
    assert store.documents.list_for_case(case.id) == []
