"""Issue 31 item 1: signed checkpoints, with certificates made by openssl in the test.

A declaration or review signed with ``--sign`` keeps a checkpoint (the chain's head signed with
the examiner's key) and ``check`` holds. A forger who edits an entry at or before the checkpoint
and rebuilds the whole chain (every hash and the head, as the program would) passes every other
check — shown on the same store without a checkpoint — but is found by the checkpoint, without
any receipt. Entries after the last checkpoint are named as sealed by the program only. A wrong
passphrase and a FIFO given as the certificate are refused in one line, exit 2.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from taveer_desktop.store import ProjectStore
from taveer_desktop.store.audit_chain import canonical_json, entry_hash

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")

CLI = [sys.executable, "-m", "taveer_desktop.cli"]


def openssl(folder: Path, *args: str) -> None:
    subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> Path:
    """``rsa.p12`` and ``ec.p12`` (passphrase 'pw'), self-signed, valid for 30 days."""
    folder = tmp_path_factory.mktemp("keys")
    for name, algorithm in (("rsa", ["-newkey", "rsa:2048"]), ("ec", ["-newkey", "ec",
                            "-pkeyopt", "ec_paramgen_curve:P-256"])):  # fmt: skip
        openssl(
            folder, "req", "-x509", *algorithm, "-nodes", "-keyout", f"{name}.key",
            "-out", f"{name}.pem", "-days", "30", "-subj", f"/CN=Ann {name.upper()}/O=Lab",
        )  # fmt: skip
        openssl(
            folder, "pkcs12", "-export", "-inkey", f"{name}.key", "-in", f"{name}.pem",
            "-out", f"{name}.p12", "-passout", "pass:pw",
        )  # fmt: skip
    return folder


def examiner_key(p12: Path):
    from taveer_desktop.report.credentials import open_examiner_key

    return open_examiner_key(p12, "pw", datetime.now(UTC))


def make_project(path: Path, key=None) -> Path:
    """A case declared (and signed by ``key`` when given), then one more case added."""
    with ProjectStore.create(path) as store:
        case = store.cases.create("C-1", examiner="Ann Example", agency="Lab")
        with store.transaction():
            store.declarations.declare(case.id, "Ann Example", "forensic linguist")
            if key is not None:
                store.audit.record_checkpoint(key, case.id)
        store.cases.create("C-2")
    return path


def check(path: Path):
    with ProjectStore.open_for_check(path) as store:
        return store.check_integrity(include_sqlite_check=False)


def rechain(path: Path, seq: int, **changes: object) -> None:
    """The forger with the file and the source: change entry ``seq`` and rebuild every hash
    after it and the head, exactly as the program computes them (guards dropped and put back)."""
    conn = sqlite3.connect(path, isolation_level=None)
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _sql in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    columns = "seq, time_utc, action, case_id, actor, details_json"
    rows = conn.execute(f"SELECT {columns} FROM audit_log WHERE seq >= ? ORDER BY seq", (seq,))
    (prev,) = conn.execute("SELECT entry_hash FROM audit_log WHERE seq = ?", (seq - 1,)).fetchone()
    for row in rows.fetchall():
        fields = dict(zip(columns.split(", "), row, strict=True))
        if fields["seq"] == seq:
            fields.update(changes)
        digest = entry_hash(*fields.values(), prev)
        conn.execute(
            "UPDATE audit_log SET time_utc = ?, action = ?, case_id = ?, actor = ?,"
            " details_json = ?, prev_hash = ?, entry_hash = ? WHERE seq = ?",
            (*list(fields.values())[1:], prev, digest, fields["seq"]),
        )
        prev = digest
    conn.execute("UPDATE store_meta SET value = ? WHERE key = 'audit_head_hash'", (prev,))
    for _name, sql in triggers:
        conn.execute(sql)
    conn.close()


@pytest.mark.parametrize("kind", ["rsa", "ec"])
def test_a_signed_declaration_keeps_a_checkpoint_and_the_check_holds(keys, tmp_path, kind):
    path = make_project(tmp_path / "p.taveer", examiner_key(keys / f"{kind}.p12"))
    report = check(path)
    assert report.ok, report.problems
    (checkpoint,) = report.checkpoints
    assert checkpoint.problem is None and checkpoint.signer == f"Ann {kind.upper()} (Lab)"
    assert (checkpoint.covers_to, checkpoint.carried_by) == (3, 4)  # created, case, declared
    assert report.audit_entries_checked == 5
    conn = sqlite3.connect(path)
    stored = "\n".join(str(r) for r in conn.execute("SELECT details_json FROM audit_log"))
    conn.close()
    key_pem = (keys / f"{kind}.key").read_text().split("-----")[2].replace("\n", "")
    assert key_pem[:40] not in stored and "PRIVATE" not in stored  # the key never enters


def test_an_edit_before_the_checkpoint_rechained_is_found_without_a_receipt(keys, tmp_path):
    plain = make_project(tmp_path / "plain.taveer")
    signed = make_project(tmp_path / "signed.taveer", examiner_key(keys / "rsa.p12"))
    for path in (plain, signed):
        rechain(path, 2, actor="someone-else@elsewhere")  # who created the case: rewritten
    assert check(plain).ok  # without a checkpoint the rebuilt chain passes every check
    report = check(signed)
    assert not report.ok
    (problem,) = report.problems
    assert problem.kind == "checkpoint" and problem.subject.startswith("audit entry 4")
    assert "audit entry 3 no longer has the hash the examiner signed" in problem.message
    assert report.checkpoints[0].problem == problem.message


def test_a_checkpoint_whose_signed_head_was_rewritten_does_not_hold(keys, tmp_path):
    path = make_project(tmp_path / "p.taveer", examiner_key(keys / "ec.p12"))
    rechain(path, 2, actor="someone-else@elsewhere")
    conn = sqlite3.connect(path)
    (details_json,) = conn.execute("SELECT details_json FROM audit_log WHERE seq = 4").fetchone()
    (new_head,) = conn.execute("SELECT entry_hash FROM audit_log WHERE seq = 3").fetchone()
    conn.close()
    details = json.loads(details_json)
    rechain(path, 4, details_json=canonical_json({**details, "head_hash": new_head}))
    (problem,) = check(path).problems
    assert "its signature does not hold" in problem.message


def test_a_checkpoint_signed_by_another_key_with_the_examiners_certificate_fails(keys, tmp_path):
    path = make_project(tmp_path / "p.taveer", examiner_key(keys / "rsa.p12"))
    conn = sqlite3.connect(path)
    (details_json,) = conn.execute("SELECT details_json FROM audit_log WHERE seq = 4").fetchone()
    conn.close()
    forged = json.loads(details_json)
    forged["signature"] = base64.b64encode(b"\x01" * 256).decode()
    rechain(path, 4, details_json=canonical_json(forged))
    assert "its signature does not hold" in check(path).problems[0].message


def run_cli(*args: object, passphrase: str | None = "pw") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TAVEER_SIGN_PASSPHRASE"}
    if passphrase is not None:
        env["TAVEER_SIGN_PASSPHRASE"] = passphrase
    return subprocess.run(
        [*CLI, *map(str, args)], capture_output=True, text=True, timeout=120, env=env
    )


@pytest.mark.slow
def test_the_cli_signs_a_declaration_and_check_names_what_it_cannot_prove(keys, tmp_path):
    project = tmp_path / "p.taveer"
    assert run_cli("--project", project, "case", "create", "C-1").returncode == 0
    declare = run_cli(
        "--project", project, "case", "declare", "C-1", "--examiner", "Ann Example",
        "--role", "forensic linguist", "--sign", keys / "rsa.p12", "--json",
    )  # fmt: skip
    assert declare.returncode == 0, declare.stderr
    checkpoint = json.loads(declare.stdout)["checkpoint"]
    assert checkpoint["covers_to"] == 3 and checkpoint["audit_seq"] == 4
    assert checkpoint["signer"] == "Ann RSA (Lab)"
    assert run_cli("--project", project, "case", "create", "C-2").returncode == 0
    done = run_cli("--project", project, "check", "--quick")
    assert done.returncode == 0, done.stdout
    assert "entries 1–3 are covered by a checkpoint signed by Ann RSA (Lab)" in done.stdout
    assert "after the last signed checkpoint or the receipt, entries 4–5 (of 5)" in done.stdout
    assert "are sealed by the program only" in done.stdout
    found = json.loads(run_cli("--project", project, "check", "--quick", "--json").stdout)
    assert found["unanchored_entries"] == [4, 5]
    assert found["checkpoints"][0]["ok"] and found["checkpoints"][0]["covers_to"] == 3
    review = run_cli(
        "--project", project, "case", "review", "C-1", "--reviewer", "Bob Second",
        "--outcome", "changes-required", "--comments", "see p. 3", "--sign", keys / "ec.p12",
    )  # fmt: skip
    assert review.returncode == 0, review.stderr
    assert "checkpoint signed by Ann EC (Lab)" in review.stdout
    assert "entries 1–6 (head " in review.stdout and "kept as audit entry 7" in review.stdout
    both = run_cli("--project", project, "check", "--quick")
    assert both.returncode == 0 and "entries 1–6 are covered by a checkpoint" in both.stdout
    assert "entry 7 (the last) is sealed by the program only" in both.stdout
    rechain(project, 2, actor="someone-else@elsewhere")
    forged = run_cli("--project", project, "check", "--quick")
    assert forged.returncode == 1
    assert "Integrity check found 2 problems" in forged.stdout  # both checkpoints fail
    # each is named among the problems and again in its checkpoint's line ("… FAILS: …")
    assert forged.stdout.count("no longer has the hash the examiner signed") == 4
    assert "all 7 entries are sealed by the program only" in forged.stdout


@pytest.mark.slow
def test_a_wrong_passphrase_or_a_fifo_certificate_is_refused_in_one_line(keys, tmp_path):
    project = make_project(tmp_path / "p.taveer")
    fifo = tmp_path / "cert.p12"
    os.mkfifo(fifo)
    declare = ("--project", project, "case", "declare", "C-1", "--examiner", "A", "--role", "r")
    for certificate, passphrase, said in (
        (keys / "rsa.p12", "wrong", "The passphrase does not open the certificate file"),
        (fifo, "pw", "is a named pipe (FIFO), not a regular file; it was not opened."),
    ):
        done = run_cli(*declare, "--sign", certificate, passphrase=passphrase)
        assert done.returncode == 2 and done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1 and said in done.stderr
    review = run_cli(
        "--project", project, "case", "review", "C-1", "--reviewer", "B", "--outcome",
        "approved", "--sign", keys / "rsa.p12", passphrase=None,
    )  # fmt: skip
    assert review.returncode == 2 and "TAVEER_SIGN_PASSPHRASE" in review.stderr
    with ProjectStore.open(project) as store:  # nothing was written by the refusals
        assert [e.action for e in store.audit.entries()][-1] == "case_created"
