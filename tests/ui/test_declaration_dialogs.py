"""Case ▸ Examiner Declaration… and Technical Review…, and the export dialog's final and signed
reports: the store's refusals shown in plain words in the dialog, the work done as jobs."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from taveer_desktop.store import ProjectStore
from taveer_desktop.ui.declaration_dialog import open_declaration
from taveer_desktop.ui.report_export_dialog import ReportExportDialog
from taveer_desktop.ui.review_dialog import open_review
from tests.report.conftest import demo_store

from .conftest import open_window
from .test_case_workflow import _create_case


def _declare(qtbot, window, examiner: str, role: str):
    dialog = open_declaration(window.cases)
    qtbot.addWidget(dialog)
    dialog.examiner.setText(examiner)
    dialog.role.setText(role)
    dialog.declare()
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=30_000)
    return dialog


def test_declaration_and_review_through_the_case_menu(qtbot, window):
    case = _create_case(qtbot, window)
    actions = window.window_actions
    assert actions.declare_case.isEnabled() and actions.review_case.isEnabled()
    assert actions.declare_case in window.window_actions.case_menu.actions()

    refused = _declare(qtbot, window, "A.\u202eExaminer", "linguist")
    assert "control or invisible characters" in refused.error_label.text()
    assert refused.isVisible()  # stays open to be corrected
    refused.reject()

    dialog = _declare(qtbot, window, "A. Examiner", "forensic linguist")
    assert dialog.declared is not None and not dialog.isVisible()
    assert "I believe that the facts" in dialog.statement.toPlainText()

    review = open_review(window.cases)
    qtbot.addWidget(review)
    assert "Declaration 1 by A. Examiner" in " ".join(
        label.text() for label in review.findChildren(type(review.state_label))
    )
    review.reviewer.setText("a. examiner")
    review.record()
    qtbot.waitUntil(lambda: review.worker is None, timeout=30_000)
    assert "its technical review is made by another examiner" in review.error_label.text()
    review.reviewer.setText("C. Reviewer")
    review.outcome.setCurrentIndex(review.outcome.findData("changes_required"))
    review.record()
    qtbot.waitUntil(lambda: review.worker is None, timeout=30_000)
    assert "needs comments" in review.error_label.text()
    review.comments.setPlainText("Section 3 must name the population.")
    review.record()
    qtbot.waitUntil(lambda: review.worker is None, timeout=30_000)
    assert review.reviewed.outcome == "changes_required"
    standing = window.session.store.declarations.standing(case.id)
    assert "the technical review by C. Reviewer asks for changes" in standing.missing


@pytest.mark.slow
def test_the_export_dialog_refuses_a_final_report_and_a_signature_without_a_certificate(
    qtbot, tmp_path
):
    project = demo_store(tmp_path)
    window = open_window(qtbot, project)
    dialog = ReportExportDialog(window.session.store, "DEMO-001", window, window.runner)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.rendered is not None, timeout=60_000)
    assert "It is a DRAFT: no examiner's declaration; no technical review." in (
        dialog.status_label.text()
    )
    assert not dialog.sign_group.isEnabled()
    assert dialog.sign_group.isFlat()  # no empty frame under an unticked signature
    dialog.final_box.setChecked(True)
    qtbot.waitUntil(lambda: dialog.preview_worker is None, timeout=60_000)
    assert "cannot be final: no examiner's declaration; no technical review" in (
        dialog.status_label.text()
    )
    assert not dialog.save_button.isEnabled()
    assert dialog.sign_group.isEnabled()
    dialog.sign_group.setChecked(True)
    assert not dialog.sign_group.isFlat() and dialog.sign_fields.isVisibleTo(dialog)
    assert dialog.signing_request() == "choose the certificate file to sign with"


def _test_certificate(folder):
    """A CA and an examiner's PKCS#12 file made here (the signing tests' builders)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    from tests.report import test_signing as builders

    ca_key, key = (rsa.generate_private_key(public_exponent=65537, key_size=2048) for _ in "ab")
    ca_name = builders._name("Desk Test CA")
    ca = builders._cert(ca_name, ca_key, ca_name, ca_key, ca=True, days=(-3, 300))
    signer = builders._cert(builders._name("A. Examiner"), key, ca_name, ca_key)
    (folder / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    return builders._p12(folder / "examiner.p12", key, signer, ca, "desk passphrase")


@pytest.mark.slow
def test_the_export_dialog_writes_a_final_signed_report(qtbot, tmp_path, monkeypatch):
    from taveer_desktop.report.signature_verdict import verify_signed_report

    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: warned.append(text))
    project = demo_store(tmp_path)
    with ProjectStore.open(project) as store:
        case = store.cases.find("DEMO-001")
        store.declarations.declare(case.id, "A. Examiner", "forensic linguist")
        store.declarations.review(case.id, "C. Reviewer", "approved")
    p12 = _test_certificate(tmp_path)
    window = open_window(qtbot, project)
    dialog = ReportExportDialog(window.session.store, "DEMO-001", window, window.runner)
    qtbot.addWidget(dialog)
    dialog.final_box.setChecked(True)
    qtbot.waitUntil(lambda: dialog.rendered is not None, timeout=60_000)
    assert dialog.status_label.text().endswith("It is final.")
    dialog.sign_group.setChecked(True)
    assert not dialog.archival_box.isEnabled()
    dialog.certificate.setText(str(p12))
    dialog.passphrase.setText("wrong")
    dialog.export_to(tmp_path / "refused.pdf")
    qtbot.waitUntil(lambda: dialog.export_worker is None, timeout=60_000)
    assert "The passphrase does not open the certificate file" in dialog.status_label.text()
    assert warned and warned[0].startswith("The passphrase does not open")
    assert not (tmp_path / "refused.pdf").exists()
    dialog.passphrase.setText("desk passphrase")
    with qtbot.waitSignal(dialog.report_exported, timeout=60_000):
        dialog.export_to(tmp_path / "signed.pdf")
    assert dialog.exported.signed.signer == "A. Examiner (Example Forensic Lab)"
    assert verify_signed_report(tmp_path / "signed.pdf", [tmp_path / "ca.pem"]).ok


