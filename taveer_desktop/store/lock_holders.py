"""Who holds a project file's lock: this process's description, and finding another's.

The holder of a project writes its description (pid, user, host, program, start time) into the
information file beside the file's real path (``project_lock.py``). A refused opener reads it;
on Linux it first asks the kernel which processes hold an ``flock`` on the file
(``/proc/locks``, by device and inode), so that a description is believed only if its process
really holds the lock, and a holder that reached the file through a hard link in another folder
(whose information file lies beside that other name) is still named: its open descriptors
(``/proc/<pid>/fd``, readable for one's own processes) lead to its name and so to its
information file; failing that, the process is described from ``/proc`` alone (its owner and
program; the time since when is unknown).
"""

from __future__ import annotations

import getpass
import json
import os
import socket
import stat
import time
from pathlib import Path

from taveer_desktop.store.records import LockHolder, utc_now

PROC_LOCKS = Path("/proc/locks")
UNKNOWN_SINCE = ""  # said "open since an unknown time" (records.LockHolder.describe)


def this_holder() -> LockHolder:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    return LockHolder(os.getpid(), socket.gethostname(), user, utc_now(), "TAVeer Desktop")


def _small_regular_file(path: Path) -> bytes:
    """The first 4 KiB of ``path`` if it is a regular file (a FIFO, a device or a link put in
    its place is never waited on or followed: ``OSError``)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        return os.read(fd, 4096)
    finally:
        os.close(fd)


def read_holder(lock_path: Path) -> LockHolder | None:
    """Who the information file says holds the project (None if it cannot be read or parsed)."""
    for _attempt in range(3):  # the holder may be writing the file at this very moment
        try:
            info = json.loads(_small_regular_file(Path(lock_path)).decode("utf-8"))
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


def flock_holders(identity: tuple[int, int]) -> list[int] | None:
    """Pids holding an ``flock`` on the file with this (device, inode); None where the kernel
    does not say (no ``/proc/locks``)."""
    try:
        lines = PROC_LOCKS.read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return None
    device, inode = identity
    wanted = f"{os.major(device):02x}:{os.minor(device):02x}:{inode}"
    pids = []
    for line in lines:
        fields = line.split()
        if "->" in fields:  # a waiter, not a holder
            continue
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == wanted:
            pids.append(int(fields[4]))
    return pids


def _names_opened_by(pid: int, identity: tuple[int, int]) -> list[Path]:
    """The names under which process ``pid`` has the file open (its own processes only)."""
    folder = Path(f"/proc/{pid}/fd")
    names = []
    try:
        descriptors = list(folder.iterdir())
    except OSError:
        return []
    for descriptor in descriptors:
        try:
            info = os.stat(descriptor)
            if (info.st_dev, info.st_ino) == identity:
                names.append(Path(os.readlink(descriptor)))
        except OSError:
            continue
    return names


def _from_proc(pid: int) -> LockHolder:
    try:
        import pwd  # POSIX only; /proc/locks exists only on Linux anyway

        user = pwd.getpwuid(os.stat(f"/proc/{pid}").st_uid).pw_name
    except (ImportError, OSError, KeyError):
        user = "unknown"
    try:
        program = Path(f"/proc/{pid}/comm").read_text(encoding="utf-8").strip()
    except OSError:
        program = ""
    return LockHolder(pid, socket.gethostname(), user, UNKNOWN_SINCE, program)


def who_holds(identity: tuple[int, int], store_path: Path, lock_path: Path) -> LockHolder | None:
    """The process holding the file with this identity, as well as it can be told."""
    described = read_holder(lock_path)
    pids = flock_holders(identity)
    if pids is None or not pids:  # the kernel does not say: believe the information file
        return described
    if described is not None and described.pid in pids:
        return described
    for pid in pids:
        for name in _names_opened_by(pid, identity):
            elsewhere = read_holder(name.with_name(name.name + ".lock"))
            if elsewhere is not None and elsewhere.pid == pid:
                return elsewhere
    return _from_proc(pids[0])
