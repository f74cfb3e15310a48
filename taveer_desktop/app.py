"""Start-up of the ``taveer-desktop`` application: arguments, logging, fonts, errors, window.

``taveer-desktop [--project PATH] [--smoke-test] [--screenshot FILE.png]``

``--smoke-test`` starts the real application on a fresh project in a temporary folder (or on
``--project``), which first start seeds with the demo cases and bundled models; it selects the
demo case DEMO-001, triggers the window's own Verify action (a background worker that stores
the run), waits for the result view, optionally saves a screenshot, prints a one-line summary
and exits 0 (1 with a plain message on any error). It is the check that an installation or a
PyInstaller bundle is complete.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import FrameType, TracebackType
from typing import TYPE_CHECKING

from taveer_desktop import PROGRAM_NAME, __version__, logging_setup, paths
from taveer_desktop.presentation.conclusion_text import CLASSIFICATION_SHORT, KIND_LABELS

if TYPE_CHECKING:  # Qt is imported where the window starts, so the CLI never loads it
    from PySide6.QtCore import QObject
    from PySide6.QtWidgets import QApplication, QMessageBox

log = logging.getLogger("taveer_desktop.app")

ORGANISATION = "TAVeer"
DESKTOP_FILE_NAME = "taveer-desktop"
SMOKE_TEST_TIMEOUT_S = 180
SMOKE_TEST_CASE = "DEMO-001"
EXIT_ERROR = 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="taveer-desktop",
        description=f"{PROGRAM_NAME}: offline forensic authorship verification.",
    )
    parser.add_argument("--version", action="version", version=f"taveer-desktop {__version__}")
    parser.add_argument(
        "--project",
        metavar="PATH",
        type=Path,
        help="project store (.taveer file) to open instead of the default project",
    )
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="open the window, verify the bundled demo case, print a summary and exit",
    )
    parser.add_argument(
        "--screenshot",
        metavar="FILE.png",
        type=Path,
        help="save a picture of the main window to this file once it is shown",
    )
    return parser


# ---- unexpected errors ----------------------------------------------------------------------


class ErrorReporter:
    """``sys.excepthook`` and ``threading.excepthook``: log the traceback, tell the user plainly.

    In the GUI the user sees a dialog with a one-line message and the traceback under "Show
    Details"; the application keeps running. Errors raised in other threads are handed to the
    GUI thread through a queued signal (widgets may only be touched there). In smoke-test mode
    there is nobody to read a dialog: the error goes to stderr and the application exits 1.
    """

    def __init__(self, smoke_test: bool = False) -> None:
        self.smoke_test = smoke_test
        self.errors: list[str] = []
        self._bridge: QObject | None = None  # lives in the GUI thread
        self._raise: Callable[[str, str], None] | None = None  # its queued signal's emit
        self._open_boxes: list[QMessageBox] = []

    def connect(self) -> None:
        """Create the bridge to the GUI thread (needs the QApplication, in the GUI thread)."""
        from PySide6.QtCore import QObject, Qt, Signal

        class _Bridge(QObject):
            raised = Signal(str, str)

        bridge = _Bridge()
        bridge.raised.connect(self._report, Qt.ConnectionType.QueuedConnection)
        self._bridge = bridge
        self._raise = bridge.raised.emit

    def install(self) -> None:
        """Become ``sys.excepthook`` and ``threading.excepthook``."""
        if self._bridge is None:
            self.connect()
        sys.excepthook = self.excepthook
        threading.excepthook = lambda args: self.excepthook(
            args.exc_type, args.exc_value, args.exc_traceback
        )

    def excepthook(
        self,
        exc_type: type[BaseException],
        exc_value: BaseException | None,
        exc_traceback: TracebackType | None,
    ) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc_value or exc_type(), exc_traceback)
            return
        details = "".join(traceback.format_exception(exc_type, exc_value, exc_traceback))
        message = str(exc_value) or exc_type.__name__
        log.error("unexpected error: %s\n%s", message, details)
        self.errors.append(message)
        if self._raise is not None:
            self._raise(message, details)  # queued to the GUI thread
        else:
            print(f"taveer-desktop: unexpected error: {message}", file=sys.stderr)

    def _report(self, message: str, details: str) -> QMessageBox | None:
        from PySide6.QtWidgets import QApplication, QMessageBox

        if self.smoke_test:
            print(f"taveer-desktop: smoke test failed: {message}", file=sys.stderr)
            QApplication.exit(EXIT_ERROR)
            return None
        box = QMessageBox(QApplication.activeWindow())
        box.setIcon(QMessageBox.Icon.Critical)
        box.setWindowTitle(f"{PROGRAM_NAME}: unexpected error")
        box.setText(
            "Something went wrong, but your work is safe and the program keeps running.\n\n"
            f"{message}"
        )
        box.setInformativeText(f"The details are also in the log file in {paths.log_dir()}.")
        box.setDetailedText(details)
        box.finished.connect(lambda _result, b=box: self._open_boxes.remove(b))
        self._open_boxes.append(box)
        box.open()
        return box


# ---- the smoke test -------------------------------------------------------------------------


class SmokeTest:
    """Drives the real window like a user: open the demo case, press Verify, see the result.

    Started before the event loop runs; every step is a reaction to the window's own signals
    (project ready, verification finished, job failed). Ends the application with 0 when the
    result is shown (after saving the screenshot) and with 1 on any failure.
    """

    def __init__(self, window, screenshot: Path | None, case_number: str = SMOKE_TEST_CASE):
        self.window = window
        self.screenshot = screenshot
        self.case_number = case_number
        self.started = time.perf_counter()
        self.summary = ""
        window.project_ready.connect(self._project_ready)
        window.verification_finished.connect(self._verified)
        window.runner.job_failed.connect(lambda _worker, message: self.fail(message))
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, self._check_opened)  # the window opened its project while built

    def _check_opened(self) -> None:
        error = self.window.projects.open_error
        if error is not None:
            self.fail(f"the project could not be opened: {error}")

    def _project_ready(self) -> None:
        window = self.window
        if not window.session.is_open:
            self.fail("the project could not be opened")
            return
        if not window.case_list.select_case_number(self.case_number):
            self.fail(f"the demo case {self.case_number} is not in the project")
            return
        action = window.window_actions.verify
        if not action.isEnabled():
            self.fail(f"Verify is not available: {action.toolTip()}")
            return
        action.trigger()

    def _verified(self, view) -> None:
        from taveer_desktop.core.methods.systems import native  # numpy: not at start-up

        try:
            if self.screenshot is not None:
                save_screenshot(self.window, self.screenshot)
            run = view.run
            similarity = "none" if run.similarity is None else f"{run.similarity:.3f}"
            kind = KIND_LABELS[run.conclusion].lower() if run.conclusion else "not assessed"
            self.summary = (
                f"smoke test ok: case {view.case.number} ({len(view.known)} known, 1 questioned), "
                f"model {run.model_name}: {kind}, classification "
                f"{CLASSIFICATION_SHORT[run.prediction]}, similarity {similarity}, "
                f"run {run.id} stored, {time.perf_counter() - self.started:.1f} s; "
                f"unmasking curves {native.engine()}"
            )
        except Exception as error:
            log.exception("smoke test failed")
            self.fail(str(error))
            return
        log.info(self.summary)
        print(self.summary, flush=True)
        self.window.close()
        _quit(0)

    def fail(self, message: str) -> None:
        log.error("smoke test failed: %s", message)
        print(f"taveer-desktop: smoke test failed: {message}", file=sys.stderr, flush=True)
        _quit(EXIT_ERROR)


def _quit(status: int) -> None:
    from PySide6.QtWidgets import QApplication

    QApplication.exit(status)


def save_screenshot(window, target: Path) -> None:
    from PySide6.QtWidgets import QApplication

    for _ in range(3):  # wrapped labels need more than one layout pass to settle
        QApplication.processEvents()
    target.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(target), "PNG"):
        raise OSError(f"could not write the screenshot {target}")
    log.info("screenshot saved to %s", target)


# ---- main -----------------------------------------------------------------------------------


def check_display(smoke_test: bool, qt_args: list[str]) -> str | None:
    """On Linux without any display Qt aborts the process; say so plainly instead.

    The smoke test needs no screen: without a display it runs on Qt's offscreen platform.
    Returns a message for the user when the application cannot start, else None.
    """
    if not sys.platform.startswith("linux") or "-platform" in qt_args:
        return None
    if any(os.environ.get(name) for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")):
        return None
    if smoke_test:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        return None
    return (
        "no display found (DISPLAY and WAYLAND_DISPLAY are not set). Start it from a desktop "
        "session, or on a virtual display: xvfb-run -a taveer-desktop"
    )


def route_qt_messages() -> None:
    """Qt's own messages go to the log file; warnings and worse also to stderr.

    The offscreen platform's harmless "does not support propagateSizeHints" goes to the log only.
    """
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    levels = {
        QtMsgType.QtDebugMsg: logging.DEBUG,
        QtMsgType.QtInfoMsg: logging.INFO,
        QtMsgType.QtWarningMsg: logging.WARNING,
        QtMsgType.QtCriticalMsg: logging.ERROR,
        QtMsgType.QtFatalMsg: logging.CRITICAL,
    }
    qt_log = logging.getLogger("qt")

    def handler(kind, _context, message: str) -> None:
        level = levels.get(kind, logging.WARNING)
        qt_log.log(level, "%s", message)
        if level >= logging.WARNING and "propagateSizeHints" not in message:
            print(f"qt: {message}", file=sys.stderr)

    qInstallMessageHandler(handler)


def stop_on_signals(app: QApplication) -> None:
    """Ctrl+C (SIGINT) and SIGTERM end the program as quitting does: the event loop stops, then
    ``main`` cancels and waits for the jobs and closes the project. A timer lets Python run its
    signal handlers while Qt's event loop holds the thread."""
    import signal

    from PySide6.QtCore import QTimer

    def stop(signum: int, _frame: FrameType | None) -> None:
        log.info("stopping on signal %s", signum)
        app.quit()

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop)
    timer = QTimer(app)
    timer.timeout.connect(lambda: None)
    timer.start(250)