@pytest.mark.slow
def test_declaration_and_review_dialogs_sign_checkpoints_that_check_verifies(qtbot, tmp_path):
    """The desktop's step of ``case declare/review --sign``: a wrong passphrase or no file is
    refused in the dialog with nothing written; signed, the entry and its checkpoint are kept
    together and the project's check verifies the checkpoint."""
    p12 = _test_certificate(tmp_path)
    window = open_window(qtbot, demo_store(tmp_path))
    store = window.session.store
    assert window.case_list.select_case_number("DEMO-001")
    entries = len(store.audit.entries())

    dialog = open_declaration(window.cases)
    qtbot.addWidget(dialog)
    assert not dialog.certificate.isVisibleTo(dialog)  # shown only when asked for
    dialog.examiner.setText("A. Examiner")
    dialog.role.setText("forensic linguist")
    dialog.sign_group.setChecked(True)
    assert dialog.certificate.isVisibleTo(dialog)
    assert dialog.declare() is None
    assert "choose the certificate file to sign with" in dialog.error_label.text()
    dialog.certificate.certificate.setText(str(p12))
    dialog.certificate.passphrase.setText("wrong")
    assert dialog.declare() is None
    assert "passphrase does not open" in dialog.error_label.text()
    assert len(store.audit.entries()) == entries  # nothing written
    dialog.certificate.passphrase.setText("desk passphrase")
    dialog.declare()
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=30_000)
    assert dialog.declared is not None and dialog.checkpoint is not None
    assert dialog.checkpoint.action == "checkpoint_signed"
    assert dialog.checkpoint.details["signer"].startswith("A. Examiner")

    review = open_review(window.cases)
    qtbot.addWidget(review)
    review.reviewer.setText("C. Reviewer")
    review.sign_group.setChecked(True)
    review.certificate.certificate.setText(str(p12))
    review.certificate.passphrase.setText("desk passphrase")
    review.record()
    qtbot.waitUntil(lambda: review.worker is None, timeout=30_000)
    assert review.reviewed.outcome == "approved" and review.checkpoint is not None
    assert review.checkpoint.seq > dialog.checkpoint.seq

    report = store.check_integrity()
    assert report.ok, report.problems
    assert [c.problem for c in report.checkpoints] == [None, None]
    assert [c.carried_by for c in report.checkpoints] == [
        dialog.checkpoint.seq,
        review.checkpoint.seq,
    ]
