"""What the screenshot scripts share (not a test): pumping events, waiting, grabbing, a window.

``ScreenshotSession(app, out)`` runs the Qt event loop for a while (``pump``), until a condition
holds (``wait``, which gives up with ``TimeoutError``), grabs a widget as the user sees it into
``out`` (``shoot``) and opens the desktop on a fresh project with the demo seeded as at a first
start (``first_start_window``). The three ``take_*screenshots.py`` scripts use it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path


class ScreenshotSession:
    """The event loop of ``app`` driven step by step, and pictures saved into ``out``."""

    def __init__(self, app, out: Path, timeout: float = 120) -> None:
        self.app, self.out, self.timeout = app, out, timeout
        out.mkdir(parents=True, exist_ok=True)

    def pump(self, seconds: float = 0.3) -> None:
        """Process events for ``seconds`` (layouts settle, timers fire, jobs report back)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.app.processEvents()
            time.sleep(0.01)

    def wait(self, condition: Callable[[], object], timeout: float | None = None) -> None:
        """Process events until ``condition()`` is true; ``TimeoutError`` if it never is."""
        end = time.monotonic() + (self.timeout if timeout is None else timeout)
        while not condition():
            if time.monotonic() > end:
                raise TimeoutError("screenshot step timed out")
            self.pump(0.05)

    def shoot(self, widget, name: str, settle: float = 0.5) -> Path:
        """Let ``widget`` settle, then save it as ``out/name``; returns the path."""
        self.pump(settle)
        path = self.out / name
        if not widget.grab().save(str(path)):
            raise OSError(f"could not save {path}")
        print("saved", path, widget.width(), "x", widget.height())
        return path

    def first_start_window(self, project: Path, size: tuple[int, int] | None = None):
        """The main window on a new project at ``project``, shown once the demo is seeded."""
        from taveer_desktop.ui.main_window import MainWindow

        window = MainWindow(project_path=project, seed_demo=True, persist_settings=False)
        ready = []
        window.project_ready.connect(lambda: ready.append(1))
        if size is not None:  # a smaller screen than the first-start size (e.g. 1366 × 768)
            window.resize(*size)
        window.show()
        self.wait(lambda: ready)
        return window
