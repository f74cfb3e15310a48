"""PAdES signing of report PDFs (taveer_desktop/report/signing.py), checked by two verifiers.

A test CA, a signer and a time-stamping authority are made here with ``cryptography``. Reports
are signed, then checked with pyHanko's validator (through ``verify_signed_report``) and with
poppler's ``pdfsig``, an independent implementation; one changed byte must make both fail. The
RFC 3161 TSA is pyHanko's ``DummyTimeStamper`` served over HTTP on 127.0.0.1 by a thread of the
test itself: the one place where the suite's network guard lets a loopback connection through.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import shutil
import socket
import socketserver
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from asn1crypto import keys as asn1_keys
from asn1crypto import tsp
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from pypdf import PdfWriter

from taveer_desktop.report.credentials import SigningError
from tests.report.signing_calls import sign_report, verify_signed_report

PASSPHRASE = "correct horse battery staple"
NOW = dt.datetime.now(dt.UTC)
PDFSIG = shutil.which("pdfsig")
needs_pdfsig = pytest.mark.skipif(
    PDFSIG is None, reason="poppler's pdfsig is not installed (scripts/setup.sh installs it)"
)


def _name(common: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, common),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Example Forensic Lab"),
        ]
    )


def _cert(subject, key, issuer, issuer_key, *, ca=False, tsa=False, days=(-1, 365)):
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW + dt.timedelta(days=days[0]))
        .not_valid_after(NOW + dt.timedelta(days=days[1]))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=not ca,
                content_commitment=not ca and not tsa,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=ca,
                crl_sign=ca,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
    )
    if tsa:
        builder = builder.add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True
        )
    return builder.sign(issuer_key, hashes.SHA256())


@dataclass
class Pki:
    folder: Path
    ca_pem: Path
    signer_p12: Path
    expired_p12: Path
    tsa_cert: x509.Certificate
    tsa_key: rsa.RSAPrivateKey


def _p12(path: Path, key, cert, ca_cert, passphrase: str) -> Path:
    path.write_bytes(
        pkcs12.serialize_key_and_certificates(
            b"signer",
            key,
            cert,
            [ca_cert],
            serialization.BestAvailableEncryption(passphrase.encode()),
        )
    )
    return path


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Pki:
    folder = tmp_path_factory.mktemp("pki")
    ca_key, signer_key, tsa_key = (
        rsa.generate_private_key(public_exponent=65537, key_size=2048) for _ in range(3)
    )
    ca_name = _name("Example Lab Test CA")
    ca = _cert(ca_name, ca_key, ca_name, ca_key, ca=True, days=(-30, 3650))
    signer = _cert(_name("A. Examiner"), signer_key, ca_name, ca_key)
    expired = _cert(_name("B. Retired"), signer_key, ca_name, ca_key, days=(-400, -35))
    tsa = _cert(_name("Example Lab TSA"), tsa_key, ca_name, ca_key, tsa=True, days=(-30, 3650))
    ca_pem = folder / "ca.pem"
    ca_pem.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    return Pki(
        folder,
        ca_pem,
        _p12(folder / "examiner.p12", signer_key, signer, ca, PASSPHRASE),
        _p12(folder / "retired.p12", signer_key, expired, ca, PASSPHRASE),
        tsa,
        tsa_key,
    )


@pytest.fixture
def small_pdf(tmp_path) -> Path:
    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    writer.add_metadata({"/Title": "A small report"})
    path = tmp_path / "small.pdf"
    with open(path, "wb") as handle:
        writer.write(handle)
    return path


def pdfsig(path: Path) -> str:
    assert PDFSIG is not None
    done = subprocess.run([PDFSIG, str(path)], capture_output=True, text=True, timeout=60)
    return done.stdout + done.stderr


def flip_one_signed_byte(path: Path) -> None:
    """Change one byte well inside the signed range: in the first stream of the file, or in the
    title of the small PDF (which has no stream), so that the file still parses."""
    data = bytearray(path.read_bytes())
    if b"stream" in data:
        at = data.index(b"stream") + len("stream") + 12
    else:
        at = data.index(b"A small report") + 2
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def test_signs_the_real_report_and_both_verifiers_agree(demo_report, pki, tmp_path):
    signed = tmp_path / "DEMO-001.signed.pdf"
    result = sign_report(
        demo_report.pdf, signed, pki.signer_p12, PASSPHRASE, reason="Case report DEMO-001"
    )
    assert result.time_source == "workstation"
    assert "A. Examiner" in result.signer_subject
    assert signed.read_bytes().startswith(demo_report.pdf.read_bytes())  # incremental update

    check = verify_signed_report(signed, trust_roots=[pki.ca_pem])
    assert check.ok, check.problems
    assert (check.intact, check.covers_whole_file, check.trusted) == (True, True, True)
    assert "A. Examiner" in (check.signer_subject or "")
    assert check.time_source == "workstation" and check.timestamp_intact is None
    assert check.signing_time is not None
    assert abs((check.signing_time - dt.datetime.now(dt.UTC)).total_seconds()) < 300

    if PDFSIG is not None:
        text = pdfsig(signed)
        assert "Signature is Valid" in text, text
        assert "Total document signed" in text and "Not total document signed" not in text
        assert "ETSI.CAdES.detached" in text, text

    flip_one_signed_byte(signed)
    tampered = verify_signed_report(signed, trust_roots=[pki.ca_pem])
    assert not tampered.ok and not tampered.intact
    if PDFSIG is not None:
        text = pdfsig(signed)
        assert "Signature is Valid" not in text and "Digest Mismatch" in text, text


@needs_pdfsig
def test_pdfsig_accepts_the_signature_and_rejects_a_one_byte_change(small_pdf, pki, tmp_path):
    signed = tmp_path / "signed.pdf"
    sign_report(small_pdf, signed, pki.signer_p12, PASSPHRASE)
    text = pdfsig(signed)
    assert "Signature Validation: Signature is Valid." in text, text
    assert "Signer Certificate Common Name: A. Examiner" in text, text
    flip_one_signed_byte(signed)
    text = pdfsig(signed)
    assert "Signature Validation: Digest Mismatch." in text, text
    assert not verify_signed_report(signed).intact


def test_bytes_appended_after_signing_are_reported(small_pdf, pki, tmp_path):
    signed = tmp_path / "signed.pdf"
    sign_report(small_pdf, signed, pki.signer_p12, PASSPHRASE)
    with open(signed, "ab") as handle:
        handle.write(b"\n% appended after signing\n")
    check = verify_signed_report(signed, trust_roots=[pki.ca_pem])
    assert check.intact and not check.covers_whole_file and not check.ok
    assert "added to the file after it was signed" in " ".join(check.problems)
    if PDFSIG is not None:
        assert "Not total document signed" in pdfsig(signed)


def test_trust_is_judged_only_against_roots_given(small_pdf, pki, tmp_path, tmp_path_factory):
    signed = tmp_path / "signed.pdf"
    sign_report(small_pdf, signed, pki.signer_p12, PASSPHRASE)
    assert verify_signed_report(signed).trusted is None
    assert verify_signed_report(signed).ok
    other_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    other_name = _name("Somebody Else's CA")
    other = _cert(other_name, other_key, other_name, other_key, ca=True)
    untrusted = verify_signed_report(
        signed, trust_roots=[other.public_bytes(serialization.Encoding.DER)]
    )
    assert untrusted.intact and untrusted.trusted is False and not untrusted.ok


def test_an_unsigned_pdf_says_so(small_pdf):
    check = verify_signed_report(small_pdf)
    assert not check.signed and not check.ok
    assert check.problems == ("The PDF carries no signature.",)


def test_signing_in_place_replaces_the_file_whole(small_pdf, pki):
    before = small_pdf.read_bytes()
    result = sign_report(small_pdf, small_pdf, pki.signer_p12, PASSPHRASE)
    assert small_pdf.read_bytes().startswith(before) and len(small_pdf.read_bytes()) > len(before)
    assert verify_signed_report(small_pdf).ok
    assert [p.name for p in small_pdf.parent.iterdir()] == [small_pdf.name]  # no temporary left
    assert result.sha256 and len(result.sha256) == 64


@pytest.mark.parametrize(
    ("case", "kind", "words"),
    [
        ("bad_passphrase", "bad_passphrase", "passphrase does not open"),
        ("not_pkcs12", "not_pkcs12", "is not a PKCS#12 certificate file"),
        ("expired", "expired", "expired on"),
        ("missing", "unreadable_credentials", "could not be read"),
    ],
)
def test_credential_errors_are_one_typed_error_with_a_sentence(
    case, kind, words, small_pdf, pki, tmp_path
):
    p12, passphrase = pki.signer_p12, PASSPHRASE
    if case == "bad_passphrase":
        passphrase = "wrong"
    elif case == "not_pkcs12":
        p12 = pki.ca_pem
    elif case == "expired":
        p12 = pki.expired_p12
    elif case == "missing":
        p12 = tmp_path / "nowhere.p12"
    target = tmp_path / "out.pdf"
    with pytest.raises(SigningError) as caught:
        sign_report(small_pdf, target, p12, passphrase)
    assert caught.value.kind == kind
    assert words in str(caught.value) and str(caught.value).endswith(".")
    assert not target.exists()


def test_a_file_that_is_not_a_pdf_is_refused(pki, tmp_path):
    source = tmp_path / "report.pdf"
    source.write_text("not a PDF at all\n", encoding="utf-8")
    with pytest.raises(SigningError) as caught:
        sign_report(source, tmp_path / "out.pdf", pki.signer_p12, PASSPHRASE)
    assert caught.value.kind == "unreadable_pdf"


# --- the loopback time-stamping authority --------------------------------------------------


@pytest.fixture
def loopback_allowed(monkeypatch):
    """Let connections to 127.0.0.1 through the suite's network guard, and nothing else."""
    import sitecustomize as guard  # tests/offline_guard, put on sys.path by tests/conftest.py

    def connect(sock, address):
        if sock.family == socket.AF_INET and address[0] == "127.0.0.1":
            return guard._original_connect(sock, address)
        return guard._guarded_connect(sock, address)

    def connect_ex(sock, address):
        if sock.family == socket.AF_INET and address[0] == "127.0.0.1":
            return guard._original_connect_ex(sock, address)
        return guard._guarded_connect_ex(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)


