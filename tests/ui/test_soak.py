"""The soak in CI: the real window driven for a while in a subprocess (``tests/ui/soak.py``),
so that a crash is a failed test with its signal, not a dead test run; and the crash of
issue 23 (new runs arriving while LambdaG's tab is open) as a fixed scenario of it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _soak(tmp_path: Path, *args: str, timeout: float) -> dict:
    environment = dict(os.environ, QT_QPA_PLATFORM="offscreen", TAVEER_HOME=str(tmp_path / "home"))
    completed = subprocess.run(
        [
            sys.executable,
            "-X",
            "faulthandler",
            "-m",
            "tests.ui.soak",
            "--work",
            str(tmp_path),
            *args,
        ],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if completed.returncode < 0:
        name = signal.Signals(-completed.returncode).name
        pytest.fail(f"the soak crashed with {name}:\n{completed.stderr[-4000:]}")
    assert completed.returncode == 0, completed.stderr[-4000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_new_runs_arriving_while_lambdag_s_tab_is_open_do_not_crash(tmp_path):
    summary = _soak(tmp_path, "--scenario", "lambdag-new-run", timeout=300)
    assert summary["passed"] and summary["failures"] == 0
    # both new runs arrived with the tab open and their sentences were listed
    assert summary["by_action"] == {"lambdag-new-run": 2}
    assert summary["completed"]["runs asked for"] == 2


@pytest.mark.slow
def test_the_short_soak_passes(tmp_path):
    summary = _soak(tmp_path, "--seconds", "40", "--seed", "3", timeout=400)
    assert summary["passed"] and summary["failures"] == 0
    assert summary["actions"] >= 40
    done = summary["by_action"]
    # every tab of the result was chosen and runs arrived while the soak went on
    assert done.get("result_tab", 0) >= 5 and done.get("verify", 0) >= 3
    assert summary["completed"].get("runs asked for", 0) >= 2


@pytest.mark.slow
def test_hostile_files_a_cancelled_job_and_a_held_project_through_the_window(tmp_path):
    """The soak's hostile actions in turn (``tests/ui/soak_hostile.py``): every hostile
    evidence file imported once (each refused in the list of refused files or added, never a
    failure box; a damaged bzip2 .docx was one), a verification and a validation cancelled,
    and the other project opened while a second process holds it."""
    summary = _soak(tmp_path, "--scenario", "hostile", timeout=400)
    assert summary["passed"] and summary["failures"] == 0, summary
    done = summary["completed"]
    imported = summary["by_action"]["import_hostile"]
    assert imported >= 30
    assert done.get("hostile files refused", 0) + done.get("hostile files added", 0) == imported
    assert done.get("hostile files refused", 0) >= 25
    assert done["jobs cancelled"] == 2 and done["held projects refused"] == 1
