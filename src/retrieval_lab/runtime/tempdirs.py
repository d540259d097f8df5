"""Temporary folders that a killed process cannot leave behind, in memory where there is room.

Notebook 16's store keeps a Qdrant Edge shard in a temporary folder. Two facts of the machine, not
of retrieval, shape where that folder goes (its deep dive "why the temporary folder is in
memory" measures them):

- the engine syncs every file it creates to disk (``fsync``): on a disk that waits for the disk,
  in a folder held in memory (Linux's ``/dev/shm``) it costs nothing. ``RAM_FOLDER`` is
  ``/dev/shm`` when it is writable with a gigabyte free (Docker gives a container's 64 MB);
- a process that is killed (a kernel stopped at once) deletes nothing. Each folder is named after
  its process (``<prefix>-<pid>-<random>``), and ``process_folder`` first deletes the folders of
  processes that are gone.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def roomy(folder: str) -> bool:
    """Whether ``folder`` is writable, with a gigabyte free."""
    try:
        stat = os.statvfs(folder)
    except OSError:
        return False
    return os.access(folder, os.W_OK) and stat.f_bavail * stat.f_frsize >= 2**30


#: A folder held in memory where there is room, else None (the system's temporary folder).
RAM_FOLDER = "/dev/shm" if roomy("/dev/shm") else None


def running(pid: int) -> bool:
    """Whether a process with this id still runs (one of another user counts too)."""
    try:
        os.kill(pid, 0)  # signal 0 sends nothing: it only asks
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def process_folder(prefix: str) -> tempfile.TemporaryDirectory:
    """A new temporary folder named after this process, in memory where there is room, after
    deleting the folders of ``prefix`` whose processes are gone."""
    parent = Path(RAM_FOLDER or tempfile.gettempdir())
    for old in parent.glob(f"{prefix}-*-*"):
        pid = old.name[len(prefix) + 1:].split("-")[0]
        if pid.isdigit() and not running(int(pid)):
            shutil.rmtree(old, ignore_errors=True)
    return tempfile.TemporaryDirectory(prefix=f"{prefix}-{os.getpid()}-", dir=parent)
