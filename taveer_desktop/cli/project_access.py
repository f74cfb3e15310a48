"""What every project-store command of ``taveer`` shares: ``--json`` and opening the project.

All of them work on ``--project P`` (default: the user's default project). ``case create``,
``population add`` and ``model add`` create the project file if it does not exist yet; the others
need it to exist. Commands that only read open it with ``read_project`` (beside the open
desktop, changing nothing), the others with ``open_project`` (the writer's lock). With
``--json`` each prints one JSON document on stdout (shapes in docs/store.md). Bad input raises
a ``TaveerError`` (one line, exit 2); ``check`` exits 1 when it finds problems. A project whose
integrity check fails opens read-only, with a warning on stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from taveer_desktop.cli.output import shown
from taveer_desktop.paths import default_project_path
from taveer_desktop.store import ProjectLocked, ProjectStore


def json_option(parser: argparse.ArgumentParser, handler) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=handler)


def project_path(args) -> Path:
    return Path(args.project) if args.project else default_project_path()


# Said to a command that writes when another program (the desktop) has the project open.
WRITES = "this command writes"
READERS_BESIDE = (
    "commands that only read, such as `taveer case list`, `case show`, `audit` or `check`, "
    "can run beside it"
)


def writer_refused(locked: ProjectLocked, why_a_writer: str) -> ProjectLocked:
    """The lock's refusal, saying why this command is a writer and which commands can run
    beside the holder (a refusal within this process, the desktop itself, is left as it is)."""
    if locked.holder is not None and locked.holder.pid == os.getpid():
        return locked
    message = f"{locked.plain_message} ({why_a_writer}; {READERS_BESIDE})"
    return ProjectLocked(message, locked.source or "", locked.holder)


@contextmanager
def open_project(args, create: bool = False, verify: bool = True) -> Iterator[ProjectStore]:
    """The project for a command that writes: it takes the project's lock (refused, in one
    line naming the holder, while another program such as the desktop has it open)."""
    path = project_path(args)
    try:
        store = (
            ProjectStore.open_or_create(path) if create else ProjectStore.open(path, verify=verify)
        )
    except ProjectLocked as locked:
        raise writer_refused(locked, WRITES) from None
    with _warned_and_closed(store):
        yield store


@contextmanager
def read_project(args, verify: bool = True) -> Iterator[ProjectStore]:
    """The project for a command that only reads: no lock of a writer is taken and nothing is
    written, so it runs beside the open desktop, reading one consistent snapshot of what was
    committed (store/reading_open.py; the commands are listed in docs/cli.md)."""
    store = ProjectStore.open_for_reading(project_path(args), verify=verify)
    with _warned_and_closed(store):
        yield store


@contextmanager
def _warned_and_closed(store: ProjectStore) -> Iterator[ProjectStore]:
    try:
        report = store.last_integrity_report
        if report is not None and not report.ok:
            print(
                shown(
                    f"taveer: warning: {store.path}: {report.summary()} The project is "
                    f"read-only; run `taveer --project {store.path} check` for details."
                ),
                file=sys.stderr,
            )
        yield store
    finally:
        store.close()
