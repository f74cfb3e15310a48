"""Final and signed reports (issue 25): a draft says DRAFT on every page and what is missing; a
final report needs a current declaration and an approved, current review; a signed final report
is verified by ``taveer check``, pdfsig and pyHanko, and a one-byte change fails all three; a
TSA's time is embedded; every refusal writes nothing and records nothing."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from taveer_desktop.report.declaration_block import FinalRefused
from taveer_desktop.report.export import export_report
from taveer_desktop.report.inputs import ReportError
from taveer_desktop.report.report_signing import SigningRequest
from taveer_desktop.report.validation_export import export_stored_validation_report
from taveer_desktop.store import ProjectStore
from tests.report.conftest import demo_store, normalised
from tests.report.signing_calls import verify_signed_report
from tests.report.test_signing import PASSPHRASE, flip_one_signed_byte, needs_pdfsig, pdfsig

# the fixtures pki, loopback_allowed and loopback_tsa come from test_signing via conftest.py

CASE = "DEMO-001"
FIXTURES = Path(__file__).resolve().parents[1] / "store" / "fixtures"


@pytest.fixture(scope="module")
def declared_project(tmp_path_factory) -> Path:
    """The demo project with its case declared and approved by a second examiner."""
    folder = tmp_path_factory.mktemp("declared")
    project = demo_store(folder)
    with ProjectStore.open(project) as store:
        case = store.cases.find(CASE)
        store.declarations.declare(case.id, "A. Examiner", "forensic linguist")
        store.declarations.review(case.id, "C. Reviewer", "approved", "Hashes and run checked.")
    return project


@pytest.fixture
def project(declared_project, tmp_path) -> Path:
    copy = tmp_path / "p.taveer"
    shutil.copyfile(declared_project, copy)
    return copy


def _pages(pdf: Path) -> list[str]:
    return [normalised(page.extract_text() or "") for page in PdfReader(pdf).pages]


def _entries(project: Path) -> int:
    with ProjectStore.open(project) as store:
        return len(store.audit.entries())


def _taveer(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "taveer_desktop.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
    )


def test_a_draft_says_draft_on_every_page_and_what_is_missing(qapp, tmp_path):
    project = demo_store(tmp_path)
    with ProjectStore.open(project) as store:
        export_report(store, CASE, tmp_path / "d.pdf")
    pages = _pages(tmp_path / "d.pdf")
    assert all(
        "DRAFT, not final: no examiner's declaration; no technical review" in p for p in pages
    )
    assert "No examiner's declaration has been recorded" in pages[-1] + pages[-2]


def test_a_final_report_is_refused_until_declared_and_reviewed(qapp, tmp_path):
    project = demo_store(tmp_path)
    with (
        ProjectStore.open(project) as store,
        pytest.raises(FinalRefused, match="no examiner's declaration; no technical review"),
    ):
        export_report(store, CASE, tmp_path / "f.pdf", final=True)
    assert not (tmp_path / "f.pdf").exists()


def test_a_final_report_is_not_a_draft_and_its_entry_says_so(qapp, project, tmp_path):
    with ProjectStore.open(project) as store:
        exported = export_report(store, CASE, tmp_path / "f.pdf", final=True)
        entry = store.audit.entries()[-1]
    text = " ".join(_pages(tmp_path / "f.pdf"))
    assert "DRAFT" not in text
    assert "declare that this report was prepared to the standard of" in text
    assert "C. Reviewer" in text and "approved" in text
    assert exported.final and entry.details["final"] is True
    assert entry.details["declaration_id"] == 1 and entry.details["review_id"] == 1


def test_a_change_after_the_review_makes_the_next_report_a_draft(qapp, project, tmp_path):
    with ProjectStore.open(project) as store:
        case = store.cases.find(CASE)
        store.cases.update(case.id, title="A new title after the review")
        with pytest.raises(FinalRefused, match=r"technical review is stale.*case updated"):
            export_report(store, CASE, tmp_path / "f.pdf", final=True)
        export_report(store, CASE, tmp_path / "d.pdf")
    assert all("review is stale" in page for page in _pages(tmp_path / "d.pdf"))


def test_a_draft_cannot_be_signed(qapp, project, pki, tmp_path):
    request = SigningRequest(pki.signer_p12, PASSPHRASE)
    before = _entries(project)
    with (
        ProjectStore.open(project) as store,
        pytest.raises(ReportError, match="A draft cannot be signed"),
    ):
        export_report(store, CASE, tmp_path / "s.pdf", sign=request)
    assert not (tmp_path / "s.pdf").exists() and _entries(project) == before


@pytest.mark.slow
@needs_pdfsig
def test_signed_final_report_verified_by_three_and_a_byte_change_fails_all(
    qapp, project, pki, tmp_path
):
    target = tmp_path / "s.pdf"
    request = SigningRequest(pki.signer_p12, PASSPHRASE, trust_roots=(pki.ca_pem,))
    with ProjectStore.open(project) as store:
        exported = export_report(store, CASE, target, final=True, sign=request)
        entry = store.audit.entries()[-1]
    data = target.read_bytes()
    assert exported.sha256 == entry.details["sha256"] == hashlib.sha256(data).hexdigest()
    receipt = json.loads((tmp_path / "s.pdf.receipt.json").read_text("utf-8"))
    assert receipt["report_sha256"] == exported.sha256  # the signed file's hash
    signature = entry.details["signature"]
    assert signature["time_source"] == "workstation"
    unsigned = data[: signature["unsigned_bytes"]]  # the first revision is a prefix
    assert hashlib.sha256(unsigned).hexdigest() == signature["unsigned_sha256"]
    text = " ".join(_pages(target))
    assert "digitally signed" in text and "The signing time is the workstation's clock" in text
    assert "DRAFT" not in text
    assert "Checked when signed" in text and "Not checked" in text  # issue 33 item 6

    check = _taveer("--project", str(project), "check", "--quick", "--report", str(target),
                    "--trust", str(pki.ca_pem), "--json")  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    report = json.loads(check.stdout)["report"]
    assert report["ok"] and report["issued"][0]["seq"] == entry.seq
    assert report["signature"]["intact"] and report["signature"]["trusted"] is True
    assert "A. Examiner" in report["signature"]["signer"]
    assert verify_signed_report(target, [pki.ca_pem]).ok
    assert "Signature is Valid." in pdfsig(target) and "Total document signed" in pdfsig(target)

    flip_one_signed_byte(target)
    assert "Digest Mismatch." in pdfsig(target)  # pdfsig exits 0 either way: read its words
    assert not verify_signed_report(target, [pki.ca_pem]).intact
    tampered = _taveer("--project", str(project), "check", "--quick", "--report", str(target),
                       "--json")  # fmt: skip
    assert tampered.returncode == 1
    found = json.loads(tampered.stdout)["report"]
    assert not found["ok"] and found["issued"] is None and not found["signature"]["intact"]

    stripped = tmp_path / "stripped.pdf"
    stripped.write_bytes(unsigned)
    cut = _taveer("--project", str(project), "check", "--quick", "--report", str(stripped))
    assert cut.returncode == 1 and "its signature was removed" in cut.stdout


@pytest.mark.slow  # 2.5-5.5 s in a quiet quick-loop run (CONTRIBUTING's rule)
def test_a_final_report_timestamped_by_the_loopback_tsa(qapp, project, pki, tmp_path, loopback_tsa):
    target = tmp_path / "t.pdf"
    request = SigningRequest(pki.signer_p12, PASSPHRASE, tsa_url=loopback_tsa)
    with ProjectStore.open(project) as store:
        exported = export_report(store, CASE, target, final=True, sign=request)
    assert exported.signed.time_source == "tsa"
    check = verify_signed_report(target, [pki.ca_pem])
    assert check.ok and check.time_source == "tsa" and "Example Lab TSA" in check.tsa_subject
    text = " ".join(_pages(target)).replace("- ", "-")  # a line may break after a hyphen
    assert "RFC 3161 timestamp from the time-stamping authority" in text
    assert "(PAdES B-T)" in text and "workstation's clock" not in text
    assert "the time-stamp matches the signature" in text


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda pki: SigningRequest(pki.signer_p12, "wrong"), "passphrase does not open"),
        (lambda pki: SigningRequest(pki.expired_p12, PASSPHRASE), "expired on"),
        (lambda pki: SigningRequest(pki.signer_p12, PASSPHRASE, "ftp://x"), "not an http"),
    ],
)
def test_credential_refusals_write_and_record_nothing(qapp, project, pki, tmp_path, make, words):
    before = _entries(project)
    with ProjectStore.open(project) as store, pytest.raises(ReportError, match=words):
        export_report(store, CASE, tmp_path / "s.pdf", final=True, sign=make(pki))
    assert list(tmp_path.glob("s.pdf*")) == [] and _entries(project) == before


def test_an_unreachable_tsa_writes_and_records_nothing(
    qapp, project, pki, tmp_path, loopback_allowed
):
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/tsa"
    before = _entries(project)
    request = SigningRequest(pki.signer_p12, PASSPHRASE, tsa_url=url)
    with (
        ProjectStore.open(project) as store,
        pytest.raises(ReportError, match="could not be reached"),
    ):
        export_report(store, CASE, tmp_path / "s.pdf", final=True, sign=request)
    assert [
        p.name for p in tmp_path.iterdir() if p.name != "p.taveer" and "taveer" not in p.name
    ] == []
    assert _entries(project) == before


def test_the_validation_report_of_a_declared_case_is_final_and_signed(qapp, pki, tmp_path):
    """The v7 fixture: a validation record of a case that is declared and approved."""
    project = tmp_path / "v7.taveer"
    shutil.copyfile(FIXTURES / "store_v7.taveer", project)
    request = SigningRequest(pki.signer_p12, PASSPHRASE)
    with ProjectStore.open(project) as store:
        exported = export_stored_validation_report(
            store, 1, tmp_path / "v.pdf", final=True, sign=request
        )
        entry = store.audit.entries()[-1]
        draft = export_stored_validation_report(store, 1, tmp_path / "d.pdf")
    assert verify_signed_report(tmp_path / "v.pdf", [pki.ca_pem]).ok and exported.final
    assert entry.details["signature"]["unsigned_sha256"] and entry.details["final"]
    text = " ".join(_pages(tmp_path / "v.pdf"))
    assert "Second Examiner" in text and "DRAFT" not in text
    assert not draft.final
    assert all("DRAFT, not final: it was not issued as final" in p for p in _pages(draft.path))


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--sign", "x.p12"], "A draft cannot be signed: add --final"),
        (["--tsa", "http://127.0.0.1/"], "--tsa and --trust are options of --sign"),
        (["--final", "--sign", "x.p12"], "needs its passphrase: set TAVEER_SIGN_PASSPHRASE"),
        (["--final", "--archival", "--sign", "x.p12"], "not written as PDF/A-1b"),
    ],
)
def test_cli_refusals_are_one_line_and_exit_2(project, tmp_path, args, words):
    env = {"TAVEER_SIGN_PASSPHRASE": "x"} if "--archival" in args else {}
    done = _taveer("--project", str(project), "report", CASE, "-o", str(tmp_path / "r.pdf"),
                   *args, env=env)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r.pdf").exists()


def test_writing_a_report_or_starting_the_cli_imports_no_pyhanko():
    code = (
        "import sys, taveer_desktop.cli.main, taveer_desktop.report.export, "
        "taveer_desktop.cli.check_command, taveer_desktop.report.validation_export;"
        "print([m for m in sys.modules if m.startswith(('pyhanko', 'aiohttp', 'lxml'))])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_cli_wrong_passphrase_is_one_line_and_nothing_is_written(project, pki, tmp_path):
    before = _entries(project)
    done = _taveer(
        "--project",
        str(project),
        "report",
        CASE,
        "-o",
        str(tmp_path / "r.pdf"),
        "--final",
        "--sign",
        str(pki.signer_p12),
        env={"TAVEER_SIGN_PASSPHRASE": "not it"},
    )
    assert done.returncode == 2
    assert done.stderr.strip().endswith("The passphrase does not open the certificate file "
                                        f"{pki.signer_p12}.")  # fmt: skip
    assert not list(tmp_path.glob("r.pdf*")) and _entries(project) == before


def test_cli_signs_the_validation_report_and_prints_its_signature(pki, tmp_path):
    project = tmp_path / "v7.taveer"
    shutil.copyfile(FIXTURES / "store_v7.taveer", project)
    done = _taveer(
        "--project",
        str(project),
        "validation",
        "report",
        "1",
        "-o",
        str(tmp_path / "v.pdf"),
        "--final",
        "--sign",
        str(pki.signer_p12),
        "--trust",
        str(pki.ca_pem),
        "--json",
        env={"TAVEER_SIGN_PASSPHRASE": PASSPHRASE},
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["final"] is True
    assert answer["signature"]["signer"] == "A. Examiner (Example Forensic Lab)"
    assert answer["signature"]["time_source"] == "workstation"
    assert answer["sha256"] == hashlib.sha256((tmp_path / "v.pdf").read_bytes()).hexdigest()


@pytest.mark.slow  # two signed final reports: about 30 s on the shared machine
def test_the_signature_page_says_what_was_checked_and_what_was_not(qapp, project, pki, tmp_path):
    """Issue 33 item 6: with the lab's CA given, the chain to that trust anchor is listed as
    checked; without one it is listed as not checked; revocation never is (offline)."""
    pages = {}
    for name, roots in (("trusted", (pki.ca_pem,)), ("untrusted", ())):
        request = SigningRequest(pki.signer_p12, PASSPHRASE, trust_roots=roots)
        with ProjectStore.open(project) as store:
            export_report(store, CASE, tmp_path / f"{name}.pdf", final=True, sign=request)
        pages[name] = " ".join(" ".join(_pages(tmp_path / f"{name}.pdf")).split())
    checked, unchecked = pages["trusted"], pages["untrusted"]
    assert "the certificate chain to the trust anchor Example Lab Test CA" in checked
    assert "with the key usage non-repudiation" in checked
    assert "Not checked the signing time: no time-stamp" in checked
    assert "revocation of the certificate: no revocation list or OCSP" in checked
    assert "the certificate chain and trust anchor: no CA certificate was given" in unchecked
    assert "trust anchor Example Lab Test CA" not in unchecked
