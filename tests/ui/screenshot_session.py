"""What the screenshot scripts share (not a test): pumping events, waiting, grabbing, a window.

``ScreenshotSession(app, out)`` runs the Qt event loop for a while (``pump``), until a condition
holds (``wait``, which gives up with ``TimeoutError``), grabs a widget as the user sees it into
``out`` (``shoot``, the picture's name ending in the session's suffix, e.g. ``-150``) and opens
the desktop on a fresh project with the demo seeded as at a first start (``first_start_window``,
at the session's window size if one was given). The ``take_*screenshots.py`` scripts use it;
``options()`` reads their common arguments ``OUT [--suffix=-150] [--size=1366x768]``, and
``tests/ui/take_all_screenshots.sh`` takes the whole set.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path


class ScreenshotSession:
    """The event loop of ``app`` driven step by step, and pictures saved into ``out``."""

    def __init__(
        self,
        app,
        out: Path,
        timeout: float = 120,
        suffix: str = "",
        size: tuple[int, int] | None = None,
    ) -> None:
        self.app, self.out, self.timeout = app, out, timeout
        self.suffix, self.size = suffix, size
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
        """Let ``widget`` settle, then save it as ``out/name`` (with the suffix); the path."""
        self.pump(settle)
        stem, dot, ext = name.rpartition(".")
        path = self.out / f"{stem}{self.suffix}{dot}{ext}"
        if not widget.grab().save(str(path)):
            raise OSError(f"could not save {path}")
        print("saved", path, widget.width(), "x", widget.height())
        return path

    def first_start_window(self, project: Path):
        """The main window on a new project at ``project``, shown once the demo is seeded."""
        from taveer_desktop.ui.main_window import MainWindow

        window = MainWindow(project_path=project, seed_demo=True, persist_settings=False)
        ready = []
        window.project_ready.connect(lambda: ready.append(1))
        if self.size is not None:  # a smaller screen than the first-start size (1366 × 768)
            window.resize(*self.size)
        window.show()
        self.wait(lambda: ready)
        return window


def options() -> tuple[Path, str, tuple[int, int] | None]:
    """``OUT [--suffix=S] [--size=WxH]`` from the command line: folder, suffix, window size."""
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    named = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--"))
    size = tuple(int(v) for v in named["size"].split("x")) if "size" in named else None
    return Path(args[0] if args else "screenshots"), named.get("suffix", ""), size
