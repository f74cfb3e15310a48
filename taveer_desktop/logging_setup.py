"""Application logging: one rotating log file in the platformdirs log directory."""

from __future__ import annotations

import logging
import logging.handlers

from taveer_desktop import paths

LOG_FILE_NAME = "taveer.log"
MAX_LOG_BYTES = 2 * 1024 * 1024
BACKUP_COUNT = 5


def configure_logging(level: int = logging.INFO) -> logging.Handler:
    """Attach a rotating file handler to the root logger (idempotent) and return it."""
    root = logging.getLogger()
    for handler in root.handlers:
        if getattr(handler, "_taveer_handler", False):
            return handler
    handler = logging.handlers.RotatingFileHandler(
        paths.log_dir() / LOG_FILE_NAME,
        maxBytes=MAX_LOG_BYTES,
        backupCount=BACKUP_COUNT,
        encoding="utf-8",
    )
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s")
    )
    handler._taveer_handler = True  # type: ignore[attr-defined]  # marks the handler as ours
    root.addHandler(handler)
    root.setLevel(level)
    return handler
