"""Intake of .eml evidence: body text of plain and HTML parts, headers kept as metadata."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from taveer_desktop.store import KNOWN, IntakeRejected, RejectionReason

from .evidence_builders import write


def _message(**headers) -> EmailMessage:
    message = EmailMessage()
    message["From"] = headers.get("sender", "Alice Author <alice@example.org>")
    message["To"] = "Bob <bob@example.org>"
    message["Subject"] = headers.get("subject", "Meeting notes")
    message["Date"] = "Tue, 04 Mar 2025 10:15:00 +0100"
    message["Message-ID"] = "<abc123@example.org>"
    return message


def _import(store, case, tmp_path, data: bytes, name: str = "mail.eml"):
    (doc,) = store.documents.add(case.id, KNOWN, [write(tmp_path / name, data)]).added
    return doc, store.documents.text(doc.id)


def test_plain_text_message_and_its_headers(store, case, tmp_path):
    message = _message(subject="Grüße aus Köln")
    message.set_content("Dear Bob,\r\n\r\nI  will be late.  Sorry!\r\n\r\nAlice\r\n")
    data = bytes(message)
    doc, text = _import(store, case, tmp_path, data)
    assert text == "Dear Bob,\n\nI  will be late.  Sorry!\n\nAlice"  # spacing kept, CRLF → LF
    assert store.documents.original_bytes(doc.id) == data
    headers = dict(doc.metadata["headers"])
    assert headers["Subject"] == "Grüße aus Köln"  # RFC 2047 encoded words decoded
    assert headers["From"] == "Alice Author <alice@example.org>"
    assert headers["Message-ID"] == "<abc123@example.org>"
    assert doc.metadata["parts_used"] == ["text/plain"]
    assert doc.file_format == "eml"
    assert doc.encoding.startswith("MIME")


def test_html_only_message_becomes_readable_text(store, case, tmp_path):
    message = _message()
    message.set_content(
        "<html><head><style>p {color: red}</style><script>alert('x')</script></head>"
        "<body><p>First&nbsp;paragraph &amp; more.</p><div>Second<br>line.</div></body></html>",
        subtype="html",
    )
    _doc, text = _import(store, case, tmp_path, bytes(message))
    assert text == "First paragraph & more.\n\nSecond\nline."
    assert "alert" not in text and "color" not in text


def test_alternative_parts_are_not_counted_twice(store, case, tmp_path):
    message = _message()
    message.set_content("The plain version of the body.")
    message.add_alternative("<p>The <b>HTML</b> version of the body.</p>", subtype="html")
    doc, text = _import(store, case, tmp_path, bytes(message))
    # the recipient's program shows the last alternative it can read: the HTML (RFC 2046)
    assert text == "The HTML version of the body."
    assert doc.metadata["parts_used"] == ["text/html"]
    assert not doc.reading_notes  # "plain" against "HTML": 9 characters, below the threshold


def test_attachments_are_listed_not_read(store, case, tmp_path):
    message = _message()
    message.set_content("Please see the attached file.")
    message.add_attachment(
        b"secret attachment text", maintype="text", subtype="plain", filename="notes.txt"
    )
    message.add_attachment(b"\x89PNG....", maintype="image", subtype="png", filename="pic.png")
    doc, text = _import(store, case, tmp_path, bytes(message))
    assert text == "Please see the attached file."
    assert doc.metadata["attachments"] == ["notes.txt", "pic.png"]


def test_declared_latin1_charset_with_quoted_printable(store, case, tmp_path):
    raw = (
        b"From: x@example.org\r\nSubject: test\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=iso-8859-1\r\n"
        b"Content-Transfer-Encoding: quoted-printable\r\n\r\n"
        b"Caf=E9 cr=E8me. D=E9j=E0 vu.\r\n"
    )
    doc, text = _import(store, case, tmp_path, raw)
    assert text == "Café crème. Déjà vu."
    assert doc.encoding == "MIME iso-8859-1"


def test_unknown_charset_falls_back_to_detection(store, case, tmp_path):
    raw = (
        b"From: x@example.org\r\nContent-Type: text/plain; charset=x-no-such-charset\r\n\r\n"
        + "Zürich ist schön.".encode()
    )
    doc, text = _import(store, case, tmp_path, raw)
    assert text == "Zürich ist schön."
    assert "detected" in doc.encoding


def test_message_without_body_text_is_refused_as_empty(store, case, tmp_path):
    message = _message()
    message.set_content(b"\x89PNG....", maintype="image", subtype="png")
    with pytest.raises(IntakeRejected) as caught:
        store.documents.add(case.id, KNOWN, [write(tmp_path / "m.eml", bytes(message))])
    assert caught.value.rejections[0].reason is RejectionReason.EMPTY


def test_text_without_headers_is_not_an_email(store, case, tmp_path):
    path = write(tmp_path / "m.eml", "Just some text, no headers at all.\nSecond line.")
    with pytest.raises(IntakeRejected) as caught:
        store.documents.add(case.id, KNOWN, [path])
    rejection = caught.value.rejections[0]
    assert rejection.reason is RejectionReason.UNREADABLE
    assert "not an e-mail" in rejection.message
