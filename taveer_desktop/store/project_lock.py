"""One project file, one process: an OS lock on the database file itself, whatever reaches it.

**Keyed on the file, not on its name.** The lock is ``flock`` on a descriptor of the project
file (``msvcrt.locking`` of a byte SQLite never uses, on Windows, untested). Every name of the
file — another spelling of the path, a symbolic link, a hard link in any folder — opens the
same file, so it meets the same lock: a second opener is refused however it named the file.
Two names open at once would mean two ``-wal`` logs (SQLite names the log after the name it
was given), two writers and lost changes; refusing the second opener is what prevents that. A
lock file named by device and inode was the alternative; it was not chosen because a hard link
may live in any folder of the file system, so such a lock file would need one folder that every
user and every name shares, while the database file is the one thing all names do share.

**It never disturbs SQLite.** ``flock`` locks are separate from the POSIX byte-range locks
SQLite takes on the same file (Linux, macOS, BSD; on local file systems — network file systems
are not supported). One care: closing *any* descriptor of a file drops every POSIX lock the
process holds on it, SQLite's included. So a descriptor is never closed here while SQLite
connections of this process may be open on the file: the files this process holds are kept in
a registry, and a second open of one of them in this process is refused before a descriptor
is opened (one opened in a race is kept until the holder releases).

**Who holds it.** The holder writes its pid, user, host, program and start time into
``<file>.lock`` beside the file's real path (symbolic links resolved), for information only:
the lock is on the project file. A refused opener reads that file; on Linux it also finds the
holding process in ``/proc/locks`` (so a holder that reached the file through a hard link in
another folder is named too, see ``lock_holders.py``). The OS drops the lock when the process
ends, even when it is killed; an information file left by a killed holder is overwritten by
the next one and never blocks anyone. On release the information file is removed first.

**The file still under its name.** A project file replaced under its name while it is open
(``cp`` then ``mv`` over it) leaves the holder writing to a file no name reaches: the change
would be acknowledged and lost. ``confirm_still_named`` compares the name's device and inode
with those locked; the store calls it at the start of every write transaction and just before
its commit, and refuses the write in one sentence.

**Readers beside a writer.** A command that only reads takes no lock at all while a writer
holds the file: it reads a snapshot beside it (``reading_open.py``); the CLI tells a refused
writer so (``cli/project_access.py``).

**Shared holders.** ``ProjectLock(path, shared=True)`` takes a shared lock and writes nothing:
the read-only ``taveer check`` uses it, so a check works in a read-only folder and no writer can
change the file while it is checked (a writer is refused, and a check is refused while a writer
has the file open).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import sys
import threading
from pathlib import Path

from taveer_desktop.store.errors import ProjectLocked, StoreError
from taveer_desktop.store.lock_holders import read_holder, this_holder, who_holds

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    # A byte of SQLite's lock page (which holds no data) past the bytes SQLite itself locks
    # (PENDING 0x40000000, RESERVED +1, SHARED +2 … +511).
    _WINDOWS_LOCK_OFFSET = 0x40000000 + 1024

    def _try_lock(fd: int, shared: bool) -> bool:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBRLCK if shared else msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int, shared: bool) -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


Identity = tuple[int, int]  # (device, inode) of the project file

_REGISTRY_LOCK = threading.Lock()
_HELD: dict[Identity, ProjectLock] = {}


def lock_path_for(store_path: Path) -> Path:
    """The holder-information file of a project file (beside its real path)."""
    real = Path(os.path.realpath(store_path))
    return real.with_name(real.name + ".lock")


def _planted(path: Path, info: os.stat_result | None = None) -> str | None:
    """What other than a regular file holds the information file's name (None: nothing or a
    regular file)."""
    try:
        info = info or os.lstat(path)
    except OSError:
        return None
    if stat.S_ISREG(info.st_mode):
        return None
    kinds = (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
    )
    kind = next((word for test, word in kinds if test(info.st_mode)), "a special file")
    return f"there is {kind}"


def _identity(info: os.stat_result) -> Identity:
    return (info.st_dev, info.st_ino)


def held_in_this_process(store_path: Path) -> bool:
    """Whether this process holds the lock of the file ``store_path`` names (any kind)."""
    try:
        identity = _identity(os.stat(store_path))
    except OSError:
        return False
    with _REGISTRY_LOCK:
        return identity in _HELD


class ProjectLock:
    """The lock of one project file, held between ``acquire`` and ``release``."""

    def __init__(self, store_path: Path, shared: bool = False):
        self.store_path = Path(store_path)
        self.path = lock_path_for(self.store_path)
        self.shared = shared
        self._fd: int | None = None
        self._identity: Identity | None = None
        self._info_identity: Identity | None = None
        self._spare_fds: list[int] = []  # descriptors opened in a race, closed on release

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock or raise ``ProjectLocked`` naming the process that has it."""
        if self._fd is not None:
            return
        for _attempt in range(10):
            self._refuse_if_held_here(self._stat_path())
            fd = self._open_file()
            identity = _identity(os.fstat(fd))
            with _REGISTRY_LOCK:
                holder = _HELD.get(identity)
                if holder is not None:  # opened here meanwhile: never close that descriptor
                    holder._spare_fds.append(fd)
                    raise self._locked_error(identity, here=True)
                if not _try_lock(fd, self.shared):
                    os.close(fd)  # safe: no connection of this process is open on the file
                    raise self._locked_error(identity, here=False)
                if _identity(self._stat_path()) != identity:  # replaced under its name
                    _unlock(fd)
                    os.close(fd)
                    continue
                _HELD[identity] = self
                self._fd, self._identity = fd, identity
            if not self.shared:
                self._write_holder()
            return
        raise StoreError("could not be locked: the file keeps being replaced", self.store_path)

    def adopt_new_file(self) -> None:
        """After the locked file was renamed into place (a new project), lock it under its name."""
        assert self._fd is not None
        if not self.shared:
            self._remove_holder_file()
            self.path = lock_path_for(self.store_path)
            self._write_holder()

    def confirm_still_named(self) -> None:
        """Refuse (``StoreError``) when the locked file's name now leads to another file (the
        project was replaced under it, e.g. by ``cp`` then ``mv``): a write would go to the
        file no name reaches any more and be lost."""
        try:
            now = _identity(os.stat(self.store_path))
        except OSError:
            now = None
        if now != self._identity:
            raise StoreError(
                "was replaced or removed on disk while it was open (its name no longer leads to "
                "the file this program locked); the change was not written, so that it is not "
                "lost: close the project and open it again",
                self.store_path,
            )

    def release(self) -> None:
        """Give the lock back. Close every SQLite connection of the file first (see module)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        self._remove_holder_file()
        with contextlib.suppress(OSError):
            _unlock(fd)
        with _REGISTRY_LOCK:
            if self._identity is not None and _HELD.get(self._identity) is self:
                del _HELD[self._identity]
            spare, self._spare_fds = self._spare_fds, []
        for descriptor in (fd, *spare):
            with contextlib.suppress(OSError):
                os.close(descriptor)

    # -- internals ---------------------------------------------------------------------------
    def _stat_path(self) -> os.stat_result:
        try:
            return os.stat(self.store_path)
        except FileNotFoundError:
            raise StoreError("no such project file", self.store_path) from None
        except OSError as error:
            raise StoreError(
                f"cannot be read ({error.strerror or error})", self.store_path
            ) from None

    def _refuse_if_held_here(self, info: os.stat_result) -> None:
        identity = _identity(info)
        with _REGISTRY_LOCK:
            held = identity in _HELD
        if held:
            raise self._locked_error(identity, here=True)

    def _open_file(self) -> int:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            return os.open(self.store_path, flags)
        except OSError as error:
            raise StoreError(
                f"cannot be opened to lock it ({error.strerror or error})", self.store_path
            ) from None

    def _write_holder(self) -> None:
        """Write who holds the file into its information file; on failure (e.g. a full disk)
        give the lock back and leave no information file."""
        holder = this_holder()
        text = json.dumps(
            {
                "pid": holder.pid,
                "host": holder.host,
                "user": holder.user,
                "since_utc": holder.since_utc,
                "program": holder.program,
            }
        ).encode("utf-8")
        # never through a link, never waiting on a FIFO: a name planted there is refused
        flags = (
            os.O_WRONLY
            | os.O_CREAT
            | os.O_TRUNC
            | getattr(os, "O_NOFOLLOW", 0)
            | getattr(os, "O_NONBLOCK", 0)
        )
        try:
            fd = os.open(self.path, flags, 0o644)
        except OSError as error:
            self.release()
            raise self._not_writable(error) from None
        planted = _planted(self.path, os.fstat(fd))
        if planted:
            os.close(fd)
            self.release()
            raise self._not_writable(planted)
        try:
            self._info_identity = _identity(os.fstat(fd))
            while text:  # a short write (a file-size limit) is written on until it fails
                text = text[os.write(fd, text) :]
        except OSError as error:
            os.close(fd)
            self.release()
            raise self._write_error(error) from None
        os.close(fd)

    def _not_writable(self, error: OSError | str) -> StoreError:
        planted = error if isinstance(error, str) else _planted(self.path)
        if planted:
            return StoreError(
                f"cannot be opened because {planted} under the name of its lock file "
                f"{self.path.name}, not a file this program wrote; remove it and open again",
                self.store_path,
            )
        assert isinstance(error, OSError)
        return StoreError(
            f"cannot be opened because its lock file {self.path.name} cannot be created "
            f"({error.strerror or error}); the project must be in a folder you can write to",
            self.store_path,
        )

    def _remove_holder_file(self) -> None:
        if self._info_identity is None:
            return
        with contextlib.suppress(OSError):
            if _identity(os.stat(self.path)) == self._info_identity:
                self.path.unlink()
        self._info_identity = None

    def _write_error(self, error: OSError) -> StoreError:
        if error.errno == errno.ENOSPC:
            reason = "the disk is full"
        elif error.errno == errno.EFBIG:
            reason = "this process may not write files that large: ulimit -f"
        else:
            reason = error.strerror or str(error)
        return StoreError(
            f"cannot be opened because its lock file {self.path.name} cannot be written "
            f"({reason}); nothing was changed",
            self.store_path,
        )

    def _locked_error(self, identity: Identity, here: bool) -> ProjectLocked:
        if here:
            return ProjectLocked(
                "is already open in this program already (under this or another name); "
                "close it there first",
                str(self.store_path),
                read_holder(self.path),
            )
        holder = who_holds(identity, self.store_path, self.path)
        who = "another process (it did not say which)" if holder is None else holder.describe()
        return ProjectLocked(
            f"is already open in {who}; close it there first",
            str(self.store_path),
            holder,
        )