class LoopbackHTTPServer(ThreadingHTTPServer):
    def server_bind(self):  # HTTPServer's own looks the host name up, which the guard refuses
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = "127.0.0.1", self.server_address[1]


@contextlib.contextmanager
def serve_on_loopback(answer) -> Iterator[tuple[str, list[int]]]:
    """An HTTP server on 127.0.0.1 whose POST answers are ``answer(body) -> (status, type,
    bytes)``; yields its URL and the list of requests served (their sizes)."""
    served: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            served.append(len(body))
            status, content_type, reply = answer(body)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args):
            pass

    server = LoopbackHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/tsa", served
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture
def loopback_tsa(pki, loopback_allowed) -> Iterator[str]:
    """pyHanko's DummyTimeStamper (an RFC 3161 TSA signing with the test TSA's key) over HTTP."""
    from pyhanko.sign.timestamps import DummyTimeStamper

    stamper = DummyTimeStamper(
        tsa_cert=asn1_x509.Certificate.load(pki.tsa_cert.public_bytes(serialization.Encoding.DER)),
        tsa_key=asn1_keys.PrivateKeyInfo.load(
            pki.tsa_key.private_bytes(
                serialization.Encoding.DER,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        ),
    )

    def answer(body: bytes) -> tuple[int, str, bytes]:
        reply = stamper.request_tsa_response(tsp.TimeStampReq.load(body)).dump()
        return 200, "application/timestamp-reply", reply

    with serve_on_loopback(answer) as (url, served):
        yield url
    assert served, "the TSA was never asked"


def test_a_timestamp_from_the_loopback_tsa_is_embedded(small_pdf, pki, tmp_path, loopback_tsa):
    signed = tmp_path / "signed-bt.pdf"
    before = dt.datetime.now(dt.UTC)
    result = sign_report(small_pdf, signed, pki.signer_p12, PASSPHRASE, tsa_url=loopback_tsa)
    assert result.time_source == "tsa"
    check = verify_signed_report(signed, trust_roots=[pki.ca_pem])
    assert check.ok, check.problems
    assert check.time_source == "tsa" and check.timestamp_intact is True
    assert "Example Lab TSA" in (check.tsa_subject or "")
    assert check.signing_time is not None
    assert before - dt.timedelta(seconds=5) <= check.signing_time <= dt.datetime.now(dt.UTC)
    if PDFSIG is not None:
        text = pdfsig(signed)
        assert "Signature is Valid" in text, text
    flip_one_signed_byte(signed)
    assert not verify_signed_report(signed, trust_roots=[pki.ca_pem]).intact


def test_an_unreachable_tsa_is_one_clear_error(small_pdf, pki, tmp_path, loopback_allowed):
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    target = tmp_path / "out.pdf"
    with pytest.raises(SigningError) as caught:
        sign_report(
            small_pdf,
            target,
            pki.signer_p12,
            PASSPHRASE,
            tsa_url=f"http://127.0.0.1:{port}/tsa",
            tsa_timeout=5,
        )
    assert caught.value.kind == "tsa_unreachable"
    assert "could not be reached" in str(caught.value) and "not signed" in str(caught.value)
    assert not target.exists()


def test_a_tsa_url_that_is_not_http_is_refused(small_pdf, pki, tmp_path):
    with pytest.raises(SigningError) as caught:
        sign_report(small_pdf, tmp_path / "o.pdf", pki.signer_p12, PASSPHRASE, tsa_url="ftp://x/")
    assert caught.value.kind == "bad_tsa_url"


def test_without_a_tsa_nothing_touches_the_network(small_pdf, pki, tmp_path):
    """The suite's guard is active here: signing and verifying open no connection at all."""
    signed = tmp_path / "signed.pdf"
    sign_report(small_pdf, signed, pki.signer_p12, PASSPHRASE)
    assert verify_signed_report(signed, trust_roots=[pki.ca_pem]).ok


def _rejection() -> bytes:
    """A TimeStampResp with status 'rejection' and no token (asn1crypto will not build one)."""
    status = tsp.PKIStatusInfo(
        {"status": "rejection", "status_string": ["policy not allowed"]}
    ).dump()
    assert len(status) < 128
    return b"\x30" + bytes([len(status)]) + status


REJECTION = _rejection()


@pytest.mark.parametrize(
    ("status", "content_type", "reply", "kind"),
    [
        (200, "application/timestamp-reply", REJECTION, "tsa_refused"),
        (500, "text/plain", b"internal error", "tsa_unreachable"),
        (200, "text/html", b"<html>a proxy's login page</html>", "tsa_unreachable"),
        (200, "application/timestamp-reply", b"\x30\x03garbage", "tsa_unreachable"),
    ],
)
def test_a_tsa_that_does_not_timestamp_is_one_clear_error(
    status, content_type, reply, kind, small_pdf, pki, tmp_path, loopback_allowed
):
    target = tmp_path / "out.pdf"
    with (
        serve_on_loopback(lambda body: (status, content_type, reply)) as (url, served),
        pytest.raises(SigningError) as caught,
    ):
        sign_report(small_pdf, target, pki.signer_p12, PASSPHRASE, tsa_url=url)
    assert served
    assert caught.value.kind == kind, caught.value
    assert "The report was not signed." in str(caught.value)
    if kind == "tsa_refused":
        assert "policy not allowed" in str(caught.value)
    assert not target.exists()
