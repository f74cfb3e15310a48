"""The application shell: main window, menus, About, fonts, saved geometry, errors, smoke test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QSize, qVersion
from PySide6.QtGui import QFontDatabase, QImage
from PySide6.QtWidgets import QApplication, QMessageBox

from taveer_desktop import __version__, app, paths
from taveer_desktop.core.methods.systems import native
from taveer_desktop.ui import fonts
from taveer_desktop.ui.main_window import SETTINGS_FILE_NAME, MainWindow

BIN_DIR = Path(sys.executable).parent
EXPECTED_MENUS = {
    "File": [
        "New Project…",
        "Open Project…",
        "Open Recent",
        "Save a Copy…",
        "Write Receipt…",
        "Check Against Receipt…",
        "Verbal Scale for Likelihood Ratios",
        "Quit",
    ],
    "Case": [
        "New Case…",
        "Edit Case…",
        "Add Known Documents…",
        "Add Questioned Documents…",
        "Verify",
        "Validate on a Population…",
        "Examiner Declaration…",
        "Technical Review…",
        "Export Report…",
    ],
    "Model": [
        "Models…",
        "Train Model…",
        "Import Model…",
        "Export Model…",
        "Evaluate Model…",
        "Validation Records…",
    ],
    "Help": ["The TAVeer Method", "Glossary", "About TAVeer Desktop"],
}
NEED_A_CASE = {
    "Edit Case…",
    "Add Known Documents…",
    "Add Questioned Documents…",
    "Verify",
    "Validate on a Population…",
    "Examiner Declaration…",
    "Technical Review…",
    "Export Report…",
}


def _plain(text: str) -> str:
    return text.replace("&", "")


@pytest.fixture
def window(qtbot):
    """A main window of its own on the default project, seeded as at a first start."""
    win = MainWindow()
    qtbot.addWidget(win)
    with qtbot.waitSignal(win.project_ready, timeout=30_000):
        win.show()
    qtbot.waitExposed(win)
    return win


@pytest.fixture(scope="module")
def shared_window(qapp, tmp_path_factory):
    """One main window, opened as ``window`` is (in a home of its own), for the tests that only
    look at it: seeding the demo at a first start takes seconds."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TAVEER_HOME", str(tmp_path_factory.mktemp("shell-home")))
        win = MainWindow()
        ready: list[int] = []
        win.project_ready.connect(lambda: ready.append(1))
        win.show()
        deadline = time.monotonic() + 30
        while not (ready and win.isVisible()) and time.monotonic() < deadline:
            qapp.processEvents()
            time.sleep(0.01)
        assert ready, "the window's project was not ready within 30 s"
        yield win
        win.close()
        win.deleteLater()
        qapp.processEvents()


def test_main_window_opens_with_title_and_status_bar(shared_window):
    window = shared_window
    assert window.isVisible()
    assert "TAVeer Desktop" in window.windowTitle()
    assert paths.DEFAULT_PROJECT_NAME in window.windowTitle()
    assert "Project:" in window.status_line.project_label.text()
    # DEMO-001 is selected; its model is the one its demo validation produced
    assert "Case model: Validated for case DEMO-001" in window.status_line.model_label.text()
    assert not window.windowIcon().isNull()


def test_main_window_has_the_menus_and_actions(shared_window):
    window = shared_window
    menus = {_plain(a.text()): a.menu() for a in window.menuBar().actions() if a.menu()}
    assert list(menus) == list(EXPECTED_MENUS)
    for title, expected in EXPECTED_MENUS.items():
        entries = [_plain(a.text()) for a in menus[title].actions() if not a.isSeparator()]
        assert entries == expected, title
        for action in menus[title].actions():
            if action.isSeparator():
                continue
            name = _plain(action.text())
            assert action.toolTip(), f"{name} has no tooltip"
            if name in NEED_A_CASE and window.selected_case() is None:
                assert not action.isEnabled(), f"{name} needs a selected case"
                assert "select a case first" in action.toolTip(), name
            elif name == "Export Report…":  # the demo case has no stored run yet
                assert not action.isEnabled()
                assert "no stored run yet" in action.toolTip()
            elif name != "Open Recent":
                assert action.isEnabled(), name


