"""Issue 31 item 4: verdicts on signatures that tell the truth, with certificates made by openssl.

A certificate issued by the lab's CA and expired since the report was signed is "valid when
signed …, expired since …" (judged at the signing moment, as PAdES long-term validation does),
never "not issued by the CA"; one without non-repudiation is named as such; one from another
CA is "not issued by the given CA". No library log line or traceback reaches any stream, and a
FIFO given as a certificate, a CA or a validation record is refused at once (exit 2).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pypdf import PdfWriter

pytestmark = [  # each runs the CLI or openssl: about 3-8 s apiece on the shared machine
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl"),
    pytest.mark.slow,
]

CLI = [sys.executable, "-m", "taveer_desktop.cli"]
CA_CONFIG = """[ ca ]
default_ca = lab
[ lab ]
dir = .
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
copy_extensions = none
unique_subject = no
[ any ]
commonName = supplied
organizationName = optional
[ repudiation ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
[ signature_only ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
"""


def openssl(folder: Path, *args: str) -> None:
    subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True, timeout=60)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y%m%d%H%M%SZ")


def make_ca(folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ca.cnf").write_text(CA_CONFIG)
    (folder / "index.txt").write_text("")
    (folder / "serial").write_text("01\n")
    openssl(
        folder, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key",
        "-out", "ca.pem", "-days", "30", "-subj", f"/CN={name}/O=Lab",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    )  # fmt: skip


def make_signer(folder: Path, name: str, extensions: str, until: datetime) -> Path:
    """A PKCS#12 (passphrase 'pw') of a certificate the CA in ``folder`` issued."""
    openssl(
        folder, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key",
        "-out", f"{name}.csr", "-subj", f"/CN={name}/O=Lab",
    )  # fmt: skip
    since = datetime.now(UTC) - timedelta(days=1)
    openssl(
        folder, "ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key",
        "-in", f"{name}.csr", "-out", f"{name}.pem", "-extensions", extensions,
        "-startdate", _stamp(since), "-enddate", _stamp(until),
    )  # fmt: skip
    openssl(
        folder, "pkcs12", "-export", "-inkey", f"{name}.key", "-in", f"{name}.pem",
        "-certfile", "ca.pem", "-out", f"{name}.p12", "-passout", "pass:pw",
    )  # fmt: skip
    return folder / f"{name}.p12"


def signed(folder: Path, p12: Path) -> Path:
    from taveer_desktop.report.signing import sign_report

    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    plain = folder / f"{p12.stem}-plain.pdf"
    with open(plain, "wb") as handle:
        writer.write(handle)
    target = folder / f"{p12.stem}.pdf"
    sign_report(plain, target, p12, "pw")
    return target


def check_report(project: Path, pdf: Path, ca: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, "--project", project, "check", "--quick", "--report", pdf, "--trust", ca],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def lab(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("lab")
    make_ca(folder / "lab", "Lab CA")
    make_ca(folder / "other", "Other CA")
    later = datetime.now(UTC) + timedelta(days=30)
    for name, extensions in (("examiner", "repudiation"), ("plain", "signature_only")):
        make_signer(folder / "lab", name, extensions, later)
    make_signer(folder / "other", "stranger", "repudiation", later)
    done = subprocess.run([*CLI, "--project", folder / "p.taveer", "case", "create", "X-1"])
    assert done.returncode == 0
    return folder


def test_a_certificate_of_the_lab_ca_is_trusted_and_says_what_was_checked(lab):
    from taveer_desktop.report.signature_verdict import verify_signed_report

    pdf = signed(lab, lab / "lab" / "examiner.p12")
    check = verify_signed_report(pdf, [lab / "lab" / "ca.pem"])
    assert check.ok and check.trusted and check.problems == ()
    assert any("chain to the given CA" in line for line in check.checked)
    assert any("revoked" in line for line in check.not_checked)
    assert any("no time-stamp" in line for line in check.not_checked)
    done = check_report(lab / "p.taveer", pdf, lab / "lab" / "ca.pem")
    assert "trust: the signer chains to the given CA" in done.stdout
    assert done.stderr == ""  # not issued by the project: exit 1, but nothing on stderr


def test_a_certificate_without_non_repudiation_is_named_as_such(lab):
    pdf = signed(lab, lab / "lab" / "plain.p12")
    done = check_report(lab / "p.taveer", pdf, lab / "lab" / "ca.pem")
    assert done.returncode == 1
    assert "issued by the given CA, but its key usage lacks non-repudiation" in done.stdout
    assert "it allows: digital signature)" in done.stdout
    assert "not issued by the given CA" not in done.stdout
    assert done.stderr == ""


def test_a_certificate_of_another_ca_is_not_issued_by_the_given_one(lab):
    pdf = signed(lab, lab / "other" / "stranger.p12")
    done = check_report(lab / "p.taveer", pdf, lab / "lab" / "ca.pem")
    assert done.returncode == 1
    assert "The signer's certificate is not issued by the given CA." in done.stdout
    assert done.stderr == "" and "Traceback" not in done.stdout


@pytest.mark.slow
def test_a_certificate_expired_since_signing_was_valid_when_signed(lab):
    until = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=4)
    p12 = make_signer(lab / "lab", "leaving", "repudiation", until)
    pdf = signed(lab, p12)
    time.sleep(max(0.0, (until - datetime.now(UTC)).total_seconds()) + 1.5)
    done = check_report(lab / "p.taveer", pdf, lab / "lab" / "ca.pem")
    assert "trust: the signer chains to the given CA" in done.stdout, done.stdout
    assert "valid when signed on " in done.stdout
    assert f"expired since {until.strftime('%Y-%m-%d %H:%M')} UTC" in done.stdout
    assert "(the time the signer's computer gave)" in done.stdout
    assert "issued by the given CA" not in done.stdout and "Signature: valid" in done.stdout
    assert done.stderr == ""


def test_fifos_given_as_certificate_ca_or_record_are_refused_at_once(lab, tmp_path):
    from taveer_desktop.report.signing import SigningError, read_credentials

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(SigningError, match="is a named pipe"):
        read_credentials(fifo, "pw", datetime.now(UTC))
    pdf = signed(lab, lab / "lab" / "examiner.p12")
    done = check_report(lab / "p.taveer", pdf, fifo)  # timeout: a regression cannot hang
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().endswith(
        "is a named pipe (FIFO), not a regular file; it was not opened."
    )
    text = tmp_path / "k.txt"
    text.write_text("A known text of some length. " * 30)
    model = Path(__file__).parents[2] / "resources" / "models" / "default.json"
    verify = subprocess.run(
        [*CLI, "verify", model, "--known", text, "--unknown", text, "--record", fifo],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert verify.returncode == 2, verify.stderr
    assert f"{fifo}: is a named pipe (FIFO)" in verify.stderr
    assert len(verify.stderr.strip().splitlines()) == 1
