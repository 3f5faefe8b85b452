"""A copy of a live SQLite records database (``shangrao backup``; docs/web.md, "Backing up a live
database").

:func:`backup_sqlite` copies the database through SQLite's online backup API
(``sqlite3.Connection.backup``), in one step under one read transaction: a consistent snapshot that
includes what the server committed into its WAL, taken while the server goes on writing (in WAL mode
a reader does not block the writer).  The copy is written to a temporary file beside ``dest``,
checked (``PRAGMA integrity_check``) and then renamed to ``dest``, so ``dest`` is whole or absent.

Never copy the database file with ``cp`` while a server runs: the WAL holds the latest commits, and a
process that opens and closes the database file outside SQLite drops SQLite's locks in that process
(:mod:`shangrao.records.owner`).  PostgreSQL: ``pg_dump``.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from urllib.parse import quote as url_quote

from sqlalchemy.engine import make_url

from ..errors import quote
from .store import RecordError, resolve_db

__all__ = ["backup_sqlite"]


def backup_sqlite(db: str | os.PathLike[str] | None, dest: str | os.PathLike[str]) -> int:
    """Copy the SQLite records database ``db`` (path or ``sqlite:///`` URL; default: the CLI's
    database) to the new file ``dest``, while servers and other writers use it.  Returns the number of
    stored games in the copy.

    Raises :class:`RecordError` when ``db`` is not an SQLite file (PostgreSQL: use ``pg_dump``) or
    does not exist, when ``dest`` exists already or is the database itself, or when the copy cannot be
    written or fails its integrity check (then nothing is left at ``dest``)."""
    url = make_url(resolve_db(db))
    if url.get_backend_name() != "sqlite":
        raise RecordError(
            f"shangrao backup copies an SQLite database; for {url.get_backend_name()} use its own tool "
            "(PostgreSQL: pg_dump)"
        )
    database = url.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        raise RecordError("shangrao backup: give the database as a file path or sqlite:///PATH")
    source = Path(database).expanduser().resolve()
    if not source.is_file():
        raise RecordError(f"no database at {quote(str(source))}")
    if not str(dest).strip():
        raise RecordError("give the backup's file name (a new file, e.g. shangrao-copy.sqlite3)")
    target = Path(dest).expanduser().resolve()
    if target == source or (target.exists() and target.samefile(source)):
        raise RecordError(f"{quote(str(dest))} is the database itself; give a new file name")
    if target.is_dir():
        raise RecordError(
            f"{quote(str(dest))} is a directory; give a new file name in it, e.g. "
            f"{quote(str(target / 'shangrao-copy.sqlite3'))}"
        )
    if target.exists():
        raise RecordError(f"{quote(str(dest))} exists; give a new file name (the backup never overwrites)")
    if not target.parent.is_dir():
        raise RecordError(f"{quote(str(target.parent))} is not a directory")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise RecordError(f"cannot write in {quote(str(target.parent))} (permission denied)")
    tmp = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        src = sqlite3.connect(f"file:{url_quote(str(source))}?mode=ro", uri=True, timeout=30)
        try:
            try:
                out = sqlite3.connect(str(tmp))
                out.execute("PRAGMA user_version").fetchone()  # opens (creates) the file now
            except sqlite3.Error as err:
                raise RecordError(f"cannot write {quote(str(dest))}: {err}") from None
            try:
                src.backup(out)  # all pages in one step: one consistent snapshot
                ok = out.execute("PRAGMA integrity_check").fetchone()[0]
                if ok != "ok":
                    raise RecordError(f"the copy failed its integrity check: {ok}")
                tables = {r[0] for r in out.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                games = out.execute("SELECT count(*) FROM games").fetchone()[0] if "games" in tables else 0
            finally:
                out.close()
        finally:
            src.close()
        os.replace(tmp, target)
    except sqlite3.Error as err:
        raise RecordError(f"cannot back up the database: {err}") from None
    except OSError as err:
        raise RecordError(f"cannot write {quote(str(dest))}: {err.strerror or err}") from None
    finally:
        for leftover in (tmp, Path(f"{tmp}-journal"), Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            with contextlib.suppress(OSError):
                leftover.unlink()
    return int(games)