def create_application(argv: list[str]) -> QApplication:
    """The QApplication with name, organisation, icon and the shipped fonts registered."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.ui import fonts
    from taveer_desktop.ui.about_box import app_icon

    QApplication.setApplicationName(PROGRAM_NAME)
    QApplication.setOrganizationName(ORGANISATION)
    QApplication.setApplicationVersion(__version__)
    QGuiApplication.setDesktopFileName(DESKTOP_FILE_NAME)
    running = QApplication.instance()
    app = running if isinstance(running, QApplication) else QApplication(argv)
    app.setStyle("Fusion")  # the same look on every desktop and under Xvfb
    fonts.register_fonts()  # before any widget exists
    app.setFont(fonts.ui_font())
    app.setWindowIcon(app_icon())
    return app


def main(argv: list[str] | None = None) -> int:
    args, qt_args = build_parser().parse_known_args(argv)
    logging_setup.configure_logging()
    log.info("%s %s starting (%s)", PROGRAM_NAME, __version__, " ".join(sys.argv[1:]))
    problem = check_display(args.smoke_test, qt_args)
    if problem:
        log.error(problem)
        print(f"taveer-desktop: cannot start: {problem}", file=sys.stderr)
        return EXIT_ERROR
    reporter = ErrorReporter(smoke_test=args.smoke_test)
    sys.excepthook = reporter.excepthook
    scratch: Path | None = None
    try:
        route_qt_messages()
        app = create_application([sys.argv[0], *qt_args])
        stop_on_signals(app)
        reporter.install()
        from taveer_desktop.ui.main_window import MainWindow

        if args.smoke_test:
            project = args.project
            if project is None:  # never add test runs to the user's own project
                scratch = Path(tempfile.mkdtemp(prefix="taveer-smoke-"))
                project = scratch / "smoke-test.taveer"
            window = MainWindow(project_path=project, seed_demo=True, persist_settings=False)
            smoke = SmokeTest(window, args.screenshot)
        else:
            window = MainWindow(project_path=args.project)
        window.show()
    except Exception as error:  # nothing to show a dialog in yet
        log.exception("start-up failed")
        print(f"taveer-desktop: could not start: {error}", file=sys.stderr)
        return EXIT_ERROR

    from PySide6.QtCore import QTimer

    if args.smoke_test:
        QTimer.singleShot(
            SMOKE_TEST_TIMEOUT_S * 1000,
            lambda: smoke.fail(f"no result after {SMOKE_TEST_TIMEOUT_S} s"),
        )
    elif args.screenshot is not None:
        QTimer.singleShot(1500, lambda: save_screenshot(window, args.screenshot))
    status = app.exec()
    if window.isVisible() or window.session.is_open:
        window.runner.shut_down(10_000)
        window.session.close()
    if scratch is not None:
        shutil.rmtree(scratch, ignore_errors=True)
    log.info("%s exits with status %s", PROGRAM_NAME, status)
    return status


if __name__ == "__main__":
    sys.exit(main())
