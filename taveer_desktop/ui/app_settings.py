"""The desktop's persistent settings (``QSettings`` in an ini file under the config directory).

Besides the window's geometry and splitter state (saved by the window itself) this keeps the
lab's verbal scale for likelihood ratios and the list of recently opened projects. The model of
a case is not a setting: the examiner's choice is stored (and audited) with the case.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from taveer_desktop import paths
from taveer_desktop.core.calibration.verbal_scales import DEFAULT_SCALE, SCALES

SETTINGS_FILE_NAME = "taveer-desktop.ini"
_SCALE_KEY = "reporting/verbal_scale"
MAX_RECENT_PROJECTS = 8
_RECENT_KEY = "projects/recent"


def settings() -> QSettings:
    """The application's settings, in an ini file under the platformdirs config directory."""
    return QSettings(str(paths.config_dir() / SETTINGS_FILE_NAME), QSettings.Format.IniFormat)


def _as_list(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    return [str(item) for item in value]


def verbal_scale_id() -> str:
    """The lab's chosen verbal scale for likelihood ratios (results and reports)."""
    value = settings().value(_SCALE_KEY)
    return str(value) if value in SCALES else DEFAULT_SCALE


def set_verbal_scale_id(scale_id: str) -> None:
    if scale_id not in SCALES:
        raise ValueError(f"unknown verbal scale {scale_id!r}")
    store = settings()
    store.setValue(_SCALE_KEY, scale_id)
    store.sync()


def recent_projects() -> list[Path]:
    """Recently opened projects, the latest first (files that vanished are kept: shown greyed)."""
    return [Path(item) for item in _as_list(settings().value(_RECENT_KEY))]


def remember_project(project: Path) -> None:
    """Put ``project`` at the top of the recent list."""
    absolute = str(Path(project).expanduser().absolute())
    items = [absolute] + [p for p in _as_list(settings().value(_RECENT_KEY)) if p != absolute]
    store = settings()
    store.setValue(_RECENT_KEY, items[:MAX_RECENT_PROJECTS])
    store.sync()


def clear_recent_projects() -> None:
    store = settings()
    store.remove(_RECENT_KEY)
    store.sync()


_FOLDER_KEY = "folders/"


def start_folder(purpose: str) -> str:
    """Where a file dialog for ``purpose`` ("evidence", "models", "reports", …) opens: the
    folder last used for it, else the user's documents folder (never the program's own)."""
    from PySide6.QtCore import QStandardPaths

    last = settings().value(_FOLDER_KEY + purpose)
    if last and Path(str(last)).is_dir():
        return str(last)
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return documents if documents and Path(documents).is_dir() else str(Path.home())


def remember_folder(purpose: str, chosen: Path) -> None:
    """Remember the folder of ``chosen`` (a file, or a folder) for the next ``purpose`` dialog."""
    chosen = Path(chosen)
    folder = chosen if chosen.is_dir() else chosen.parent
    store = settings()
    store.setValue(_FOLDER_KEY + purpose, str(folder))
    store.sync()


_GUIDE_KEY = "guide/dismissed"


def guide_dismissed() -> bool:
    """Whether the examiner hid the first-start guide (it shows until then)."""
    return str(settings().value(_GUIDE_KEY, "false")).lower() == "true"


def dismiss_guide() -> None:
    store = settings()
    store.setValue(_GUIDE_KEY, "true")
    store.sync()


_LAYOUT_KEY = "layout/"


def layout_value(name: str) -> object:
    """A remembered layout choice of the desktop (a splitter's state, a collapsed header)."""
    return settings().value(_LAYOUT_KEY + name)


def remember_layout(name: str, value: object) -> None:
    store = settings()
    store.setValue(_LAYOUT_KEY + name, value)
    store.sync()
