"""The one place that knows directories: user data, logs, config and the shipped resources.

User directories come from platformdirs (never the working directory, never a hard-coded home
path). ``TAVEER_HOME`` overrides all three user directories at once, which tests and portable
installations use. Resources are found beside the package in a checkout and under
``sys._MEIPASS`` inside a PyInstaller bundle.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "TAVeer Desktop"
APP_AUTHOR = "TAVeer"
PROJECT_SUFFIX = ".taveer"
DEFAULT_PROJECT_NAME = "default" + PROJECT_SUFFIX


def _platformdirs():
    """platformdirs, imported when a user directory is first needed (not for resources, so
    that engine commands start without it)."""
    import platformdirs

    return platformdirs


def _override() -> Path | None:
    value = os.environ.get("TAVEER_HOME")
    return Path(value) if value else None


def data_dir() -> Path:
    """Directory of the default project store and other user data (created on demand)."""
    base = _override()
    path = base / "data" if base else Path(_platformdirs().user_data_dir(APP_NAME, APP_AUTHOR))
    path.mkdir(parents=True, exist_ok=True)
    return path


def log_dir() -> Path:
    """Directory of the rotating log file (created on demand)."""
    base = _override()
    path = base / "logs" if base else Path(_platformdirs().user_log_dir(APP_NAME, APP_AUTHOR))
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    """Directory of user settings (created on demand)."""
    base = _override()
    path = base / "config" if base else Path(_platformdirs().user_config_dir(APP_NAME, APP_AUTHOR))
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_project_path() -> Path:
    """The project store opened when the user has not chosen another one."""
    return data_dir() / DEFAULT_PROJECT_NAME


def resources_dir() -> Path:
    """The shipped ``resources/`` folder, in a checkout or inside a PyInstaller bundle."""
    bundle_root = getattr(sys, "_MEIPASS", None)
    if bundle_root:
        return Path(bundle_root) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource(*parts: str) -> Path:
    """Path of one shipped resource file, e.g. ``resource("lexicon", "ta_lexicon.tsv")``."""
    return resources_dir().joinpath(*parts)
