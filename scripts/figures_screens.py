"""The screenshot part of ``figures_snapshot.py snapshot --screens`` (issue 32).

Runs the checkout's own screenshot scripts (``tests/ui/take_*.py``; they import the package, so
they run with the checkout's ``.venv`` python, from the checkout) under ``xvfb-run`` on a
1366×768 screen, at 100 % and with ``QT_SCALE_FACTOR=1.5``, into ``screens/100/`` and
``screens/150/``; ``compare`` then counts the differing pixels of each image. A script that
fails or times out is recorded in ``screens/<scale>/<script>.json`` (exit status, the last
lines of its stderr, the checkout's path as ``<CHECKOUT>``), so a script lost in a move shows as
a difference too.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

SCRIPTS = (
    "take_decision_screenshots",
    "take_honest_screenshots",
    "take_layout150_screenshots",
)
SCALES = (("100", "1", "1366x768"), ("150", "1.5", "910x512"))
TIMEOUT = 600


def take_screens(checkout: Path, out: Path, scripts: tuple[str, ...] = SCRIPTS) -> None:
    """Every script at both scales; a script no longer at tests/ui is looked for below tests/."""
    python = str(checkout / ".venv" / "bin" / "python")
    for name in scripts:
        found = sorted((checkout / "tests").rglob(f"{name}.py"))
        for folder, factor, size in SCALES:
            target = out / folder
            target.mkdir(parents=True, exist_ok=True)
            if not found:
                outcome: dict[str, object] = {"exit": None, "error": "script not found"}
            else:
                outcome = _run(checkout, python, found[0], target, factor, size)
            (target / f"{name}.json").write_text(json.dumps(outcome, indent=1), encoding="utf-8")


def _run(
    checkout: Path, python: str, script: Path, target: Path, factor: str, size: str
) -> dict[str, object]:
    argv = ["xvfb-run", "-a", "-s", "-screen 0 1366x768x24", python, str(script), str(target)]
    argv += ["--suffix=", f"--size={size}"]  # the maximising scripts ignore the size
    env = dict(os.environ, QT_SCALE_FACTOR=factor, TZ="UTC")
    try:
        done = subprocess.run(
            argv, cwd=checkout, env=env, capture_output=True, text=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        return {"exit": None, "error": f"timed out after {TIMEOUT} s"}
    tail = done.stderr.replace(str(checkout), "<CHECKOUT>").splitlines()[-5:]
    tail = tail if done.returncode else []
    return {"exit": done.returncode, "stderr_tail": tail}
