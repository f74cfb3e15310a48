"""What the full-disk and kill tests of the writing commands share (issue 22, "honest failures").

A real project (a case with three known Federalist papers and one questioned, the shipped
default model chosen, the demo population stored; a second one with a stored run for the
report), the four commands as real ``taveer`` subprocesses, a file-size limit set from outside
(``RLIMIT_FSIZE`` in the child, SIGXFSZ ignored so writes fail with EFBIG instead of killing
it: a full disk as far as the writer can tell), and plain ``sqlite3`` to read back what the
project holds.
"""

from __future__ import annotations

import os
import resource
import signal
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from tests.core.validation_fixtures import make_demo_population
from tests.store.evidence_builders import demo_text_paths, model_bytes

CLI = [sys.executable, "-m", "taveer_desktop.cli"]
CHILD_ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}


@dataclass(frozen=True)
class Command:
    """One writing command: its arguments and the audit actions one success stores."""

    name: str
    args: tuple[str, ...]
    actions: frozenset[str]
    needs_run: bool = False


def commands(extra_known: Path, out: Path) -> list[Command]:
    return [
        Command(
            "case add",
            ("case", "add", "C-1", "--known", str(extra_known)),
            frozenset({"document_added"}),
        ),
        Command(
            "case verify",
            ("case", "verify", "C-1", "--stability", "20"),
            frozenset({"run_stored", "stability_stored"}),
        ),
        Command(
            "case validate",
            ("case", "validate", "C-1", "--population", "demo", "--folds", "3", "--seed", "1"),
            frozenset({"model_added", "validation_stored", "case_model_chosen"}),
        ),
        Command(
            "report",
            ("report", "C-1", "-o", str(out / "report.pdf")),
            frozenset({"report_exported"}),
            needs_run=True,
        ),
    ]


def build_projects(root: Path) -> tuple[Path, Path, Path]:
    """(project without a run, project with a run, a known text not yet in the case)."""
    population = make_demo_population(root)
    known, questioned = demo_text_paths()
    plain = root / "plain.taveer"
    with ProjectStore.create(plain) as store:
        case = store.cases.create("C-1")
        store.documents.add(case.id, KNOWN, known[:3])
        store.documents.add(case.id, QUESTIONED, [questioned])
        model = store.models.add_bytes(model_bytes(), "default.json")
        store.cases.choose_model(case.id, model.id)
        store.populations.add_folder("demo", population, "Brontës and Federalist; too small")
    with_run = root / "with-run.taveer"
    with_run.write_bytes(plain.read_bytes())
    done = run_cli(with_run, ("case", "verify", "C-1", "--stability", "20"))
    assert done.returncode == 0, done.stderr
    return plain, with_run, known[3]


def _limited(limit: int | None):
    def apply() -> None:
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def run_cli(
    project: Path, args: tuple[str, ...], limit: int | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, "--project", str(project), *args],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_limited(limit),
        env=CHILD_ENV,
    )


def _interruptible() -> None:
    """In the child before it runs: Ctrl-C as in a terminal. A test run started in the
    background (``cmd &`` in a script, ``nohup``) ignores SIGINT, and an ignored signal stays
    ignored across exec, so the CLI under test would never see the interrupt the test sends."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_cli(project: Path, args: tuple[str, ...]) -> subprocess.Popen:
    return subprocess.Popen(
        [*CLI, "--project", str(project), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=CHILD_ENV,
        preexec_fn=_interruptible,
    )


def audit_actions(project: Path, after: int = 0) -> list[tuple[int, str]]:
    """(seq, action) of the audit entries after ``after``, read with plain sqlite3 (a log left
    beside the file is read as SQLite reads it)."""
    conn = sqlite3.connect(f"{project.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute(
            "SELECT seq, action FROM audit_log WHERE seq > ? ORDER BY seq", (after,)
        ).fetchall()
    finally:
        conn.close()


def head_seq(project: Path) -> int:
    entries = audit_actions(project)
    return entries[-1][0] if entries else 0


def check_passes(project: Path) -> None:
    done = run_cli(project, ("check",))
    assert done.returncode == 0 and "check passed" in done.stdout, done.stdout + done.stderr


def one_plain_line(done: subprocess.CompletedProcess) -> str:
    lines = done.stderr.strip().splitlines()
    lines = [line for line in lines if not line.startswith(("report:", "validating"))]
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    return lines[0]