def test_actions_have_keyboard_access(shared_window):
    window = shared_window
    for action in (
        window.window_actions.quit,
        window.window_actions.new_project,
        window.window_actions.open_project,
        window.window_actions.new_case,
        window.window_actions.verify,
        window.window_actions.train,
    ):
        assert not action.shortcut().isEmpty(), action.text()
    shortcuts = [
        a.shortcut().toString() for a in window.findChildren(type(window.window_actions.quit))
    ]
    shortcuts = [s for s in shortcuts if s]
    assert len(shortcuts) == len(set(shortcuts)), "two actions share a shortcut"


def test_about_shows_program_and_library_versions(shared_window, qtbot):
    window = shared_window
    import numpy
    import pyqtgraph
    from PySide6 import __version__ as pyside_version

    window.window_actions.about.trigger()
    qtbot.waitUntil(lambda: window._about_box is not None and window._about_box.isVisible())
    text = window._about_box.text()
    for expected in (__version__, qVersion(), pyside_version, pyqtgraph.__version__):
        assert expected in text
    assert numpy.__version__ in text
    assert "Python" in text
    window._about_box.done(0)
    qtbot.waitUntil(lambda: window._about_box is None)


def test_shipped_fonts_are_registered(qapp):
    families = fonts.register_fonts()
    assert {"DejaVu Sans", "DejaVu Sans Mono"} <= set(families)
    assert "DejaVu Sans" in QFontDatabase.families()
    assert QFontDatabase.isFixedPitch(fonts.MONO_FAMILY)


def test_a_missing_font_is_reported_not_ignored(qapp, monkeypatch, tmp_path):
    monkeypatch.setattr(fonts, "font_dir", lambda: tmp_path)
    with pytest.raises(fonts.FontRegistrationError, match=r"DejaVuSans\.ttf"):
        fonts.register_fonts()


@pytest.mark.slow
def test_window_geometry_persists_in_the_config_dir(qtbot):
    first = MainWindow()
    qtbot.addWidget(first)
    with qtbot.waitSignal(first.project_ready, timeout=30_000):
        first.show()
    qtbot.waitExposed(first)
    target = QSize(first.width(), max(first.minimumSizeHint().height(), 480) + 37)
    first.resize(target)  # the offscreen screen is only 800 px wide: change the height
    qtbot.waitUntil(lambda: first.size() == target)
    first.splitter.setSizes([300, target.width() - 300])
    sizes = first.splitter.sizes()
    first.close()
    ini = paths.config_dir() / SETTINGS_FILE_NAME
    assert ini.is_file()
    assert "geometry" in ini.read_text(encoding="utf-8")

    second = MainWindow()
    qtbot.addWidget(second)
    assert second.size() == target
    second.show()
    assert second.splitter.sizes() == sizes


def test_project_path_is_shown(qtbot, tmp_path):
    win = MainWindow(project_path=tmp_path / "smith.taveer")
    qtbot.addWidget(win)
    assert "smith.taveer" in win.windowTitle()
    assert "smith.taveer" in win.status_line.project_label.text()
    assert (tmp_path / "smith.taveer").is_file()  # a new project is created


# ---- unexpected errors -----------------------------------------------------------------------


def _raise_and_report(reporter, message):
    try:
        raise ValueError(message)
    except ValueError:
        reporter.excepthook(*sys.exc_info())


def test_an_unexpected_error_is_logged_and_shown_not_fatal(qtbot, caplog):
    reporter = app.ErrorReporter()
    reporter.connect()
    _raise_and_report(reporter, "the disk ate my homework")
    qtbot.waitUntil(lambda: len(reporter._open_boxes) == 1)
    box = reporter._open_boxes[0]
    assert isinstance(box, QMessageBox)
    assert "the disk ate my homework" in box.text()
    assert "ValueError" in box.detailedText()
    assert "the disk ate my homework" in caplog.text
    box.done(0)
    qtbot.waitUntil(lambda: not reporter._open_boxes)
    assert QApplication.instance() is not None  # still running


