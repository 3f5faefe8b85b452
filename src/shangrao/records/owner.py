"""Who plays a database's live tables: one server at a time (issue 25).

Two ``shangrao serve`` on one database would both resume and play the same unfinished tables and
write rows for each other's games (orphan events, unreplayable hands).  :func:`own_live_tables`
takes the database's ownership for as long as a server runs, or raises :class:`StoreBusy`:

* SQLite file: OS locks (``fcntl.flock`` / ``msvcrt.locking``, by the ``filelock`` package) on two
  files *beside* the database, never on the database itself:

  - the sidecar ``<database>.lock`` (named by the path; next to the database, so every user and
    every machine that reaches the file through that path meets it);
  - ``<tmp>/shangrao-locks-<uid>/<device>-<inode>.lock``, named by the database file's device and
    inode (read by ``os.stat``, which opens nothing): a hard link to the database is another path
    but the same inode, so a second server on it meets this lock.

  The operating system drops both when the process ends, however it ends (killed, crashed): a dead
  server never leaves the database locked.  The empty lock files stay (removing one would race with
  a server taking it).

  Why not a lock on the database file itself (what issue 25 did): on POSIX, closing *any*
  descriptor of a file drops *all* of the process's ``fcntl`` locks on it, SQLite's included.  A
  server that opened and closed its database outside SQLite (to take or test a ``flock``) lost the
  shared lock its WAL connections hold; the next outside connection to close (``shangrao
  simulate``, the ``sqlite3`` shell, a backup script) then believed it was the last one,
  checkpointed and deleted the ``-wal`` file, and the server went on committing into the deleted
  file: invisible to everyone else and gone at its restart (issue 34;
  ``tests/records/test_live_writers.py`` reproduces it).  So no code path of a process that may
  hold SQLite connections opens the database file except through SQLite.  SQLite's own locking
  cannot say "one server": a lock that keeps a second server out would keep ``simulate`` and the
  ``sqlite3`` shell out too.  A row in the database would outlive a killed server.

  The trade: the inode lock lives in a per-user temporary directory, so two servers of *different*
  users on two hard links of one file, or in two systemd services with ``PrivateTmp``, do not meet
  it (they still meet ``<database>.lock`` when they use the same path).
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
from typing import TYPE_CHECKING
from urllib.parse import unquote

from sqlalchemy.engine import make_url

from .store import RecordError, Store

if TYPE_CHECKING:
    from filelock import FileLock
    from sqlalchemy.engine import Connection

__all__ = [
    "ADVISORY_KEY",
    "OWNER_CHECK_SECONDS",
    "Ownership",
    "StoreBusy",
    "check_free",
    "inode_lock_path",
    "lock_path",
    "own_live_tables",
    "store_scrub",
    "write_refusal",
]

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

    def __init__(
        self, store: Store, file_locks: list[FileLock] | None = None, connection: Connection | None = None
    ) -> None:
        self.store = store
        self._file_locks = list(file_locks or [])
        self._connection = connection

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
        while self._file_locks:  # (lock files beside the database: closing them touches no lock of SQLite's)
            with contextlib.suppress(Exception):
                self._file_locks.pop().release()
        if self._connection is not None:
            from sqlalchemy import text

            with contextlib.suppress(Exception):
                self._connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": ADVISORY_KEY})
                self._connection.commit()
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = None


def _busy(store: Store) -> StoreBusy:
    return StoreBusy(
        f"another shangrao serve is playing the tables of {store._safe_url()}; "
        "stop it first, or give this one another --db"
    )


def inode_lock_path(database: Path) -> Path | None:
    """The lock file named by ``database``'s device and inode (the same for every hard link to it):
    ``<tmp>/shangrao-locks-<uid>/<device>-<inode>.lock``; None when the file is not there.  Only
    ``os.stat``: the database file is never opened here."""
    import os
    import tempfile

    try:
        st = os.stat(database)
    except OSError:
        return None
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"shangrao-locks-{uid}" / f"{st.st_dev}-{st.st_ino}.lock"


def _take(path: Path, store: Store, taken: list[FileLock], private: bool = False) -> None:
    """Take the file lock ``path`` (appended to ``taken``); busy: give back ``taken`` and raise
    :class:`StoreBusy`; the file cannot be made: :class:`RecordError` (``taken`` kept).  private: the
    folder is this user's own (made 0700; one that belongs to another user is refused)."""
    import os

    from filelock import FileLock, Timeout

    lock = FileLock(str(path), timeout=0)
    try:
        if private:
            path.parent.mkdir(mode=0o700, exist_ok=True)
        if private and hasattr(os, "getuid") and path.parent.stat().st_uid != os.getuid():  # not ours: anyone's locks
            raise OSError(f"{path.parent} belongs to another user")
        lock.acquire()
    except Timeout:
        _give_back(taken)
        raise _busy(store) from None
    except OSError as err:
        raise RecordError(f"cannot create the lock file {path.name}: {err.strerror or err}") from None
    taken.append(lock)


def _give_back(locks: list[FileLock]) -> None:
    while locks:
        with contextlib.suppress(Exception):
            locks.pop().release()


def own_live_tables(store: Store) -> Ownership:
    """Take ``store``'s live tables for this process until :meth:`Ownership.release`.

    Raises :class:`StoreBusy` when another server holds them, :class:`RecordError` when the lock
    cannot be taken at all (the lock file cannot be created, the database is unreachable)."""
    path = lock_path(store)
    if path is not None:
        taken: list[FileLock] = []
        try:
            _take(path, store, taken)
        except StoreBusy:
            raise
        except RecordError as err:
            raise RecordError(
                f"cannot create the lock file next to the database: {err.args[0].split(': ', 1)[-1]}"
            ) from None
        by_inode = inode_lock_path(path.with_name(path.name[: -len(".lock")]))
        if by_inode is not None:
            try:
                _take(by_inode, store, taken, private=True)
            except StoreBusy:
                raise
            except RecordError as err:  # no private temporary directory: the path's lock alone
                import logging

                logging.getLogger("shangrao.records").warning("%s; hard links to the database are not guarded", err)
        return Ownership(store, file_locks=taken)
    if make_url(store.url).get_backend_name() == "postgresql":
        from sqlalchemy import text
        from sqlalchemy.exc import SQLAlchemyError

        try:
            conn = store.engine.connect()
            got = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": ADVISORY_KEY}).scalar()
            conn.commit()  # the lock is the session's: no transaction is left open
        except SQLAlchemyError as err:
            raise RecordError(
                f"cannot reach the records database {store._safe_url()}: "
                f"{' '.join(str(getattr(err, 'orig', None) or err).split())[:200]}"
            ) from None
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
    for secret in sorted(
        {store.url, store._safe_url(), str(make_url(store.url).database or "")}, key=len, reverse=True
    ):
        if secret and len(secret) > 2:
            text_ = text_.replace(secret, "<database>")
    return text_
