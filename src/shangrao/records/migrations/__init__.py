"""Schema migrations of the records database (Alembic, batch mode for SQLite).

:func:`prepare` runs when a :class:`~shangrao.records.Store` opens a database for writing
(``shangrao serve``, ``simulate``, ``play`` …):

* an empty database gets today's tables (``create_all``) stamped at :data:`HEAD`;
* a database of the releases before migrations (tables, no ``alembic_version``) is stamped at the
  baseline ``0001`` and upgraded;
* an older revision is upgraded to :data:`HEAD`, each step in one transaction with the last;
* a revision this code does not know (a database written by a newer shangrao) is refused with
  :class:`SchemaError`, as is a database that cannot be upgraded (the message says why).

:func:`check` is what a read-only open does: nothing is changed; only a newer database is refused
(an older one is read as it is).  The revisions are in ``versions/``; ``env.py`` is Alembic's
environment.  ``python -m alembic`` is not needed: everything runs through the library.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.exc import SQLAlchemyError

from ..codec import RecordError

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from sqlalchemy.engine import Connection, Engine

__all__ = ["HEAD", "BASELINE", "SchemaError", "prepare", "check", "revision_of", "upgrade"]

#: the revision this code writes (``versions/``)
HEAD = "0005"
#: the tables of the releases before migrations (``SCHEMA_VERSION`` 1)
BASELINE = "0001"
HERE = Path(__file__).resolve().parent


class SchemaError(RecordError):
    """The records database's schema is newer than this code, or cannot be upgraded (one line, why).

    A :class:`~shangrao.records.RecordError`: a server on read-only storage that cannot upgrade opens the
    database read-only instead (and refuses a newer one there too)."""


def _config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


@lru_cache(maxsize=1)
def _script() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_config())


def _known() -> set[str]:
    return {r.revision for r in _script().walk_revisions()}


def revision_of(conn: Connection) -> str | None:
    """The database's recorded revision: ``alembic_version``; :data:`BASELINE` for tables without it
    (the releases before migrations); None for an empty database."""
    names = set(inspect(conn).get_table_names())
    if "alembic_version" in names:
        rev = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        if rev is not None:
            return str(rev)
    return BASELINE if "games" in names else None


def _too_new(rev: str, where: str) -> SchemaError:
    return SchemaError(
        f"the records database {where} was written by a newer shangrao (schema revision "
        f"{rev}; this one knows up to {HEAD}): upgrade shangrao, or give another --db"
    )


def check(engine: Engine, where: str) -> str | None:
    """The database's revision, read without changing anything; :class:`SchemaError` if newer."""
    try:
        with engine.connect() as conn:
            rev = revision_of(conn)
    except SQLAlchemyError:
        return None  # not readable as a database at all: the first query says so
    if rev is not None and rev != HEAD and rev not in _known():
        raise _too_new(rev, where)
    return rev


def upgrade(conn: Connection, target: str = HEAD) -> None:
    """Run the migrations up to ``target`` on ``conn`` (in its transaction)."""
    from alembic import command

    command.upgrade(_config(conn), target)


def prepare(engine: Engine, where: str, create_all: Callable[[Connection], None]) -> str | None:
    """Bring the database at ``engine`` to :data:`HEAD` (see the module doc); returns the revision it
    had (None: it was empty).  ``create_all(conn)`` makes today's tables.  ``where``: the database as
    messages name it (no password)."""
    from alembic import command
    from alembic.util import CommandError

    with engine.begin() as conn:
        rev = revision_of(conn)
        if rev == HEAD:
            return rev
        if rev is None:
            create_all(conn)
            command.stamp(_config(conn), HEAD)
            return rev
    if rev not in _known():
        raise _too_new(rev, where)
    try:
        with engine.begin() as conn:
            if revision_of(conn) == BASELINE and not inspect(conn).has_table("alembic_version"):
                command.stamp(_config(conn), BASELINE)
            upgrade(conn)
    except (SQLAlchemyError, CommandError) as err:
        why = " ".join(str(getattr(err, "orig", None) or err).split())
        raise SchemaError(
            f"cannot upgrade the records database {where} from schema revision {rev} to {HEAD}: {why}"
        ) from None
    return rev
