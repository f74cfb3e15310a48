"""One project open by one process: an exclusive lock on ``<project>.lock`` beside the store.

The lock is an OS advisory lock (``flock`` on POSIX, ``msvcrt.locking`` on Windows) held for as
long as the project is open; the OS drops it when the process ends, even when it is killed, so a
stale lock file never blocks anyone. The holder writes its pid, user, host, program and start
time into the file so that a second process can say who has the project open. On release the
file is removed while still locked; a process that locked a file which was removed meanwhile
notices (the path no longer names the file it locked) and tries again.
"""

from __future__ import annotations

import contextlib
import errno
import getpass
import json
import os
import socket
import sys
import time
from pathlib import Path

from taveer_desktop.store.errors import ProjectLocked, StoreError
from taveer_desktop.store.records import LockHolder, utc_now

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    _WINDOWS_LOCK_OFFSET = 1 << 30  # lock a byte far past the text so the text stays readable

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def lock_path_for(store_path: Path) -> Path:
    return Path(store_path).with_name(Path(store_path).name + ".lock")


def _this_holder() -> LockHolder:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    return LockHolder(os.getpid(), socket.gethostname(), user, utc_now(), "TAVeer Desktop")


def read_holder(lock_path: Path) -> LockHolder | None:
    """Who the lock file says holds the project (None if it cannot be read or parsed)."""
    for _attempt in range(3):  # the holder may be writing the file at this very moment
        try:
            info = json.loads(Path(lock_path).read_text(encoding="utf-8"))
            return LockHolder(
                int(info["pid"]),
                str(info["host"]),
                str(info["user"]),
                str(info["since_utc"]),
                str(info.get("program", "")),
            )
        except (OSError, ValueError, KeyError, TypeError):
            time.sleep(0.05)
    return None


class ProjectLock:
    """The exclusive lock of one project file, held between ``acquire`` and ``release``."""

    def __init__(self, store_path: Path):
        self.store_path = Path(store_path)
        self.path = lock_path_for(self.store_path)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock or raise ``ProjectLocked`` naming the process that has it."""
        if self._fd is not None:
            return
        for _attempt in range(10):
            fd = self._open_lock_file()
            if not _try_lock(fd):
                os.close(fd)
                raise self._locked_error()
            if self._still_named_by_path(fd):
                try:
                    self._write_holder(fd)
                except OSError as error:  # e.g. a full disk: give the lock back, leave no file
                    self._abandon(fd)
                    raise self._write_error(error) from None
                self._fd = fd
                return
            os.close(fd)  # the file was removed by its previous holder; lock the new one
        raise StoreError("could not be locked: its lock file keeps changing", self.store_path)

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            if self._still_named_by_path(fd):
                self.path.unlink()
        with contextlib.suppress(OSError):
            _unlock(fd)
        os.close(fd)

    def _abandon(self, fd: int) -> None:
        with contextlib.suppress(OSError):
            if self._still_named_by_path(fd):
                self.path.unlink()
        with contextlib.suppress(OSError):
            _unlock(fd)
        os.close(fd)

    def _write_error(self, error: OSError) -> StoreError:
        full = error.errno == errno.ENOSPC
        reason = "the disk is full" if full else (error.strerror or str(error))
        return StoreError(
            f"cannot be opened because its lock file {self.path.name} cannot be written "
            f"({reason}); nothing was changed",
            self.store_path,
        )

    def _open_lock_file(self) -> int:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise StoreError(
                f"cannot be opened because its lock file {self.path.name} cannot be created "
                f"({error.strerror or error}); the project must be in a folder you can write to",
                self.store_path,
            ) from None

    def _still_named_by_path(self, fd: int) -> bool:
        try:
            on_disk = os.stat(self.path)
        except FileNotFoundError:
            return False
        mine = os.fstat(fd)
        return (on_disk.st_dev, on_disk.st_ino) == (mine.st_dev, mine.st_ino)

    def _write_holder(self, fd: int) -> None:
        holder = _this_holder()
        text = json.dumps(
            {
                "pid": holder.pid,
                "host": holder.host,
                "user": holder.user,
                "since_utc": holder.since_utc,
                "program": holder.program,
            }
        ).encode("utf-8")
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, text)

    def _locked_error(self) -> ProjectLocked:
        holder = read_holder(self.path)
        if holder is None:
            who = "another process (it did not say which)"
        elif holder.pid == os.getpid() and holder.host == socket.gethostname():
            who = "this program already"
        else:
            who = holder.describe()
        return ProjectLocked(
            f"is already open in {who}; close it there first", str(self.store_path), holder
        )
