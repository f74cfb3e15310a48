"""Fixtures of the desktop tests: windows on projects in tmp_path, small corpora, evidence."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import DEMO_TEXTS

from taveer_desktop.store import ProjectStore, demo_project
from taveer_desktop.ui import error_dialog
from taveer_desktop.ui.main_window import MainWindow

BRONTES = DEMO_TEXTS / "brontes"
BOOKS = {
    "anne": "Anne_Bronte_Agnes_Grey",
    "charlotte": "Charlotte_Bronte_Jane_Eyre",
    "emily": "Emily_Bronte_Wuthering_Heights",
    "tenant": "Anne_Bronte_Tenant_of_Wildfell_Hall",
}


def make_pan_corpus(root: Path, cases: int = 8) -> Path:
    """A PAN 2013–2015 folder corpus of ``cases`` Brontë cases (half Y, half N), with truth."""
    if not BRONTES.is_dir():
        pytest.skip(f"shared demo texts {BRONTES} are not available on this machine")
    root.mkdir(parents=True, exist_ok=True)
    books = list(BOOKS.values())
    truth = []
    for i in range(cases):
        case_id = f"EN{i + 1:03d}"
        folder = root / case_id
        folder.mkdir()
        book = books[i % len(books)]
        chapter = 1 + (i // len(books)) % 4
        same = i % 2 == 0
        other = book if same else books[(i + 1) % len(books)]
        known = (BRONTES / f"{book}_ch{chapter:02d}.txt").read_text(encoding="utf-8")
        unknown = (BRONTES / f"{other}_ch{chapter + 4:02d}.txt").read_text(encoding="utf-8")
        (folder / "known01.txt").write_text(known, encoding="utf-8")
        (folder / "unknown.txt").write_text(unknown, encoding="utf-8")
        truth.append(f"{case_id} {'Y' if same else 'N'}")
    (root / "truth.txt").write_text("\n".join(truth) + "\n", encoding="utf-8")
    return root


@pytest.fixture
def tiny_corpus(tmp_path) -> Path:
    return make_pan_corpus(tmp_path / "tiny-corpus")


@pytest.fixture
def evidence(tmp_path) -> dict[str, Path]:
    """Evidence files: two good texts of one author, a questioned one, and refused files."""
    folder = tmp_path / "evidence"
    folder.mkdir()
    files = {}
    for key, name in (("known1", "anne_ch01.txt"), ("known2", "anne_ch02.txt")):
        chapter = name[-6:-4]
        source = BRONTES / f"{BOOKS['anne']}_ch{chapter}.txt"
        if not source.is_file():
            pytest.skip(f"shared demo texts {BRONTES} are not available on this machine")
        files[key] = folder / name
        files[key].write_bytes(source.read_bytes())
    files["questioned"] = folder / "letter.txt"
    files["questioned"].write_bytes((BRONTES / f"{BOOKS['tenant']}_ch03.txt").read_bytes())
    files["empty"] = folder / "empty.txt"
    files["empty"].write_bytes(b"")
    files["binary"] = folder / "photo.txt"
    files["binary"].write_bytes(bytes(range(256)) * 8)
    files["pdf"] = folder / "scan.pdf"
    files["pdf"].write_bytes(b"%PDF-1.4 not really")
    return files


def open_window(qtbot, project: Path, seed_demo: bool = False) -> MainWindow:
    window = MainWindow(project_path=project, seed_demo=seed_demo)
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.project_ready, timeout=30_000):
        window.show()
    return window


@pytest.fixture
def window(qtbot, tmp_path) -> MainWindow:
    """A window on a new, empty project in tmp_path."""
    return open_window(qtbot, tmp_path / "project.taveer")


@pytest.fixture(scope="session")
def seeded_demo_project(tmp_path_factory) -> Path:
    """A project seeded once per session as at a first start (demo cases, bundled models, demo
    population and DEMO-001's validation, a few seconds); ``demo_window`` opens copies of it.
    The first start itself is tested by ``test_first_start_seeds_the_demo_and_verify_works``."""
    path = tmp_path_factory.mktemp("demo-template") / "demo.taveer"
    with ProjectStore.create(path) as store:
        demo_project.seed_demo_project(store)
    return path


@pytest.fixture
def demo_window(qtbot, tmp_path, seeded_demo_project) -> MainWindow:
    """A window on a copy of the seeded demo project (its own file in tmp_path), with DEMO-001
    selected as after a first start."""
    project = tmp_path / "demo.taveer"
    shutil.copyfile(seeded_demo_project, project)
    window = open_window(qtbot, project, seed_demo=True)
    assert window.case_list.select_case_number("DEMO-001")
    return window


@pytest.fixture(autouse=True)
def _close_open_dialogs():
    yield
    for dialog in error_dialog.open_dialogs():
        dialog.close()
