"""Test configuration shared by the whole suite.

- Qt runs offscreen (set before anything imports Qt).
- The network is blocked in this process and in every Python subprocess the tests start
  (``tests/offline_guard/sitecustomize.py`` on PYTHONPATH).
- User directories point into a temporary folder (``TAVEER_HOME``), never the user's own.
- ``SHARED`` is ../shared beside the checkout; tests needing a corpus skip with a reason if absent.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The package keeps numpy's BLAS to one thread per process where numpy is loaded after it (its
# docstring says why); test modules import numpy first, so the tests' own processes get the
# same rule here, before any of them loads numpy. Two BLAS threads per process with two workers
# on two cores made Unmasking's small solves 50 times slower (0.8 s a case became 45 s).
import taveer_desktop  # noqa: F401

REPO_ROOT = Path(__file__).resolve().parent.parent
OFFLINE_GUARD_DIR = Path(__file__).resolve().parent / "offline_guard"
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(OFFLINE_GUARD_DIR), str(REPO_ROOT)]
    + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
)
sys.path.insert(0, str(OFFLINE_GUARD_DIR))
import sitecustomize as _offline_guard  # noqa: E402

assert _offline_guard.NetworkAccessBlocked  # the guard is active in this process too

SHARED = Path(os.environ.get("TAVEER_SHARED", REPO_ROOT.parent / "shared"))
CORPORA = SHARED / "corpora"
DEMO_TEXTS = SHARED / "demo-texts"


def corpus_path(name: str, split: str | None = None) -> Path:
    """Path of a shared corpus (or one split of it); skips the test where it is absent."""
    path = CORPORA / name
    if split:
        path = path / split
    if not path.exists():
        pytest.skip(f"shared corpus {path} is not available on this machine")
    return path


@pytest.fixture(scope="session")
def built_once(tmp_path_factory) -> Path:
    """A folder for what the tests build once per run and copy (``tests/method_fixtures``):
    shared by pytest-xdist's workers of this run (their base folders' parent), this process's
    own without workers. Whoever builds there holds a lock (``method_project_copy``)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / "built-once"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("taveer-home")
    monkeypatch.setenv("TAVEER_HOME", str(home))
    yield home
