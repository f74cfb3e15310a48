"""Writing a file so that it is either wholly there or not changed at all.

``replacing(target)`` gives a temporary file beside ``target`` to write; when the block ends
without error the file is flushed to disk (fsync), given the permissions a new file would get
(the umask) and renamed over ``target`` in one step; then the folder is synced (POSIX) so the
rename survives a power cut. If anything fails — the writing, the fsync, the rename — the
temporary file is removed and ``target`` is left as it was; an ``OSError`` becomes one
``FileWriteError`` naming the file: "<target>: cannot be written (<reason>)". Other exceptions
pass through unchanged after the clean-up, so a caller's own check (the PDF's read-back, a
SQLite backup's error) can refuse the file and word it.

Only a regular file (or nothing, or a link, which is replaced, not followed) is ever replaced:
a folder, FIFO, device or socket under the target's name is refused before anything is written
(``check_replaceable``) and again just before the rename — renamed over, a device such as
``/dev/full`` would be swapped for a regular file (as root) and a FIFO a reader waits on would
vanish.

``check_writable`` is the same check and more, made by a command before its work starts (the CLI
does it for every output a command declares): a folder that does not exist or takes no new file,
and an existing file the command must not replace. ``write_bytes_atomically`` and
``write_text_atomically`` are the common cases.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from taveer_desktop.core.ground.errors import TaveerError

TEMP_SUFFIX = ".partial"


class FileWriteError(TaveerError):
    """A file could not be written; whatever was at its name before is unchanged."""


def write_failure(error: OSError, target: str | Path) -> FileWriteError:
    """The one plain message for a file that could not be written."""
    return FileWriteError(f"cannot be written ({error.strerror or error})", target)


def sync_file(path: str | Path) -> None:
    """Flush a written file's content to the disk."""
    with open(path, "rb+") as handle:
        os.fsync(handle.fileno())


def sync_folder(folder: str | Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; Windows cannot open folders for this)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


_SPECIAL = (
    (stat.S_ISDIR, "folder"),
    (stat.S_ISFIFO, "named pipe (FIFO)"),
    (stat.S_ISCHR, "device"),
    (stat.S_ISBLK, "device"),
    (stat.S_ISSOCK, "socket"),
)


def check_replaceable(target: str | Path) -> None:
    """Refuse (``FileWriteError``) a target name held by a folder, FIFO, device or socket."""
    try:
        mode = os.lstat(target).st_mode
    except OSError:
        return  # nothing there (or unreachable: the write itself says why)
    for test, kind in _SPECIAL:
        if test(mode):
            raise FileWriteError(
                f"is a {kind}, not a regular file; it was not replaced", Path(target)
            )


def check_writable(target: str | Path, unless: str | None = None) -> None:
    """Refuse (``FileWriteError``), before any work, an output that could not be written at the
    end: a folder, FIFO, device or socket under its name (``check_replaceable``); with
    ``unless`` (the option that allows replacing, e.g. "--overwrite") an existing file; a folder
    that does not exist, is not a folder or takes no new file (a temporary file is made in it
    and removed, as the write will do)."""
    target = Path(target)
    check_replaceable(target)
    if unless is not None and os.path.lexists(target):
        raise FileWriteError(f"already exists; it is not replaced without {unless}", target)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.exists():
        raise FileWriteError(f"cannot be written: its folder {folder} does not exist", target)
    if not folder.is_dir():
        raise FileWriteError(f"cannot be written: {folder} is not a folder", target)
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=folder)
    except OSError as error:
        raise write_failure(error, target) from None
    os.close(handle)
    with contextlib.suppress(OSError):
        os.unlink(name)


@contextlib.contextmanager
def replacing(target: str | Path) -> Iterator[Path]:
    """A temporary file beside ``target`` that takes its name when the block succeeds."""
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    check_replaceable(target)
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=folder)
        os.close(handle)
    except OSError as error:
        raise write_failure(error, target) from None
    temp = Path(name)
    try:
        yield temp
        sync_file(temp)
        os.chmod(temp, _new_file_mode())
        check_replaceable(target)
        os.replace(temp, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
        raise write_failure(error, target) from None
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
        raise
    with contextlib.suppress(OSError):  # the file is in place; this only makes it durable sooner
        sync_folder(folder)


def write_bytes_atomically(target: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``target`` wholly or not at all; returns ``target``."""
    with replacing(target) as temp:
        temp.write_bytes(data)
    return Path(target)


def write_text_atomically(target: str | Path, text: str) -> Path:
    """Write ``text`` as UTF-8 to ``target`` wholly or not at all; returns ``target``."""
    return write_bytes_atomically(target, text.encode("utf-8"))
