"""Start-up of the ``taveer-desktop`` application: arguments, logging, fonts, errors, window.

``taveer-desktop [--project PATH] [--smoke-test] [--screenshot FILE.png]``

``--smoke-test`` opens the real main window, runs one verification on the bundled demo case with
the default model, prints a one-line summary and exits 0 (1 with a plain message on any
error). It is the check that an installation or a PyInstaller bundle is complete.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from taveer_desktop import PROGRAM_NAME, __version__, logging_setup, paths

log = logging.getLogger("taveer_desktop.app")

ORGANISATION = "TAVeer"
DESKTOP_FILE_NAME = "taveer-desktop"
SMOKE_TEST_TIMEOUT_S = 180
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


# ---- the demo case --------------------------------------------------------------------------


@dataclass(frozen=True)
class DemoCase:
    case_number: str
    title: str
    description: str
    known: tuple[Path, ...]
    questioned: Path
    model: Path


def load_demo_case(index: int = 0) -> DemoCase:
    """One case of ``resources/demo/demo_case.json`` with its file paths resolved."""
    demo_dir = paths.resource("demo")
    manifest = json.loads((demo_dir / "demo_case.json").read_text(encoding="utf-8"))
    entry = manifest["cases"][index]
    case = DemoCase(
        case_number=entry["case_number"],
        title=entry["title"],
        description=entry["description"],
        known=tuple(demo_dir / name for name in entry["known"]),
        questioned=demo_dir / entry["questioned"],
        model=paths.resources_dir() / manifest["model"],
    )
    for path in (*case.known, case.questioned, case.model):
        if not path.is_file():
            raise FileNotFoundError(f"demo document is missing: {path}")
    return case


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
        self._bridge = None
        self._open_boxes: list = []

    def connect(self) -> None:
        """Create the bridge to the GUI thread (needs the QApplication, in the GUI thread)."""
        from PySide6.QtCore import QObject, Qt, Signal

        class _Bridge(QObject):
            raised = Signal(str, str)

        self._bridge = _Bridge()
        self._bridge.raised.connect(self._report, Qt.ConnectionType.QueuedConnection)

    def install(self) -> None:
        """Become ``sys.excepthook`` and ``threading.excepthook``."""
        if self._bridge is None:
            self.connect()
        sys.excepthook = self.excepthook
        threading.excepthook = lambda args: self.excepthook(
            args.exc_type, args.exc_value, args.exc_traceback
        )

    def excepthook(self, exc_type, exc_value, exc_traceback) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc_value, exc_traceback)
            return
        details = "".join(traceback.format_exception(exc_type, exc_value, exc_traceback))
        message = str(exc_value) or exc_type.__name__
        log.error("unexpected error: %s\n%s", message, details)
        self.errors.append(message)
        if self._bridge is not None:
            self._bridge.raised.emit(message, details)  # queued to the GUI thread
        else:
            print(f"taveer-desktop: unexpected error: {message}", file=sys.stderr)

    def _report(self, message: str, details: str):
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


def run_smoke_test(window, screenshot: Path | None, model_path: Path | None = None) -> str:
    """Verify the demo case with its model in ``window``; return a one-line summary.

    Raises on any problem (the caller turns that into exit status 1).
    """
    from taveer_desktop.core.decoding import read_text_file
    from taveer_desktop.core.model import load_model
    from taveer_desktop.core.verify import verify
    from taveer_desktop.ui.main_window import CaseSummary

    started = time.perf_counter()
    case = load_demo_case()
    window.show_case(
        CaseSummary(
            case.case_number,
            case.title,
            case.description,
            tuple(path.name for path in case.known),
            case.questioned.name,
        )
    )
    model_path = model_path or case.model
    model = load_model(model_path)
    window.set_model_name(model.name)

    known_texts = [read_text_file(path).text for path in case.known]
    result = verify(model, known_texts, read_text_file(case.questioned).text)
    outcome = result.to_dict()
    prediction = outcome["prediction"]
    verdict, detail = describe_outcome(outcome)
    window.show_verification(verdict, detail)
    if screenshot is not None:
        save_screenshot(window, screenshot)
    elapsed = time.perf_counter() - started
    return (
        f"smoke test ok: case {case.case_number} ({len(case.known)} known, 1 questioned), "
        f"model {model.name}: prediction {prediction}, similarity {outcome['similarity']:.3f}, "
        f"{elapsed:.1f} s"
    )


VERDICTS = {
    "Y": "Same author: the known documents' author probably wrote the questioned document.",
    "N": "Different author: the questioned document was probably written by someone else.",
    "insufficient": "No decision: the documents give too little evidence.",
}


def describe_outcome(outcome: dict) -> tuple[str, str]:
    """A plain verdict line and a detail line from ``VerificationResult.to_dict()``."""
    prediction = outcome["prediction"]
    verdict = VERDICTS.get(prediction, f"Prediction: {prediction}")
    detail = (
        f"ensemble similarity {outcome['similarity']:.3f} (above 0.5 means same author); "
        f"ensemble {', '.join(outcome.get('ensemble', []))}"
    )
    warnings = outcome.get("warnings") or []
    if warnings:
        detail += f"; {len(warnings)} warning(s): " + "; ".join(warnings)
    return verdict, detail


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


def create_application(argv: list[str]):
    """The QApplication with name, organisation, icon and the shipped fonts registered."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.ui import fonts
    from taveer_desktop.ui.main_window import app_icon

    QApplication.setApplicationName(PROGRAM_NAME)
    QApplication.setOrganizationName(ORGANISATION)
    QApplication.setApplicationVersion(__version__)
    QGuiApplication.setDesktopFileName(DESKTOP_FILE_NAME)
    app = QApplication.instance() or QApplication(argv)
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
    try:
        route_qt_messages()
        app = create_application([sys.argv[0], *qt_args])
        reporter.install()
        from taveer_desktop.ui.main_window import MainWindow

        window = MainWindow(project_path=args.project)
        window.show()
    except Exception as error:  # nothing to show a dialog in yet
        log.exception("start-up failed")
        print(f"taveer-desktop: could not start: {error}", file=sys.stderr)
        return EXIT_ERROR

    from PySide6.QtCore import QTimer

    if args.smoke_test:
        QTimer.singleShot(0, lambda: _smoke_test_then_quit(window, args.screenshot))
        QTimer.singleShot(SMOKE_TEST_TIMEOUT_S * 1000, lambda: _smoke_test_timed_out(app))
    elif args.screenshot is not None:
        QTimer.singleShot(500, lambda: save_screenshot(window, args.screenshot))
    status = app.exec()
    log.info("%s exits with status %s", PROGRAM_NAME, status)
    return status


def _smoke_test_then_quit(window, screenshot: Path | None) -> None:
    from PySide6.QtWidgets import QApplication

    try:
        summary = run_smoke_test(window, screenshot)
    except Exception as error:
        log.exception("smoke test failed")
        print(f"taveer-desktop: smoke test failed: {error}", file=sys.stderr)
        QApplication.exit(EXIT_ERROR)
        return
    log.info(summary)
    print(summary, flush=True)
    window.close()
    QApplication.exit(0)


def _smoke_test_timed_out(app) -> None:
    print(
        f"taveer-desktop: smoke test failed: no result after {SMOKE_TEST_TIMEOUT_S} s",
        file=sys.stderr,
    )
    app.exit(EXIT_ERROR)


if __name__ == "__main__":
    sys.exit(main())