def test_an_error_in_another_thread_reaches_the_gui_thread(qtbot):
    reporter = app.ErrorReporter()
    reporter.connect()
    worker = threading.Thread(target=_raise_and_report, args=(reporter, "worker failed"))
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: len(reporter._open_boxes) == 1)
    box = reporter._open_boxes[0]
    assert "worker failed" in box.text()
    box.done(0)


def test_a_failed_smoke_test_says_so_plainly(window, monkeypatch, capsys):
    quits = []
    monkeypatch.setattr(app, "_quit", quits.append)
    smoke = app.SmokeTest(window, None, case_number="NO-SUCH-CASE")
    smoke._project_ready()
    err = capsys.readouterr().err
    assert "smoke test failed: the demo case NO-SUCH-CASE is not in the project" in err
    assert "Traceback" not in err
    assert quits == [app.EXIT_ERROR]


# ---- the installed program, as a user starts it ---------------------------------------------


def _entry_point() -> str:
    script = BIN_DIR / "taveer-desktop"
    assert script.is_file(), f"the gui-script is not installed in {BIN_DIR}"
    return str(script)


def _check_smoke_run(done: subprocess.CompletedProcess, shot: Path) -> None:
    assert done.returncode == 0, done.stdout + done.stderr
    assert "smoke test ok" in done.stdout
    assert "DEMO-001" in done.stdout
    assert f"unmasking curves {native.engine()}" in done.stdout
    assert shot.is_file() and shot.stat().st_size > 1000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = QImage(str(shot))
    assert image.width() >= 400 and image.height() >= 300
    assert (paths.log_dir() / "taveer.log").is_file()


@pytest.mark.slow
def test_smoke_test_offscreen_writes_a_screenshot(tmp_path):
    shot = tmp_path / "shots" / "window.png"
    done = subprocess.run(
        [_entry_point(), "--smoke-test", "--screenshot", str(shot)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    _check_smoke_run(done, shot)


def test_smoke_test_on_a_file_that_is_no_project_fails_at_once_and_plainly(tmp_path):
    bad = tmp_path / "random.taveer"
    bad.write_bytes(bytes(range(256)) * 20)
    done = subprocess.run(
        [_entry_point(), "--smoke-test", "--project", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == app.EXIT_ERROR
    assert f"the project could not be opened: {bad}: is not a TAVeer project file" in done.stderr
    assert "Traceback" not in done.stderr
    assert bad.read_bytes() == bytes(range(256)) * 20  # the file is left as it was


@pytest.mark.slow
def test_smoke_test_under_xvfb(tmp_path):
    xvfb_run = shutil.which("xvfb-run")
    if xvfb_run is None:
        pytest.skip("xvfb-run is not installed (scripts/setup.sh installs it)")
    shot = tmp_path / "xvfb.png"
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    done = subprocess.run(
        [
            xvfb_run,
            "-a",
            "-s",
            "-screen 0 1600x1000x24",
            _entry_point(),
            "--smoke-test",
            "--screenshot",
            str(shot),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    _check_smoke_run(done, shot)


def _env_without_display() -> dict[str, str]:
    hidden = {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}
    return {k: v for k, v in os.environ.items() if k not in hidden}


def test_without_a_display_the_program_says_so_instead_of_aborting():
    done = subprocess.run(
        [_entry_point()],
        capture_output=True,
        text=True,
        timeout=120,
        env=_env_without_display(),
    )
    assert done.returncode == 1, done.stderr
    assert "no display found" in done.stderr
    assert "xvfb-run" in done.stderr


@pytest.mark.slow
def test_smoke_test_needs_no_display(tmp_path):
    shot = tmp_path / "nodisplay.png"
    done = subprocess.run(
        [_entry_point(), "--smoke-test", "--screenshot", str(shot)],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env_without_display(),
    )
    _check_smoke_run(done, shot)
    assert "propagateSizeHints" not in done.stderr  # Qt's noise goes to the log only
