"""Issue 31 item 1: a final signed report carries its signed checkpoint.

The checkpoint (the chain's head before the report's own entries, signed with the examiner's
key) is kept in the project and written into the PDF's catalog inside the signed revision.
``check --report R.pdf`` holds the project's chain to it and lists every entry after it; a
chain rebuilt by a forger before that point no longer matches it — found from the report alone,
even when the forger also removed the checkpoint entry from the store.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taveer_desktop.report.export import export_report
from taveer_desktop.report.report_checkpoint import carried_checkpoint
from taveer_desktop.report.report_signing import SigningRequest
from taveer_desktop.store import ProjectStore
from tests.report.conftest import normalised, poppler
from tests.report.test_final_reports import CASE, declared_project  # noqa: F401 (fixture)
from tests.report.test_signing import PASSPHRASE
from tests.store.test_checkpoints import rechain

pytestmark = pytest.mark.slow  # a signed report and the CLI: about 5-10 s apiece


def _check(project: Path, pdf: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "taveer_desktop.cli", "--project", str(project), "check",
         "--quick", "--report", str(pdf), "--json"],
        capture_output=True, text=True, check=False, env=dict(os.environ), timeout=300,
    )  # fmt: skip


@pytest.fixture
def signed(qapp, declared_project, pki, tmp_path) -> tuple[Path, Path, int]:  # noqa: F811
    """(project, signed report, the entry its checkpoint covers)."""
    project = tmp_path / "p.taveer"
    shutil.copyfile(declared_project, project)
    with ProjectStore.open(project) as store:
        head = store.audit.head()
        assert head is not None
        export_report(
            store, CASE, tmp_path / "s.pdf", final=True,
            sign=SigningRequest(pki.signer_p12, PASSPHRASE),
        )  # fmt: skip
        store.cases.update(store.cases.find(CASE).id, title="Changed after the report")
    return project, tmp_path / "s.pdf", head.seq


def test_the_report_carries_its_checkpoint_and_check_lists_what_came_after(signed):
    project, pdf, covers = signed
    carried = carried_checkpoint(pdf.read_bytes())
    assert carried is not None and carried["entry"] == covers
    with ProjectStore.open(project) as store:
        actions = [e.action for e in store.audit.entries()[covers:]]
        kept = store.audit.entries()[covers].details
    assert actions == ["checkpoint_signed", "report_exported", "case_updated"]
    assert kept == carried  # the same checkpoint in the project and in the PDF
    done = _check(project, pdf)
    assert done.returncode == 0, done.stdout + done.stderr
    found = json.loads(done.stdout)
    checkpoint = found["report"]["checkpoint"]
    assert checkpoint["ok"] and checkpoint["covers_to"] == covers
    assert "A. Examiner" in checkpoint["signer"]
    after = [e["action"] for e in checkpoint["entries_after"]]
    assert after == ["checkpoint_signed", "report_exported", "case_updated"]
    assert found["unanchored_entries"] == [covers + 1, covers + 3]


def test_a_later_reports_trail_names_the_checkpoints_certificate_by_its_size(signed, tmp_path):
    """The checkpoint's certificate and signature (base64, ~1 KB) are not printed in the trail."""
    project, _, _ = signed
    with ProjectStore.open(project) as store:
        export_report(store, CASE, tmp_path / "later.pdf")
    text = normalised(poppler("pdftotext", str(tmp_path / "later.pdf"), "-"))
    assert "certificate: " in text and "bytes, kept whole in the project (base64)" in text
    runs = re.findall(r"[A-Za-z0-9+/]{60,}", text)  # long runs: hashes (hex) only, no base64
    assert runs and all(re.fullmatch("[0-9a-f]+", run) for run in runs)


def test_a_chain_rebuilt_before_the_reports_checkpoint_is_found_from_the_report(signed):
    project, pdf, covers = signed
    # the forger rewrites an early entry and rebuilds the whole chain after it
    rechain(project, 2, actor="someone-else@elsewhere")
    done = _check(project, pdf)
    assert done.returncode == 1
    found = json.loads(done.stdout)
    problem = found["report"]["checkpoint"]["problem"]
    assert f"audit entry {covers} no longer has the hash the examiner signed" in problem
    text = subprocess.run(
        [sys.executable, "-m", "taveer_desktop.cli", "--project", str(project), "check",
         "--quick", "--report", str(pdf)],
        capture_output=True, text=True, check=False, timeout=300,
    ).stdout  # fmt: skip
    assert "The report's own checkpoint: the checkpoint signed by" in text
    assert "FAILS" in text
