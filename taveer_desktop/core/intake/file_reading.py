"""Reading a file the user named: only regular files, read once, checked unchanged after.

``read_file_bytes`` refuses (``FileRefused``, one sentence naming the file) anything that is
not a regular file before opening it (a FIFO would block forever, a device never ends) and a
file over the size limit; it opens without blocking, reads once, then compares size, time and
identity with those before reading and hashes the open file a second time. A file modified
moments before is looked at again after a short wait (file times are coarse). Any difference
refuses it as "changed while being read". ``shown_name`` makes a file name that is not valid
UTF-8 storable and printable.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time

from taveer_desktop.core.ground.errors import InputError

_READ_CHUNK = 1024 * 1024
# A file modified less than RECENT_NS before it was read may be in the middle of a rewrite whose
# writer is paused (by the scheduler on a busy machine, tens of milliseconds or more): it is
# looked at again SETTLE_S later and refused if it changed meanwhile.
RECENT_NS = 2_000_000_000
SETTLE_S = 0.1


def shown_name(name: str) -> str:
    """A file name as text that can be stored and printed.

    A name that is not valid UTF-8 reaches Python with its odd bytes as lone surrogates, which
    SQLite, JSON files and terminals refuse; those bytes become ``\\xe9``-style escapes.
    """
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


class FileRefused(InputError):
    """A file given by the user cannot be read as it is; ``reason`` says why.

    Reasons: ``missing``, ``folder``, ``not_regular`` (a FIFO, device or socket, refused before
    it is opened), ``too_large``, ``changed`` (it changed while being read), ``unreadable``.
    """

    def __init__(self, message: str, source: str, reason: str):
        super().__init__(message, source)
        self.reason = reason


def _kind_of(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def _same_file(before: os.stat_result, after: os.stat_result) -> bool:
    return (before.st_dev, before.st_ino, before.st_size, before.st_mtime_ns) == (
        after.st_dev,
        after.st_ino,
        after.st_size,
        after.st_mtime_ns,
    )


def _hash_open_file(fd: int, limit: int) -> str:
    digest = hashlib.sha256()
    os.lseek(fd, 0, os.SEEK_SET)
    remaining = limit + 1
    while remaining > 0:
        chunk = os.read(fd, min(_READ_CHUNK, remaining))
        if not chunk:
            break
        digest.update(chunk)
        remaining -= len(chunk)
    return digest.hexdigest()


def require_regular_file(path: str | os.PathLike[str], kind: str = "file") -> None:
    """Refuse (``FileRefused``) anything but an existing regular file, without opening it."""
    source = str(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise FileRefused(f"no such {kind}", source, "missing") from None
    except (OSError, ValueError) as error:
        message = getattr(error, "strerror", None) or str(error)
        raise FileRefused(f"cannot be read ({message})", source, "unreadable") from None
    special = _kind_of(mode)
    if special:
        raise FileRefused(
            f"is a {special}, not a regular file; it was not opened", source, "not_regular"
        )


def read_file_bytes(
    path: str | os.PathLike[str], max_bytes: int | None = None, kind: str = "text file"
) -> bytes:
    """The bytes of a regular file given by the user, read once and checked unchanged.

    Refused (``FileRefused``, one sentence naming the file) before opening: anything that is
    not a regular file (a FIFO would block forever, a device never ends), and a file over
    ``max_bytes``. The file is opened without blocking, read once, then its size, time and
    identity are compared with those before reading and its content is hashed a second time:
    any difference refuses it as "changed while being read".
    """
    source = str(path)
    limit = max_bytes if max_bytes is not None else 1 << 62
    try:
        before = os.stat(path)
    except FileNotFoundError:
        what = "no such file" if kind == "text file" else f"no such {kind}"
        raise FileRefused(what, source, "missing") from None
    except PermissionError:
        raise FileRefused("permission denied", source, "unreadable") from None
    except (OSError, ValueError) as error:
        message = getattr(error, "strerror", None) or str(error)
        raise FileRefused(f"cannot be read ({message})", source, "unreadable") from None
    special = _kind_of(before.st_mode)
    if special == "folder":
        raise FileRefused(f"is a folder, not a {kind}", source, "folder")
    if special:
        raise FileRefused(
            f"is a {special}, not a regular file; it was not opened", source, "not_regular"
        )
    if before.st_size > limit:
        raise FileRefused(f"is larger than the limit of {limit:,} bytes", source, "too_large")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except PermissionError:
        raise FileRefused("permission denied", source, "unreadable") from None
    except OSError as error:
        raise FileRefused(
            f"cannot be read ({error.strerror or error})", source, "unreadable"
        ) from None
    try:
        opened = os.fstat(fd)
        if _kind_of(opened.st_mode) or not _same_file(before, opened):
            raise FileRefused("changed while being read; it was not used", source, "changed")
        chunks = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(_READ_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise FileRefused(f"is larger than the limit of {limit:,} bytes", source, "too_large")
        after = os.fstat(fd)
        try:
            on_disk = os.stat(path)
        except OSError:
            on_disk = None
        unchanged = (
            len(data) == before.st_size
            and _same_file(before, after)
            and on_disk is not None
            and _same_file(before, on_disk)
            and _hash_open_file(fd, limit) == hashlib.sha256(data).hexdigest()
        )
        if unchanged and time.time_ns() - before.st_mtime_ns < RECENT_NS:
            # written moments ago: a writer may be pausing mid-rewrite, so look again after a
            # short wait (costs SETTLE_S only for files saved in the last two seconds)
            time.sleep(SETTLE_S)
            try:
                unchanged = _same_file(before, os.stat(path)) and _same_file(before, os.fstat(fd))
            except OSError:
                unchanged = False
        if not unchanged:
            raise FileRefused("changed while being read; it was not used", source, "changed")
    except OSError as error:
        raise FileRefused(
            f"cannot be read ({error.strerror or error})", source, "unreadable"
        ) from None
    finally:
        os.close(fd)
    return data
