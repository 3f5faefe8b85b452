"""Who plays a database's live tables: one server at a time (issue 25).

Two ``shangrao serve`` on one database would both resume and play the same unfinished tables and
write rows for each other's games (orphan events, unreplayable hands).  :func:`own_live_tables`
takes the database's ownership for as long as a server runs, or raises :class:`StoreBusy`:

* SQLite file: an OS lock (``fcntl.flock`` / ``msvcrt.locking``, by the ``filelock`` package) on the
  sidecar file ``<database>.lock``, and on POSIX a ``flock`` on the database file itself (a hard link
  to it is another path but the same file).  The operating system drops it when the process ends, however
  it ends (killed, crashed): a dead server never leaves the database locked.  The empty
  ``.lock`` file itself stays (removing it would race with a server taking it).
* PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) held on one connection of the
  server's pool for its whole life; the database drops it when that connection ends (a killed
  server's connection is closed by the database when the socket goes).  Advisory locks are per
  database, so two databases on one cluster do not meet.
* An in-memory SQLite database has a single owner by construction; another backend is not
  guarded (docs/web.md).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from urllib.parse import unquote

from sqlalchemy.engine import make_url

from .store import RecordError, Store

__all__ = ["ADVISORY_KEY", "OWNER_CHECK_SECONDS", "Ownership", "StoreBusy", "check_free", "lock_path", "own_live_tables", "store_scrub",
           "write_refusal"]

#: the PostgreSQL advisory-lock key of a records database's live tables: b"shangrao" as a bigint
ADVISORY_KEY = int.from_bytes(b"shangrao", "big")


#: how often a server checks that the connection holding its PostgreSQL lock still answers
OWNER_CHECK_SECONDS = 5.0


class StoreBusy(RecordError):
    """Another running server owns this database's live tables."""


def lock_path(store: Store) -> Path | None:
    """The sidecar lock file of an SQLite file database (``<database>.lock``), None otherwise."""
    url = make_url(store.url)
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database or ""
    if database.startswith("file:"):  # an SQLite URI (uri=true): file:PATH?mode=ro …
        database = unquote(database[5:].split("?", 1)[0])
    if not database or database == ":memory:" or "mode=memory" in (url.database or ""):
        return None
    return Path(database).expanduser().resolve().with_name(Path(database).name + ".lock")


class Ownership:
    """A held ownership; :meth:`release` gives it back (also at exit, by the operating system)."""

    def __init__(self, store: Store, file_lock=None, connection=None, database_fd: int | None = None) -> None:
        self.store = store
        self._file_lock = file_lock
        self._connection = connection
        self._database_fd = database_fd

    @property
    def watched(self) -> bool:
        """Whether the ownership hangs on a database connection that can be lost (PostgreSQL)."""
        return self._connection is not None

    def alive(self) -> bool:
        """Whether the ownership still holds: the lock's connection answers (PostgreSQL; a file lock
        always holds while the process runs).  Blocking: call it in a worker thread."""
        if self._connection is None:
            return True
        from sqlalchemy import text

        try:
            self._connection.execute(text("SELECT 1"))
            self._connection.commit()
            return True
        except Exception:  # the connection is gone, and the session's lock with it
            return False

    def release(self) -> None:
        """Give the ownership back (idempotent; never raises)."""
        if self._database_fd is not None:
            import os

            with contextlib.suppress(OSError):
                os.close(self._database_fd)  # the flock goes with the descriptor
            self._database_fd = None
        if self._file_lock is not None:
            with contextlib.suppress(Exception):
                self._file_lock.release()
            self._file_lock = None
        if self._connection is not None:
            from sqlalchemy import text

            with contextlib.suppress(Exception):
                self._connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": ADVISORY_KEY})
                self._connection.commit()
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = None


def _busy(store: Store) -> StoreBusy:
    return StoreBusy(f"another shangrao serve is playing the tables of {store._safe_url()}; "
                     "stop it first, or give this one another --db")


def _flock_database(database: Path) -> int | None:
    """An exclusive ``flock`` on the database file itself, held by the returned descriptor (POSIX;
    None elsewhere or when the file is not there).  The sidecar ``.lock`` is named by the path, so a
    hard link to the same file (another name, the same inode) would get a lock of its own; a flock
    is the inode's.  SQLite's own locks are ``fcntl`` byte-range locks, which a flock does not meet
    (Linux, BSD, macOS).  Raises :class:`StoreBusy` when another process holds it."""
    try:
        import fcntl
    except ImportError:  # Windows: the sidecar lock alone
        return None
    import os

    try:
        fd = os.open(database, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise StoreBusy("busy") from None
    return fd


def own_live_tables(store: Store) -> Ownership:
    """Take ``store``'s live tables for this process until :meth:`Ownership.release`.

    Raises :class:`StoreBusy` when another server holds them, :class:`RecordError` when the lock
    cannot be taken at all (the lock file cannot be created, the database is unreachable)."""
    path = lock_path(store)
    if path is not None:
        from filelock import FileLock, Timeout

        lock = FileLock(str(path), timeout=0)
        try:
            lock.acquire()
        except Timeout:
            raise _busy(store) from None
        except OSError as err:
            raise RecordError(f"cannot create the lock file next to the database: {err.strerror or err}") from None
        try:
            db_fd = _flock_database(path.with_name(path.name[: -len(".lock")]))
        except StoreBusy:
            lock.release()
            raise _busy(store) from None
        return Ownership(store, file_lock=lock, database_fd=db_fd)
    if make_url(store.url).get_backend_name() == "postgresql":
        from sqlalchemy import text
        from sqlalchemy.exc import SQLAlchemyError

        try:
            conn = store.engine.connect()
            got = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": ADVISORY_KEY}).scalar()
            conn.commit()  # the lock is the session's: no transaction is left open
        except SQLAlchemyError as err:
            raise RecordError(f"cannot reach the records database {store._safe_url()}: "
                              f"{' '.join(str(getattr(err, 'orig', None) or err).split())[:200]}") from None
        if not got:
            conn.close()
            raise _busy(store)
        return Ownership(store, connection=conn)
    return Ownership(store)


def check_free(store: Store) -> None:
    """Raise :class:`StoreBusy` if another server owns ``store``'s live tables now (takes the
    ownership and gives it back at once: ``shangrao serve`` says so before it listens)."""
    own_live_tables(store).release()


def write_refusal(store: Store) -> str | None:
    """Why ``store`` cannot be written, in words without its URL (``"attempt to write a readonly
    database"`` …), or None when it can: a write that changes nothing (``UPDATE games … WHERE
    1 = 0``), rolled back — SQLite opened ``mode=ro`` or on a read-only medium, a PostgreSQL
    read-only transaction or a role without the right refuse it."""
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    try:
        with store.engine.connect() as conn:
            conn.execute(text("UPDATE games SET id = id WHERE 1 = 0"))
            conn.rollback()
    except SQLAlchemyError as err:
        words = " ".join(str(getattr(err, "orig", None) or err).split())
        return store_scrub(store, words)[:160] or type(err).__name__
    return None


def store_scrub(store: Store, text_: str) -> str:
    """``text_`` without the database's URL or path."""
    for secret in sorted({store.url, store._safe_url(), str(make_url(store.url).database or "")}, key=len,
                         reverse=True):
        if secret and len(secret) > 2:
            text_ = text_.replace(secret, "<database>")
    return text_
